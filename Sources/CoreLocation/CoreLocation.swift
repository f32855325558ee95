import Foundation

// Core Location's value types as apps store them (a parking spot's coordinate, a city's location), and a location
// manager for a simulated device whose location services are off: no process gets a location, and every request
// fails as iOS fails it when the user has denied access (the error `kCLErrorDenied`).

public typealias CLLocationDegrees = Double
public typealias CLLocationDistance = Double
public typealias CLLocationAccuracy = Double
public typealias CLLocationSpeed = Double
public typealias CLLocationDirection = Double

/// A latitude and longitude. Like Apple's (a C struct), it is neither `Equatable` nor `Hashable`, so a team's own
/// conformance still builds.
public struct CLLocationCoordinate2D: Sendable {
    public var latitude: CLLocationDegrees
    public var longitude: CLLocationDegrees

    public init() { self.init(latitude: 0, longitude: 0) }
    public init(latitude: CLLocationDegrees, longitude: CLLocationDegrees) {
        self.latitude = latitude
        self.longitude = longitude
    }
}

/// Core Location's invalid coordinate.
public let kCLLocationCoordinate2DInvalid = CLLocationCoordinate2D(latitude: -180, longitude: -180)

/// Whether the coordinate is on the globe: latitude in −90…90, longitude in −180…180.
public func CLLocationCoordinate2DIsValid(_ coordinate: CLLocationCoordinate2D) -> Bool {
    (-90...90).contains(coordinate.latitude) && (-180...180).contains(coordinate.longitude)
}

public func CLLocationCoordinate2DMake(_ latitude: CLLocationDegrees, _ longitude: CLLocationDegrees) -> CLLocationCoordinate2D {
    CLLocationCoordinate2D(latitude: latitude, longitude: longitude)
}

/// A location: a coordinate with its altitude, accuracy and time. An `NSObject`, so equality and hashing are by
/// identity, as Apple's are.
open class CLLocation: NSObject, @unchecked Sendable {  // @unchecked: immutable after init.
    public let coordinate: CLLocationCoordinate2D
    public let altitude: CLLocationDistance
    public let horizontalAccuracy: CLLocationAccuracy
    public let verticalAccuracy: CLLocationAccuracy
    public let course: CLLocationDirection
    public let speed: CLLocationSpeed
    public let timestamp: Date

    public convenience init(latitude: CLLocationDegrees, longitude: CLLocationDegrees) {
        self.init(coordinate: CLLocationCoordinate2D(latitude: latitude, longitude: longitude), altitude: 0, horizontalAccuracy: 0,
                  verticalAccuracy: -1, timestamp: Date())
    }

    public init(coordinate: CLLocationCoordinate2D, altitude: CLLocationDistance, horizontalAccuracy: CLLocationAccuracy,
                verticalAccuracy: CLLocationAccuracy, course: CLLocationDirection = -1, speed: CLLocationSpeed = -1, timestamp: Date) {
        self.coordinate = coordinate
        self.altitude = altitude
        self.horizontalAccuracy = horizontalAccuracy
        self.verticalAccuracy = verticalAccuracy
        self.course = course
        self.speed = speed
        self.timestamp = timestamp
    }

    /// The great-circle distance in meters, on a sphere of the Earth's mean radius (6,371,008.8 m, IUGG): within
    /// about 0.5 % of Apple's ellipsoidal figure.
    public func distance(from location: CLLocation) -> CLLocationDistance {
        let radius = 6_371_008.8
        let (φ1, φ2) = (coordinate.latitude * .pi / 180, location.coordinate.latitude * .pi / 180)
        let Δφ = φ2 - φ1, Δλ = (location.coordinate.longitude - coordinate.longitude) * .pi / 180
        let a = sin(Δφ / 2) * sin(Δφ / 2) + cos(φ1) * cos(φ2) * sin(Δλ / 2) * sin(Δλ / 2)
        return 2 * radius * atan2(a.squareRoot(), (1 - a).squareRoot())
    }

    open override var description: String {
        "<\(coordinate.latitude),\(coordinate.longitude)> +/- \(horizontalAccuracy)m"
    }
}

/// Whether the app may use location services.
public enum CLAuthorizationStatus: Int32, Sendable {
    case notDetermined = 0, restricted, denied, authorizedAlways, authorizedWhenInUse
}

/// Core Location's errors.
public struct CLError: Error, Sendable, Equatable {
    public enum Code: Int, Sendable {
        case locationUnknown = 0, denied, network, headingFailure
    }
    public let code: Code
    public init(_ code: Code) { self.code = code }
    public static let locationUnknown = Code.locationUnknown
    public static let denied = Code.denied
}

@MainActor @preconcurrency
public protocol CLLocationManagerDelegate: AnyObject {
    func locationManager(_ manager: CLLocationManager, didUpdateLocations locations: [CLLocation])
    func locationManager(_ manager: CLLocationManager, didFailWithError error: Error)
    func locationManagerDidChangeAuthorization(_ manager: CLLocationManager)
}

extension CLLocationManagerDelegate {
    public func locationManager(_ manager: CLLocationManager, didUpdateLocations locations: [CLLocation]) {}
    public func locationManager(_ manager: CLLocationManager, didFailWithError error: Error) {}
    public func locationManagerDidChangeAuthorization(_ manager: CLLocationManager) {}
}

/// The location manager of a device whose location services are off: authorization is `.denied`, there is never a
/// `location`, and a request for one fails on the main queue with `CLError(.denied)`, as iOS reports a denied app.
@MainActor @preconcurrency
open class CLLocationManager: NSObject {
    public weak var delegate: CLLocationManagerDelegate?
    public var desiredAccuracy: CLLocationAccuracy = kCLLocationAccuracyBest
    public var distanceFilter: CLLocationDistance = kCLDistanceFilterNone
    public var location: CLLocation? { nil }
    public var authorizationStatus: CLAuthorizationStatus { .denied }
    public nonisolated static func locationServicesEnabled() -> Bool { false }

    public override init() { super.init() }

    public func requestWhenInUseAuthorization() { tellAuthorization() }
    public func requestAlwaysAuthorization() { tellAuthorization() }
    public func requestLocation() { fail() }
    public func startUpdatingLocation() { fail() }
    public func stopUpdatingLocation() {}

    private func tellAuthorization() {
        DispatchQueue.main.async { MainActor.assumeIsolated { self.delegate?.locationManagerDidChangeAuthorization(self) } }
    }

    private func fail() {
        DispatchQueue.main.async { MainActor.assumeIsolated { self.delegate?.locationManager(self, didFailWithError: CLError(.denied)) } }
    }
}

public let kCLLocationAccuracyBest: CLLocationAccuracy = -1
public let kCLLocationAccuracyNearestTenMeters: CLLocationAccuracy = 10
public let kCLLocationAccuracyHundredMeters: CLLocationAccuracy = 100
public let kCLLocationAccuracyKilometer: CLLocationAccuracy = 1000
public let kCLDistanceFilterNone: CLLocationDistance = -1
