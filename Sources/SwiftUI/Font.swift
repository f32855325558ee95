/// A font: a text style that scales with Dynamic Type, or a system font at a fixed size, with weight, design and
/// the other traits text takes.
public struct Font: Hashable, Sendable {
    /// A text style's size and line height (iOS, the default "Large" Dynamic Type size).
    public enum TextStyle: CaseIterable, Hashable, Sendable {
        case largeTitle, title, title2, title3, headline, subheadline, body, callout, footnote, caption, caption2
    }

    public struct Weight: Hashable, Sendable {
        /// The OpenType weight class (100 ultra light … 900 black): which advance-width column text measures with.
        let value: Int
        public static let ultraLight = Weight(value: 100)
        public static let thin = Weight(value: 200)
        public static let light = Weight(value: 300)
        public static let regular = Weight(value: 400)
        public static let medium = Weight(value: 500)
        public static let semibold = Weight(value: 600)
        public static let bold = Weight(value: 700)
        public static let heavy = Weight(value: 800)
        public static let black = Weight(value: 900)
    }

    public enum Design: Hashable, Sendable {
        case `default`, serif, rounded, monospaced
    }

    public struct Width: Hashable, Sendable {
        public var value: CGFloat
        public init(_ value: CGFloat) { self.value = value }
        public static let compressed = Width(-0.3)
        public static let condensed = Width(-0.2)
        public static let standard = Width(0)
        public static let expanded = Width(0.2)
    }

    enum Base: Hashable, Sendable {
        case style(TextStyle)
        case size(CGFloat)
    }

    var base: Base
    var weightValue: Weight?
    var design: Design = .default
    var isItalic = false
    var isMonospacedDigit = false
    var widthValue: Width?

    init(base: Base, weight: Weight? = nil, design: Design = .default) {
        self.base = base
        self.weightValue = weight
        self.design = design
    }

    public static let largeTitle = Font(base: .style(.largeTitle))
    public static let title = Font(base: .style(.title))
    public static let title2 = Font(base: .style(.title2))
    public static let title3 = Font(base: .style(.title3))
    public static let headline = Font(base: .style(.headline))
    public static let subheadline = Font(base: .style(.subheadline))
    public static let body = Font(base: .style(.body))
    public static let callout = Font(base: .style(.callout))
    public static let footnote = Font(base: .style(.footnote))
    public static let caption = Font(base: .style(.caption))
    public static let caption2 = Font(base: .style(.caption2))

    public static func system(size: CGFloat, weight: Font.Weight? = nil, design: Font.Design? = nil) -> Font {
        Font(base: .size(size), weight: weight, design: design ?? .default)
    }

    public static func system(_ style: Font.TextStyle, design: Font.Design? = nil, weight: Font.Weight? = nil) -> Font {
        Font(base: .style(style), weight: weight, design: design ?? .default)
    }

    /// A custom font is measured as the system font at that size: Lockstep has only the system font's metrics.
    public static func custom(_ name: String, size: CGFloat) -> Font { Font(base: .size(size)) }
    public static func custom(_ name: String, size: CGFloat, relativeTo textStyle: Font.TextStyle) -> Font { Font(base: .size(size)) }
    public static func custom(_ name: String, fixedSize: CGFloat) -> Font { Font(base: .size(fixedSize)) }

    public func weight(_ weight: Font.Weight) -> Font {
        var font = self
        font.weightValue = weight
        return font
    }
    public func bold() -> Font { weight(.bold) }
    public func italic() -> Font {
        var font = self
        font.isItalic = true
        return font
    }
    public func monospacedDigit() -> Font {
        var font = self
        font.isMonospacedDigit = true
        return font
    }
    public func monospaced() -> Font {
        var font = self
        font.design = .monospaced
        return font
    }
    public func width(_ width: Font.Width) -> Font {
        var font = self
        font.widthValue = width
        return font
    }
}
