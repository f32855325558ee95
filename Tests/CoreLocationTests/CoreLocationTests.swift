import CoreLocation
import Foundation
import Testing

/// Core Location's values as apps store them, and the manager of a device whose location services are off.
@Suite struct CoreLocationTests {
    @Test func distanceIsTheGreatCircleOnTheMeanEarth() {
        // Apple Park to Infinite Loop: 2.1 km; London to Paris: about 343.5 km (both within Apple's figures by 0.5 %).
        let london = CLLocation(latitude: 51.5074, longitude: -0.1278), paris = CLLocation(latitude: 48.8566, longitude: 2.3522)
        #expect(abs(london.distance(from: paris) - 343_550) < 1_000)
        #expect(london.distance(from: london) == 0)
        #expect(abs(london.distance(from: paris) - paris.distance(from: london)) < 0.001)
    }

    @Test func locationsAreObjectsAndCoordinatesArePlainValues() {
        let a = CLLocation(latitude: 1, longitude: 2), b = CLLocation(latitude: 1, longitude: 2)
        // NSObject identity, as Apple's: two locations at one place are two objects.
        #expect(a != b && a == a)
        #expect(Set([a, b, a]).count == 2)
        #expect(CLLocationCoordinate2DIsValid(a.coordinate))
        #expect(!CLLocationCoordinate2DIsValid(kCLLocationCoordinate2DInvalid))
    }

    @MainActor final class Listener: CLLocationManagerDelegate {
        var errors: [CLError] = []
        var authorizationChanges = 0
        func locationManager(_ manager: CLLocationManager, didFailWithError error: Error) { errors.append(error as! CLError) }
        func locationManagerDidChangeAuthorization(_ manager: CLLocationManager) { authorizationChanges += 1 }
    }

    @Test @MainActor func aRequestFailsAsADeniedAppsDoes() async {
        let manager = CLLocationManager()
        let listener = Listener()
        manager.delegate = listener
        manager.requestWhenInUseAuthorization()
        manager.requestLocation()
        #expect(listener.errors.isEmpty, "the delegate is told later, on the main queue, as on iOS")
        // The main queue runs while the test waits (bounded).
        for _ in 0..<100 where listener.errors.isEmpty { await Task.yield() }
        #expect(listener.errors == [CLError(.denied)])
        #expect(listener.authorizationChanges == 1)
        #expect(manager.authorizationStatus == .denied && manager.location == nil && !CLLocationManager.locationServicesEnabled())
    }
}
