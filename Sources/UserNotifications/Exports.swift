// Apple's frameworks re-export Foundation: a file that imports only this module sees Date, URL, NSError,
// Measurement, as it does on a device.
@_exported import Foundation
// Not FoundationNetworking, which Foundation on a device includes (URLSession, URLRequest): importing it would link it,
// and with it libcurl and TLS, into every service at start; DeviceNetwork loads it before the first delivery instead.
// A team's project built by `lockstep build` sees it through its shim; a package of its own imports it.
