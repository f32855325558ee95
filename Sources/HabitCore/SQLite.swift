import LockstepSQLite

/// The Habits store's connection: LockstepSQLite's, its failures as `HabitError`s.
typealias SQLiteConnection = LockstepSQLite.SQLiteConnection<HabitError>

extension LockstepSQLite.SQLiteConnection where Failure == HabitError {
    convenience init(path: String, busyTimeout: Double) throws(HabitError) {
        try self.init(path: path, busyTimeout: busyTimeout) { failure, message in
            switch failure {
            case .busy: return HabitError(.busy, subject: path)
            case .notADatabase: return HabitError(.corruptStore, subject: path, detail: message)
            case .other: return HabitError(.database, subject: path, detail: message)
            }
        }
    }
}
