import CSQLite
import LockstepSystem

/// SQLite's "copy the bytes now" destructor (a C macro Swift does not import).
private let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

/// One SQLite connection, used under the store's mutex only (opened `SQLITE_OPEN_NOMUTEX`).
///
/// SQLite's unix VFS opens the database, `-wal` and `-shm` files with `O_CLOEXEC` on Linux, so a process the
/// host launches never inherits them (verified by `HabitStoreTests.sqliteDescriptorsAreCloseOnExec`).
final class SQLiteConnection {
    let path: String
    private let handle: OpaquePointer
    /// Prepared statements by SQL text, reused (reset, bindings cleared) instead of parsed again: the widget's
    /// first timeline alone runs the same few queries for each day of the week. Finalized before closing.
    private var statements: [String: OpaquePointer] = [:]

    init(path: String, busyTimeout: Double) throws(HabitError) {
        self.path = path
        var db: OpaquePointer?
        let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX
        let status = sqlite3_open_v2(path, &db, flags, nil)
        guard status == SQLITE_OK, let db else {
            let message = db.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
            sqlite3_close_v2(db)
            throw HabitError(.database, subject: path, detail: message)
        }
        handle = db
        // rule `sqlite.shared`: wait for another process's write lock instead of failing at once.
        sqlite3_busy_timeout(db, Int32(busyTimeout * 1000))
    }

    deinit {
        for statement in statements.values { sqlite3_finalize(statement) }
        sqlite3_close_v2(handle)
    }

    /// Runs SQL with no result rows (several statements allowed).
    func execute(_ sql: String) throws(HabitError) {
        let status = sqlite3_exec(handle, sql, nil, nil, nil)
        if status != SQLITE_OK { throw error(status) }
    }

    /// Runs one statement with `bindings`, returning every row as text/real/integer/null values.
    @discardableResult
    func query(_ sql: String, _ bindings: [SQLiteValue] = []) throws(HabitError) -> [[SQLiteValue]] {
        let statement: OpaquePointer
        if let cached = statements[sql] {
            statement = cached
        } else {
            var prepared: OpaquePointer?
            let status = sqlite3_prepare_v2(handle, sql, -1, &prepared, nil)
            guard status == SQLITE_OK, let prepared else { throw error(status) }
            statements[sql] = prepared
            statement = prepared
        }
        // Ready for the next use however this one ends; resetting also releases the statement's read transaction.
        defer {
            sqlite3_reset(statement)
            sqlite3_clear_bindings(statement)
        }
        for (index, value) in bindings.enumerated() {
            let position = Int32(index + 1)
            switch value {
            case .null: sqlite3_bind_null(statement, position)
            case .integer(let v): sqlite3_bind_int64(statement, position, v)
            case .real(let v): sqlite3_bind_double(statement, position, v)
            case .text(let v): sqlite3_bind_text(statement, position, v, -1, transient)
            }
        }
        var rows: [[SQLiteValue]] = []
        while true {
            let step = sqlite3_step(statement)
            if step == SQLITE_DONE { return rows }
            guard step == SQLITE_ROW else { throw error(step) }
            rows.append((0..<sqlite3_column_count(statement)).map { column in
                switch sqlite3_column_type(statement, column) {
                case SQLITE_INTEGER: return .integer(sqlite3_column_int64(statement, column))
                case SQLITE_FLOAT: return .real(sqlite3_column_double(statement, column))
                case SQLITE_NULL: return .null
                default: return .text(String(cString: sqlite3_column_text(statement, column)))
                }
            })
        }
    }

    /// Runs `body` in an immediate transaction (rule `sqlite.shared`: take the write lock up front, so two
    /// writers never deadlock upgrading a read lock), committing on success and rolling back on error.
    func immediateTransaction<R>(_ body: () throws -> R) throws -> R {
        try execute("BEGIN IMMEDIATE")
        do {
            let result = try body()
            try execute("COMMIT")
            return result
        } catch {
            try? execute("ROLLBACK")
            throw error
        }
    }

    /// Maps a SQLite result code to the store's error: busy, damaged file, or SQLite's own message.
    private func error(_ status: Int32) -> HabitError {
        let message = String(cString: sqlite3_errmsg(handle))
        switch status & 0xFF {
        case SQLITE_BUSY, SQLITE_LOCKED: return HabitError(.busy, subject: path)
        case SQLITE_NOTADB, SQLITE_CORRUPT: return HabitError(.corruptStore, subject: path, detail: message)
        default: return HabitError(.database, subject: path, detail: message)
        }
    }
}

/// A value read from or bound to a SQLite statement.
enum SQLiteValue: Equatable {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)

    var string: String {
        switch self {
        case .text(let v): return v
        case .integer(let v): return String(v)
        case .real(let v): return String(v)
        case .null: return ""
        }
    }

    var double: Double {
        switch self {
        case .integer(let v): return Double(v)
        case .real(let v): return v
        case .text(let v): return Double(v) ?? 0
        case .null: return 0
        }
    }

    var int: Int64 {
        switch self {
        case .integer(let v): return v
        case .real(let v): return Int64(v)
        case .text(let v): return Int64(v) ?? 0
        case .null: return 0
        }
    }
}
