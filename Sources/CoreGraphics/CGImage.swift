import Foundation

/// Core Graphics' bitmap image, as SwiftUI's `ImageRenderer` and `Image(_:scale:label:)` hand it around. Lockstep
/// draws vectors, so a `CGImage` holds the picture it was made from (PNG, JPEG or an SVG drawing) and its size in
/// pixels; it has no pixel buffer to read.
public final class CGImage: @unchecked Sendable {  // @unchecked: immutable after init.
    /// PNG, JPEG or SVG bytes.
    package let data: Data
    public let width: Int
    public let height: Int

    package init(data: Data, width: Int, height: Int) {
        self.data = data
        self.width = width
        self.height = height
    }
}
