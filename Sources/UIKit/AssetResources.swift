import Foundation

// Xcode's generated asset symbols (Apple's DeveloperToolsSupport, re-exported by SwiftUI and UIKit): for each color
// and image of a target's asset catalogs Xcode generates `extension ColorResource { static let brand = … }`, so
// that code writes `Color(.brand)` or `UIImage(resource: .logo)`. `lockstep build` generates the same extensions
// from the catalogs (`BuildKit`'s `AssetSymbols`); a resource resolves from the running bundle's catalogs as
// `Color("Brand")` does.

/// A color set of an asset catalog, by name (Apple's `ColorResource`).
public struct ColorResource: Hashable, Sendable {
    public let name: String
    public let bundle: Foundation.Bundle

    public init(name: String, bundle: Foundation.Bundle) {
        self.name = name
        self.bundle = bundle
    }
}

/// An image set of an asset catalog, by name (Apple's `ImageResource`).
public struct ImageResource: Hashable, Sendable {
    public let name: String
    public let bundle: Foundation.Bundle

    public init(name: String, bundle: Foundation.Bundle) {
        self.name = name
        self.bundle = bundle
    }
}

extension UIColor {
    /// The catalog color the resource names (gray, as `Color("…")` draws, when the catalogs lack it).
    public convenience init(resource: ColorResource) {
        self.init(storage: .named(resource.name))
    }
}

extension UIImage {
    /// The catalog image the resource names (its pixels, size and template rendering); an empty image when the
    /// catalogs lack it.
    public convenience init(resource: ImageResource) {
        if let asset = AssetCatalog.current.images[resource.name] {
            let data = asset.dataURL.flatMap { $0.split(separator: ",", maxSplits: 1).last }.flatMap { Data(base64Encoded: String($0)) }
            self.init(name: resource.name, isSymbol: false, data: data, size: asset.size, scale: 1,
                      renderingMode: asset.isTemplate ? .alwaysTemplate : .automatic)
        } else {
            self.init(name: resource.name, isSymbol: false, data: nil, size: .zero, scale: 1, renderingMode: .automatic)
        }
    }
}
