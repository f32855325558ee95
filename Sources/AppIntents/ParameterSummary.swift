import Foundation

// Apple's parameter summary: the sentence the Shortcuts app shows for an action ("Complete ${habit}"), declared with
// `static var parameterSummary: some ParameterSummary { Summary("Complete \(\.$habit)") }`. The `\.$habit` key paths
// find their intent through the `parameterSummary` requirement's builder (`ParameterSummaryBuilder<Self>`), as on
// Apple's platforms. `lockstep intent list` (and `AppIntentsExtension`'s `list`) shows the summary for the intent with
// its defaults, the way the Shortcuts app shows a new action: a `When` or `Switch` picks its branch from them.

/// A parameter summary: `Summary`, `When`, `Switch`.
public protocol ParameterSummary {
    /// The sentence for `intent`, each parameter written `${name}`.
    func summaryText(for intent: any AppIntent) -> String
}

/// No summary: what an intent that declares none has.
public struct EmptyParameterSummary: ParameterSummary {
    public init() {}
    public func summaryText(for intent: any AppIntent) -> String { "" }
}

/// The summary's sentence with parameters in it: `"Complete \(\.$habit)"`.
public struct ParameterSummaryString<Intent: AppIntent>: ExpressibleByStringInterpolation {
    enum Piece {
        case text(String)
        case parameter(AnyKeyPath)
    }

    var pieces: [Piece]

    public init(stringLiteral value: String) { pieces = [.text(value)] }
    public init(stringInterpolation: StringInterpolation) { pieces = stringInterpolation.pieces }

    public struct StringInterpolation: StringInterpolationProtocol {
        var pieces: [Piece] = []
        public init(literalCapacity: Int, interpolationCount: Int) {}
        public mutating func appendLiteral(_ literal: String) { pieces.append(.text(literal)) }
        public mutating func appendInterpolation<Value>(_ keyPath: KeyPath<Intent, IntentParameter<Value>>) {
            pieces.append(.parameter(keyPath))
        }
    }

    func text(for intent: Intent) -> String {
        pieces.map { piece in
            switch piece {
            case .text(let text): return text
            case .parameter(let keyPath): return "${\(ParameterNames.name(of: keyPath, in: intent))}"
            }
        }.joined()
    }
}

/// A sentence, and the parameters shown below it (`Summary("Log \(\.$value)") { \.$note }`).
public struct Summary<Intent: AppIntent, Content>: ParameterSummary {
    let sentence: ParameterSummaryString<Intent>
    let more: [AnyKeyPath]

    public init(_ summary: ParameterSummaryString<Intent>) where Content == Void {
        sentence = summary
        more = []
    }

    public init(_ summary: ParameterSummaryString<Intent>, @ParameterSummaryContentBuilder<Intent> _ content: () -> [AnyKeyPath]) where Content == [AnyKeyPath] {
        sentence = summary
        more = content()
    }

    /// Only the parameters, with no sentence (`Summary { \.$backyards; \.$specificBackyard }`).
    public init(@ParameterSummaryContentBuilder<Intent> _ content: () -> [AnyKeyPath]) where Content == [AnyKeyPath] {
        sentence = ""
        more = content()
    }

    public func summaryText(for intent: any AppIntent) -> String {
        guard let intent = intent as? Intent else { return "" }
        let text = sentence.text(for: intent)
        guard !more.isEmpty else { return text }
        let parameters = more.map { "${\(ParameterNames.name(of: $0, in: intent))}" }.joined(separator: ", ")
        return text.isEmpty ? parameters : text + " (" + parameters + ")"
    }
}

/// The parameters listed under a summary's sentence.
@resultBuilder
public enum ParameterSummaryContentBuilder<Intent: AppIntent> {
    public static func buildExpression<Value>(_ keyPath: KeyPath<Intent, IntentParameter<Value>>) -> [AnyKeyPath] { [keyPath] }
    public static func buildBlock(_ components: [AnyKeyPath]...) -> [AnyKeyPath] { components.flatMap { $0 } }
}

/// Builds `parameterSummary`: one `Summary`, `When` or `Switch` of the intent.
@resultBuilder
public enum ParameterSummaryBuilder<Intent: AppIntent> {
    public static func buildExpression<Content>(_ summary: Summary<Intent, Content>) -> Summary<Intent, Content> { summary }
    public static func buildExpression<Then, Otherwise>(_ when: When<Intent, Then, Otherwise>) -> When<Intent, Then, Otherwise> { when }
    public static func buildExpression<Value>(_ switchSummary: Switch<Intent, Value>) -> Switch<Intent, Value> { switchSummary }
    public static func buildBlock<Component: ParameterSummary>(_ component: Component) -> Component { component }
}

/// How `When` compares a parameter's value.
public struct EquatableComparisonOperator: Sendable {
    let equal: Bool
    public static let equalTo = EquatableComparisonOperator(equal: true)
    public static let notEqualTo = EquatableComparisonOperator(equal: false)
}

public struct ComparableComparisonOperator: Sendable {
    let test: @Sendable (Int) -> Bool  // on the sign of (value - operand)
    public static let lessThan = ComparableComparisonOperator { $0 < 0 }
    public static let lessThanOrEqualTo = ComparableComparisonOperator { $0 <= 0 }
    public static let greaterThan = ComparableComparisonOperator { $0 > 0 }
    public static let greaterThanOrEqualTo = ComparableComparisonOperator { $0 >= 0 }
}

public struct HasValueComparisonOperator: Sendable {
    let hasValue: Bool
    public static let hasAnyValue = HasValueComparisonOperator(hasValue: true)
    public static let hasNoValue = HasValueComparisonOperator(hasValue: false)
}

public struct ContainsComparisonOperator: Sendable {
    public static let oneOf = ContainsComparisonOperator()
}

/// One summary or another, by a parameter's value.
public struct When<Intent: AppIntent, Then: ParameterSummary, Otherwise: ParameterSummary>: ParameterSummary {
    let holds: (Intent) -> Bool
    let then: Then
    let otherwise: Otherwise

    public init<Value: Equatable>(_ keyPath: KeyPath<Intent, IntentParameter<Value>>, _ comparisonOperator: EquatableComparisonOperator,
                                  _ value: Value, @ParameterSummaryBuilder<Intent> _ then: () -> Then,
                                  @ParameterSummaryBuilder<Intent> otherwise: () -> Otherwise) {
        holds = { intent in
            guard let current = intent[keyPath: keyPath].currentValue else { return false }
            return (current == value) == comparisonOperator.equal
        }
        self.then = then()
        self.otherwise = otherwise()
    }

    public init<Value: Comparable>(_ keyPath: KeyPath<Intent, IntentParameter<Value>>, _ comparisonOperator: ComparableComparisonOperator,
                                   _ value: Value, @ParameterSummaryBuilder<Intent> _ then: () -> Then,
                                   @ParameterSummaryBuilder<Intent> otherwise: () -> Otherwise) {
        holds = { intent in
            guard let current = intent[keyPath: keyPath].currentValue else { return false }
            return comparisonOperator.test(current < value ? -1 : current == value ? 0 : 1)
        }
        self.then = then()
        self.otherwise = otherwise()
    }

    public init<Value: Equatable>(_ keyPath: KeyPath<Intent, IntentParameter<Value>>, _ comparisonOperator: ContainsComparisonOperator,
                                  _ values: [Value], @ParameterSummaryBuilder<Intent> _ then: () -> Then,
                                  @ParameterSummaryBuilder<Intent> otherwise: () -> Otherwise) {
        holds = { intent in intent[keyPath: keyPath].currentValue.map(values.contains) ?? false }
        self.then = then()
        self.otherwise = otherwise()
    }

    public init<Value>(_ keyPath: KeyPath<Intent, IntentParameter<Value>>, _ comparisonOperator: HasValueComparisonOperator,
                       @ParameterSummaryBuilder<Intent> _ then: () -> Then, @ParameterSummaryBuilder<Intent> otherwise: () -> Otherwise) {
        holds = { intent in
            let parameter = intent[keyPath: keyPath]
            let present = parameter.currentValue.map { value in
                if let optional = value as? any OptionalProtocol { return optional.isSome }
                return true
            } ?? false
            return present == comparisonOperator.hasValue
        }
        self.then = then()
        self.otherwise = otherwise()
    }

    public func summaryText(for intent: any AppIntent) -> String {
        guard let typed = intent as? Intent else { return "" }
        return holds(typed) ? then.summaryText(for: intent) : otherwise.summaryText(for: intent)
    }
}

/// One summary per value of a parameter (`Switch(\.$unit) { Case(.km) { … } DefaultCase { … } }`).
public struct Switch<Intent: AppIntent, Value: Equatable>: ParameterSummary {
    let keyPath: KeyPath<Intent, IntentParameter<Value>>
    let cases: [SwitchCase<Value>]

    public init(_ keyPath: KeyPath<Intent, IntentParameter<Value>>, @ParameterSummaryCaseBuilder<Intent, Value> _ cases: () -> [SwitchCase<Value>]) {
        self.keyPath = keyPath
        self.cases = cases()
    }

    public func summaryText(for intent: any AppIntent) -> String {
        guard let typed = intent as? Intent else { return "" }
        let current = typed[keyPath: keyPath].currentValue
        let chosen = cases.first { $0.value != nil && $0.value == current } ?? cases.first { $0.value == nil }
        return chosen?.summary.summaryText(for: intent) ?? ""
    }
}

/// A case of a `Switch`, type-erased.
public struct SwitchCase<Value> {
    let value: Value?
    let summary: any ParameterSummary
}

public struct Case<Intent: AppIntent, Value, Content: ParameterSummary> {
    let value: Value
    let content: Content
    public init(_ value: Value, @ParameterSummaryBuilder<Intent> _ content: () -> Content) {
        self.value = value
        self.content = content()
    }
}

public struct DefaultCase<Intent: AppIntent, Content: ParameterSummary> {
    let content: Content
    public init(@ParameterSummaryBuilder<Intent> _ content: () -> Content) { self.content = content() }
}

@resultBuilder
public enum ParameterSummaryCaseBuilder<Intent: AppIntent, Value> {
    public static func buildExpression<Content>(_ item: Case<Intent, Value, Content>) -> [SwitchCase<Value>] {
        [SwitchCase(value: item.value, summary: item.content)]
    }
    public static func buildExpression<Content>(_ item: DefaultCase<Intent, Content>) -> [SwitchCase<Value>] {
        [SwitchCase(value: nil, summary: item.content)]
    }
    public static func buildBlock(_ components: [SwitchCase<Value>]...) -> [SwitchCase<Value>] { components.flatMap { $0 } }
}

/// Finds a parameter's name from its key path: the `@Parameter` property the key path's object is.
enum ParameterNames {
    static func name(of keyPath: AnyKeyPath, in intent: Any) -> String {
        guard let object = intent[keyPath: keyPath] as AnyObject? else { return "?" }
        for child in Mirror(reflecting: intent).children {
            guard let label = child.label, let parameter = child.value as AnyObject?, parameter === object else { continue }
            return label.hasPrefix("_") ? String(label.dropFirst()) : label
        }
        return "?"
    }
}

protocol OptionalProtocol {
    var isSome: Bool { get }
}

extension Optional: OptionalProtocol {
    var isSome: Bool { self != nil }
}

extension AppIntent {
    /// The summary `list` shows: the intent with its defaults, each parameter as `${name}`; nil when it declares none.
    public static var summaryText: String? {
        let intent = Self()
        for parameter in parameterObjects(of: intent) { _ = try? parameter.parameter.resolve(nil) }
        let text = parameterSummary.summaryText(for: intent)
        return text.isEmpty ? nil : text
    }
}
