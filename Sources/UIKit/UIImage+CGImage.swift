import CoreGraphics
import Foundation

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
