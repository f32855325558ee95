// Apple's UIKit re-exports Foundation: a file that imports only UIKit (a colour or date helper shared with a widget)
// sees URL, Date and Data, as it does on a device.
@_exported import Foundation
