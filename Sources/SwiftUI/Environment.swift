/// A key for a value in the environment, with the value a view sees when no ancestor set one.
public protocol EnvironmentKey {
    associatedtype Value
    static var defaultValue: Self.Value { get }
}

/// The values a view inherits from its ancestors: `colorScheme`, `font`, `redactionReasons` …, and any value a
/// framework or app adds with an `EnvironmentKey` and a computed property.
///
/// SwiftUI's own values are stored properties with their defaults, all listed here: the key path a view reads
/// (`@Environment(\.colorScheme)`) is the same, and a read is a field access, not a lookup and a cast. Values
/// other modules add (WidgetKit's `widgetFamily`, an app's own) go through `EnvironmentKey`, as on iOS.
public struct EnvironmentValues: CustomStringConvertible {
    // Apple's values.
    public var colorScheme: ColorScheme = .light
    public var redactionReasons: RedactionReasons = []
    /// The font text uses when it does not set its own (`nil`: `.body`).
    public var font: Font?
    /// `en_US` until a view sets another (see `settings`).
    public var locale: Locale {
        get { settings.locale ?? Locale(identifier: "en_US") }
        set { settings.locale = newValue }
    }
    /// The process's time zone until a view sets another.
    public var timeZone: TimeZone {
        get { settings.timeZone ?? .current }
        set { settings.timeZone = newValue }
    }
    /// Gregorian until a view sets another.
    public var calendar: Calendar {
        get { settings.calendar ?? Calendar(identifier: .gregorian) }
        set { settings.calendar = newValue }
    }
    /// The locale, time zone and calendar a view set, made only when set or read: making a `Locale` or a `Calendar`
    /// loads ICU's data, 2 MB of an idle widget's memory when every `EnvironmentValues` made all three.
    private var settings: (locale: Locale?, timeZone: TimeZone?, calendar: Calendar?) = (nil, nil, nil)
    public var lineLimit: Int?
    public var minimumScaleFactor: CGFloat = 1
    public var multilineTextAlignment: TextAlignment = .leading
    public var isEnabled = true
    public var displayScale: CGFloat = 3
    public var lineSpacing: CGFloat = 0
    /// The Dynamic Type size: Lockstep draws text at the default, `.large`.
    public var sizeCategory: ContentSizeCategory = .large
    public var layoutDirection: LayoutDirection = .leftToRight
    public var imageScale: Image.Scale = .medium
    public var truncationMode: Text.TruncationMode = .tail

    // What WidgetKit sets for the widget being drawn.
    /// Whether the view is drawn in a circular accessory family, where an `.automatic` gauge is circular.
    package var isCircularAccessory = false
    /// The corner radius of the container `ContainerRelativeShape` follows (a widget's corners).
    package var containerCornerRadius: CGFloat = 0
    /// The moment the view is drawn at: what `Text(date, style: .relative)` and timers count from (the timeline
    /// entry's date).
    package var renderDate: Date?
    /// From the widget's rendering mode; `widgetAccentable()` puts views in the accent group.
    package var widgetColorRendering: WidgetColorRendering = .fullColor

    // What SwiftUI's own modifiers set for the renderer.
    var buttonStyleKind: ButtonStyleKind = .automatic
    var toggleStyleKind: ToggleStyleKind = .switch
    /// `buttonBorderShape(_:)`: the shape a bordered button and a button-style toggle are drawn in.
    var buttonBorderShape: ButtonBorderShape = .automatic
    var labelStyleKind: LabelStyleKind = .titleAndIcon
    var progressViewStyleKind: ProgressViewStyleKind = .linear
    /// `gaugeStyle(_:)`'s choice; nil: `.automatic` (see `gaugeStyleKind`).
    var chosenGaugeStyle: GaugeStyleKind?
    var textTraits = TextTraits()
    /// The lines a text is at least as tall as (`lineLimit(2...4)`, `lineLimit(2, reservesSpace: true)`).
    var reservedLines: Int?
    var foregroundHierarchy: [AnyShapeStyle] = []
    var isWidgetAccentable = false
    var foregroundStyleValue: AnyShapeStyle?
    var tintColor: Color?
    var textCase: Text.Case?
    var isUnredacted = false
    var isPrivacySensitive = false

    /// The values set through an `EnvironmentKey`, by key.
    private var values: [ObjectIdentifier: Any] = [:]
    /// The observable objects `environmentObject(_:)` set, by their type.
    var objects: [ObjectIdentifier: AnyObject] = [:]

    public init() {}

    public subscript<K: EnvironmentKey>(key: K.Type) -> K.Value {
        get { (values[ObjectIdentifier(key)] as? K.Value) ?? K.defaultValue }
        set { values[ObjectIdentifier(key)] = newValue }
    }

    public var description: String { "EnvironmentValues(\(values.count) keyed values set)" }
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

/// An observable object an ancestor view supplied with `environmentObject(_:)`: `@EnvironmentObject var model:
/// Model`. As on a device, a view that reads one no ancestor supplied stops the process with SwiftUI's message.
@propertyWrapper
public struct EnvironmentObject<ObjectType: ObservableObject>: DynamicProperty {
    /// Bindings to the object's properties (`$model.name`), as `@ObservedObject`'s.
    public typealias Wrapper = ObservedObject<ObjectType>.Wrapper

    public init() {}

    /// The object in the environment the body is being evaluated in.
    public var wrappedValue: ObjectType {
        guard let object = CurrentEnvironment.values.objects[ObjectIdentifier(ObjectType.self)] as? ObjectType else {
            fatalError("No ObservableObject of type \(ObjectType.self) found. A View.environmentObject(_:) for \(ObjectType.self) may be missing as an ancestor of this view.")
        }
        return object
    }

    public var projectedValue: Wrapper { Wrapper(object: wrappedValue) }
}

extension View {
    /// Supplies an observable object to this view's descendants, for their `@EnvironmentObject` of its type.
    public func environmentObject<T: ObservableObject>(_ object: T) -> some View {
        environmentModifier { $0.objects[ObjectIdentifier(T.self)] = object }
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

extension EnvironmentValues {
    /// The Dynamic Type size text styles are drawn at (`Font.TextStyle`'s sizes come from Apple's table for it).
    public var dynamicTypeSize: DynamicTypeSize {
        get { DynamicTypeSize(sizeCategory) }
        set { sizeCategory = newValue.category }
    }
}

nonisolated extension View {
    /// Draws the view's text styles at `size`, whatever the person chose.
    public func dynamicTypeSize(_ size: DynamicTypeSize) -> some View {
        environmentModifier { $0.dynamicTypeSize = size }
    }

    /// Keeps the Dynamic Type size within `range` (`.dynamicTypeSize(...DynamicTypeSize.xxLarge)`): a size outside it
    /// becomes the nearest one inside.
    public func dynamicTypeSize<T: RangeExpression & Sendable>(_ range: T) -> some View where T.Bound == DynamicTypeSize {
        environmentModifier { environment in
            let all = DynamicTypeSize.allCases
            let current = all.firstIndex(of: environment.dynamicTypeSize)!
            if let nearest = all.indices.filter({ range.contains(all[$0]) }).min(by: { abs($0 - current) < abs($1 - current) }) {
                environment.dynamicTypeSize = all[nearest]
            }
        }
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

    /// UIKit's size of the same column; nil for `.unspecified`.
    public init?(_ uiSizeCategory: UIContentSizeCategory) {
        guard let column = UIContentSizeCategory.ordered.firstIndex(of: uiSizeCategory) else { return nil }
        self = DynamicTypeSize.allCases[column]
    }
}

extension EnvironmentValues {
    /// UIKit's traits for this environment: its appearance and Dynamic Type size.
    var uiTraits: UITraitCollection {
        UITraitCollection(userInterfaceStyle: colorScheme == .dark ? .dark : .light,
                          preferredContentSizeCategory: UIContentSizeCategory.ordered[DynamicTypeSize.allCases.firstIndex(of: dynamicTypeSize)!])
    }
}
