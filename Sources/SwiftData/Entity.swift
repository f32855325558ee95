import Foundation
import Synchronization

/// What one model type persists, worked out once from its `schemaMetadata` and the key paths' value types.
struct Entity: @unchecked Sendable {  // @unchecked: immutable; the key paths and metatypes are never mutated.
    let type: any PersistentModel.Type
    /// The table's name: the type's name, as Apple's entity name.
    let name: String
    let properties: [Property]
    /// Why a property cannot be stored, if one cannot (reported when a container is made).
    let unsupported: SwiftDataError?

    struct Property: @unchecked Sendable {  // @unchecked: as Entity.
        enum Kind {
            case attribute(base: Any.Type)
            case toOne(any PersistentModel.Type)
            case toMany(any PersistentModel.Type)
        }
        let name: String
        let keyPath: AnyKeyPath
        let kind: Kind
        /// The declared type is optional: a missing value is nil.
        let isOptional: Bool
        let isUnique: Bool
        let deleteRule: Schema.Relationship.DeleteRule
        /// The inverse written on this side (`@Relationship(inverse: \Plant.species)`).
        let declaredInverse: AnyKeyPath?

        var target: (any PersistentModel.Type)? {
            switch kind {
            case .attribute: return nil
            case .toOne(let type), .toMany(let type): return type
            }
        }

        /// How the store's metadata names the property's kind: a schema whose kind differs is another schema.
        var storedKind: String {
            switch kind {
            case .attribute(let base): return "attribute \(base)"
            case .toOne(let type): return "to-one \(type)"
            case .toMany(let type): return "to-many \(type)"
            }
        }

        var columnType: String {
            guard case .attribute(let base) = kind else { return kind.isToOne ? "INTEGER" : "TEXT" }
            return (base as? any NativeStoreValue.Type)?.columnType ?? "TEXT"
        }
    }

    private static let cache = Mutex<[ObjectIdentifier: Entity]>([:])

    static func of(_ type: any PersistentModel.Type) -> Entity {
        if let entity = cache.withLock({ $0[ObjectIdentifier(type)] }) { return entity }
        let entity = Entity(type)
        cache.withLock { $0[ObjectIdentifier(type)] = entity }
        return entity
    }

    private init(_ type: any PersistentModel.Type) {
        self.type = type
        name = String(describing: type)
        var properties: [Property] = [], unsupported: SwiftDataError?
        for metadata in type.schemaMetadata {
            let declared = Swift.type(of: metadata.keypath).valueType
            let base = (declared as? any OptionalValue.Type)?.wrappedType ?? declared
            let relationship = metadata.metadata as? Schema.Relationship
            let kind: Property.Kind
            if let model = base as? any PersistentModel.Type {
                kind = .toOne(model)
            } else if let element = (base as? any CollectionOfModels.Type)?.modelType {
                kind = .toMany(element)
            } else {
                kind = .attribute(base: base)
                if !(base is any NativeStoreValue.Type) && !(base is any Codable.Type) && unsupported == nil {
                    unsupported = SwiftDataError(.unsupportedType, subject: "\(name).\(metadata.name)",
                                                 detail: "its type \(declared) is not a value SwiftData stores, a Codable type or a @Model class")
                }
            }
            properties.append(Property(
                name: metadata.name, keyPath: metadata.keypath, kind: kind, isOptional: declared is any OptionalValue.Type,
                isUnique: (metadata.metadata as? Schema.Attribute)?.isUnique ?? false,
                deleteRule: relationship?.deleteRule ?? .nullify, declaredInverse: relationship?.inverseKeyPath))
        }
        self.properties = properties
        self.unsupported = unsupported
    }

    func property(_ name: String) -> Property? { properties.first { $0.name == name } }

    func property(keyPath: AnyKeyPath) -> Property? { properties.first { $0.keyPath == keyPath } }

    /// The relationship on the other side of `property`: the one it names as its inverse, or the one that names it.
    func inverse(of property: Property) -> Property? {
        guard let target = property.target else { return nil }
        let other = Entity.of(target)
        if let keyPath = property.declaredInverse { return other.property(keyPath: keyPath) }
        return other.properties.first { $0.declaredInverse == property.keyPath }
    }
}

extension Entity.Property.Kind {
    var isToOne: Bool {
        if case .toOne = self { return true }
        return false
    }
}

/// `Optional`, seen from a value or a metatype whose wrapped type is not known statically.
protocol OptionalValue {
    static var wrappedType: Any.Type { get }
    static var noneValue: Any { get }
    var wrapped: Any? { get }
}

extension Optional: OptionalValue {
    static var wrappedType: Any.Type { Wrapped.self }
    static var noneValue: Any { Optional<Wrapped>.none as Any }
    var wrapped: Any? { self.map { $0 as Any } }
}

/// An array of models (a to-many relationship), seen from its metatype.
protocol CollectionOfModels {
    static var modelType: any PersistentModel.Type { get }
    /// The array of this type holding `models` (each of the element type).
    static func makeArray(_ models: [any PersistentModel]) -> Any
}

extension Array: CollectionOfModels where Element: PersistentModel {
    static var modelType: any PersistentModel.Type { Element.self }
    static func makeArray(_ models: [any PersistentModel]) -> Any { models.compactMap { $0 as? Element } }
}

/// `value` without its optional layers: nil for a nil optional.
func unwrapped(_ value: Any?) -> Any? {
    guard let value else { return nil }
    if let optional = value as? any OptionalValue { return unwrapped(optional.wrapped) }
    return value
}
