/// A key for a value in the environment, with the value a view sees when no ancestor set one.
public protocol EnvironmentKey {
    associatedtype Value
    static var defaultValue: Self.Value { get }
}

/// The values a view inherits from its ancestors: `colorScheme`, `font`, `redactionReasons` …, and any value a
/// framework or app adds with an `EnvironmentKey` and a computed property.
public struct EnvironmentValues: CustomStringConvertible {
    private var values: [ObjectIdentifier: Any] = [:]

    public init() {}

    public subscript<K: EnvironmentKey>(key: K.Type) -> K.Value {
        get { (values[ObjectIdentifier(key)] as? K.Value) ?? K.defaultValue }
        set { values[ObjectIdentifier(key)] = newValue }
    }

    public var description: String { "EnvironmentValues(\(values.count) set)" }
}

/// The environment a body is evaluated in. The renderer evaluates bodies synchronously on its own thread, inside
/// `withValue`, so a task local is exactly the scope `@Environment` reads from.
enum CurrentEnvironment {
    /// @unchecked: the values are read only by bodies the renderer evaluates synchronously within this scope.
    struct Box: @unchecked Sendable { var values: EnvironmentValues }
    @TaskLocal static var box: Box?

    static var values: EnvironmentValues { box?.values ?? EnvironmentValues() }

    static func with<R>(_ values: EnvironmentValues, _ body: () throws -> R) rethrows -> R {
        try $box.withValue(Box(values: values), operation: body)
    }
}

/// A property that the renderer sets up before it evaluates a body.
public protocol DynamicProperty {}

/// Reads a value from the view's environment: `@Environment(\.colorScheme) var colorScheme`.
@propertyWrapper
public struct Environment<Value>: DynamicProperty {
    let keyPath: KeyPath<EnvironmentValues, Value>

    public init(_ keyPath: KeyPath<EnvironmentValues, Value>) {
        self.keyPath = keyPath
    }

    /// The value in the environment the body is being evaluated in (outside a render: the default value, as
    /// Apple's is when the view is not installed).
    public var wrappedValue: Value {
        CurrentEnvironment.values[keyPath: keyPath]
    }
}

// MARK: - keys SwiftUI owns

/// Light or dark appearance.
public enum ColorScheme: CaseIterable, Hashable, Sendable {
    case light
    case dark
}

/// Why a view is drawn redacted (`.placeholder` while a widget's data is not yet there).
public struct RedactionReasons: OptionSet, Hashable, Sendable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }
    public static let placeholder = RedactionReasons(rawValue: 1 << 0)
    public static let privacy = RedactionReasons(rawValue: 1 << 1)
    public static let invalidated = RedactionReasons(rawValue: 1 << 2)
}

private struct ColorSchemeKey: EnvironmentKey { static let defaultValue: ColorScheme = .light }
private struct RedactionReasonsKey: EnvironmentKey { static let defaultValue: RedactionReasons = [] }
private struct FontKey: EnvironmentKey { static let defaultValue: Font? = nil }
private struct LocaleKey: EnvironmentKey { static var defaultValue: Locale { Locale(identifier: "en_US") } }
private struct TimeZoneKey: EnvironmentKey { static var defaultValue: TimeZone { TimeZone.current } }
private struct CalendarKey: EnvironmentKey { static var defaultValue: Calendar { Calendar(identifier: .gregorian) } }
private struct LineLimitKey: EnvironmentKey { static let defaultValue: Int? = nil }
private struct MinimumScaleFactorKey: EnvironmentKey { static let defaultValue: CGFloat = 1 }
private struct MultilineTextAlignmentKey: EnvironmentKey { static let defaultValue: TextAlignment = .leading }
private struct IsEnabledKey: EnvironmentKey { static let defaultValue = true }
private struct DisplayScaleKey: EnvironmentKey { static let defaultValue: CGFloat = 3 }
private struct LineSpacingKey: EnvironmentKey { static let defaultValue: CGFloat = 0 }
private struct SizeCategoryKey: EnvironmentKey { static let defaultValue: ContentSizeCategory = .large }
private struct LayoutDirectionKey: EnvironmentKey { static let defaultValue: LayoutDirection = .leftToRight }

extension EnvironmentValues {
    public var colorScheme: ColorScheme {
        get { self[ColorSchemeKey.self] }
        set { self[ColorSchemeKey.self] = newValue }
    }
    public var redactionReasons: RedactionReasons {
        get { self[RedactionReasonsKey.self] }
        set { self[RedactionReasonsKey.self] = newValue }
    }
    /// The font text uses when it does not set its own (`nil`: `.body`).
    public var font: Font? {
        get { self[FontKey.self] }
        set { self[FontKey.self] = newValue }
    }
    public var locale: Locale {
        get { self[LocaleKey.self] }
        set { self[LocaleKey.self] = newValue }
    }
    public var timeZone: TimeZone {
        get { self[TimeZoneKey.self] }
        set { self[TimeZoneKey.self] = newValue }
    }
    public var calendar: Calendar {
        get { self[CalendarKey.self] }
        set { self[CalendarKey.self] = newValue }
    }
    public var lineLimit: Int? {
        get { self[LineLimitKey.self] }
        set { self[LineLimitKey.self] = newValue }
    }
    public var minimumScaleFactor: CGFloat {
        get { self[MinimumScaleFactorKey.self] }
        set { self[MinimumScaleFactorKey.self] = newValue }
    }
    public var multilineTextAlignment: TextAlignment {
        get { self[MultilineTextAlignmentKey.self] }
        set { self[MultilineTextAlignmentKey.self] = newValue }
    }
    public var isEnabled: Bool {
        get { self[IsEnabledKey.self] }
        set { self[IsEnabledKey.self] = newValue }
    }
    public var displayScale: CGFloat {
        get { self[DisplayScaleKey.self] }
        set { self[DisplayScaleKey.self] = newValue }
    }
    public var lineSpacing: CGFloat {
        get { self[LineSpacingKey.self] }
        set { self[LineSpacingKey.self] = newValue }
    }
    /// The Dynamic Type size: Lockstep draws text at the default, `.large`.
    public var sizeCategory: ContentSizeCategory {
        get { self[SizeCategoryKey.self] }
        set { self[SizeCategoryKey.self] = newValue }
    }
    public var dynamicTypeSize: DynamicTypeSize {
        get { DynamicTypeSize(sizeCategory) }
        set { sizeCategory = newValue.category }
    }
    public var layoutDirection: LayoutDirection {
        get { self[LayoutDirectionKey.self] }
        set { self[LayoutDirectionKey.self] = newValue }
    }
}

/// Reading direction.
public enum LayoutDirection: Hashable, CaseIterable, Sendable {
    case leftToRight
    case rightToLeft
}

/// How lines of a multiline text align.
public enum TextAlignment: Hashable, CaseIterable, Sendable {
    case leading
    case center
    case trailing
}

/// Dynamic Type sizes (the renderer draws text at `.large`, the default).
public enum ContentSizeCategory: Hashable, CaseIterable, Sendable {
    case extraSmall, small, medium, large, extraLarge, extraExtraLarge, extraExtraExtraLarge
    case accessibilityMedium, accessibilityLarge, accessibilityExtraLarge, accessibilityExtraExtraLarge, accessibilityExtraExtraExtraLarge

    public var isAccessibilityCategory: Bool { self >= .accessibilityMedium }
}

extension ContentSizeCategory: Comparable {
    public static func < (a: ContentSizeCategory, b: ContentSizeCategory) -> Bool {
        allCases.firstIndex(of: a)! < allCases.firstIndex(of: b)!
    }
}

public enum DynamicTypeSize: Hashable, Comparable, CaseIterable, Sendable {
    case xSmall, small, medium, large, xLarge, xxLarge, xxxLarge
    case accessibility1, accessibility2, accessibility3, accessibility4, accessibility5

    public var isAccessibilitySize: Bool { self >= .accessibility1 }

    init(_ category: ContentSizeCategory) {
        self = DynamicTypeSize.allCases[ContentSizeCategory.allCases.firstIndex(of: category)!]
    }

    var category: ContentSizeCategory { ContentSizeCategory.allCases[DynamicTypeSize.allCases.firstIndex(of: self)!] }
}
