import Foundation

/// A font: the system font at a size and weight, or a text style's (Dynamic Type at the default size).
public final class UIFont: NSObject, Sendable {
    public struct Weight: Hashable, Sendable, RawRepresentable {
        public let rawValue: CGFloat
        public init(rawValue: CGFloat) { self.rawValue = rawValue }
        public init(_ rawValue: CGFloat) { self.rawValue = rawValue }
        public static let ultraLight = Weight(-0.8), thin = Weight(-0.6), light = Weight(-0.4), regular = Weight(0),
                          medium = Weight(0.23), semibold = Weight(0.3), bold = Weight(0.4), heavy = Weight(0.56), black = Weight(0.62)
    }

    public struct TextStyle: Hashable, Sendable, RawRepresentable {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        public static let largeTitle = TextStyle(rawValue: "UICTFontTextStyleTitle0"), title1 = TextStyle(rawValue: "UICTFontTextStyleTitle1"),
                          title2 = TextStyle(rawValue: "UICTFontTextStyleTitle2"), title3 = TextStyle(rawValue: "UICTFontTextStyleTitle3"),
                          headline = TextStyle(rawValue: "UICTFontTextStyleHeadline"), subheadline = TextStyle(rawValue: "UICTFontTextStyleSubhead"),
                          body = TextStyle(rawValue: "UICTFontTextStyleBody"), callout = TextStyle(rawValue: "UICTFontTextStyleCallout"),
                          footnote = TextStyle(rawValue: "UICTFontTextStyleFootnote"), caption1 = TextStyle(rawValue: "UICTFontTextStyleCaption1"),
                          caption2 = TextStyle(rawValue: "UICTFontTextStyleCaption2")
    }

    public let pointSize: CGFloat
    public let weight: Weight
    public let familyName: String
    public var fontName: String { weight == .regular ? ".SFUI-Regular" : ".SFUI-\(weight.rawValue)" }

    init(pointSize: CGFloat, weight: Weight) {
        self.pointSize = pointSize
        self.weight = weight
        familyName = ".AppleSystemUIFont"
        super.init()
    }

    public static func systemFont(ofSize fontSize: CGFloat) -> UIFont { UIFont(pointSize: fontSize, weight: .regular) }
    public static func systemFont(ofSize fontSize: CGFloat, weight: Weight) -> UIFont { UIFont(pointSize: fontSize, weight: weight) }
    public static func boldSystemFont(ofSize fontSize: CGFloat) -> UIFont { UIFont(pointSize: fontSize, weight: .bold) }
    public static func monospacedDigitSystemFont(ofSize fontSize: CGFloat, weight: Weight) -> UIFont { UIFont(pointSize: fontSize, weight: weight) }

    /// A text style at the default Dynamic Type size (Large), with the sizes of Apple's typography table.
    public static func preferredFont(forTextStyle style: TextStyle) -> UIFont {
        let sizes: [TextStyle: (CGFloat, Weight)] = [
            .largeTitle: (34, .regular), .title1: (28, .regular), .title2: (22, .regular), .title3: (20, .regular),
            .headline: (17, .semibold), .subheadline: (15, .regular), .body: (17, .regular), .callout: (16, .regular),
            .footnote: (13, .regular), .caption1: (12, .regular), .caption2: (11, .regular),
        ]
        let (size, weight) = sizes[style] ?? (17, .regular)
        return UIFont(pointSize: size, weight: weight)
    }

    public func withSize(_ fontSize: CGFloat) -> UIFont { UIFont(pointSize: fontSize, weight: weight) }

    /// SF Pro's metrics as a share of the point size: ascender 0.952, descender −0.238, line height 1.19.
    public var ascender: CGFloat { (pointSize * 0.952).rounded(toPlaces: 3) }
    public var descender: CGFloat { (-pointSize * 0.238).rounded(toPlaces: 3) }
    public var lineHeight: CGFloat { (pointSize * 1.193).rounded(toPlaces: 3) }
    public var capHeight: CGFloat { (pointSize * 0.705).rounded(toPlaces: 3) }
    public var xHeight: CGFloat { (pointSize * 0.528).rounded(toPlaces: 3) }
    public var leading: CGFloat { 0 }
}

extension CGFloat {
    func rounded(toPlaces places: Int) -> CGFloat {
        let factor = CGFloat(pow(10, Double(places)))
        return (self * factor).rounded() / factor
    }
}
