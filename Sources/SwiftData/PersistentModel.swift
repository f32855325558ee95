import Foundation
import Observation

/// A class `@Model` made persistent: its stored properties live in its backing data.
public protocol PersistentModel: AnyObject, Observable, Hashable, Identifiable {
    /// How a fetch makes an object: from backing data, without the team's initializer.
    init(backingData: _ModelBackingData)
    var persistentBackingData: _ModelBackingData { get }
    /// The persisted properties, their key paths and options (written by `@Model`).
    static var schemaMetadata: [Schema.PropertyMetadata] { get }
}

extension PersistentModel {
    public static func == (lhs: Self, rhs: Self) -> Bool { lhs === rhs }
    public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }

    /// The object's identity in its store (temporary until its first save).
    public var persistentModelID: PersistentIdentifier { persistentBackingData.identifier }
    public var id: PersistentIdentifier { persistentModelID }
    /// The context the object was inserted in or fetched by.
    public var modelContext: ModelContext? { persistentBackingData.context }
    /// Whether the object has changes its context has not saved.
    public var hasChanges: Bool { persistentBackingData.context != nil && !persistentBackingData.changedKeys.isEmpty }
    public var isDeleted: Bool { persistentBackingData.isDeleted }
}

/// An object's identity: its entity and its row in the store, or a temporary id before its first save.
public struct PersistentIdentifier: Hashable, Comparable, Codable, Sendable, CustomStringConvertible {
    public let entityName: String
    /// The store's file (nil before the object is saved).
    public let storeIdentifier: String?
    let primaryKey: Int64?
    let temporary: UUID?

    public static func < (lhs: Self, rhs: Self) -> Bool {
        (lhs.entityName, lhs.primaryKey ?? -1, lhs.temporary?.uuidString ?? "") < (rhs.entityName, rhs.primaryKey ?? -1, rhs.temporary?.uuidString ?? "")
    }

    public var description: String {
        primaryKey.map { "\(entityName)/p\($0)" } ?? "\(entityName)/t\(temporary?.uuidString ?? "")"
    }
}

/// A relationship read from the store and not yet resolved to objects: a fault, resolved on first access.
enum RelationshipFault {
    case one(Int64?)
    case many([Int64])
}

/// Where a model's persisted values live: set by its initializer (through the init accessors `@Model` writes) or
/// read from the store, with the changes its context has not saved.
public final class _ModelBackingData {
    let entity: Entity
    /// Each persisted property's value; a relationship's may be a `RelationshipFault`.
    var values: [String: Any] = [:]
    /// The values before the first unsaved change, for `rollback()`.
    var committed: [String: Any] = [:]
    var changedKeys: Set<String> = []
    /// Each to-many relationship's rows as last read or saved: a save applies the difference to the stored list, so
    /// another process's additions are kept.
    var baselineLists: [String: [Int64]] = [:]
    weak var model: (any PersistentModel)?
    /// Weak, so a context and the objects it read are freed together; an object that outlives its context reads its
    /// relationships through a context of its own (`orphanage`), made from `container` when first needed.
    weak var context: ModelContext?
    var container: ModelContainer?
    private var orphanage: ModelContext?
    var primaryKey: Int64?
    var storePath: String?
    var isDeleted = false
    private let temporaryID = UUID()

    public init<Model: PersistentModel>(_ type: Model.Type) {
        entity = Entity.of(type)
    }

    init(entity: Entity) {
        self.entity = entity
    }

    var identifier: PersistentIdentifier {
        PersistentIdentifier(entityName: entity.name, storeIdentifier: primaryKey == nil ? nil : storePath,
                             primaryKey: primaryKey, temporary: primaryKey == nil ? temporaryID : nil)
    }

    /// Called by `init(backingData:)`: the object these values belong to.
    public func adopt(_ model: some PersistentModel) {
        self.model = model
    }

    /// The value the team's initializer (or a property's default) gives: not a change.
    public func setInitialValue<Value>(_ value: Value, forKey key: String) {
        values[key] = value
    }

    public func getValue<Value>(forKey key: String) -> Value {
        cast(resolved(key), to: Value.self)
    }

    /// A change by the model's setter: recorded for the next save, with the relationship's other side kept in step
    /// (before the object is inserted too: the setter names the object).
    public func setValue<Value>(_ value: Value, forKey key: String, of model: some PersistentModel) {
        if self.model == nil { self.model = model }
        guard let property = entity.property(key) else { return }
        let old = property.target == nil ? nil : resolved(key)
        record(value, forKey: key)
        if let old, property.target != nil { Inverses.maintain(property, of: self, from: old, to: value) }
    }

    /// Stores a value as a change: the committed value is kept once, and the context learns of the change.
    func record(_ value: Any, forKey key: String) {
        if !changedKeys.contains(key) {
            committed[key] = values[key]
            changedKeys.insert(key)
        }
        values[key] = value
        context?.noteChange(of: self)
    }

    /// The value, with a relationship's fault resolved to objects through the context.
    func resolved(_ key: String) -> Any {
        let value = values[key] as Any
        guard let fault = value as? RelationshipFault, let property = entity.property(key), let target = property.target else {
            return value
        }
        let declared = Swift.type(of: property.keyPath).valueType
        if context == nil, orphanage == nil, let container { orphanage = ModelContext(container) }
        let context = self.context ?? orphanage
        let result: Any
        switch fault {
        case .one(let key):
            let object = key.flatMap { context?.registeredOrLoaded(Entity.of(target), primaryKey: $0) }
            result = object.map { $0 as Any } ?? ((declared as? any OptionalValue.Type)?.noneValue ?? value)
        case .many(let keys):
            let objects = keys.compactMap { context?.registeredOrLoaded(Entity.of(target), primaryKey: $0) }
            let collection = ((declared as? any OptionalValue.Type)?.wrappedType ?? declared) as? any CollectionOfModels.Type
            result = collection?.makeArray(objects) ?? objects
        }
        values[key] = result
        return result
    }

    /// The related objects a relationship holds now, resolved.
    func related(_ property: Entity.Property) -> [any PersistentModel] {
        Inverses.models(in: resolved(property.name))
    }

    private func cast<Value>(_ value: Any, to type: Value.Type) -> Value {
        if let value = value as? Value { return value }
        if let optional = Value.self as? any OptionalValue.Type, unwrapped(value) == nil { return optional.noneValue as! Value }
        fatalError("SwiftData: \(entity.name) has no value of type \(Value.self) for this property (\(Swift.type(of: value))).")
    }
}
