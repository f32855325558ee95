import Foundation

/// An image: one of the bundle's asset catalogs (`UIImage(named:)`), an SF Symbol by name, or picture data.
public final class UIImage: NSObject, @unchecked Sendable {  // @unchecked: immutable after init.
    public enum RenderingMode: Int, Sendable { case automatic, alwaysOriginal, alwaysTemplate }

    /// The catalog or symbol name it was made from, if any.
    package let name: String?
    package let isSymbol: Bool
    /// PNG, JPEG or SVG bytes, when it was made from data or a file, or from a catalog image that has them.
    package let data: Data?
    public let size: CGSize
    public let scale: CGFloat
    public let renderingMode: RenderingMode

    init(name: String?, isSymbol: Bool, data: Data?, size: CGSize, scale: CGFloat, renderingMode: RenderingMode) {
        self.name = name
        self.isSymbol = isSymbol
        self.data = data
        self.size = size
        self.scale = scale
        self.renderingMode = renderingMode
        super.init()
    }

    /// A catalog image; nil when the bundle's catalogs have none of that name, as UIKit returns.
    public convenience init?(named name: String) {
        guard AssetCatalog.current.images[name] != nil else { return nil }
        self.init(resource: ImageResource(name: name, bundle: .main))
    }

    public convenience init?(named name: String, in bundle: Bundle?, compatibleWith traitCollection: UITraitCollection?) {
        self.init(named: name)
    }

    /// An SF Symbol: Lockstep cannot ship Apple's symbols, so it is drawn as a labelled placeholder at a line's size.
    public convenience init?(systemName name: String) {
        self.init(name: name, isSymbol: true, data: nil, size: CGSize(width: 20, height: 17), scale: 1, renderingMode: .alwaysTemplate)
    }

    /// PNG, JPEG or SVG data; nil for data it cannot read (as UIKit returns for what it cannot decode).
    public convenience init?(data: Data, scale: CGFloat = 1) {
        let pixels = PictureHeader.png(data) ?? PictureHeader.jpeg(data)
        guard let size = pixels.map({ CGSize(width: $0.width / scale, height: $0.height / scale) }) ?? PictureHeader.svg(data) else { return nil }
        self.init(name: nil, isSymbol: false, data: data, size: size, scale: scale, renderingMode: .automatic)
    }

    public convenience init?(contentsOfFile path: String) {
        guard let data = FileManager.default.contents(atPath: path) else { return nil }
        // `name@2x.png` is a 2x image, as UIKit reads the file name.
        let scale: CGFloat = path.contains("@3x.") ? 3 : path.contains("@2x.") ? 2 : 1
        self.init(data: data, scale: scale)
    }

    public func withRenderingMode(_ renderingMode: RenderingMode) -> UIImage {
        UIImage(name: name, isSymbol: isSymbol, data: data, size: size, scale: scale, renderingMode: renderingMode)
    }

    /// The image as PNG, when it was made from PNG data (Lockstep decodes no pixels to re-encode them).
    public func pngData() -> Data? {
        guard let data, PictureHeader.png(data) != nil else { return nil }
        return data
    }

    /// The image as JPEG, when it was made from JPEG data.
    public func jpegData(compressionQuality: CGFloat) -> Data? {
        guard let data, PictureHeader.jpeg(data) != nil else { return nil }
        return data
    }

    /// The picture as a `data:` URL an SVG can show, when it has one.
    package var dataURL: String? {
        guard let data else { return nil }
        let type = PictureHeader.png(data) != nil ? "image/png" : PictureHeader.jpeg(data) != nil ? "image/jpeg" : "image/svg+xml"
        return "data:\(type);base64," + data.base64EncodedString()
    }
}
