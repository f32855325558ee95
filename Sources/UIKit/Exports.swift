// Apple's UIKit re-exports Foundation and Core Graphics: a file that imports only UIKit (a colour or date helper
// shared with a widget) sees URL, Date and Data, `CGAffineTransform` and `CGImage`, as it does on a device.
@_exported import CoreGraphics
@_exported import Foundation
