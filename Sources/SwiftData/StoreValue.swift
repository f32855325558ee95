import Foundation

/// A type stored in a column of its own SQLite type; every other `Codable` type is stored as JSON text.
protocol NativeStoreValue {
    static var columnType: String { get }
    var storeValue: StoreValue { get }
    init?(storeValue: StoreValue)
}

extension NativeStoreValue where Self: FixedWidthInteger {
    static var columnType: String { "INTEGER" }
    var storeValue: StoreValue { .integer(Int64(truncatingIfNeeded: self)) }
    init?(storeValue: StoreValue) {
        guard case .integer(let v) = storeValue, let value = Self(exactly: v) else { return nil }
        self = value
    }
}

extension Int: NativeStoreValue {}
extension Int8: NativeStoreValue {}
extension Int16: NativeStoreValue {}
extension Int32: NativeStoreValue {}
extension Int64: NativeStoreValue {}
extension UInt: NativeStoreValue {}
extension UInt8: NativeStoreValue {}
extension UInt16: NativeStoreValue {}
extension UInt32: NativeStoreValue {}
extension UInt64: NativeStoreValue {}

extension Bool: NativeStoreValue {
    static var columnType: String { "INTEGER" }
    var storeValue: StoreValue { .integer(self ? 1 : 0) }
    init?(storeValue: StoreValue) {
        guard case .integer(let v) = storeValue else { return nil }
        self = v != 0
    }
}

extension Double: NativeStoreValue {
    static var columnType: String { "REAL" }
    var storeValue: StoreValue { .real(self) }
    init?(storeValue: StoreValue) {
        switch storeValue {
        case .real(let v): self = v
        case .integer(let v): self = Double(v)
        default: return nil
        }
    }
}

extension Float: NativeStoreValue {
    static var columnType: String { "REAL" }
    var storeValue: StoreValue { .real(Double(self)) }
    init?(storeValue: StoreValue) {
        guard let value = Double(storeValue: storeValue) else { return nil }
        self = Float(value)
    }
}

extension String: NativeStoreValue {
    static var columnType: String { "TEXT" }
    var storeValue: StoreValue { .text(self) }
    init?(storeValue: StoreValue) {
        guard case .text(let v) = storeValue else { return nil }
        self = v
    }
}

/// Seconds since 2001-01-01, as Core Data stores a date.
extension Date: NativeStoreValue {
    static var columnType: String { "REAL" }
    var storeValue: StoreValue { .real(timeIntervalSinceReferenceDate) }
    init?(storeValue: StoreValue) {
        guard let seconds = Double(storeValue: storeValue) else { return nil }
        self = Date(timeIntervalSinceReferenceDate: seconds)
    }
}

extension UUID: NativeStoreValue {
    static var columnType: String { "TEXT" }
    var storeValue: StoreValue { .text(uuidString) }
    init?(storeValue: StoreValue) {
        guard case .text(let v) = storeValue, let uuid = UUID(uuidString: v) else { return nil }
        self = uuid
    }
}

extension URL: NativeStoreValue {
    static var columnType: String { "TEXT" }
    var storeValue: StoreValue { .text(absoluteString) }
    init?(storeValue: StoreValue) {
        guard case .text(let v) = storeValue, let url = URL(string: v) else { return nil }
        self = url
    }
}

extension Data: NativeStoreValue {
    static var columnType: String { "BLOB" }
    var storeValue: StoreValue { .blob(Array(self)) }
    init?(storeValue: StoreValue) {
        guard case .blob(let v) = storeValue else { return nil }
        self = Data(v)
    }
}

extension Entity.Property {
    /// An attribute's value as the store holds it.
    func encode(_ value: Any) throws(SwiftDataError) -> StoreValue {
        guard let value = unwrapped(value) else { return .null }
        if let native = value as? any NativeStoreValue { return native.storeValue }
        guard let encodable = value as? any Encodable,
              let data = try? JSONEncoder().encode(encodable), let text = String(data: data, encoding: .utf8) else {
            throw SwiftDataError(.unsupportedType, subject: name, detail: "its value \(type(of: value)) cannot be encoded")
        }
        return .text(text)
    }

    /// An attribute's value from the store, as the property's declared type (wrapped in `Any`).
    func decode(_ stored: StoreValue, entity: String) throws(SwiftDataError) -> Any {
        guard case .attribute(let base) = kind else { return () }
        let declared = Swift.type(of: keyPath).valueType
        if stored == .null {
            guard let optional = declared as? any OptionalValue.Type else {
                throw SwiftDataError(.unreadableValue, subject: "\(entity).\(name)", detail: "it is empty, and the property is not optional")
            }
            return optional.noneValue
        }
        if let native = base as? any NativeStoreValue.Type {
            guard let value = native.init(storeValue: stored) else {
                throw SwiftDataError(.unreadableValue, subject: "\(entity).\(name)", detail: "it is not a \(base)")
            }
            return value
        }
        guard case .text(let text) = stored, let decodable = base as? any Decodable.Type else {
            throw SwiftDataError(.unreadableValue, subject: "\(entity).\(name)", detail: "it is not the JSON of a \(base)")
        }
        do {
            return try JSONDecoder().decode(decodable, from: Data(text.utf8))
        } catch {
            throw SwiftDataError(.unreadableValue, subject: "\(entity).\(name)", detail: "it is not the JSON of a \(base)")
        }
    }
}
