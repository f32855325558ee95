// UIKit re-exports Core Graphics, as Apple's does: a file importing UIKit names `CGAffineTransform` and `CGImage`.
@_exported import CoreGraphics
