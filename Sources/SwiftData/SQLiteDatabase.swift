import CSQLite
import LockstepSystem

/// SQLite's "copy the bytes now" destructor (a C macro Swift does not import).
private let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

/// One connection to a store file, used by one container under its lock.
///
/// SQLite's unix VFS opens the database, `-wal` and `-shm` files with `O_CLOEXEC` on Linux, so a launched process
/// never inherits them; the busy timeout makes a writer wait for another process's write lock (rule `sqlite.shared`).
final class SQLiteDatabase {
    let path: String
    private let handle: OpaquePointer

    init(path: String) throws(SwiftDataError) {
        self.path = path
        var db: OpaquePointer?
        let status = sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX, nil)
        guard status == SQLITE_OK, let db else {
            let message = db.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
            sqlite3_close_v2(db)
            throw SwiftDataError(.database, subject: path, detail: message)
        }
        handle = db
        // rule `sqlite.shared`: wait for another process's write lock instead of failing at once.
        sqlite3_busy_timeout(db, Int32(FileLock.defaultTimeout * 1000))
    }

    deinit { sqlite3_close_v2(handle) }

    /// Runs one statement with `bindings` and returns its rows.
    @discardableResult
    func rows(_ sql: String, _ bindings: [StoreValue] = []) throws(SwiftDataError) -> [[StoreValue]] {
        var prepared: OpaquePointer?
        let status = sqlite3_prepare_v2(handle, sql, -1, &prepared, nil)
        guard status == SQLITE_OK, let statement = prepared else { throw error(status) }
        defer { sqlite3_finalize(statement) }
        for (index, value) in bindings.enumerated() {
            let position = Int32(index + 1)
            switch value {
            case .null: sqlite3_bind_null(statement, position)
            case .integer(let v): sqlite3_bind_int64(statement, position, v)
            case .real(let v): sqlite3_bind_double(statement, position, v)
            case .text(let v): sqlite3_bind_text(statement, position, v, -1, transient)
            case .blob(let v): sqlite3_bind_blob(statement, position, v, Int32(v.count), transient)
            }
        }
        var result: [[StoreValue]] = []
        while true {
            let step = sqlite3_step(statement)
            if step == SQLITE_DONE { return result }
            guard step == SQLITE_ROW else { throw error(step) }
            result.append((0..<sqlite3_column_count(statement)).map { column in
                switch sqlite3_column_type(statement, column) {
                case SQLITE_INTEGER: return .integer(sqlite3_column_int64(statement, column))
                case SQLITE_FLOAT: return .real(sqlite3_column_double(statement, column))
                case SQLITE_NULL: return .null
                case SQLITE_BLOB:
                    let count = Int(sqlite3_column_bytes(statement, column))
                    guard count > 0, let bytes = sqlite3_column_blob(statement, column) else { return .blob([]) }
                    return .blob(Array(UnsafeRawBufferPointer(start: bytes, count: count)))
                default: return .text(String(cString: sqlite3_column_text(statement, column)))
                }
            })
        }
    }

    var lastInsertedRow: Int64 { sqlite3_last_insert_rowid(handle) }

    /// Runs `body` in a transaction: `IMMEDIATE` for a write (rule `sqlite.shared`: the write lock taken up front,
    /// so two writers never deadlock upgrading a read lock), `DEFERRED` for a read, which sees one snapshot.
    func transaction<R>(writing: Bool, _ body: () throws -> R) throws -> R {
        try rows(writing ? "BEGIN IMMEDIATE" : "BEGIN DEFERRED")
        do {
            let result = try body()
            try rows("COMMIT")
            return result
        } catch {
            _ = try? rows("ROLLBACK")
            throw error
        }
    }

    private func error(_ status: Int32) -> SwiftDataError {
        let message = String(cString: sqlite3_errmsg(handle))
        switch status & 0xFF {
        case SQLITE_BUSY, SQLITE_LOCKED: return SwiftDataError(.busy, subject: path)
        case SQLITE_NOTADB, SQLITE_CORRUPT: return SwiftDataError(.notAStore, subject: path, detail: message)
        default: return SwiftDataError(.database, subject: path, detail: message)
        }
    }
}
