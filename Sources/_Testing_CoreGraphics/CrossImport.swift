// Swift Testing declares a cross-import overlay for CoreGraphics (`Testing.swiftcrossimport/CoreGraphics.swiftoverlay`),
// as for UIKit (see `_Testing_UIKit`): a file importing Testing and Lockstep's CoreGraphics makes the compiler load
// `_Testing_CoreGraphics`. It adds nothing.
