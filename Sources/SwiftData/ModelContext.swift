import Dispatch
import Foundation

/// Where objects are inserted, changed, deleted and fetched, and saved to the container's store in one
/// transaction. Another process's saves are seen at the next fetch (objects without unsaved changes are read
/// again), as on iOS: no live merge is promised there either.
public final class ModelContext {
    public let container: ModelContainer
    /// Whether the context saves by itself after a change (on the main queue, once per burst of changes).
    public var autosaveEnabled = false
    /// The objects this context read or saved, by entity and row.
    private var registered: [String: [Int64: any PersistentModel]] = [:]
    private var inserted: [any PersistentModel] = []
    private var deleted: [any PersistentModel] = []
    private var changed: [ObjectIdentifier: any PersistentModel] = [:]
    private var autosaveScheduled = false

    public init(_ container: ModelContainer) {
        self.container = container
    }

    public var hasChanges: Bool { !inserted.isEmpty || !deleted.isEmpty || !changed.isEmpty }
    public var insertedModelsArray: [any PersistentModel] { inserted }
    public var deletedModelsArray: [any PersistentModel] { deleted }
    public var changedModelsArray: [any PersistentModel] { Array(changed.values) }

    /// Adds a new object (and, at the next save, the new objects its relationships hold).
    public func insert<T: PersistentModel>(_ model: T) {
        let data = model.persistentBackingData
        guard data.context !== self || data.isDeleted else { return }
        data.model = model
        data.context = self
        data.isDeleted = false
        deleted.removeAll { $0 === model }
        if data.primaryKey == nil && !inserted.contains(where: { $0 === model }) { inserted.append(model) }
        scheduleAutosave()
    }

    /// Marks an object deleted; the save deletes its row and applies its relationships' delete rules.
    public func delete<T: PersistentModel>(_ model: T) {
        let data = model.persistentBackingData
        if let index = inserted.firstIndex(where: { $0 === model }) {
            inserted.remove(at: index)
            data.isDeleted = true
            return
        }
        guard data.primaryKey != nil, !deleted.contains(where: { $0 === model }) else { return }
        data.context = self
        data.isDeleted = true
        deleted.append(model)
        scheduleAutosave()
    }

    /// Deletes every object of `model` the predicate matches.
    public func delete<T: PersistentModel>(model: T.Type, where predicate: Predicate<T>? = nil, includeSubclasses: Bool = true) throws {
        for object in try fetch(FetchDescriptor<T>(predicate: predicate)) { delete(object) }
    }

    /// Throws away unsaved inserts, deletes and changes.
    public func rollback() {
        for model in inserted { model.persistentBackingData.context = nil }
        for model in deleted { model.persistentBackingData.isDeleted = false }
        for model in changed.values {
            let data = model.persistentBackingData
            for (key, value) in data.committed { data.values[key] = value }
            data.committed = [:]
            data.changedKeys = []
        }
        inserted = []
        deleted = []
        changed = [:]
    }

    public func processPendingChanges() {}

    /// Runs `block`, then saves.
    public func transaction(block: () throws -> Void) throws {
        try block()
        try save()
    }

    /// The object with this identity: this context's, or read from the store.
    public func model(for persistentModelID: PersistentIdentifier) -> any PersistentModel {
        if let found = registeredModel(persistentModelID) { return found }
        fatalError("SwiftData: no object with identifier \(persistentModelID) in the store.")
    }

    public func registeredModel<T: PersistentModel>(for persistentModelID: PersistentIdentifier) -> T? {
        registeredModel(persistentModelID) as? T
    }

    private func registeredModel(_ id: PersistentIdentifier) -> (any PersistentModel)? {
        if let key = id.primaryKey {
            guard let entity = container.schema.entities.first(where: { $0.name == id.entityName }) else { return nil }
            return registeredOrLoaded(entity, primaryKey: key)
        }
        return inserted.first { $0.persistentModelID == id }
    }

    func noteChange(of data: _ModelBackingData) {
        guard data.context === self, let model = data.model else { return }
        if data.primaryKey != nil { changed[ObjectIdentifier(model)] = model }
        scheduleAutosave()
    }

    private func scheduleAutosave() {
        guard autosaveEnabled, !autosaveScheduled else { return }
        autosaveScheduled = true
        nonisolated(unsafe) let context = self  // run on the main queue, where the main context lives
        DispatchQueue.main.async {
            context.autosaveScheduled = false
            try? context.save()
        }
    }

    // MARK: Reading

    /// The object of `entity` at row `primaryKey`: this context's, or read from the store (nil if deleted there).
    func registeredOrLoaded(_ entity: Entity, primaryKey: Int64) -> (any PersistentModel)? {
        if let object = registered[entity.name]?[primaryKey] { return object }
        guard let row = try? container.store.withTransaction(writing: false, { try $0.rows(of: entity, primaryKey: primaryKey) }).first else {
            return nil
        }
        return try? materialize(entity, row)
    }

    /// The object for a stored row: the registered one, read again unless it has unsaved changes, or a new one.
    func materialize(_ entity: Entity, _ row: StoredRow) throws -> any PersistentModel {
        if let object = registered[entity.name]?[row.primaryKey] {
            let data = object.persistentBackingData
            if data.changedKeys.isEmpty && !data.isDeleted { try load(row, into: data) }
            return object
        }
        let data = _ModelBackingData(entity: entity)
        data.primaryKey = row.primaryKey
        data.storePath = container.store.path
        data.context = self
        data.container = container
        try load(row, into: data)
        let object = entity.type.init(backingData: data)
        register(object)
        return object
    }

    private func load(_ row: StoredRow, into data: _ModelBackingData) throws {
        for property in data.entity.properties {
            let stored = row.values[property.name] ?? .null
            switch property.kind {
            case .attribute: data.values[property.name] = try property.decode(stored, entity: data.entity.name)
            case .toOne: data.values[property.name] = RelationshipFault.one(RowList.decodeOne(stored))
            case .toMany:
                let keys = RowList.decode(stored)
                data.values[property.name] = RelationshipFault.many(keys)
                data.baselineLists[property.name] = keys
            }
        }
    }

    func register(_ object: any PersistentModel) {
        let data = object.persistentBackingData
        guard let key = data.primaryKey else { return }
        registered[data.entity.name, default: [:]][key] = object
    }

    func unregister(_ data: _ModelBackingData) {
        guard let key = data.primaryKey else { return }
        registered[data.entity.name]?[key] = nil
    }

    /// The objects of `entity` a fetch starts from: the stored ones (read again) without the deleted, and the
    /// inserted ones not yet saved.
    func candidates(_ entity: Entity, includePendingChanges: Bool) throws -> [any PersistentModel] {
        let rows = try container.store.withTransaction(writing: false) { try $0.rows(of: entity) }
        var objects = try rows.map { try materialize(entity, $0) }.filter { !$0.persistentBackingData.isDeleted }
        if includePendingChanges {
            objects += inserted.filter { $0.persistentBackingData.entity.type == entity.type }
        }
        return objects
    }

    func entity<T: PersistentModel>(_ type: T.Type) throws -> Entity {
        guard let entity = container.schema.entity(for: type) else {
            throw SwiftDataError(.unknownModel, subject: String(describing: type),
                                 detail: "it lists \(container.schema.entities.map(\.name).joined(separator: ", "))")
        }
        return entity
    }

    // MARK: Saving

    /// Writes every insert, change and delete in one transaction (rule `sqlite.shared`), so another process's fetch
    /// sees all of them or none; a failed save changes nothing and keeps the changes pending.
    public func save() throws {
        guard hasChanges else { return }
        let inserts = newObjects()
        let saved = try container.store.withTransaction(writing: true) { db in
            var transaction = SaveTransaction(db: db, schema: container.schema)
            return try transaction.run(inserts: inserts, changes: Array(changed.values), deletes: deleted)
        }
        for object in inserts {
            let data = object.persistentBackingData
            data.primaryKey = saved.keys[ObjectIdentifier(object)]
            data.storePath = container.store.path
            data.context = self
            data.container = container
            register(object)
        }
        for object in inserts + changed.values {
            let data = object.persistentBackingData
            data.committed = [:]
            data.changedKeys = []
            for property in data.entity.properties where !property.kind.isToOne && property.target != nil {
                data.baselineLists[property.name] = saved.lists[ObjectIdentifier(object)]?[property.name] ?? data.baselineLists[property.name]
            }
        }
        for (entityName, key) in saved.deletedRows {
            if let object = registered[entityName]?[key] {
                object.persistentBackingData.isDeleted = true
                registered[entityName]?[key] = nil
            }
        }
        inserted = []
        deleted = []
        changed = [:]
    }

    /// The inserted objects and every new object their relationships, or changed objects' relationships, reach.
    private func newObjects() -> [any PersistentModel] {
        var result = inserted, index = 0
        var queue = inserted + Array(changed.values)
        while index < queue.count {
            let data = queue[index].persistentBackingData
            index += 1
            for property in data.entity.properties where property.target != nil {
                // Faults are stored objects: only resolved values can hold new ones.
                guard let value = data.values[property.name], !(value is RelationshipFault) else { continue }
                for object in Inverses.models(in: value) where object.persistentBackingData.primaryKey == nil {
                    guard !result.contains(where: { $0 === object }) else { continue }
                    object.persistentBackingData.model = object
                    object.persistentBackingData.context = self
                    result.append(object)
                    queue.append(object)
                }
            }
        }
        return result.filter { !$0.persistentBackingData.isDeleted }
    }
}
