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

extension UIImage {
    /// The image's picture, at its pixel size.
    public var cgImage: CGImage? {
        guard let data else { return nil }
        return CGImage(data: data, width: Int((size.width * scale).rounded()), height: Int((size.height * scale).rounded()))
    }

    public convenience init(cgImage: CGImage, scale: CGFloat = 1, orientation: Orientation = .up) {
        self.init(name: nil, isSymbol: false, data: cgImage.data,
                  size: CGSize(width: CGFloat(cgImage.width) / scale, height: CGFloat(cgImage.height) / scale), scale: scale,
                  renderingMode: .automatic)
    }

    public enum Orientation: Int, Sendable { case up, down, left, right, upMirrored, downMirrored, leftMirrored, rightMirrored }
}
