/// One save, inside the store's write transaction: deletes (with their delete rules), inserts, then changes.
///
/// Only what this context changed is written: the columns of the properties it set, and for a to-many relationship
/// the rows it added or removed, applied to the list as stored now. So two processes that save at once never lose
/// each other's saves, even to the same object.
struct SaveTransaction {
    struct Result {
        /// The row of each inserted object.
        var keys: [ObjectIdentifier: Int64] = [:]
        /// The to-many lists as written, for each object's next save.
        var lists: [ObjectIdentifier: [String: [Int64]]] = [:]
        var deletedRows: [(String, Int64)] = []
    }

    let db: SQLiteDatabase
    let schema: Schema
    private var result = Result()
    private var visited = Set<String>()
    private var upserted = Set<ObjectIdentifier>()

    init(db: SQLiteDatabase, schema: Schema) {
        self.db = db
        self.schema = schema
    }

    mutating func run(inserts: [any PersistentModel], changes: [any PersistentModel], deletes: [any PersistentModel]) throws -> Result {
        for object in deletes {
            let data = object.persistentBackingData
            if let key = data.primaryKey { try delete(data.entity, key) }
        }
        for object in inserts {
            let data = object.persistentBackingData
            var key: Int64?
            // An object whose unique attribute matches a stored one updates it (SwiftData's upsert).
            for property in data.entity.properties where property.isUnique {
                if let value = data.values[property.name], let found = try db.row(of: data.entity, where: property, is: try property.encode(value)) {
                    key = found
                    break
                }
            }
            if key != nil { upserted.insert(ObjectIdentifier(object)) }
            result.keys[ObjectIdentifier(object)] = try key ?? db.insertRow(of: data.entity)
        }
        for object in inserts {
            let data = object.persistentBackingData
            guard let key = result.keys[ObjectIdentifier(object)] else { continue }
            // An upsert adds its relationships' objects to the stored row's, and keeps those.
            try write(object, key: key, names: data.entity.properties.map(\.name), merging: upserted.contains(ObjectIdentifier(object)))
        }
        for object in changes {
            let data = object.persistentBackingData
            guard let key = data.primaryKey, !data.isDeleted else { continue }
            try write(object, key: key, names: Array(data.changedKeys), merging: true)
        }
        return result
    }

    /// Writes the properties `names` of `object` to its row; a to-many list is merged with the stored one when
    /// `merging` (the object's own baseline tells what it added and removed).
    private mutating func write(_ object: any PersistentModel, key: Int64, names: [String], merging: Bool) throws {
        let data = object.persistentBackingData
        var columns: [(String, StoreValue)] = []
        for name in names {
            guard let property = data.entity.property(name), let value = data.values[name] else { continue }
            switch property.kind {
            case .attribute:
                columns.append((name, try property.encode(value)))
            case .toOne:
                if value is RelationshipFault { continue }
                columns.append((name, Inverses.models(in: value).first.flatMap(row(of:)).map { .integer($0) } ?? .null))
            case .toMany:
                if value is RelationshipFault { continue }
                var keys = Inverses.models(in: value).compactMap(row(of:))
                if merging {
                    let stored = RowList.decode(try db.rows(of: data.entity, primaryKey: key).first?.values[name])
                    let baseline = data.baselineLists[name] ?? []
                    let removed = baseline.filter { !keys.contains($0) }, added = keys.filter { !baseline.contains($0) }
                    keys = stored.filter { !removed.contains($0) } + added.filter { !stored.contains($0) }
                }
                result.lists[ObjectIdentifier(object), default: [:]][name] = keys
                columns.append((name, RowList.encode(keys)))
            }
        }
        try db.update(data.entity, primaryKey: key, columns)
    }

    /// The row of a related object: saved before, or inserted by this save.
    private func row(of object: any PersistentModel) -> Int64? {
        object.persistentBackingData.primaryKey ?? result.keys[ObjectIdentifier(object)]
    }

    /// Deletes a row, applying its relationships' delete rules as stored now: `.deny` refuses while a relationship
    /// holds rows, `.cascade` deletes them too; every reference other rows hold to it is removed.
    private mutating func delete(_ entity: Entity, _ key: Int64) throws {
        guard visited.insert("\(entity.name)/\(key)").inserted, let row = try db.rows(of: entity, primaryKey: key).first else { return }
        for property in entity.properties {
            guard let target = property.target else { continue }
            let related = property.kind.isToOne ? RowList.decodeOne(row.values[property.name]).map { [$0] } ?? [] : RowList.decode(row.values[property.name])
            switch property.deleteRule {
            case .deny where !related.isEmpty:
                throw SwiftDataError(.deleteDenied, subject: "\(entity.name) (row \(key))", detail: "its '\(property.name)' still holds \(related.count) object\(related.count == 1 ? "" : "s")")
            case .cascade:
                for relatedKey in related { try delete(Entity.of(target), relatedKey) }
            default: break
            }
        }
        try db.deleteRow(of: entity, primaryKey: key)
        result.deletedRows.append((entity.name, key))
        // No row keeps a reference to a deleted one.
        for other in schema.entities {
            for property in other.properties where property.target == entity.type {
                if property.kind.isToOne {
                    try db.query("UPDATE \(ModelStore.quoted(other.name)) SET \(ModelStore.quoted(property.name)) = NULL WHERE \(ModelStore.quoted(property.name)) = ?", [.integer(key)])
                    continue
                }
                for holder in try db.rows(of: other) {
                    let keys = RowList.decode(holder.values[property.name])
                    if keys.contains(key) {
                        try db.update(other, primaryKey: holder.primaryKey, [(property.name, RowList.encode(keys.filter { $0 != key }))])
                    }
                }
            }
        }
    }
}
