// Apple's CoreLocation re-exports Foundation: a file that imports only this module sees Date, URL and Measurement, as it
// does on a device.
@_exported import Foundation
