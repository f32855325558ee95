// LockstepFoundation re-exports Foundation as Apple's frameworks do, so the Linux shim's
// `@_exported import LockstepFoundation` leaves every file of the module seeing Foundation.
@_exported import Foundation
