import CoreLocation
import UniformTypeIdentifiers

/// Where and when the count was last taken, in a file that imports neither Foundation nor SwiftUI.
struct TallyPlace {
    var coordinate: CLLocationCoordinate2D
    var taken: Date
    var export: UTType = .json
}
