import CSQLite

/// SQLite's "copy the bytes now" destructor (a C macro Swift does not import).
private let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

/// What a SQLite failure means to a store, for its own error type.
public enum SQLiteFailure: Sendable {
    /// SQLITE_BUSY or SQLITE_LOCKED after the busy timeout: another process held the write lock too long.
    case busy
    /// SQLITE_NOTADB or SQLITE_CORRUPT: the file is not a database, or is damaged.
    case notADatabase
    /// Anything else.
    case other
}

/// One SQLite connection, used by one store under its own lock (opened `SQLITE_OPEN_NOMUTEX`); the Habits store
/// and SwiftData's share it, each mapping a failure to its module's error (`Failure`).
///
/// SQLite's unix VFS opens the database, `-wal` and `-shm` files with `O_CLOEXEC` on Linux, so a process the
/// host launches never inherits them (verified by `HabitStoreTests.sqliteDescriptorsAreCloseOnExec`).
public final class SQLiteConnection<Failure: Error> {
    public let path: String
    private let handle: OpaquePointer
    private let failure: (SQLiteFailure, String) -> Failure
    /// Prepared statements by SQL text, reused (reset, bindings cleared) instead of parsed again: the widget's
    /// first timeline alone runs the same few queries for each day of the week. Finalized before closing.
    private var statements: [String: OpaquePointer] = [:]

    /// Opens (creating if absent) the database at `path`.
    /// - Parameters:
    ///   - busyTimeout: seconds a statement waits for another process's lock (rule `sqlite.shared`).
    ///   - failure: the owner's error for a failure and SQLite's message.
    public init(path: String, busyTimeout: Double, failure: @escaping (SQLiteFailure, String) -> Failure) throws(Failure) {
        self.path = path
        self.failure = failure
        var db: OpaquePointer?
        let status = sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX, nil)
        guard status == SQLITE_OK, let db else {
            let message = db.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
            sqlite3_close_v2(db)
            throw failure(.other, message)
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
    public func execute(_ sql: String) throws(Failure) {
        let status = sqlite3_exec(handle, sql, nil, nil, nil)
        if status != SQLITE_OK { throw error(status) }
    }

    /// Runs one statement with `bindings`, returning every row.
    @discardableResult
    public func query(_ sql: String, _ bindings: [SQLiteValue] = []) throws(Failure) -> [[SQLiteValue]] {
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
            case .blob(let v): sqlite3_bind_blob(statement, position, v, Int32(v.count), transient)
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
                case SQLITE_BLOB:
                    let count = Int(sqlite3_column_bytes(statement, column))
                    guard count > 0, let bytes = sqlite3_column_blob(statement, column) else { return .blob([]) }
                    return .blob(Array(UnsafeRawBufferPointer(start: bytes, count: count)))
                default: return .text(String(cString: sqlite3_column_text(statement, column)))
                }
            })
        }
    }

    /// The row the last `INSERT` made.
    public var lastInsertedRow: Int64 { sqlite3_last_insert_rowid(handle) }

    /// Runs `body` in a transaction, committing on success and rolling back on error: `IMMEDIATE` for a write (rule
    /// `sqlite.shared`: take the write lock up front, so two writers never deadlock upgrading a read lock),
    /// `DEFERRED` for a read, which sees one snapshot.
    public func transaction<R>(immediate: Bool = true, _ body: () throws -> R) throws -> R {
        try execute(immediate ? "BEGIN IMMEDIATE" : "BEGIN DEFERRED")
        do {
            let result = try body()
            try execute("COMMIT")
            return result
        } catch {
            try? execute("ROLLBACK")
            throw error
        }
    }

    /// Maps a SQLite result code to the owner's error: busy, damaged file, or SQLite's own message.
    private func error(_ status: Int32) -> Failure {
        let message = String(cString: sqlite3_errmsg(handle))
        switch status & 0xFF {
        case SQLITE_BUSY, SQLITE_LOCKED: return failure(.busy, message)
        case SQLITE_NOTADB, SQLITE_CORRUPT: return failure(.notADatabase, message)
        default: return failure(.other, message)
        }
    }
}

/// A value read from or bound to a SQLite statement.
public enum SQLiteValue: Equatable, Sendable {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
    case blob([UInt8])

    public var string: String {
        switch self {
        case .text(let v): return v
        case .integer(let v): return String(v)
        case .real(let v): return String(v)
        case .null, .blob: return ""
        }
    }

    public var double: Double {
        switch self {
        case .integer(let v): return Double(v)
        case .real(let v): return v
        case .text(let v): return Double(v) ?? 0
        case .null, .blob: return 0
        }
    }

    public var int: Int64 {
        switch self {
        case .integer(let v): return v
        case .real(let v): return Int64(v)
        case .text(let v): return Int64(v) ?? 0
        case .null, .blob: return 0
        }
    }
}
