/// Draws a view into an image (SwiftUI's `ImageRenderer`): here, the renderer's own SVG drawing of the view at the
/// size it chooses for `proposedSize`, held by the `CGImage`/`UIImage` it returns, which an `Image` draws again.
@MainActor @preconcurrency
public final class ImageRenderer<Content: View> {
    public var content: Content
    public var proposedSize: ProposedViewSize = .unspecified
    public var scale: CGFloat = 1
    public var isOpaque = false
    public var colorMode: ColorRenderingMode = .nonLinear

    public init(content: Content) { self.content = content }

    /// The view's drawing, at its size for `proposedSize` times `scale` pixels; nil when that size is empty.
    public var cgImage: CGImage? {
        let size = fittingSize(content, width: proposedSize.width, height: proposedSize.height, environment: EnvironmentValues())
        guard size.width > 0, size.height > 0, size.width.isFinite, size.height.isFinite else { return nil }
        let svg = render(content, RenderRequest(size: size)).svg(title: nil)
        return CGImage(data: Data(svg.utf8), width: Int((size.width * scale).rounded()), height: Int((size.height * scale).rounded()))
    }

    public var uiImage: UIImage? { cgImage.map { UIImage(cgImage: $0, scale: scale) } }
}

extension Image {
    /// A `CGImage` drawn at `scale` (its pixels over the scale are its points).
    public init(_ cgImage: CGImage, scale: CGFloat, orientation: Orientation = .up, label: Text) {
        self.init(uiImage: UIImage(cgImage: cgImage, scale: scale))
    }

    public init(decorative cgImage: CGImage, scale: CGFloat, orientation: Orientation = .up) {
        self.init(uiImage: UIImage(cgImage: cgImage, scale: scale))
    }

    public enum Orientation: UInt8, CaseIterable, Hashable, Sendable { case up, upMirrored, down, downMirrored, left, leftMirrored, right, rightMirrored }
}
