import BundleKit
import CSQLite
import Foundation
import HabitCore
import LockstepSystem
import LockstepTestSupport
import Testing

@Suite("HabitCore store (rule `sqlite.shared`)")
struct HabitStoreTests {
    @Test("habits, logs, today's summary and the week")
    func crudAndSummaries() throws {
        let fixture = HabitsFixture()
        let store = try HabitStore(path: "\(fixture.root.path)/h.sqlite")
        let day = Day(rawValue: "2026-11-22")
        try store.add(name: "Meditate", emoji: "🧘")
        try store.add(name: "Water", emoji: "💧", kind: .numeric, dailyTarget: 8)
        #expect(throws: HabitError.self) { try store.add(name: "meditate") }
        try store.log(named: "Water", value: 5, on: day)
        #expect(try store.summary(on: day).fraction == "0/2")
        let (_, total) = try store.log(named: "water", value: 3, on: day)
        #expect(total == 8)
        #expect(try store.toggle(named: "Meditate", on: day).completed)
        let summary = try store.summary(on: day)
        #expect(summary.fraction == "2/2" && summary.completionPercentage == 1)
        let week = try store.weeklyProgress(endingOn: day)
        #expect(week.daysCompleted == [false, false, false, false, false, false, true])
        #expect(abs(week.weeklyCompletionRate - 2.0 / 14.0) < 1e-9)
        #expect(throws: HabitError.self) { try store.log(named: "Water", value: -1, on: day) }
        #expect(throws: HabitError.self) { try store.log(named: "Water", value: .nan, on: day) }
        do {
            try store.log(named: "Nope", on: day)
            Issue.record("logging an unknown habit succeeded")
        } catch let error as HabitError {
            #expect(error.code == .unknownHabit && error.exitStatus == .failure)
            #expect(error.description.contains("'Nope'") && error.description.contains("Meditate, Water"))
        }
    }

    @Test("the store's own descriptors are close-on-exec (SQLite opens with O_CLOEXEC)")
    func sqliteDescriptorsAreCloseOnExec() throws {
        let fixture = HabitsFixture()
        let path = "\(fixture.root.path)/h.sqlite"
        let store = try HabitStore(path: path)
        try store.add(name: "Meditate")  // a write opens -wal and -shm too
        var checked = 0
        for fd in try FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd") {
            guard let target = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\(fd)"),
                  target.hasPrefix(path) else { continue }
            let info = try String(contentsOfFile: "/proc/self/fdinfo/\(fd)", encoding: .utf8)
            let flags = info.split(separator: "\n").first { $0.hasPrefix("flags:") }.flatMap { Int($0.split(separator: "\t").last!.trimmingCharacters(in: .whitespaces), radix: 8) } ?? 0
            #expect(flags & Int(O_CLOEXEC) != 0, "\(target) is not close-on-exec")
            checked += 1
        }
        #expect(checked >= 3, "expected the database, -wal and -shm descriptors")
        _ = store
    }

    @Test("a corrupted store is reported with exit 2 and left untouched")
    func corruptedStore() throws {
        let fixture = HabitsFixture()
        let directory = "\(fixture.groupContainer)/Library/Application Support"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let garbage = Data(repeating: 0x41, count: 4096)
        try garbage.write(to: URL(fileURLWithPath: fixture.storePath))
        for arguments in [["list"], ["add", "Meditate"]] {
            let result = try LockstepTestSupport.run("lockstep-host", arguments, environment: fixture.environment)
            #expect(result.status == 2, "\(result)")
            #expect(result.stderr.contains("is not a readable SQLite database") && result.stderr.contains("left untouched"))
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: fixture.storePath)) == garbage)
    }

    @Test("sqlite.shared: an older schema reads but never writes; SQLITE_BUSY is exit 75, not a crash")
    func sharedStoreRules() throws {
        let fixture = HabitsFixture()
        try fixture.addHabits()
        // A newer build migrated the store (user_version 2): this build still reads it…
        try withDatabase(fixture.storePath) { db in sqlite3_exec(db, "PRAGMA user_version = 2", nil, nil, nil) }
        let list = try fixture.run("lockstep-host", "list")
        #expect(list.status == 0 && list.stdout.contains("Meditate"), "\(list)")
        // …but refuses to write it (exit 78), and nothing changed.
        let write = try fixture.run("lockstep-host", "log", "Meditate")
        #expect(write.status == 78, "\(write)")
        #expect(write.stderr.contains("schema version 2, newer than this build's 1"))
        let intent = try fixture.run("lockstep-intent", "perform", "CompleteHabit", "--habit", "Meditate")
        #expect(intent.status == 78, "\(intent)")
        try withDatabase(fixture.storePath) { db in sqlite3_exec(db, "PRAGMA user_version = 1", nil, nil, nil) }
        #expect(try fixture.run("lockstep-host", "summary").stdout.contains("0/3"))

        // Another process holds the write lock (an immediate transaction) past the busy timeout.
        try withDatabase(fixture.storePath) { db in
            #expect(sqlite3_exec(db, "BEGIN IMMEDIATE", nil, nil, nil) == SQLITE_OK)
            let busy = try fixture.run("lockstep-host", "log", "Read", environment: ["LOCKSTEP_LOCK_TIMEOUT": "0.2"])
            #expect(busy.status == 75, "\(busy)")
            #expect(busy.stderr.contains("SQLITE_BUSY"))
            sqlite3_exec(db, "ROLLBACK", nil, nil, nil)
            return SQLITE_OK
        }
        #expect(try fixture.run("lockstep-host", "log", "Read").status == 0)

        // Concurrent writers in separate processes: immediate transactions and the busy timeout lose nothing.
        #expect(try fixture.run("lockstep-host", "add", "Water", "💧", "--target", "100").status == 0)
        let writers = try (0..<6).map { _ in try Child("lockstep-host", ["log", "Water", "2"], environment: fixture.environment) }
        for writer in writers { #expect(writer.wait().status == 0) }
        #expect(try fixture.run("lockstep-host", "log", "Water", "0").stdout.contains("Water: 12/100"))
    }

    @Test("a new store appears complete (WAL, schema) with no temp file left; an empty file found in its place is set up in place")
    func creation() throws {
        let directory = TestSupport.temporaryDirectory("store")
        defer { TestSupport.cleanUp(directory) }
        for emptyFirst in [false, true] {
            let path = directory.appendingPathComponent("\(emptyFirst ? "empty" : "new")/Habits.sqlite").path
            try AtomicFile.createDirectories((path as NSString).deletingLastPathComponent)
            if emptyFirst { #expect(FileManager.default.createFile(atPath: path, contents: Data())) }
            let store = try HabitStore(path: path)
            try store.add(name: "Meditate", emoji: "🧘")
            #expect(try store.habits().map(\.name) == ["Meditate"])
            var db: OpaquePointer?
            #expect(sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, nil) == SQLITE_OK)
            defer { sqlite3_close_v2(db) }
            var statement: OpaquePointer?
            sqlite3_prepare_v2(db, "PRAGMA journal_mode", -1, &statement, nil)
            #expect(sqlite3_step(statement) == SQLITE_ROW)
            #expect(String(cString: sqlite3_column_text(statement, 0)) == "wal")
            sqlite3_finalize(statement)
            let names = try FileManager.default.contentsOfDirectory(atPath: (path as NSString).deletingLastPathComponent)
            #expect(!names.contains { $0.hasSuffix(".tmp") }, "\(names)")
        }
    }

    @Test("processes that create the store at the same moment all succeed (one creates it, the others wait)")
    func concurrentCreation() throws {
        for _ in 0..<3 {
            let fixture = HabitsFixture()
            #expect(try fixture.run("lockstep-intent", "list").status == 0)  // installs the manifest, no store yet
            let openers = try (0..<3).flatMap { _ in
                [try Child("lockstep-host", ["summary"], environment: fixture.environment),
                 try Child("lockstep-widget", ["render", "--family", "accessoryInline"], environment: fixture.environment)]
            }
            for opener in openers {
                let result = opener.wait()
                #expect(result.status == 0, "\(result)")
            }
        }
    }

    @Test("a bundle that does not claim the app's group gets no container: exit 77, nothing written")
    func notEntitled() throws {
        let fixture = HabitsFixture()
        let manifest = fixture.root.appendingPathComponent("manifest.json")
        let text = Manifest.embeddedDefaultText.replacingOccurrences(
            of: #""executable": "lockstep-widget", "appGroups": ["group.com.example.habits"]"#,
            with: #""executable": "lockstep-widget", "appGroups": []"#)
        #expect(text != Manifest.embeddedDefaultText)
        try text.write(to: manifest, atomically: true, encoding: .utf8)
        let result = try fixture.run("lockstep-widget", "render", "--family", "systemSmall",
                                     environment: ["LOCKSTEP_MANIFEST": manifest.path])
        #expect(result.status == 77, "\(result)")
        #expect(result.stderr.contains("group.com.example.habits") && result.stderr.contains("com.example.habits.widget"))
        #expect(!FileManager.default.fileExists(atPath: fixture.storePath))
    }

    private func withDatabase(_ path: String, _ body: (OpaquePointer) throws -> Int32) throws {
        var db: OpaquePointer?
        #expect(sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE, nil) == SQLITE_OK)
        defer { sqlite3_close_v2(db) }
        _ = try body(db!)
    }

    @Test("each of the reference app's roles is the manifest role of its name")
    func rolesAreManifestRoles() {
        for role in HabitsEnvironment.Role.allCases {
            #expect(role.bundleRole.rawValue == role.rawValue, "\(role)")
        }
    }
}
