import Foundation
import LockstepRuntime
import Synchronization

/// The asset catalogs (`.xcassets`) of the running bundle (UIKit's `UIImage(named:)` and `UIColor(named:)`, SwiftUI's
/// `Image("Name")` and `Color("Name")`): the manifest's `resources` (<doc:YourOwnCode> "The
/// manifest"), read once, where `Color("Name")`, `Image("Name")` and the accent color are found as on a device.
///
/// Each catalog is its Contents.json files as Xcode writes them: a color set's components in sRGB, display P3 or gray
/// (as floats, 0–255 or hex), with a dark appearance; an image set's PNG, JPEG or SVG files at 1x, 2x and 3x (the
/// largest is drawn, at its point size: pixels ÷ scale), or one vector file; a folder that provides a namespace
/// prefixes its assets' names. What it cannot draw (a PDF vector, a symbol set) keeps its size and is named in place.
package final class AssetCatalog: Sendable {
    /// Red, green, blue and alpha in 0…1, as a color set writes them.
    package struct Components: Sendable, Equatable {
        package var red: Double, green: Double, blue: Double, alpha: Double
        package init(_ red: Double, _ green: Double, _ blue: Double, _ alpha: Double = 1) {
            (self.red, self.green, self.blue, self.alpha) = (red, green, blue, alpha)
        }
    }

    struct ColorAsset: Sendable {
        var any: Components
        var dark: Components?
    }

    package struct ImageAsset: Sendable {
        /// The size in points.
        package var size: CGSize
        /// `data:` URL of the picture, nil for a format an SVG cannot show (PDF).
        package var dataURL: String?
        package var isTemplate: Bool
        /// A custom symbol (`.symbolset`): `size` is its size at a 100-point font, and it is drawn at the font's
        /// size as SF Symbols are.
        package var isSymbol = false

        package init(size: CGSize, dataURL: String?, isTemplate: Bool, isSymbol: Bool = false) {
            self.size = size
            self.dataURL = dataURL
            self.isTemplate = isTemplate
            self.isSymbol = isSymbol
        }
    }

    let colors: [String: ColorAsset]
    package let images: [String: ImageAsset]

    package init(catalogs: [String]) {
        var colors: [String: ColorAsset] = [:]
        var images: [String: ImageAsset] = [:]
        for catalog in catalogs { Self.read(folder: catalog, prefix: "", colors: &colors, images: &images) }
        self.colors = colors
        self.images = images
    }

    private static let loaded = Mutex<AssetCatalog?>(nil)

    /// The running bundle's catalogs (none outside a simulated process), or those `use` installed.
    package static var current: AssetCatalog {
        loaded.withLock { catalog in
            if let catalog { return catalog }
            let resources = SimulatedProcess.current?.bundle.resources ?? []
            let made = AssetCatalog(catalogs: resources.filter { $0.hasSuffix(".xcassets") })
            catalog = made
            return made
        }
    }

    /// Reads these catalogs instead of the bundle's: for a renderer outside a simulated process (tests, previews).
    package static func use(_ catalogs: [String]) {
        loaded.withLock { $0 = AssetCatalog(catalogs: catalogs) }
    }

    package func color(_ name: String, dark: Bool) -> Components? {
        guard let asset = colors[name] else { return nil }
        return dark ? (asset.dark ?? asset.any) : asset.any
    }

    // MARK: reading

    private static func read(folder: String, prefix: String, colors: inout [String: ColorAsset], images: inout [String: ImageAsset]) {
        guard let entries = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return }
        for entry in entries.sorted() where !entry.hasPrefix(".") {
            let path = folder + "/" + entry
            let name = prefix + (entry as NSString).deletingPathExtension
            if entry.hasSuffix(".colorset") {
                if let color = colorSet(path) { colors[name] = color }
            } else if entry.hasSuffix(".imageset") {
                if let image = imageSet(path) { images[name] = image }
            } else if entry.hasSuffix(".symbolset") {
                if let symbol = symbolSet(path) { images[name] = symbol }
            } else if !entry.contains(".") {
                let namespace = (contents(path)?["properties"] as? [String: Any])?["provides-namespace"] as? Bool == true
                read(folder: path, prefix: namespace ? name + "/" : prefix, colors: &colors, images: &images)
            }
        }
    }

    static func contents(_ folder: String) -> [String: Any]? {
        guard let data = FileManager.default.contents(atPath: folder + "/Contents.json") else { return nil }
        return (try? JSONSerialization.jsonObject(with: data)) as? [String: Any]
    }

    private static func colorSet(_ folder: String) -> ColorAsset? {
        var any: Components?
        var dark: Components?
        for entry in contents(folder)?["colors"] as? [[String: Any]] ?? [] {
            let appearances = entry["appearances"] as? [[String: Any]] ?? []
            // High-contrast variants are for Increase Contrast, which Lockstep's renderings do not turn on.
            if appearances.contains(where: { $0["appearance"] as? String == "contrast" }) { continue }
            guard let color = entry["color"] as? [String: Any], let value = rgba(color) else { continue }
            let luminosity = appearances.first { $0["appearance"] as? String == "luminosity" }?["value"] as? String
            switch luminosity {
            case "dark": dark = value
            case "light": if any == nil { any = value }
            default: any = value
            }
        }
        guard let any = any ?? dark else { return nil }
        return ColorAsset(any: any, dark: dark)
    }

    /// A color of a color set: components, or a reference to a system color (`systemBlueColor`).
    static func rgba(_ color: [String: Any]) -> Components? {
        if let reference = color["reference"] as? String {
            // `systemBlueColor`, `labelColor`: UIKit's color of that name (light appearance; a reference has no dark one).
            let name = String(reference.dropLast(reference.hasSuffix("Color") ? 5 : 0))
            return SystemColors.components(name, dark: false)
        }
        guard let components = color["components"] as? [String: Any] else { return nil }
        func component(_ key: String) -> Double? {
            guard let value = components[key] else { return nil }
            if let number = value as? Double { return number }
            guard let text = value as? String else { return nil }
            if text.lowercased().hasPrefix("0x"), let hex = Int(text.dropFirst(2), radix: 16) { return Double(hex) / 255 }
            guard let number = Double(text) else { return nil }
            // "0.5" is a fraction; "128" (no decimal point, above 1) is 0–255.
            return !text.contains(".") && number > 1 ? number / 255 : number
        }
        let alpha = component("alpha") ?? 1
        if let white = component("white") { return Components(white, white, white, alpha) }
        guard let red = component("red"), let green = component("green"), let blue = component("blue") else { return nil }
        // Display P3 components are drawn as sRGB ones: the SVG has no wider gamut to draw them in.
        return Components(red, green, blue, alpha)
    }

    private static func imageSet(_ folder: String) -> ImageAsset? {
        guard let contents = contents(folder) else { return nil }
        let properties = contents["properties"] as? [String: Any] ?? [:]
        let isTemplate = properties["template-rendering-intent"] as? String == "template"
        var best: (file: String, scale: Double)?
        for entry in (contents["images"] ?? contents["symbols"]) as? [[String: Any]] ?? [] {
            guard let file = entry["filename"] as? String else { continue }
            if let appearances = entry["appearances"] as? [[String: Any]], !appearances.isEmpty { continue }  // dark variants
            let scale = Double((entry["scale"] as? String)?.dropLast() ?? "1") ?? 1
            if best == nil || scale > best!.scale { best = (file, scale) }
        }
        guard let (file, scale) = best, let data = FileManager.default.contents(atPath: folder + "/" + file) else { return nil }
        let lower = file.lowercased()
        if lower.hasSuffix(".png"), let pixels = PictureHeader.png(data) {
            return ImageAsset(size: CGSize(width: pixels.width / scale, height: pixels.height / scale),
                              dataURL: "data:image/png;base64," + data.base64EncodedString(), isTemplate: isTemplate)
        }
        if lower.hasSuffix(".jpg") || lower.hasSuffix(".jpeg"), let pixels = PictureHeader.jpeg(data) {
            return ImageAsset(size: CGSize(width: pixels.width / scale, height: pixels.height / scale),
                              dataURL: "data:image/jpeg;base64," + data.base64EncodedString(), isTemplate: isTemplate)
        }
        if lower.hasSuffix(".svg"), let size = PictureHeader.svg(data) {
            return ImageAsset(size: size, dataURL: "data:image/svg+xml;base64," + data.base64EncodedString(), isTemplate: isTemplate)
        }
        if lower.hasSuffix(".pdf"), let size = PictureHeader.pdf(data) {
            return ImageAsset(size: size, dataURL: nil, isTemplate: isTemplate)
        }
        return nil
    }
}

/// The size a picture file says it has, read from its header.
package enum PictureHeader {
    /// PNG's IHDR: width and height in pixels.
    package static func png(_ data: Data) -> CGSize? {
        let bytes = [UInt8](data.prefix(24))
        guard bytes.count == 24, bytes.starts(with: [0x89, 0x50, 0x4E, 0x47]) else { return nil }
        func u32(_ at: Int) -> Int { Int(bytes[at]) << 24 | Int(bytes[at + 1]) << 16 | Int(bytes[at + 2]) << 8 | Int(bytes[at + 3]) }
        return CGSize(width: u32(16), height: u32(20))
    }

    /// JPEG's first start-of-frame marker.
    package static func jpeg(_ data: Data) -> CGSize? {
        let bytes = [UInt8](data)
        guard bytes.count > 4, bytes[0] == 0xFF, bytes[1] == 0xD8 else { return nil }
        var index = 2
        while index + 9 < bytes.count {
            guard bytes[index] == 0xFF else { return nil }
            let marker = bytes[index + 1]
            let length = Int(bytes[index + 2]) << 8 | Int(bytes[index + 3])
            if (0xC0...0xCF).contains(marker) && ![0xC4, 0xC8, 0xCC].contains(marker) {
                let height = Int(bytes[index + 5]) << 8 | Int(bytes[index + 6])
                let width = Int(bytes[index + 7]) << 8 | Int(bytes[index + 8])
                return CGSize(width: width, height: height)
            }
            index += 2 + length
        }
        return nil
    }

    /// An SVG's `width` and `height` (or its `viewBox`), in points.
    package static func svg(_ data: Data) -> CGSize? {
        guard let text = String(data: data.prefix(4096), encoding: .utf8), let start = text.range(of: "<svg") else { return nil }
        let tag = text[start.upperBound...].prefix { $0 != ">" }
        func attribute(_ name: String) -> String? {
            guard let range = tag.range(of: " \(name)=\"") else { return nil }
            return String(tag[range.upperBound...].prefix { $0 != "\"" })
        }
        func number(_ text: String?) -> Double? { text.flatMap { Double($0.prefix { $0.isNumber || $0 == "." }) } }
        if let width = number(attribute("width")), let height = number(attribute("height")) { return CGSize(width: width, height: height) }
        let box = attribute("viewBox")?.split(separator: " ").compactMap { Double($0) } ?? []
        return box.count == 4 ? CGSize(width: box[2], height: box[3]) : nil
    }

    /// A PDF's first `/MediaBox`, in points.
    package static func pdf(_ data: Data) -> CGSize? {
        guard let text = String(data: data.prefix(65536), encoding: .isoLatin1), let range = text.range(of: "/MediaBox") else { return nil }
        let numbers = text[range.upperBound...].drop { $0 == " " || $0 == "[" }.prefix { $0 != "]" }
            .split(separator: " ").compactMap { Double($0) }
        return numbers.count == 4 ? CGSize(width: numbers[2] - numbers[0], height: numbers[3] - numbers[1]) : nil
    }
}
