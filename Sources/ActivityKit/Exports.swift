// Apple's frameworks re-export Foundation: a file that imports only this module sees Date, URL, NSError,
// Measurement, as it does on a device.
@_exported import Foundation
