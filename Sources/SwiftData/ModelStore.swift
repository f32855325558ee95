import Foundation
import LockstepSystem

/// The SQLite file behind a container: a table per entity (`Z_PK` and a column per persisted property: an
/// attribute's value, a to-one relationship's row, a to-many relationship's rows as a JSON array), and
/// `lockstep_properties`, each property's kind, which tells this schema from another.
///
/// Shared across processes as rule `sqlite.shared` says: WAL, a busy timeout, every save one `IMMEDIATE`
/// transaction; the tables are made or extended under a lock file beside the store (`<store>.lock`, `flock`),
/// since SQLite refuses at once, without waiting, a journal-mode change that races another connection's.
final class ModelStore: @unchecked Sendable {  // @unchecked: the connection is used under `lock` only.
    /// The store format this build writes (`PRAGMA user_version`).
    static let formatVersion: Int32 = 1

    let path: String
    let schema: Schema
    private let database: SQLiteDatabase
    private let lock = NSLock()

    /// Opens the store at `path` (`:memory:` for one in memory), making the tables the schema needs.
    /// - Throws: `.notAStore` for a file that is not SQLite, `.storeTooNew` or `.otherSchema` for another schema's
    ///   store (each left untouched), `.busy`.
    init(path: String, schema: Schema) throws {
        self.path = path
        self.schema = schema
        if path != ":memory:" { try AtomicFile.createDirectories(AtomicFile.parentDirectory(of: path)) }
        let database = try SQLiteDatabase(path: path)
        // Read before anything is written: a file that is not SQLite, or a newer store, fails here untouched.
        let found = try Self.version(database)
        guard found <= Self.formatVersion else {
            throw SwiftDataError(.storeTooNew(found: found, known: Self.formatVersion), subject: path)
        }
        if path == ":memory:" {
            try Self.prepare(database, schema: schema)
        } else {
            try FileLock(path: "\(path).lock").withLock { try Self.prepare(database, schema: schema) }
        }
        self.database = database
    }

    private static func version(_ database: SQLiteDatabase) throws(SwiftDataError) -> Int32 {
        guard case .integer(let version)? = try database.query("PRAGMA user_version").first?.first else { return 0 }
        return Int32(truncatingIfNeeded: version)
    }

    /// WAL mode, then the tables and columns this schema needs that the store lacks (new entities and properties
    /// are added, as SwiftData's lightweight migration does); a property stored as another kind is another schema.
    private static func prepare(_ database: SQLiteDatabase, schema: Schema) throws {
        if database.path != ":memory:", try database.query("PRAGMA journal_mode").first?.first != .text("wal") {
            try SharedWriteGate.check()
            try database.query("PRAGMA journal_mode=WAL")
        }
        try database.transaction(immediate: true) {
            try database.query("CREATE TABLE IF NOT EXISTS lockstep_properties (entity TEXT NOT NULL, property TEXT NOT NULL, kind TEXT NOT NULL, PRIMARY KEY (entity, property))")
            var stored: [String: [String: String]] = [:]
            for row in try database.query("SELECT entity, property, kind FROM lockstep_properties") {
                guard case .text(let entity) = row[0], case .text(let property) = row[1], case .text(let kind) = row[2] else { continue }
                stored[entity, default: [:]][property] = kind
            }
            for entity in schema.entities {
                let known = stored[entity.name]
                if known == nil {
                    try database.query("CREATE TABLE IF NOT EXISTS \(quoted(entity.name)) (Z_PK INTEGER PRIMARY KEY AUTOINCREMENT)")
                }
                for property in entity.properties {
                    if let kind = known?[property.name] {
                        guard kind == property.storedKind else {
                            throw SwiftDataError(.otherSchema, subject: database.path,
                                                 detail: "\(entity.name).\(property.name) is stored as \(kind), and this build's model has \(property.storedKind)")
                        }
                        continue
                    }
                    try database.query("ALTER TABLE \(quoted(entity.name)) ADD COLUMN \(quoted(property.name)) \(property.columnType)")
                    try database.query("INSERT INTO lockstep_properties (entity, property, kind) VALUES (?, ?, ?)",
                                      [.text(entity.name), .text(property.name), .text(property.storedKind)])
                }
            }
            if try version(database) != formatVersion { try database.query("PRAGMA user_version = \(formatVersion)") }
        }
    }

    static func quoted(_ name: String) -> String { "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\"" }

    /// Runs `body` with the connection, in a transaction, one caller at a time.
    func withTransaction<R>(writing: Bool, _ body: (SQLiteDatabase) throws -> R) throws -> R {
        lock.lock()
        defer { lock.unlock() }
        if writing { try SharedWriteGate.check() }  // rule `runtime.stale`: a superseded build never writes
        return try database.transaction(immediate: writing) { try body(database) }
    }
}

/// One stored object: its row and its columns by property name.
struct StoredRow {
    let primaryKey: Int64
    let values: [String: StoreValue]
}

extension SQLiteDatabase {
    /// Every row of `entity` (with `primaryKey`, that row only).
    func rows(of entity: Entity, primaryKey: Int64? = nil) throws(SwiftDataError) -> [StoredRow] {
        let columns = (["Z_PK"] + entity.properties.map { ModelStore.quoted($0.name) }).joined(separator: ", ")
        let filter = primaryKey == nil ? "" : " WHERE Z_PK = ?"
        return try query("SELECT \(columns) FROM \(ModelStore.quoted(entity.name))\(filter) ORDER BY Z_PK",
                        primaryKey.map { [.integer($0)] } ?? []).map { row in
            guard case .integer(let key) = row[0] else { return StoredRow(primaryKey: -1, values: [:]) }
            var values: [String: StoreValue] = [:]
            for (index, property) in entity.properties.enumerated() { values[property.name] = row[index + 1] }
            return StoredRow(primaryKey: key, values: values)
        }
    }

    /// The row of `entity` whose unique `property` holds `value`, if one does.
    func row(of entity: Entity, where property: Entity.Property, is value: StoreValue) throws(SwiftDataError) -> Int64? {
        guard case .integer(let key)? = try query("SELECT Z_PK FROM \(ModelStore.quoted(entity.name)) WHERE \(ModelStore.quoted(property.name)) = ? LIMIT 1", [value]).first?.first else { return nil }
        return key
    }

    func insertRow(of entity: Entity) throws(SwiftDataError) -> Int64 {
        try query("INSERT INTO \(ModelStore.quoted(entity.name)) DEFAULT VALUES")
        return lastInsertedRow
    }

    func update(_ entity: Entity, primaryKey: Int64, _ values: [(String, StoreValue)]) throws(SwiftDataError) {
        guard !values.isEmpty else { return }
        let assignments = values.map { "\(ModelStore.quoted($0.0)) = ?" }.joined(separator: ", ")
        try query("UPDATE \(ModelStore.quoted(entity.name)) SET \(assignments) WHERE Z_PK = ?", values.map(\.1) + [.integer(primaryKey)])
    }

    func deleteRow(of entity: Entity, primaryKey: Int64) throws(SwiftDataError) {
        try query("DELETE FROM \(ModelStore.quoted(entity.name)) WHERE Z_PK = ?", [.integer(primaryKey)])
    }
}

/// A to-many relationship's rows as the store holds them: a JSON array of row numbers.
enum RowList {
    static func decode(_ value: StoreValue?) -> [Int64] {
        guard case .text(let text)? = value, let data = text.data(using: .utf8),
              let keys = try? JSONDecoder().decode([Int64].self, from: data) else { return [] }
        return keys
    }

    static func encode(_ keys: [Int64]) -> StoreValue {
        .text("[" + keys.map(String.init).joined(separator: ",") + "]")
    }

    static func decodeOne(_ value: StoreValue?) -> Int64? {
        guard case .integer(let key)? = value else { return nil }
        return key
    }
}
