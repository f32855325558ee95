import Foundation

/// Lockstep's stand-in for `@NSManaged` on a parameter of the class Xcode generates from an `.intentdefinition`:
/// `@NSManaged public var habit: Habit?` becomes `@IntentManaged public var habit: Habit?` on Linux.
///
/// Why a wrapper: on iOS the system fills a widget instance's intent in by key-value coding, which the Objective-C
/// runtime gives every `@NSManaged` property. Linux has no Objective-C runtime, and Foundation there has no
/// `setValue(_:forKey:)`, so a plain stored property cannot be set by its name. The wrapper is found by reflection
/// (`Mirror`) under the property's name, and WidgetKit sets it from `configure --habit Walk`.
@propertyWrapper
public final class IntentManaged<Value>: @unchecked Sendable {  // @unchecked: set before the intent is handed over.
    public var wrappedValue: Value

    public init(wrappedValue: Value) { self.wrappedValue = wrappedValue }

    /// A parameter declared without a value, as generated ones are: an optional starts unset, a generated enum at its
    /// `unknown` case (Xcode always generates it, as 0). (Here, not in constrained extensions: Swift looks for the
    /// `init()` of a property declared without a value in the wrapper's own declaration.)
    public init() {
        guard let initial = ManagedValue.initial(Value.self) as? Value else {
            fatalError("@IntentManaged var of type \(Value.self) needs an initial value: only optionals and generated enums have one.")
        }
        wrappedValue = initial
    }
}

/// A managed parameter, whatever its type: what WidgetKit sets from a widget instance's settings.
package protocol AnyIntentManaged: AnyObject {
    /// The parameter's type as a sentence names it (`Habit`, `String`, `Period`).
    var valueTypeName: String { get }
    /// Sets the parameter from `text`; false when the text is no value of its type.
    func set(text: String) -> Bool
}

extension IntentManaged: AnyIntentManaged {
    package var valueTypeName: String { "\(ManagedValue.unwrapped(Value.self))" }

    package func set(text: String) -> Bool {
        // Unwrapped first: nil (no value for the text) would otherwise cast to an optional `Value` as "unset".
        guard let made = ManagedValue.make(text, as: Value.self), let value = made as? Value else { return false }
        wrappedValue = value
        return true
    }
}

extension INIntent {
    /// The intent's managed parameters by name (`habit` for `_habit`).
    package var managedParameters: [String: any AnyIntentManaged] {
        var found: [String: any AnyIntentManaged] = [:]
        var mirror: Mirror? = Mirror(reflecting: self)
        while let current = mirror {
            for child in current.children {
                guard let label = child.label, let parameter = child.value as? any AnyIntentManaged else { continue }
                found[label.hasPrefix("_") ? String(label.dropFirst()) : label] = parameter
            }
            mirror = current.superclassMirror
        }
        return found
    }
}

/// How the types a generated intent's parameters have are made from text.
enum ManagedValue {
    /// `Habit` for `Habit?`.
    static func unwrapped(_ type: Any.Type) -> Any.Type {
        (type as? any OptionalType.Type).map { unwrapped($0.wrappedType) } ?? type
    }

    /// What a parameter declared without a value starts as: nil, or a generated enum's case 0.
    static func initial(_ type: Any.Type) -> Any? {
        if let optional = type as? any OptionalType.Type { return optional.nilValue }
        if let enumeration = type as? any RawRepresentable.Type { return enumCase("0", enumeration) }
        return nil
    }

    /// A value of `type` for `text`, or nil: text, numbers (`NSNumber` as the generator declares them), booleans,
    /// a custom type (`INObject` subclass: `text` is its identifier and what it shows), an enum by case name or raw
    /// value, and a list of text (comma-separated).
    static func make(_ text: String, as type: Any.Type) -> Any? {
        if let optional = type as? any OptionalType.Type {
            return make(text, as: optional.wrappedType).flatMap { optional.wrapping($0) }
        }
        switch type {
        case is String.Type: return text
        case is [String].Type: return text.split(separator: ",").map { String($0) }
        case is Int.Type: return Int(text)
        case is Double.Type: return Double(text)
        case is Bool.Type: return bool(text)
        case is NSNumber.Type:
            if let integer = Int(text) { return NSNumber(value: integer) }
            if let number = Double(text) { return NSNumber(value: number) }
            return bool(text).map { NSNumber(value: $0) }
        default: break
        }
        if let object = type as? INObject.Type { return object.init(identifier: text, display: text) }
        if let enumeration = type as? any RawRepresentable.Type { return enumCase(text, enumeration) }
        return nil
    }

    private static func bool(_ text: String) -> Bool? {
        switch text.lowercased() {
        case "true", "yes", "1": return true
        case "false", "no", "0": return false
        default: return nil
        }
    }

    /// The case of a generated enum (`Int` raw values from 0) named `text`, or with `text` as its raw value.
    private static func enumCase<E: RawRepresentable>(_ text: String, _ type: E.Type) -> E? {
        guard E.RawValue.self == Int.self else { return nil }
        if let raw = Int(text) { return E(rawValue: raw as! E.RawValue) }
        for raw in 0..<256 {
            guard let value = E(rawValue: raw as! E.RawValue) else { continue }
            if "\(value)".caseInsensitiveCompare(text) == .orderedSame { return value }
        }
        return nil
    }
}

protocol OptionalType {
    static var wrappedType: Any.Type { get }
    static func wrapping(_ value: Any) -> Self?
    static var nilValue: Any { get }
}

extension Optional: OptionalType {
    static var wrappedType: Any.Type { Wrapped.self }
    static func wrapping(_ value: Any) -> Self? { (value as? Wrapped).map { .some($0) } }
    static var nilValue: Any { let value: Wrapped? = nil; return value as Any }
}
