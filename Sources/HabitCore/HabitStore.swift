import Foundation
import LockstepSQLite
import LockstepSystem

/// The Habits store: one SQLite database in the group container's `Library/Application Support/`, shared by
/// the host, the widget and the intents extension (rule `sqlite.shared`).
///
/// WAL mode (readers never block the writer), every write in an `IMMEDIATE` transaction, a busy timeout with
/// SQLITE_BUSY reported as `HabitError.busy` (exit 75), and a schema version in `PRAGMA user_version`: a build
/// whose schema is older than the store's reads it but refuses to write it. Before every write the store runs
/// `SharedWriteGate.check()`, so a process from a superseded build stops instead (rule `runtime.stale`).
public final class HabitStore: @unchecked Sendable {  // @unchecked: the connection is used under `lock` only.
    /// The schema this build writes.
    public static let schemaVersion: Int32 = 1
    /// The file name inside `Library/Application Support/`.
    public static let fileName = "Habits.sqlite"

    /// The database file.
    public let path: String
    private let connection: SQLiteConnection
    private let lock = NSLock()

    /// Opens (creating if absent) the store in a group container.
    ///
    /// - Parameter groupContainer: the App Group container directory (`<groups>/phone/AppGroup/<group-id>`).
    /// - Throws: `HabitError.corruptStore` when the file is not a database (it is never recreated over user data).
    public convenience init(groupContainer: String) throws {
        try AtomicFile.createDirectories("\(groupContainer)/Library/Application Support")
        try self.init(path: Self.path(groupContainer: groupContainer))
    }

    /// The database file in a group container.
    public static func path(groupContainer: String) -> String {
        "\(groupContainer)/Library/Application Support/\(fileName)"
    }

    /// Opens (creating if absent) the store at `path`.
    public init(path: String) throws {
        self.path = path
        if FileSystem.isMissing(path) {
            // Creating the store is done by one process at a time, under a dedicated lock file beside it.
            try FileLock(path: "\(path).lock").withLock {
                if FileSystem.isMissing(path) { try Self.createNew(at: path) }
            }
        }
        let db = try SQLiteConnection(path: path, busyTimeout: FileLock.defaultTimeout)
        // Reading the version first makes a damaged file fail here, before anything could be written to it.
        if try db.query("PRAGMA user_version").first?.first?.int ?? 0 == 0 {
            // An empty file someone else created (`createNew` never leaves one): switched to WAL and given the schema
            // in place, by one process at a time, under the lock file: SQLite answers SQLITE_BUSY at once, without
            // waiting, to a journal-mode change that races another connection's.
            try FileLock(path: "\(path).lock").withLock {
                try Self.create(db)
            }
        }
        try db.execute("PRAGMA foreign_keys = ON")
        connection = db
    }

    /// WAL mode and the schema, unless another process created them first.
    private static func create(_ db: SQLiteConnection) throws {
        if try db.query("PRAGMA journal_mode").first?.first?.string != "wal" {
            try SharedWriteGate.check()
            try db.execute("PRAGMA journal_mode=WAL")
        }
        guard try db.query("PRAGMA user_version").first?.first?.int ?? 0 == 0 else { return }
        try SharedWriteGate.check()
        try db.transaction { try db.execute(schema) }
    }

    /// The tables, and the version that marks them created.
    private static let schema = """
        CREATE TABLE habits (
            id TEXT PRIMARY KEY, name TEXT NOT NULL UNIQUE COLLATE NOCASE, emoji TEXT NOT NULL,
            kind TEXT NOT NULL, daily_target REAL NOT NULL, active INTEGER NOT NULL,
            position INTEGER NOT NULL);
        CREATE TABLE logs (
            habit_id TEXT NOT NULL REFERENCES habits(id) ON DELETE CASCADE, day TEXT NOT NULL,
            value REAL NOT NULL, PRIMARY KEY (habit_id, day));
        PRAGMA user_version = \(schemaVersion);
        """

    /// Creates the store where none exists, as every file here is replaced (rule `files.atomic`): built
    /// complete in a private temp file beside it (schema, version, WAL mode), fsynced, linked into place (never over
    /// an existing file), the directory fsynced. Nobody can open a half-made store, and a crash leaves at most an
    /// unused temp file. Building a private file needs no journal and no syncs of its own: two fsyncs in all,
    /// where switching an empty file to WAL in place and committing the schema takes seven.
    /// Call under the store's lock file.
    private static func createNew(at path: String) throws {
        try SharedWriteGate.check()
        let directory = AtomicFile.parentDirectory(of: path)
        let temporary = "\(directory)/.\(fileName).\(ProcessEnvironment.processID).\(UInt32.random(in: 0 ... .max)).tmp"
        defer { FileSystem.remove(temporary) }
        do {
            let db = try SQLiteConnection(path: temporary, busyTimeout: 0)
            try db.execute("PRAGMA journal_mode=OFF; PRAGMA synchronous=OFF")
            try db.transaction { try db.execute(schema) }
            // Only the mode recorded in the file header: the first real connection makes the -wal and -shm files.
            try db.execute("PRAGMA journal_mode=WAL")
        }  // Closed here: every page is in the file.
        try FileDescriptor.open(temporary, O_RDWR).closeAfter { try $0.sync(path: path) }
        if link(temporary, path) != 0 && errno != EEXIST {
            throw SystemError(.write, path: path, errno: .current)
        }
        FileSystem.remove(temporary)
        try AtomicFile.syncDirectory(directory)
    }

    // MARK: Reading

    /// Every habit, in the order they were added (inactive ones only when asked).
    public func habits(includeInactive: Bool = false) throws -> [Habit] {
        try read { db in
            try db.query("SELECT id, name, emoji, kind, daily_target, active FROM habits \(includeInactive ? "" : "WHERE active = 1 ") ORDER BY position")
                .map(Self.habit(from:))
        }
    }

    /// The habit called `name` (case-insensitive).
    /// - Throws: `HabitError.unknownHabit`, listing the habits that exist.
    public func habit(named name: String) throws -> Habit {
        try read { db in try Self.habit(named: name, in: db) }
    }

    /// Today's summary for `day`: completed and incomplete active habits.
    public func summary(on day: Day) throws -> TodaysSummary {
        try read { db in
            let values = try Self.values(on: day, in: db)
            let habits = try db.query("SELECT id, name, emoji, kind, daily_target, active FROM habits WHERE active = 1 ORDER BY position")
                .map(Self.habit(from:))
            let completed = habits.filter { $0.isCompleted(by: values[$0.id] ?? 0) }
            let incomplete = habits.filter { !$0.isCompleted(by: values[$0.id] ?? 0) }
            return TodaysSummary(day: day, completed: completed, incomplete: incomplete)
        }
    }

    /// The seven days ending with `day`.
    public func weeklyProgress(endingOn day: Day) throws -> WeeklyProgress {
        try read { db in
            let habits = try db.query("SELECT id, name, emoji, kind, daily_target, active FROM habits WHERE active = 1")
                .map(Self.habit(from:))
            var flags: [Bool] = []
            var done = 0
            for offset in (0..<7).reversed() {
                let values = try Self.values(on: day.adding(days: -offset), in: db)
                let count = habits.filter { $0.isCompleted(by: values[$0.id] ?? 0) }.count
                done += count
                flags.append(!habits.isEmpty && count == habits.count)
            }
            return WeeklyProgress(daysCompleted: flags, weeklyCompletionRate: habits.isEmpty ? 0 : Double(done) / Double(habits.count * 7))
        }
    }

    /// The value logged for a habit on a day (0 when nothing was).
    public func value(of habit: Habit, on day: Day) throws -> Double {
        try read { db in try Self.values(on: day, in: db)[habit.id] ?? 0 }
    }

    // MARK: Writing

    /// Adds a habit.
    /// - Throws: `HabitError.duplicateHabit`, `.invalidName`, `.invalidValue` (a numeric target that is not positive).
    @discardableResult
    public func add(name: String, emoji: String = "✅", kind: HabitKind = .binary, dailyTarget: Double = 1) throws -> Habit {
        try Self.validate(name: name)
        guard dailyTarget.isFinite, dailyTarget > 0 else {
            throw HabitError(.invalidValue, subject: format(dailyTarget), detail: "a daily target must be a positive number")
        }
        let habit = Habit(id: Self.newID(), name: name, emoji: emoji.isEmpty ? "✅" : emoji, kind: kind,
                          dailyTarget: kind == .binary ? 1 : dailyTarget)
        return try write { db in
            if (try? Self.habit(named: name, in: db)) != nil { throw HabitError(.duplicateHabit, subject: name) }
            let position = try db.query("SELECT COALESCE(MAX(position), 0) + 1 FROM habits").first?.first?.int ?? 1
            try db.query("INSERT INTO habits VALUES (?, ?, ?, ?, ?, 1, ?)", [
                .text(habit.id), .text(habit.name), .text(habit.emoji), .text(habit.kind.rawValue),
                .real(habit.dailyTarget), .integer(position),
            ])
            return habit
        }
    }

    /// Removes a habit and its logs.
    public func remove(named name: String) throws {
        try write { db in
            let habit = try Self.habit(named: name, in: db)
            try db.query("DELETE FROM habits WHERE id = ?", [.text(habit.id)])
        }
    }

    /// Adds `value` to the day's log of a habit (a binary habit takes 1 only).
    /// - Returns: the habit and the day's new total.
    /// - Throws: `HabitError.invalidValue` for a negative, infinite or NaN value, or a binary value other than 1.
    @discardableResult
    public func log(named name: String, value: Double = 1, on day: Day) throws -> (habit: Habit, total: Double) {
        guard value.isFinite, value >= 0 else {
            throw HabitError(.invalidValue, subject: format(value), detail: "a logged value must be a number ≥ 0")
        }
        return try write { db in
            let habit = try Self.habit(named: name, in: db)
            if habit.kind == .binary && value != 1 {
                throw HabitError(.invalidValue, subject: format(value), detail: "'\(habit.name)' is done or not: log it without a value")
            }
            let old = try Self.values(on: day, in: db)[habit.id] ?? 0
            let total = habit.kind == .binary ? 1 : old + value
            try Self.set(total, for: habit, on: day, in: db)
            return (habit, total)
        }
    }

    /// Marks a habit completed (or not) for a day, whatever it was: idempotent, so a repeated transfer is harmless.
    @discardableResult
    public func setCompleted(named name: String, _ completed: Bool, on day: Day) throws -> Habit {
        try write { db in
            let habit = try Self.habit(named: name, in: db)
            try Self.set(completed ? habit.dailyTarget : 0, for: habit, on: day, in: db)
            return habit
        }
    }

    /// Flips a habit's completion for a day.
    /// - Returns: the habit and whether it is now completed.
    @discardableResult
    public func toggle(named name: String, on day: Day) throws -> (habit: Habit, completed: Bool) {
        try write { db in
            let habit = try Self.habit(named: name, in: db)
            let completed = !habit.isCompleted(by: try Self.values(on: day, in: db)[habit.id] ?? 0)
            try Self.set(completed ? habit.dailyTarget : 0, for: habit, on: day, in: db)
            return (habit, completed)
        }
    }

    // MARK: Plumbing

    private func read<R>(_ body: (SQLiteConnection) throws -> R) throws -> R {
        try lock.withLock { try body(connection) }
    }

    /// Every write: the stale-build gate, then an immediate transaction that first re-checks the schema version
    /// under the write lock (a newer build may have migrated the store since this process opened it).
    private func write<R>(_ body: (SQLiteConnection) throws -> R) throws -> R {
        try SharedWriteGate.check()
        return try lock.withLock {
            let db = connection
            return try db.transaction {
                let found = Int32(try db.query("PRAGMA user_version").first?.first?.int ?? 0)
                if found > Self.schemaVersion {
                    throw HabitError(.schemaTooNew(found: found, known: Self.schemaVersion), subject: path)
                }
                return try body(db)
            }
        }
    }

    private static func set(_ value: Double, for habit: Habit, on day: Day, in db: SQLiteConnection) throws {
        if value == 0 {
            try db.query("DELETE FROM logs WHERE habit_id = ? AND day = ?", [.text(habit.id), .text(day.rawValue)])
        } else {
            try db.query("INSERT OR REPLACE INTO logs VALUES (?, ?, ?)", [.text(habit.id), .text(day.rawValue), .real(value)])
        }
    }

    private static func values(on day: Day, in db: SQLiteConnection) throws -> [String: Double] {
        var result: [String: Double] = [:]
        for row in try db.query("SELECT habit_id, value FROM logs WHERE day = ?", [.text(day.rawValue)]) {
            result[row[0].string] = row[1].double
        }
        return result
    }

    private static func habit(named name: String, in db: SQLiteConnection) throws -> Habit {
        let rows = try db.query("SELECT id, name, emoji, kind, daily_target, active FROM habits WHERE name = ?", [.text(name)])
        guard let row = rows.first else {
            let names = try db.query("SELECT name FROM habits ORDER BY position").map { $0[0].string }
            throw HabitError(.unknownHabit, subject: name, detail: names.joined(separator: ", "))
        }
        return habit(from: row)
    }

    private static func habit(from row: [SQLiteValue]) -> Habit {
        Habit(id: row[0].string, name: row[1].string, emoji: row[2].string,
              kind: HabitKind(rawValue: row[3].string) ?? .binary, dailyTarget: row[4].double, isActive: row[5].int != 0)
    }

    /// The most UTF-8 bytes a habit name may have, beside its 64 characters: room for 64 emoji of several scalars.
    static let maximumNameBytes = 1024

    static func validate(name: String) throws {
        // Bytes first: one Character may hold millions of combining marks ('a' + 6,000,000 U+0301 is one Character
        // and 12 MB, which the widget took 15 s to draw), and the sentence quotes only the name's start.
        if name.utf8.count > maximumNameBytes {
            throw HabitError(.invalidName, subject: String(name.unicodeScalars.prefix(32)) + "…", detail: "it is longer than \(maximumNameBytes) bytes")
        }
        if name.isEmpty || name.allSatisfy(\.isWhitespace) {
            throw HabitError(.invalidName, subject: name, detail: "it is empty")
        }
        if name.count > 64 { throw HabitError(.invalidName, subject: name, detail: "it is longer than 64 characters") }
        if name.contains(where: \.isNewline) { throw HabitError(.invalidName, subject: name, detail: "it contains a line break") }
    }

    private static func newID() -> String {
        (0..<4).map { _ in String(UInt32.random(in: 0 ... .max), radix: 16) }.joined(separator: "-")
    }
}
