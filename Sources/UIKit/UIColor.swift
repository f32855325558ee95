import Foundation

/// iOS's system colors, light and dark (UIKit's `systemRed` …, the Human Interface Guidelines' color table), and the
/// semantic colors (`label`, `systemBackground`, `systemFill` …): SwiftUI's `Color.red` and `.primary` are these.
package enum SystemColors {
    static let tints: [String: (light: UInt32, dark: UInt32)] = [
        "red": (0xFF3B30, 0xFF453A), "orange": (0xFF9500, 0xFF9F0A), "yellow": (0xFFCC00, 0xFFD60A),
        "green": (0x34C759, 0x30D158), "mint": (0x00C7BE, 0x63E6E2), "teal": (0x30B0C7, 0x40C8E0),
        "cyan": (0x32ADE6, 0x64D2FF), "blue": (0x007AFF, 0x0A84FF), "indigo": (0x5856D6, 0x5E5CE6),
        "purple": (0xAF52DE, 0xBF5AF2), "pink": (0xFF2D55, 0xFF375F), "brown": (0xA2845E, 0xAC8E68),
        "gray": (0x8E8E93, 0x8E8E93),
    ]

    /// A tint by SwiftUI's name (`blue`), or nil.
    package static func tint(_ name: String, dark: Bool) -> UInt32? {
        tints[name].map { dark ? $0.dark : $0.light }
    }

    /// UIKit's label colors: `label`, `secondaryLabel`, `tertiaryLabel`, `quaternaryLabel`.
    package static func label(level: Int, dark: Bool) -> AssetCatalog.Components {
        if level == 0 { return dark ? .init(1, 1, 1) : .init(0, 0, 0) }
        let alpha: [Double] = [1, 0.6, 0.3, 0.18, 0.1]
        let base = hex(dark ? 0xEBEBF5 : 0x3C3C43)
        return .init(base.red, base.green, base.blue, alpha[min(level, alpha.count - 1)])
    }

    /// UIKit's fill colors: `systemFill`, `secondarySystemFill`, `tertiarySystemFill`, `quaternarySystemFill`.
    package static func fill(level: Int, dark: Bool) -> AssetCatalog.Components {
        let light: [(UInt32, Double)] = [(0x787880, 0.2), (0x787880, 0.16), (0x767680, 0.12), (0x747480, 0.08), (0x747480, 0.05)]
        let night: [(UInt32, Double)] = [(0x787880, 0.36), (0x787880, 0.32), (0x767680, 0.24), (0x767680, 0.18), (0x767680, 0.12)]
        let (value, alpha) = (dark ? night : light)[min(level, 4)]
        var components = hex(value)
        components.alpha = alpha
        return components
    }

    package static func hex(_ value: UInt32, alpha: Double = 1) -> AssetCatalog.Components {
        .init(Double((value >> 16) & 0xFF) / 255, Double((value >> 8) & 0xFF) / 255, Double(value & 0xFF) / 255, alpha)
    }

    /// A UIKit color by its name without the `Color` suffix (`systemBlue`, `label`, `systemBackground`), as an asset
    /// catalog's `reference` names it; nil for a name UIKit does not have.
    package static func components(_ name: String, dark: Bool) -> AssetCatalog.Components? {
        let levels = ["", "secondary", "tertiary", "quaternary"]
        for (level, prefix) in levels.enumerated() {
            if name == (prefix.isEmpty ? "label" : prefix + "Label") { return label(level: level, dark: dark) }
            if name == (prefix.isEmpty ? "systemFill" : prefix + "SystemFill") { return fill(level: level, dark: dark) }
        }
        switch name {
        case "systemBackground": return dark ? hex(0x000000) : hex(0xFFFFFF)
        case "systemGroupedBackground": return dark ? hex(0x000000) : hex(0xF2F2F7)
        case "secondarySystemBackground": return dark ? hex(0x1C1C1E) : hex(0xF2F2F7)
        case "tertiarySystemBackground": return dark ? hex(0x2C2C2E) : hex(0xFFFFFF)
        case "secondarySystemGroupedBackground": return dark ? hex(0x1C1C1E) : hex(0xFFFFFF)
        case "separator": return dark ? hex(0x545458, alpha: 0.6) : hex(0x3C3C43, alpha: 0.29)
        case "placeholderText": return dark ? hex(0xEBEBF5, alpha: 0.3) : hex(0x3C3C43, alpha: 0.3)
        case "link": return dark ? hex(0x0984FF) : hex(0x007AFF)
        case "systemGray": return hex(0x8E8E93)
        case "systemGray2": return dark ? hex(0x636366) : hex(0xAEAEB2)
        case "systemGray3": return dark ? hex(0x48484A) : hex(0xC7C7CC)
        case "systemGray4": return dark ? hex(0x3A3A3C) : hex(0xD1D1D6)
        case "systemGray5": return dark ? hex(0x2C2C2E) : hex(0xE5E5EA)
        case "systemGray6": return dark ? hex(0x1C1C1E) : hex(0xF2F2F7)
        default:
            guard name.hasPrefix("system"), let tint = tint(name.dropFirst(6).lowercased(), dark: dark) else { return nil }
            return hex(tint)
        }
    }
}

/// How an interface looks: its light or dark appearance, which dynamic colors resolve against.
public enum UIUserInterfaceStyle: Int, Sendable {
    case unspecified, light, dark
}

/// The traits a color and a font resolve against: the appearance and the Dynamic Type size.
public final class UITraitCollection: NSObject, Sendable {
    public let userInterfaceStyle: UIUserInterfaceStyle
    public let preferredContentSizeCategory: UIContentSizeCategory

    public init(userInterfaceStyle: UIUserInterfaceStyle) {
        self.userInterfaceStyle = userInterfaceStyle
        preferredContentSizeCategory = .unspecified
        super.init()
    }

    public init(preferredContentSizeCategory: UIContentSizeCategory) {
        userInterfaceStyle = .unspecified
        self.preferredContentSizeCategory = preferredContentSizeCategory
        super.init()
    }

    package init(userInterfaceStyle: UIUserInterfaceStyle, preferredContentSizeCategory: UIContentSizeCategory) {
        self.userInterfaceStyle = userInterfaceStyle
        self.preferredContentSizeCategory = preferredContentSizeCategory
        super.init()
    }

    public override convenience init() { self.init(userInterfaceStyle: .unspecified) }

    /// The traits code runs under: those of the view being drawn (a widget's appearance and Dynamic Type size, which
    /// SwiftUI's renderer sets while it evaluates the view), else light at the Large size, as a simulator starts.
    public static var current: UITraitCollection { drawing ?? UITraitCollection(userInterfaceStyle: .light, preferredContentSizeCategory: .large) }

    @TaskLocal private static var drawing: UITraitCollection?

    /// Runs `body` with these traits as `current`, as UIKit does while it lays out and draws a view.
    public func performAsCurrent(_ body: () throws -> Void) rethrows {
        try UITraitCollection.$drawing.withValue(self, operation: body)
    }

    /// `performAsCurrent` that returns what `body` returns.
    package func whileCurrent<R>(_ body: () throws -> R) rethrows -> R {
        try UITraitCollection.$drawing.withValue(self, operation: body)
    }
}

/// A Dynamic Type size as UIKit names it (`UIContentSizeCategory.large` is the default).
public struct UIContentSizeCategory: Hashable, Sendable, RawRepresentable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    public static let unspecified = UIContentSizeCategory(rawValue: "_UICTContentSizeCategoryUnspecified")
    public static let extraSmall = UIContentSizeCategory(rawValue: "UICTContentSizeCategoryXS")
    public static let small = UIContentSizeCategory(rawValue: "UICTContentSizeCategoryS")
    public static let medium = UIContentSizeCategory(rawValue: "UICTContentSizeCategoryM")
    public static let large = UIContentSizeCategory(rawValue: "UICTContentSizeCategoryL")
    public static let extraLarge = UIContentSizeCategory(rawValue: "UICTContentSizeCategoryXL")
    public static let extraExtraLarge = UIContentSizeCategory(rawValue: "UICTContentSizeCategoryXXL")
    public static let extraExtraExtraLarge = UIContentSizeCategory(rawValue: "UICTContentSizeCategoryXXXL")
    public static let accessibilityMedium = UIContentSizeCategory(rawValue: "UICTContentSizeCategoryAccessibilityM")
    public static let accessibilityLarge = UIContentSizeCategory(rawValue: "UICTContentSizeCategoryAccessibilityL")
    public static let accessibilityExtraLarge = UIContentSizeCategory(rawValue: "UICTContentSizeCategoryAccessibilityXL")
    public static let accessibilityExtraExtraLarge = UIContentSizeCategory(rawValue: "UICTContentSizeCategoryAccessibilityXXL")
    public static let accessibilityExtraExtraExtraLarge = UIContentSizeCategory(rawValue: "UICTContentSizeCategoryAccessibilityXXXL")

    /// The sizes in order, smallest first: the columns of Apple's Dynamic Type table.
    package static let ordered: [UIContentSizeCategory] = [
        .extraSmall, .small, .medium, .large, .extraLarge, .extraExtraLarge, .extraExtraExtraLarge, .accessibilityMedium,
        .accessibilityLarge, .accessibilityExtraLarge, .accessibilityExtraExtraLarge, .accessibilityExtraExtraExtraLarge,
    ]

    /// This size's column of the table; an unspecified size reads as Large, the default.
    package var column: Int { UIContentSizeCategory.ordered.firstIndex(of: self) ?? DynamicTypeTable.defaultColumn }

    public var isAccessibilityCategory: Bool { column >= UIContentSizeCategory.ordered.firstIndex(of: .accessibilityMedium)! }
}

extension UIContentSizeCategory: Comparable {
    public static func < (a: UIContentSizeCategory, b: UIContentSizeCategory) -> Bool { a.column < b.column }
}

/// A color, fixed or resolved per appearance as UIKit resolves it: components, a system color, a catalog color
/// (`UIColor(named:)`), or `init(dynamicProvider:)`.
public final class UIColor: NSObject, @unchecked Sendable {  // @unchecked: immutable; a dynamic provider is only called.
    enum Storage {
        case components(AssetCatalog.Components)
        case system(String)
        case named(String)
        case dynamic((UITraitCollection) -> UIColor)
    }
    let storage: Storage

    init(storage: Storage) {
        self.storage = storage
        super.init()
    }

    public init(red: CGFloat, green: CGFloat, blue: CGFloat, alpha: CGFloat) {
        storage = .components(.init(Double(red), Double(green), Double(blue), Double(alpha)))
        super.init()
    }

    public convenience init(displayP3Red red: CGFloat, green: CGFloat, blue: CGFloat, alpha: CGFloat) {
        self.init(red: red, green: green, blue: blue, alpha: alpha)
    }

    public convenience init(white: CGFloat, alpha: CGFloat) {
        self.init(red: white, green: white, blue: white, alpha: alpha)
    }

    public convenience init(hue: CGFloat, saturation: CGFloat, brightness: CGFloat, alpha: CGFloat) {
        let h = (Double(hue).truncatingRemainder(dividingBy: 1) + 1).truncatingRemainder(dividingBy: 1) * 6
        let s = Double(saturation), v = Double(brightness)
        let c = v * s, x = c * (1 - abs(h.truncatingRemainder(dividingBy: 2) - 1)), m = v - c
        let (r, g, b): (Double, Double, Double) = switch Int(h) {
        case 0: (c, x, 0)
        case 1: (x, c, 0)
        case 2: (0, c, x)
        case 3: (0, x, c)
        case 4: (x, 0, c)
        default: (c, 0, x)
        }
        self.init(red: r + m, green: g + m, blue: b + m, alpha: alpha)
    }

    /// A color of the bundle's asset catalogs; nil when they have none of that name (as UIKit returns).
    public convenience init?(named name: String) {
        guard AssetCatalog.current.color(name, dark: false) != nil else { return nil }
        self.init(storage: .named(name))
    }

    public convenience init?(named name: String, in bundle: Bundle?, compatibleWith traitCollection: UITraitCollection?) {
        self.init(named: name)
    }

    /// A color whose value depends on the traits it is resolved with (light or dark appearance).
    public convenience init(dynamicProvider: @escaping (UITraitCollection) -> UIColor) {
        self.init(storage: .dynamic(dynamicProvider))
    }

    /// The color for `traitCollection`'s appearance.
    public func resolvedColor(with traitCollection: UITraitCollection) -> UIColor {
        UIColor(storage: .components(components(dark: traitCollection.userInterfaceStyle == .dark)))
    }

    /// The components for an appearance: what SwiftUI's `Color(uiColor:)` draws.
    package func components(dark: Bool) -> AssetCatalog.Components {
        switch storage {
        case .components(let components): return components
        case .system(let name): return SystemColors.components(name, dark: dark) ?? SystemColors.hex(0x8E8E93)
        case .named(let name): return AssetCatalog.current.color(name, dark: dark) ?? SystemColors.hex(0x8E8E93)
        case .dynamic(let provider): return provider(UITraitCollection(userInterfaceStyle: dark ? .dark : .light)).components(dark: dark)
        }
    }

    public func withAlphaComponent(_ alpha: CGFloat) -> UIColor {
        UIColor(dynamicProvider: { [self] traits in
            var components = self.components(dark: traits.userInterfaceStyle == .dark)
            components.alpha = Double(alpha)
            return UIColor(storage: .components(components))
        })
    }

    /// The components in the light appearance (`UITraitCollection.current`), as UIKit answers.
    public func getRed(_ red: UnsafeMutablePointer<CGFloat>?, green: UnsafeMutablePointer<CGFloat>?,
                       blue: UnsafeMutablePointer<CGFloat>?, alpha: UnsafeMutablePointer<CGFloat>?) -> Bool {
        let components = components(dark: UITraitCollection.current.userInterfaceStyle == .dark)
        red?.pointee = CGFloat(components.red)
        green?.pointee = CGFloat(components.green)
        blue?.pointee = CGFloat(components.blue)
        alpha?.pointee = CGFloat(components.alpha)
        return true
    }

    public override func isEqual(_ object: Any?) -> Bool {
        guard let other = object as? UIColor else { return false }
        return components(dark: false) == other.components(dark: false) && components(dark: true) == other.components(dark: true)
    }

    public override var hash: Int { Int(components(dark: false).red * 255) }

    // MARK: UIKit's colors

    static func system(_ name: String) -> UIColor { UIColor(storage: .system(name)) }
    static func fixed(_ r: Double, _ g: Double, _ b: Double, _ a: Double = 1) -> UIColor { UIColor(storage: .components(.init(r, g, b, a))) }

    public static var black: UIColor { fixed(0, 0, 0) }
    public static var white: UIColor { fixed(1, 1, 1) }
    public static var clear: UIColor { fixed(0, 0, 0, 0) }
    public static var darkGray: UIColor { fixed(1 / 3, 1 / 3, 1 / 3) }
    public static var lightGray: UIColor { fixed(2 / 3, 2 / 3, 2 / 3) }
    public static var gray: UIColor { fixed(0.5, 0.5, 0.5) }
    public static var red: UIColor { fixed(1, 0, 0) }
    public static var green: UIColor { fixed(0, 1, 0) }
    public static var blue: UIColor { fixed(0, 0, 1) }
    public static var cyan: UIColor { fixed(0, 1, 1) }
    public static var yellow: UIColor { fixed(1, 1, 0) }
    public static var magenta: UIColor { fixed(1, 0, 1) }
    public static var orange: UIColor { fixed(1, 0.5, 0) }
    public static var purple: UIColor { fixed(0.5, 0, 0.5) }
    public static var brown: UIColor { fixed(0.6, 0.4, 0.2) }

    public static var systemRed: UIColor { system("systemRed") }
    public static var systemOrange: UIColor { system("systemOrange") }
    public static var systemYellow: UIColor { system("systemYellow") }
    public static var systemGreen: UIColor { system("systemGreen") }
    public static var systemMint: UIColor { system("systemMint") }
    public static var systemTeal: UIColor { system("systemTeal") }
    public static var systemCyan: UIColor { system("systemCyan") }
    public static var systemBlue: UIColor { system("systemBlue") }
    public static var systemIndigo: UIColor { system("systemIndigo") }
    public static var systemPurple: UIColor { system("systemPurple") }
    public static var systemPink: UIColor { system("systemPink") }
    public static var systemBrown: UIColor { system("systemBrown") }
    public static var systemGray: UIColor { system("systemGray") }
    public static var systemGray2: UIColor { system("systemGray2") }
    public static var systemGray3: UIColor { system("systemGray3") }
    public static var systemGray4: UIColor { system("systemGray4") }
    public static var systemGray5: UIColor { system("systemGray5") }
    public static var systemGray6: UIColor { system("systemGray6") }
    public static var label: UIColor { system("label") }
    public static var secondaryLabel: UIColor { system("secondaryLabel") }
    public static var tertiaryLabel: UIColor { system("tertiaryLabel") }
    public static var quaternaryLabel: UIColor { system("quaternaryLabel") }
    public static var systemFill: UIColor { system("systemFill") }
    public static var secondarySystemFill: UIColor { system("secondarySystemFill") }
    public static var tertiarySystemFill: UIColor { system("tertiarySystemFill") }
    public static var quaternarySystemFill: UIColor { system("quaternarySystemFill") }
    public static var systemBackground: UIColor { system("systemBackground") }
    public static var secondarySystemBackground: UIColor { system("secondarySystemBackground") }
    public static var tertiarySystemBackground: UIColor { system("tertiarySystemBackground") }
    public static var systemGroupedBackground: UIColor { system("systemGroupedBackground") }
    public static var secondarySystemGroupedBackground: UIColor { system("secondarySystemGroupedBackground") }
    public static var separator: UIColor { system("separator") }
    public static var placeholderText: UIColor { system("placeholderText") }
    public static var link: UIColor { system("link") }
    public static var tintColor: UIColor { system("systemBlue") }
}
