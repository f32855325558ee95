// Apple's frameworks re-export Foundation: a file that imports only this module sees Date, URL, NSError,
// Measurement, as it does on a device.
@_exported import Foundation
// Foundation on a device includes URLSession and URLRequest; on Linux they are FoundationNetworking's, which
// `Data(contentsOf:)` also needs for an https:// URL (DeviceNetwork).
@_exported import FoundationNetworking
