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

    /// A text style at the Dynamic Type size of the current traits (`UITraitCollection.current`: the size a widget
    /// is drawn at, `render --dynamic-type`; Large elsewhere), with the sizes of Apple's typography table.
    public static func preferredFont(forTextStyle style: TextStyle) -> UIFont {
        preferredFont(forTextStyle: style, compatibleWith: nil)
    }

    /// A text style at the Dynamic Type size of `traitCollection` (the current traits when nil).
    public static func preferredFont(forTextStyle style: TextStyle, compatibleWith traitCollection: UITraitCollection?) -> UIFont {
        let category = (traitCollection ?? .current).preferredContentSizeCategory
        let (size, weight) = DynamicTypeTable.metrics(style, column: category.column)
        return UIFont(pointSize: size, weight: weight == .semibold ? .semibold : .regular)
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

/// Apple's Human Interface Guidelines, "Typography" → "Specifications" → "iOS, iPadOS Dynamic Type sizes"
/// (https://developer.apple.com/design/human-interface-guidelines/typography): each text style's point size at each
/// Dynamic Type size. UIKit's `preferredFont(forTextStyle:)` and SwiftUI's `Font.body` … read this one table.
package enum DynamicTypeTable {
    /// The weights a text style has (they do not change with the size).
    package enum Weight: Sendable { case regular, semibold }

    /// The columns: xSmall, Small, Medium, Large (the default), xLarge, xxLarge, xxxLarge, AX1 … AX5.
    package static let columns = 12
    /// The Large column, the default size.
    package static let defaultColumn = 3

    /// Point size and weight of `style` in `column` (0 ..< columns).
    package static func metrics(_ style: UIFont.TextStyle, column: Int) -> (size: CGFloat, weight: Weight) {
        let sizes: [CGFloat]
        switch style {
        //                         xS  S   M   L   xL  xxL xxxL AX1 AX2 AX3 AX4 AX5
        case .largeTitle: sizes = [31, 32, 33, 34, 36, 38, 40, 44, 48, 52, 56, 60]
        case .title1: sizes = [25, 26, 27, 28, 30, 32, 34, 38, 43, 48, 53, 58]
        case .title2: sizes = [19, 20, 21, 22, 24, 26, 28, 34, 39, 44, 50, 56]
        case .title3: sizes = [17, 18, 19, 20, 22, 24, 26, 31, 37, 43, 49, 55]
        case .callout: sizes = [13, 14, 15, 16, 18, 20, 22, 26, 32, 38, 44, 51]
        case .subheadline: sizes = [12, 13, 14, 15, 17, 19, 21, 25, 30, 36, 42, 49]
        case .footnote: sizes = [12, 12, 12, 13, 15, 17, 19, 23, 27, 33, 38, 44]
        case .caption1: sizes = [11, 11, 11, 12, 14, 16, 18, 22, 26, 32, 37, 43]
        case .caption2: sizes = [11, 11, 11, 11, 13, 15, 17, 20, 24, 29, 34, 40]
        // Headline and Body share their sizes; an unknown style is Body, as UIKit falls back.
        default: sizes = [14, 15, 16, 17, 19, 21, 23, 28, 33, 40, 47, 53]
        }
        return (sizes[min(max(column, 0), columns - 1)], style == .headline ? .semibold : .regular)
    }
}

extension CGFloat {
    func rounded(toPlaces places: Int) -> CGFloat {
        let factor = CGFloat(pow(10, Double(places)))
        return (self * factor).rounded() / factor
    }
}
