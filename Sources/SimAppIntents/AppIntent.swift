import Foundation

/// An action the system can run for the user: typed parameters, `perform()`, a result with a dialog
/// (RULES.md `intent.perform`). Failure is a thrown error.
public protocol AppIntent: Sendable {
    /// The name used on the command line and in requests (`CompleteHabit`).
    static var name: String { get }
    static var title: String { get }
    static var description: String { get }
    init()
    /// Runs the intent after its parameters are resolved.
    func perform() throws -> IntentResult
}

/// What `perform()` returns: an optional value and the dialog the system speaks or shows.
public struct IntentResult: Sendable, Equatable {
    public var value: String?
    public var dialog: String?

    /// `.result(dialog:)`.
    public static func result(dialog: String) -> IntentResult { IntentResult(value: nil, dialog: dialog) }
    /// `.result(value:dialog:)`.
    public static func result(value: String, dialog: String) -> IntentResult { IntentResult(value: value, dialog: dialog) }
    /// `.result()`.
    public static func result() -> IntentResult { IntentResult(value: nil, dialog: nil) }
}

/// A type a parameter may have.
public protocol IntentValue: Sendable {
    static var typeName: String { get }
    /// Parses a command-line or request value; nil when it is not one.
    static func parse(_ text: String) -> Self?
}

extension String: IntentValue {
    public static var typeName: String { "text" }
    public static func parse(_ text: String) -> String? { text.isEmpty ? nil : text }
}

extension Int: IntentValue {
    public static var typeName: String { "integer" }
    public static func parse(_ text: String) -> Int? { Int(text) }
}

extension Double: IntentValue {
    public static var typeName: String { "number" }
    public static func parse(_ text: String) -> Double? {
        guard let value = Double(text), value.isFinite else { return nil }
        return value
    }
}

extension Bool: IntentValue {
    public static var typeName: String { "true/false" }
    public static func parse(_ text: String) -> Bool? { ["true": true, "false": false, "yes": true, "no": false][text.lowercased()] }
}

/// A typed intent parameter (`@Parameter(title: "Habit") var habit: String`).
@propertyWrapper
public final class Parameter<Value: IntentValue>: @unchecked Sendable {  // @unchecked: set once, while resolving, before perform().
    public let title: String
    private var value: Value?

    public init(title: String) { self.title = title }

    public var wrappedValue: Value {
        get {
            guard let value else { preconditionFailure("The parameter '\(title)' was read before it was resolved.") }
            return value
        }
        set { value = newValue }
    }
}

/// What resolution needs from any `Parameter`, whatever its value type.
protocol AnyParameter: AnyObject {
    var title: String { get }
    var typeName: String { get }
    func resolve(_ text: String) -> Bool
}

extension Parameter: AnyParameter {
    var typeName: String { Value.typeName }
    func resolve(_ text: String) -> Bool {
        guard let parsed = Value.parse(text) else { return false }
        value = parsed
        return true
    }
}

/// One parameter as `list` shows it.
public struct IntentParameterInfo: Sendable, Equatable {
    /// The command-line name (`habit` for `--habit`).
    public var name: String
    public var title: String
    public var typeName: String
}

extension AppIntent {
    /// The declared parameters, found by reflection on the `@Parameter` properties.
    public static var parameters: [IntentParameterInfo] {
        parameterObjects(of: Self()).map { IntentParameterInfo(name: $0.name, title: $0.parameter.title, typeName: $0.parameter.typeName) }
    }

    /// Builds the intent with its parameters resolved from `arguments` (name → text).
    /// - Throws: `IntentError` for a missing, unknown or unparsable parameter (nothing performed).
    public static func resolve(_ arguments: [String: String]) throws(IntentError) -> Self {
        let intent = Self()
        let parameters = parameterObjects(of: intent)
        for key in arguments.keys where !parameters.contains(where: { $0.name == key }) {
            throw IntentError(.invalidParameter, subject: key, detail: "\(name) has no such parameter")
        }
        for (key, parameter) in parameters {
            guard let text = arguments[key] else { throw IntentError(.missingParameter, subject: key, detail: name) }
            guard parameter.resolve(text) else {
                throw IntentError(.invalidParameter, subject: text, detail: "--\(key) must be a \(parameter.typeName)")
            }
        }
        return intent
    }

    private static func parameterObjects(of intent: Self) -> [(name: String, parameter: any AnyParameter)] {
        Mirror(reflecting: intent).children.compactMap { child in
            guard let label = child.label, let parameter = child.value as? any AnyParameter else { return nil }
            return (label.hasPrefix("_") ? String(label.dropFirst()) : label, parameter)
        }
    }
}
