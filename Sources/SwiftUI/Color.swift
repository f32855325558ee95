// SwiftUI on iOS brings UIKit with it: a file that imports SwiftUI alone uses `UIColor` and `UIApplication`.
@_exported import UIKit

/// A color: a system color that adapts to light and dark appearance, or fixed components.
public struct Color: Hashable, Sendable, CustomStringConvertible {
    enum Storage: Hashable, Sendable {
        /// Red, green, blue, opacity in 0…1 (sRGB).
        case rgba(Double, Double, Double, Double)
        /// A system color by name, resolved per color scheme.
        case system(String)
        /// An asset catalog color, resolved from the bundle's catalogs (`AssetCatalog`); gray when it has none.
        case named(String)
        /// A UIKit color, resolved per appearance as UIKit resolves it.
        case uiColor(UIColor)
        indirect case opacity(Color, Double)
    }
    let storage: Storage

    init(storage: Storage) { self.storage = storage }

    public enum RGBColorSpace: Hashable, Sendable { case sRGB, sRGBLinear, displayP3 }

    public init(red: Double, green: Double, blue: Double, opacity: Double = 1) {
        storage = .rgba(red, green, blue, opacity)
    }
    public init(_ colorSpace: Color.RGBColorSpace = .sRGB, red: Double, green: Double, blue: Double, opacity: Double = 1) {
        storage = .rgba(red, green, blue, opacity)
    }
    public init(white: Double, opacity: Double = 1) {
        storage = .rgba(white, white, white, opacity)
    }
    public init(_ colorSpace: Color.RGBColorSpace = .sRGB, white: Double, opacity: Double = 1) {
        storage = .rgba(white, white, white, opacity)
    }
    public init(hue: Double, saturation: Double, brightness: Double, opacity: Double = 1) {
        let (r, g, b) = Color.rgb(hue: hue, saturation: saturation, brightness: brightness)
        storage = .rgba(r, g, b, opacity)
    }
    /// A color from the asset catalogue.
    public init(_ name: String, bundle: Bundle? = nil) {
        storage = .named(name)
    }

    /// A color from the asset catalogue through Xcode's generated symbol: `Color(.brand)`.
    public init(_ resource: ColorResource) {
        storage = .named(resource.name)
    }

    /// A UIKit color: dynamic and system colors keep resolving per appearance.
    public init(uiColor: UIColor) { storage = .uiColor(uiColor) }
    public init(_ color: UIColor) { storage = .uiColor(color) }

    public func opacity(_ opacity: Double) -> Color { Color(storage: .opacity(self, opacity)) }

    public var description: String {
        switch storage {
        case let .rgba(r, g, b, a): return "Color(red: \(r), green: \(g), blue: \(b), opacity: \(a))"
        case let .system(name): return name
        case let .named(name): return "Color(\"\(name)\")"
        case let .uiColor(color): return "Color(uiColor: \(color))"
        case let .opacity(c, o): return "\(c).opacity(\(o))"
        }
    }

    public static let clear = Color(storage: .rgba(0, 0, 0, 0))
    public static let black = Color(storage: .rgba(0, 0, 0, 1))
    public static let white = Color(storage: .rgba(1, 1, 1, 1))
    public static let red = Color(storage: .system("red"))
    public static let orange = Color(storage: .system("orange"))
    public static let yellow = Color(storage: .system("yellow"))
    public static let green = Color(storage: .system("green"))
    public static let mint = Color(storage: .system("mint"))
    public static let teal = Color(storage: .system("teal"))
    public static let cyan = Color(storage: .system("cyan"))
    public static let blue = Color(storage: .system("blue"))
    public static let indigo = Color(storage: .system("indigo"))
    public static let purple = Color(storage: .system("purple"))
    public static let pink = Color(storage: .system("pink"))
    public static let brown = Color(storage: .system("brown"))
    public static let gray = Color(storage: .system("gray"))
    public static let primary = Color(storage: .system("primary"))
    public static let secondary = Color(storage: .system("secondary"))
    public static let accentColor = Color(storage: .system("accentColor"))

    static func rgb(hue: Double, saturation: Double, brightness: Double) -> (Double, Double, Double) {
        let h = (hue - hue.rounded(.down)) * 6
        let c = brightness * saturation
        let x = c * (1 - abs(h.truncatingRemainder(dividingBy: 2) - 1))
        let m = brightness - c
        let (r, g, b): (Double, Double, Double)
        switch Int(h) {
        case 0: (r, g, b) = (c, x, 0)
        case 1: (r, g, b) = (x, c, 0)
        case 2: (r, g, b) = (0, c, x)
        case 3: (r, g, b) = (0, x, c)
        case 4: (r, g, b) = (x, 0, c)
        default: (r, g, b) = (c, 0, x)
        }
        return (r + m, g + m, b + m)
    }
}
