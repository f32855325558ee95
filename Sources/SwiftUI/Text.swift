import AppIntents
/// A localization key: a string literal, possibly with interpolations, that `Text` looks up (Lockstep has no
/// string tables, so the key's own text is shown, as iOS does when a key has no translation).
public struct LocalizedStringKey: Equatable, Sendable, ExpressibleByStringInterpolation {
    /// The text as shown, built from the literal and its interpolated values.
    var segments: [Text.Segment]
    /// The key as Xcode extracts it into a string catalog (`%lld habits left`) with its values; nil when an
    /// interpolation is a view, a date style or a timer, which no catalog key holds here.
    var localization: String.LocalizationValue?

    public init(_ value: String) {
        segments = [.string(value)]
        localization = String.LocalizationValue(value)
    }
    public init(stringLiteral value: String) { self.init(value) }
    public init(stringInterpolation: StringInterpolation) {
        segments = stringInterpolation.segments
        localization = stringInterpolation.localization.map(String.LocalizationValue.init(stringInterpolation:))
    }

    public static func == (a: LocalizedStringKey, b: LocalizedStringKey) -> Bool { a.segments == b.segments }

    public struct StringInterpolation: StringInterpolationProtocol {
        var segments: [Text.Segment] = []
        var localization: String.LocalizationValue.StringInterpolation? =
            String.LocalizationValue.StringInterpolation(literalCapacity: 0, interpolationCount: 0)

        public init(literalCapacity: Int, interpolationCount: Int) {}

        public mutating func appendLiteral(_ literal: String) {
            segments.append(.string(literal))
            localization?.appendLiteral(literal)
        }

        public mutating func appendInterpolation(_ string: String) {
            segments.append(.string(string))
            localization?.appendInterpolation(string)
        }

        public mutating func appendInterpolation<T>(_ value: T) where T: _FormatSpecifiable {
            segments.append(.string(value._defaultFormatted))
            appendToKey(value, specifier: nil)
        }

        public mutating func appendInterpolation<T>(_ value: T, specifier: String) where T: _FormatSpecifiable {
            segments.append(.string(value._formatted(specifier)))
            appendToKey(value, specifier: specifier)
        }

        public mutating func appendInterpolation(_ text: Text) {
            segments.append(.text(text))
            localization = nil
        }

        public mutating func appendInterpolation(_ image: Image) {
            segments.append(.text(Text(image)))
            localization = nil
        }

        public mutating func appendInterpolation<Subject>(_ subject: Subject, formatter: Formatter? = nil) where Subject: ReferenceConvertible {
            appendFormatted(formatter?.string(for: subject) ?? "\(subject)")
        }

        public mutating func appendInterpolation<Subject>(_ subject: Subject, formatter: Formatter? = nil) where Subject: NSObject {
            appendFormatted(formatter?.string(for: subject) ?? subject.description)
        }

        public mutating func appendInterpolation<F>(_ input: F.FormatInput, format: F) where F: FormatStyle, F.FormatInput: Equatable, F.FormatOutput == String {
            appendFormatted(format.format(input))
        }

        public mutating func appendInterpolation(_ date: Date, style: Text.DateStyle) {
            segments.append(.date(date, style))
            localization = nil
        }

        public mutating func appendInterpolation(timerInterval: ClosedRange<Date>, pauseTime: Date? = nil, countsDown: Bool = true, showsHours: Bool = true) {
            segments.append(.timer(timerInterval, countsDown: countsDown, showsHours: showsHours))
            localization = nil
        }

        /// A value already formatted: `%@` in the key, as Xcode writes it.
        private mutating func appendFormatted(_ text: String) {
            segments.append(.string(text))
            localization?.appendInterpolation(text)
        }

        /// A number in the key: its own specifier, else `%lld` for an integer and `%lf` for a floating-point value.
        private mutating func appendToKey<T: _FormatSpecifiable>(_ value: T, specifier: String?) {
            switch value {
            case let integer as any BinaryInteger:
                localization?.appendInterpolation(Int64(integer), specifier: specifier ?? "%lld")
            case let number as any BinaryFloatingPoint:
                localization?.appendInterpolation(Double(number), specifier: specifier ?? "%lf")
            default:
                localization?.appendInterpolation(value._defaultFormatted)
            }
        }
    }
}

/// Numbers Text interpolation formats with a `printf` specifier (`%lld`, `%.1f`) as Apple's does.
public protocol _FormatSpecifiable: Equatable {
    var _defaultFormatted: String { get }
    func _formatted(_ specifier: String) -> String
}

extension _FormatSpecifiable where Self: BinaryInteger {
    public var _defaultFormatted: String { "\(self)" }
    public func _formatted(_ specifier: String) -> String { String(format: specifier, Int64(self)) }
}

extension _FormatSpecifiable where Self: BinaryFloatingPoint {
    public var _defaultFormatted: String { String(format: "%lf", Double(self)) }
    public func _formatted(_ specifier: String) -> String { String(format: specifier, Double(self)) }
}

extension Int: _FormatSpecifiable {}
extension Int8: _FormatSpecifiable {}
extension Int16: _FormatSpecifiable {}
extension Int32: _FormatSpecifiable {}
extension Int64: _FormatSpecifiable {}
extension UInt: _FormatSpecifiable {}
extension UInt8: _FormatSpecifiable {}
extension UInt16: _FormatSpecifiable {}
extension UInt32: _FormatSpecifiable {}
extension UInt64: _FormatSpecifiable {}
extension Float: _FormatSpecifiable {}
extension Double: _FormatSpecifiable {}
extension CGFloat: _FormatSpecifiable {}

/// Text: one or more runs of characters, each with its own font and color, laid out as SwiftUI does (wrapped at
/// word boundaries, at most `lineLimit` lines, truncated with an ellipsis, shrunk down to `minimumScaleFactor`).
public struct Text: Equatable, Sendable {
    /// What a run shows: fixed characters, or a date/timer formatted when drawn.
    enum Segment: Equatable, Sendable {
        case string(String)
        case text(Text)
        case date(Date, DateStyle)
        case timer(ClosedRange<Date>, countsDown: Bool, showsHours: Bool)
        case image(String)
    }

    /// The attributes a run may set for itself (unset ones come from the environment).
    struct Attributes: Equatable, Sendable {
        var font: Font?
        var weight: Font.Weight?
        var italic = false
        var monospacedDigit = false
        var monospaced = false
        var color: AnyColorish?
        var strikethrough = false
        var underline = false
        var kerning: CGFloat = 0
    }

    struct Run: Equatable, Sendable {
        var segments: [Segment]
        var attributes: Attributes
    }

    var runs: [Run]

    init(runs: [Run]) { self.runs = runs }

    /// The key's text in the bundle's string catalogs with its values put in (`Text("\(n) habits left")` shows the
    /// catalog's `%lld habits still to do`), as on a device; the text as written when no table has the key.
    public init(_ key: LocalizedStringKey, tableName: String? = nil, bundle: Bundle? = nil, comment: StaticString? = nil) {
        if let translated = key.localization.flatMap({ Text.catalogText($0, table: tableName) }) {
            runs = [Run(segments: [.string(translated)], attributes: Attributes())]
        } else {
            runs = [Run(segments: key.segments, attributes: Attributes())]
        }
    }

    public init(verbatim content: String) {
        runs = [Run(segments: [.string(content)], attributes: Attributes())]
    }

    /// A localized resource's text: its key looked up in the bundle's string catalogs with its values put in, else
    /// its default value (`LocalizedStringResource.description`).
    public init(_ resource: LocalizedStringResource) {
        self.init(verbatim: resource.description)
    }

    @_disfavoredOverload
    public init<S: StringProtocol>(_ content: S) {
        runs = [Run(segments: [.string(String(content))], attributes: Attributes())]
    }

    public init(_ date: Date, style: Text.DateStyle) {
        runs = [Run(segments: [.date(date, style)], attributes: Attributes())]
    }

    public init(_ dates: ClosedRange<Date>) {
        runs = [Run(segments: [.date(dates.lowerBound, .time), .string(" – "), .date(dates.upperBound, .time)], attributes: Attributes())]
    }

    public init(timerInterval: ClosedRange<Date>, pauseTime: Date? = nil, countsDown: Bool = true, showsHours: Bool = true) {
        runs = [Run(segments: [.timer(timerInterval, countsDown: countsDown, showsHours: showsHours)], attributes: Attributes())]
    }

    public init<F>(_ input: F.FormatInput, format: F) where F: FormatStyle, F.FormatInput: Equatable, F.FormatOutput == String {
        runs = [Run(segments: [.string(format.format(input))], attributes: Attributes())]
    }

    public init<Subject>(_ subject: Subject, formatter: Formatter) where Subject: ReferenceConvertible {
        runs = [Run(segments: [.string(formatter.string(for: subject) ?? "")], attributes: Attributes())]
    }

    public init<Subject>(_ subject: Subject, formatter: Formatter) where Subject: NSObject {
        runs = [Run(segments: [.string(formatter.string(for: subject) ?? "")], attributes: Attributes())]
    }

    /// An image inside text (`Text(Image(systemName:))`), drawn as its placeholder glyph.
    public init(_ image: Image) {
        runs = [Run(segments: [.image(image.name)], attributes: Attributes())]
    }

    /// How `Text(_:style:)` shows a date.
    public struct DateStyle: Equatable, Sendable {
        enum Kind: Equatable, Sendable { case time, date, relative, offset, timer }
        let kind: Kind
        public static let time = DateStyle(kind: .time)
        public static let date = DateStyle(kind: .date)
        public static let relative = DateStyle(kind: .relative)
        public static let offset = DateStyle(kind: .offset)
        public static let timer = DateStyle(kind: .timer)
    }

    public enum Case: Hashable, Sendable { case uppercase, lowercase }

    public enum TruncationMode: Hashable, Sendable { case head, tail, middle }

    public static func + (lhs: Text, rhs: Text) -> Text { Text(runs: lhs.runs + rhs.runs) }

    private func withAttributes(_ change: (inout Attributes) -> Void) -> Text {
        var text = self
        for i in text.runs.indices { change(&text.runs[i].attributes) }
        return text
    }

    public func font(_ font: Font?) -> Text { withAttributes { if $0.font == nil { $0.font = font } } }
    public func fontWeight(_ weight: Font.Weight?) -> Text { withAttributes { if $0.weight == nil { $0.weight = weight } } }
    public func bold() -> Text { fontWeight(.bold) }
    public func bold(_ isActive: Bool) -> Text { isActive ? bold() : self }
    public func italic() -> Text { withAttributes { $0.italic = true } }
    public func italic(_ isActive: Bool) -> Text { isActive ? italic() : self }
    public func monospacedDigit() -> Text { withAttributes { $0.monospacedDigit = true } }
    public func monospaced(_ isActive: Bool = true) -> Text { withAttributes { $0.monospaced = $0.monospaced || isActive } }
    public func fontDesign(_ design: Font.Design?) -> Text { design == .monospaced ? monospaced() : self }
    public func foregroundColor(_ color: Color?) -> Text {
        withAttributes { if $0.color == nil, let color { $0.color = AnyColorish(style: color) } }
    }
    public func foregroundStyle<S: ShapeStyle>(_ style: S) -> Text {
        withAttributes { if $0.color == nil { $0.color = AnyColorish(style: style) } }
    }
    public func strikethrough(_ isActive: Bool = true, color: Color? = nil) -> Text { withAttributes { $0.strikethrough = isActive } }
    public func underline(_ isActive: Bool = true, color: Color? = nil) -> Text { withAttributes { $0.underline = isActive } }
    public func kerning(_ kerning: CGFloat) -> Text { withAttributes { $0.kerning = kerning } }
    public func tracking(_ tracking: CGFloat) -> Text { withAttributes { $0.kerning = tracking } }
}

/// A style a text run holds (Equatable so `Text` stays Equatable, as Apple's is).
struct AnyColorish: Equatable, @unchecked Sendable {  // @unchecked: ShapeStyle is Sendable; the box only adds ==.
    let style: any ShapeStyle
    init(style: any ShapeStyle) { self.style = style }
    // Described when compared, not when made: describing a value goes through reflection, whose first use for each
    // type costs a widget's first rendering more than drawing the text does.
    static func == (a: AnyColorish, b: AnyColorish) -> Bool { "\(a.style)" == "\(b.style)" }
}

extension Text: View { public typealias Body = Never }

// MARK: - resolving text

extension Text.Segment {
    /// A date the system keeps current as time passes (`.timer`, `.relative`, `.offset`, `Text(timerInterval:)`):
    /// Apple's "Displaying dynamic dates" in "Keeping a widget up to date". Such a text takes the whole width it is
    /// offered and draws its value at its alignment's edge, as a device does (a timer beside a label takes the room
    /// the label leaves; `.frame(width:)` or `.fixedSize()` makes it as wide as its value).
    var updatesItself: Bool {
        switch self {
        case .timer: return true
        case let .date(_, style): return style.kind == .timer || style.kind == .relative || style.kind == .offset
        case .string, .text, .image: return false
        }
    }

    func string(_ env: EnvironmentValues, now: Date) -> String {
        switch self {
        case let .string(s): return s
        case let .text(t): return t.runs.flatMap(\.segments).map { $0.string(env, now: now) }.joined()
        case let .date(date, style): return TextFormatting.format(date, style, env, now: now)
        case let .timer(range, countsDown, showsHours):
            let interval = countsDown ? range.upperBound.timeIntervalSince(max(now, range.lowerBound))
                : min(now, range.upperBound).timeIntervalSince(range.lowerBound)
            return TextFormatting.timer(max(0, interval), showsHours: showsHours)
        case .image: return "\u{FFFC}"
        }
    }
}

/// How dates show in text, in the environment's locale, time zone and calendar.
enum TextFormatting {
    private static func formatted(_ date: Date, dateStyle: DateFormatter.Style, timeStyle: DateFormatter.Style,
                                  _ env: EnvironmentValues) -> String {
        let f = DateFormatter()
        f.locale = env.locale
        f.timeZone = env.timeZone
        f.dateStyle = dateStyle
        f.timeStyle = timeStyle
        return f.string(from: date)
    }

    static func format(_ date: Date, _ style: Text.DateStyle, _ env: EnvironmentValues, now: Date) -> String {
        switch style.kind {
        case .time:
            return formatted(date, dateStyle: .none, timeStyle: .short, env)
        case .date:
            return formatted(date, dateStyle: .long, timeStyle: .none, env)
        case .relative:
            // "2 hr, 15 min" (Apple's relative style: the two largest units, abbreviated, no "ago").
            return components(abs(date.timeIntervalSince(now)), env)
        case .offset:
            let interval = date.timeIntervalSince(now)
            return (interval < 0 ? "-" : "+") + components(abs(interval), env)
        case .timer:
            return timer(abs(date.timeIntervalSince(now)), showsHours: true)
        }
    }

    /// The two largest nonzero units, abbreviated ("2 hr, 15 min", "1 day, 3 hr"), as Apple's relative style shows
    /// an interval in English.
    static func components(_ interval: TimeInterval, _ env: EnvironmentValues) -> String {
        var rest = Int(interval.rounded(.down))
        let units: [(seconds: Int, one: String, many: String)] = [
            (31_536_000, "yr", "yr"), (2_592_000, "mth", "mths"), (604_800, "wk", "wks"), (86_400, "day", "days"),
            (3600, "hr", "hr"), (60, "min", "min"), (1, "sec", "sec"),
        ]
        var parts: [String] = []
        for unit in units where parts.count < 2 {
            let n = rest / unit.seconds
            if n > 0 {
                parts.append("\(n) \(n == 1 ? unit.one : unit.many)")
                rest -= n * unit.seconds
            } else if !parts.isEmpty {
                break
            }
        }
        return parts.isEmpty ? "0 sec" : parts.joined(separator: ", ")
    }

    /// `12:34` or `1:02:03`, as a timer shows it.
    static func timer(_ interval: TimeInterval, showsHours: Bool) -> String {
        let total = Int(interval.rounded(.down))
        let h = total / 3600, m = (total % 3600) / 60, s = total % 60
        func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
        if h > 0 && showsHours { return "\(h):\(two(m)):\(two(s))" }
        return "\(showsHours ? m : m + h * 60):\(two(s))"
    }
}

extension Text: PrimitiveView {
    @MainActor public static func _resolve(_ view: Self, _ inputs: _ResolveInputs) -> _ResolvedNodes { _ResolvedNodes(nodes: view.nodes(inputs.context)) }
    @MainActor func nodes(_ context: ResolveContext) -> [Node] {
        let env = context.environment
        let now = env.renderDate ?? Date()
        let baseFont = env.font ?? .body
        var runs: [TextNode.Run] = []
        var live = false
        for run in self.runs {
            var font = run.attributes.font ?? baseFont
            if let weight = run.attributes.weight { font = font.weight(weight) }
            if run.attributes.italic { font = font.italic() }
            if run.attributes.monospacedDigit { font = font.monospacedDigit() }
            if run.attributes.monospaced { font = font.monospaced() }
            let traits = env.textTraits
            if run.attributes.weight == nil, let weight = traits.weight { font = font.weight(weight) }
            if traits.italic { font = font.italic() }
            if traits.monospacedDigit { font = font.monospacedDigit() }
            if traits.monospaced { font = font.monospaced() }
            let paint = run.attributes.color.map { resolvePaint($0.style, env) } ?? env.foregroundPaint(level: 0)
            for segment in run.segments {
                if case let .text(inner) = segment {
                    // An interpolated Text keeps its own attributes over the outer run's.
                    let nested = inner.nodes(context).compactMap { $0 as? TextNode }
                    runs += nested.flatMap(\.runs)
                    live = live || nested.contains(where: \.fillsWidth)
                    continue
                }
                live = live || segment.updatesItself
                var string = segment.string(env, now: now)
                switch env.textCase {
                case .uppercase?: string = string.uppercased(with: env.locale)
                case .lowercase?: string = string.lowercased(with: env.locale)
                case nil: break
                }
                if case let .image(name) = segment {
                    runs.append(TextNode.Run(text: string, font: font.resolved(env.dynamicTypeSize), paint: paint, symbol: name))
                } else {
                    runs.append(TextNode.Run(text: string, font: font.resolved(env.dynamicTypeSize), paint: paint, symbol: nil))
                }
            }
        }
        let redacted = !env.redactionReasons.isEmpty && !env.isUnredacted
            && (env.redactionReasons.contains(.placeholder) || (env.redactionReasons.contains(.privacy) && env.isPrivacySensitive))
        let node = TextNode(runs: runs, lineLimit: env.lineLimit, minimumScaleFactor: env.minimumScaleFactor,
                         alignment: env.multilineTextAlignment, truncation: env.truncationMode, lineSpacing: env.lineSpacing, reservedLines: env.reservedLines, redacted: redacted,
                         redactionPaint: env.foregroundPaint(level: 3), emojiPaint: { env.grouped(.color(Drawing.emojiColour($0))) },
                         fillsWidth: live)
        // A foreground style's blend mode and shadow (`.foregroundStyle(.white.shadow(.drop(radius: 2)))`).
        return [withStyleEffects(node, self.runs.first?.attributes.color?.style ?? ForegroundStyle(), env)]
    }
}

// MARK: - fonts as drawn

/// A font with everything text measurement needs.
struct ResolvedFont: Hashable {
    var size: CGFloat
    var weight: Int
    var italic: Bool
    var monospacedDigit: Bool
    var monospaced: Bool

    /// The font's natural line height (ascender + descender), as SwiftUI spaces lines when `lineSpacing` is 0.
    var lineHeight: CGFloat { size * CGFloat((FontMetrics.ascender + FontMetrics.descender) / FontMetrics.unitsPerEm) }
    var ascent: CGFloat { size * CGFloat(FontMetrics.ascender / FontMetrics.unitsPerEm) }

    func scaled(_ factor: CGFloat) -> ResolvedFont {
        var f = self
        f.size *= factor
        return f
    }
}

extension Font.TextStyle {
    /// Point size and weight at the default (Large) Dynamic Type size: the iOS type-size table of Apple's Human
    /// Interface Guidelines, "Typography" → "Specifications" → "iOS, iPadOS Dynamic Type sizes"
    /// (https://developer.apple.com/design/human-interface-guidelines/typography).
    var metrics: (size: CGFloat, weight: Font.Weight) { metrics(at: .large) }

    /// Point size and weight at `size`: the same tables, one per Dynamic Type size (xSmall … xxxLarge, AX1 … AX5),
    /// read column by column for the style — UIKit's table, which `UIFont.preferredFont(forTextStyle:)` reads too.
    func metrics(at size: DynamicTypeSize) -> (size: CGFloat, weight: Font.Weight) {
        let (points, weight) = DynamicTypeTable.metrics(uiTextStyle, column: DynamicTypeSize.allCases.firstIndex(of: size)!)
        return (points, weight == .semibold ? .semibold : .regular)
    }

    /// UIKit's name for the style.
    var uiTextStyle: UIFont.TextStyle {
        switch self {
        case .largeTitle: return .largeTitle
        case .title: return .title1
        case .title2: return .title2
        case .title3: return .title3
        case .headline: return .headline
        case .body: return .body
        case .callout: return .callout
        case .subheadline: return .subheadline
        case .footnote: return .footnote
        case .caption: return .caption1
        case .caption2: return .caption2
        }
    }
}

extension Font {
    /// The font at the default Dynamic Type size (Large).
    var resolved: ResolvedFont { resolved(.large) }

    /// The font at Dynamic Type size `dynamicType`: a text style takes its size from Apple's table; a fixed size
    /// (`.system(size:)`, `.custom`) does not scale.
    func resolved(_ dynamicType: DynamicTypeSize) -> ResolvedFont {
        let size: CGFloat, defaultWeight: Font.Weight
        switch base {
        case let .style(style): (size, defaultWeight) = style.metrics(at: dynamicType)
        case let .size(points): (size, defaultWeight) = (points, .regular)
        }
        return ResolvedFont(size: size, weight: (weightValue ?? defaultWeight).value, italic: isItalic,
                            monospacedDigit: isMonospacedDigit, monospaced: design == .monospaced)
    }
}

/// Advance widths from the generated Inter table (FontMetrics.swift).
enum TextMeasure {
    /// Each character's advances at the table's weights.
    private static let table = Dictionary(uniqueKeysWithValues: FontMetrics.advances)

    /// The table's column for the nearest weight it has.
    private static func column(_ weight: Int) -> Int {
        let w = min(900, max(100, (weight + 50) / 100 * 100))
        return FontMetrics.weights.firstIndex(of: w) ?? FontMetrics.weights.firstIndex(of: 400)!
    }

    /// The weight class of the face text of `weight` is measured (and drawn) with: the table's nearest column.
    static func faceWeight(_ weight: Int) -> Int { FontMetrics.weights[column(weight)] }

    /// Whether `character` is drawn as an emoji (a colour glyph, one em wide, whatever its scalars: `🧘‍♀️` is one):
    /// an emoji-presentation scalar, or an emoji scalar followed by the emoji variation selector U+FE0F.
    static func isEmoji(_ character: Character) -> Bool {
        guard let first = character.unicodeScalars.first else { return false }
        return first.properties.isEmojiPresentation
            || (first.properties.isEmoji && character.unicodeScalars.contains { $0.value == 0xFE0F })
    }

    /// The width of `text` in `font`, in points.
    static func width(_ text: Substring, _ font: ResolvedFont) -> CGFloat {
        let emoji = text.filter(isEmoji)
        let plain = emoji.isEmpty ? text : Substring(text.filter { !isEmoji($0) })
        return CGFloat(Double(emoji.count) + units(plain, font) / FontMetrics.unitsPerEm) * font.size
    }

    /// The advance of `text` (emoji apart) in font units.
    private static func units(_ text: Substring, _ font: ResolvedFont) -> Double {
        let table = table
        let column = column(font.weight)
        var units = 0.0
        for scalar in text.unicodeScalars {
            if font.monospaced {
                // SF Mono: every character advances 0.6 em.
                units += isCombining(scalar) ? 0 : 0.6 * FontMetrics.unitsPerEm
            } else if font.monospacedDigit, scalar.properties.numericType == .decimal, scalar.value < 0x80 {
                units += Double(FontMetrics.tabularDigit[column])
            } else if let advances = table[scalar] {
                units += Double(advances[column])
            } else if isCombining(scalar) || scalar.value == 0x200D || (0xFE00...0xFE0F).contains(scalar.value) {
                units += 0
            } else {
                // Outside the table (CJK, other scripts): a full em, as those glyphs are about square.
                units += FontMetrics.unitsPerEm
            }
        }
        return units
    }

    private static func isCombining(_ s: Unicode.Scalar) -> Bool {
        switch s.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format: return true
        default: return false
        }
    }
}
