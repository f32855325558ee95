import AppGroupKit
import CSQLite
import Foundation
import LockstepFoundation
import LockstepSystem

/// Small programs of Lockstep's own in the shape of public reports of sharing bugs between an app and its
/// extensions (issue 43), written against Foundation's names as a team's code is: each has the bug's form and the
/// known fix's, behind `--fixed`. Under realistic device timing the bug shows; under strict timing both pass, which
/// is why strict mode hides it.
enum SharingShapes {
    /// The probe's first App Group suite, as `UserDefaults(suiteName:)` gives it.
    static func defaults(_ probe: Probe) throws -> LockstepFoundation.UserDefaults {
        guard let group = probe.process.bundle.appGroups.first, let defaults = LockstepFoundation.UserDefaults(suiteName: group) else {
            throw ProbeError("lockstep-probe: the bundle claims no App Group.")
        }
        return defaults
    }

    /// The words of a command with `--fixed` taken out, and whether it was there.
    static func fixed(_ argument: String) -> (words: [String], fixed: Bool) {
        let words = argument.split(separator: " ").map(String.init)
        return (words.filter { $0 != "--fixed" }, words.contains("--fixed"))
    }

    /// Runs one shape's command; false when `command` is none of theirs.
    static func perform(_ command: String, _ argument: String, probe: Probe) throws -> Bool {
        switch command {
        case "save-place":
            // The shape of sobri909/ArcMini #98: the app keeps the current place in the group's defaults, the
            // extension shows it, and stays minutes behind until the app saves explicitly. The fix: synchronize().
            let (words, fixed) = fixed(argument)
            let defaults = try defaults(probe)
            defaults.set(words.joined(separator: " "), forKey: "currentPlace")
            if fixed { defaults.synchronize() }
            print("saved place \(words.joined(separator: " "))\(fixed ? " and synchronized" : "")")
        case "show-place":
            // The app reading its own place back through another UserDefaults(suiteName:): its own write, at once.
            print("place \(try defaults(probe).string(forKey: "currentPlace") ?? "none")")
        case "publish-post":
            // The shape of wordpress-mobile/WordPress-iOS PR #2552: write the value, then tell the widget (a Darwin
            // notification); the widget reads before the write has reached it. The fix: flush before telling.
            let (words, fixed) = fixed(argument)
            let defaults = try defaults(probe)
            defaults.set(words.joined(separator: " "), forKey: "latestPost")
            if fixed { defaults.synchronize() }
            try DarwinNotificationCenter(sandbox: probe.process.sandbox()).post("com.example.posts-changed")
            print("published \(words.joined(separator: " "))\(fixed ? " (synchronized first)" : ""), told the widget")
        case "write-note":
            // The share extension's side of pointfreeco/swift-sharing #147: it saves the note as every shared file is
            // saved, replaced atomically by a rename (rule `files.atomic`).
            guard let container = try probe.groupContainer() else { throw ProbeError("lockstep-probe: no App Group.") }
            try CoordinatedFiles(container: container).write(Data(argument.utf8), to: "notes.txt")
            print("wrote note \(argument)")
        case "watch-notes":
            // The app's side of swift-sharing #147: it watches the notes file and shows each change. Its watch holds
            // the file it opened; after the first replacement, it watches a file nobody writes any more. The fix:
            // on `.delete`, watch the path again.
            guard let container = try probe.groupContainer() else { throw ProbeError("lockstep-probe: no App Group.") }
            NoteWatch(files: CoordinatedFiles(container: container), rearm: fixed(argument).fixed, probe: probe).start()
            print("watching notes\(fixed(argument).fixed ? " (watched again after each replacement)" : "")")
        case "setup-db":
            // home-assistant/iOS PR #4998's shape, the app's side: it creates the shared database (schema 1).
            let db = try SharedDatabase(probe, readOnly: false)
            try db.execute("CREATE TABLE IF NOT EXISTS entities(id INTEGER PRIMARY KEY, name TEXT); BEGIN; "
                + (1...500).map { "INSERT INTO entities(name) VALUES ('entity \($0)');" }.joined() + " COMMIT; PRAGMA user_version = 1;")
            print("database ready: \(try db.count()) entities")
        case "timeline":
            // The widget's side: its timeline reads the database. The bug: it opens it read-write and migrates it to
            // schema 2 itself, a migration that goes on after the timeline's work has returned, holding the write
            // lock — and iOS suspends an extension then: 0xdead10cc. The fix: extensions open it read-only (with a
            // busy timeout) and leave migrations to the app.
            let fixed = fixed(argument).fixed
            let db = try SharedDatabase(probe, readOnly: fixed)
            let count = try db.count()
            guard !fixed else {
                print("work returned with \(count) entities, read-only")
                return true
            }
            try db.execute("BEGIN IMMEDIATE; ALTER TABLE entities ADD COLUMN icon TEXT;")
            print("work returned with \(count) entities, migrating")
            for part in 0..<20 {
                try db.execute("UPDATE entities SET icon = 'mdi:\(part)' WHERE id % 20 = \(part);")
                Pause.microseconds(25_000)  // the migration's own pace: a long one, as a real one is
            }
            try db.execute("PRAGMA user_version = 2; COMMIT;")
            print("migrated to schema 2")
        case "show-posts":
            // The widget's side: on each notification, it reads the latest post and shows it.
            let defaults = try defaults(probe)
            let center = try DarwinNotificationCenter(sandbox: probe.process.sandbox())
            probe.keep(try center.observe("com.example.posts-changed") { _ in
                print("widget shows \(defaults.string(forKey: "latestPost") ?? "no post")")
            })
            print("showing posts")
        default:
            return false
        }
        return true
    }
}

/// The app's watch of `notes.txt` (swift-sharing #147's shape): prints `app sees notes: TEXT` on each change it sees.
final class NoteWatch: @unchecked Sendable {  // @unchecked: immutable; `Probe.keep` locks.
    let files: CoordinatedFiles
    let rearm: Bool
    let probe: Probe

    init(files: CoordinatedFiles, rearm: Bool, probe: Probe) {
        self.files = files
        self.rearm = rearm
        self.probe = probe
    }

    func start() {
        do {
            let observation = try files.watch("notes.txt") { [self] event in
                if event == .delete && rearm { start() }
                let text = (try? files.read("notes.txt")).flatMap { $0 }.map { String(decoding: $0, as: UTF8.self) } ?? "none"
                print("app sees notes: \(text)")
            }
            probe.keep(observation)
        } catch {
            Standard.error("lockstep-probe: \(error)")
        }
    }
}

/// `shared.sqlite` in the probe's first App Group container, through SQLite's C interface, as a team's code opens it.
final class SharedDatabase {
    let path: String
    private let handle: OpaquePointer

    init(_ probe: Probe, readOnly: Bool) throws {
        guard let container = try probe.groupContainer() else { throw ProbeError("lockstep-probe: no App Group.") }
        path = container.path + "/shared.sqlite"
        var db: OpaquePointer?
        let flags = readOnly ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE
        guard sqlite3_open_v2(path, &db, flags, nil) == SQLITE_OK, let db else {
            throw ProbeError("lockstep-probe: cannot open \(path): \(db.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory").")
        }
        handle = db
        sqlite3_busy_timeout(db, 5_000)  // rule `sqlite.shared`
    }

    deinit { sqlite3_close_v2(handle) }

    func execute(_ sql: String) throws {
        guard sqlite3_exec(handle, sql, nil, nil, nil) == SQLITE_OK else {
            throw ProbeError("lockstep-probe: \(path): \(String(cString: sqlite3_errmsg(handle))).")
        }
    }

    func count() throws -> Int {
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(handle, "SELECT count(*) FROM entities", -1, &statement, nil) == SQLITE_OK else {
            throw ProbeError("lockstep-probe: \(path): \(String(cString: sqlite3_errmsg(handle))).")
        }
        defer { sqlite3_finalize(statement) }
        guard sqlite3_step(statement) == SQLITE_ROW else { throw ProbeError("lockstep-probe: \(path): no count.") }
        return Int(sqlite3_column_int64(statement, 0))
    }
}
