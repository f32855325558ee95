// Swift Testing declares a cross-import overlay for UIKit (`Testing.swiftcrossimport/UIKit.swiftoverlay`): a file that
// imports both Testing and a module named UIKit makes the compiler load `_Testing_UIKit`, which on Apple's systems adds
// attachments for UIKit's images. Lockstep's UIKit has that name, so a test target of a team's (or Lockstep's own) that
// imports SwiftUI and Testing needs this module to exist. It adds nothing.
