import LockstepSQLite
import LockstepSystem

/// A value as SQLite holds it.
typealias StoreValue = SQLiteValue

/// A container's connection to its store: LockstepSQLite's, its failures as `SwiftDataError`s, with the busy timeout
/// every Lockstep lock waits (rule `sqlite.shared`).
typealias SQLiteDatabase = SQLiteConnection<SwiftDataError>

extension SQLiteConnection where Failure == SwiftDataError {
    convenience init(path: String) throws(SwiftDataError) {
        try self.init(path: path, busyTimeout: FileLock.defaultTimeout) { failure, message in
            switch failure {
            case .busy: return SwiftDataError(.busy, subject: path)
            case .notADatabase: return SwiftDataError(.notAStore, subject: path, detail: message)
            case .other: return SwiftDataError(.database, subject: path, detail: message)
            }
        }
    }
}
