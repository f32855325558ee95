import Foundation
import Testing
@testable import AppGroupKit
import LockstepTestSupport
import LockstepSystem

@Suite struct GroupDefaultsTests {
    @Test func valuesOfEveryPlistTypeRoundTrip() throws {
        let fixture = Fixture(); defer { fixture.cleanUp() }
        let defaults = try #require(try GroupDefaults(suiteName: Fixture.group, sandbox: fixture.sandbox()))
        #expect(defaults.isShared)
        let date = Date(timeIntervalSince1970: 1_700_000_000)
        try defaults.set("Meditate", forKey: "habit.name")
        try defaults.set(3, forKey: "count")
        try defaults.set(2.5, forKey: "ratio")
        try defaults.set(true, forKey: "flag")
        try defaults.set(date, forKey: "when")
        try defaults.set(Data([1, 2]), forKey: "blob")
        try defaults.set(["a", 1] as [Any], forKey: "list")
        try defaults.set(["k": false], forKey: "map")
        // Another instance has its own cache: it reads what the files say.
        let other = try #require(try GroupDefaults(suiteName: Fixture.group, sandbox: fixture.sandbox("com.example.habits.widget")))
        #expect(try other.string(forKey: "habit.name") == "Meditate")
        #expect(try other.integer(forKey: "count") == 3)
        #expect(try other.double(forKey: "ratio") == 2.5)
        #expect(try other.bool(forKey: "flag") == true)
        #expect(try other.value(forKey: "when") as? Date == date)
        #expect(try other.value(forKey: "blob") as? Data == Data([1, 2]))
        #expect(PropertyList.isEqual(try other.value(forKey: "list"), ["a", 1] as [Any]))
        #expect(PropertyList.isEqual(try other.value(forKey: "map"), ["k": false]))
        try other.removeObject(forKey: "count")
        #expect(try defaults.value(forKey: "count") == nil)
    }

    @Test func nonPropertyListValuesAreRefused() throws {
        let fixture = Fixture(); defer { fixture.cleanUp() }
        let defaults = try #require(try GroupDefaults(suiteName: Fixture.group, sandbox: fixture.sandbox()))
        let error = #expect(throws: AppGroupError.self) { try defaults.set(NSObject(), forKey: "bad") }
        #expect(error?.exitStatus == .invalidInput)
        #expect(error?.description.contains("'bad'") == true)
        #expect(throws: AppGroupError.self) { try defaults.set([1: "x"], forKey: "intKeys") }
        #expect(throws: AppGroupError.self) { try defaults.set(["ok", NSObject()] as [Any], forKey: "nested") }
        #expect(try defaults.dictionaryRepresentation().isEmpty)
    }

    @Test func suiteNamesThatAreNotSuites() throws {
        let fixture = Fixture(); defer { fixture.cleanUp() }
        let sandbox = try fixture.sandbox()
        #expect(try GroupDefaults(suiteName: "com.example.habits", sandbox: sandbox) == nil)
        #expect(try GroupDefaults(suiteName: GroupDefaults.globalDomain, sandbox: sandbox) == nil)
        #expect(throws: AppGroupError.self) { try GroupDefaults(suiteName: "../escape", sandbox: sandbox) }
        #expect(throws: AppGroupError.self) { try GroupDefaults(suiteName: "group.a/b", sandbox: sandbox) }
    }

    @Test func unentitledFallsBackToAPrivatePlistAndSaysWhy() throws {
        let fixture = Fixture(); defer { fixture.cleanUp() }
        let lines = LineCollector()
        let rogue = try #require(try GroupDefaults(suiteName: Fixture.group, sandbox: fixture.sandbox("com.example.rogue", groups: []), diagnostics: lines.append))
        #expect(!rogue.isShared)
        #expect(rogue.plistPath.contains("/Data/com.example.rogue/Library/Preferences/"))
        #expect(lines.text.contains("com.apple.security.application-groups"))
        #expect(lines.text.contains("Using kCFPreferencesAnyUser with a container is only allowed for System Containers, detaching from cfprefsd"))
        try rogue.set("secret", forKey: "k")
        let app = try #require(try GroupDefaults(suiteName: Fixture.group, sandbox: fixture.sandbox()))
        #expect(try app.value(forKey: "k") == nil)
    }

    @Test func malformedPlistIsReportedAndNeverOverwritten() throws {
        let fixture = Fixture(); defer { fixture.cleanUp() }
        let defaults = try #require(try GroupDefaults(suiteName: Fixture.group, sandbox: fixture.sandbox()))
        let garbage = Data("not a plist {".utf8)
        try garbage.write(to: URL(fileURLWithPath: defaults.plistPath))
        let readError = #expect(throws: AppGroupError.self) { try defaults.value(forKey: "k") }
        #expect(readError?.code == .malformedSuite)
        #expect(readError?.description.contains(defaults.plistPath) == true)
        #expect(throws: AppGroupError.self) { try defaults.set(1, forKey: "k") }
        #expect(throws: AppGroupError.self) { try defaults.synchronize() }
        #expect(try Data(contentsOf: URL(fileURLWithPath: defaults.plistPath)) == garbage)
    }

    @Test func synchronizeFoldsTheJournalIntoARealPlist() throws {
        let fixture = Fixture(); defer { fixture.cleanUp() }
        let defaults = try #require(try GroupDefaults(suiteName: Fixture.group, sandbox: fixture.sandbox()))
        try defaults.set("v", forKey: "key.with.dots")
        try defaults.increment("n")
        try defaults.synchronize()
        let data = try Data(contentsOf: URL(fileURLWithPath: defaults.plistPath))
        let plist = try #require(try PropertyListSerialization.propertyList(from: data, options: [], format: nil) as? [String: Any])
        #expect(plist["key.with.dots"] as? String == "v")
        #expect(plist["n"] as? Int == 1)
        let journal = try Data(contentsOf: URL(fileURLWithPath: SuiteFiles(container: try fixture.sandbox().requireGroupContainer(Fixture.group), suiteName: Fixture.group).journal))
        #expect(journal.isEmpty)
    }

    @Test func aSingleKeyWriteDoesNotRewriteALargeSuite() throws {
        let fixture = Fixture(); defer { fixture.cleanUp() }
        let defaults = try #require(try GroupDefaults(suiteName: Fixture.group, sandbox: fixture.sandbox()))
        let count = ProcessInfo.processInfo.environment["LOCKSTEP_STRESS"] == nil ? 20_000 : 100_000
        try defaults.transaction { transaction in
            for index in 0..<count { try transaction.set(index, forKey: "key.\(index)") }
        }
        try defaults.synchronize()
        let before = try FileManager.default.attributesOfItem(atPath: defaults.plistPath)[.systemFileNumber] as? Int
        for index in 0..<50 { try defaults.set(-index, forKey: "key.\(index)") }
        let after = try FileManager.default.attributesOfItem(atPath: defaults.plistPath)[.systemFileNumber] as? Int
        #expect(before == after, "the plist was replaced by a single-key write")
        let reader = try #require(try GroupDefaults(suiteName: Fixture.group, sandbox: fixture.sandbox("com.example.habits.widget")))
        #expect(try reader.integer(forKey: "key.49") == -49)
        #expect(try reader.integer(forKey: "key.\(count - 1)") == count - 1)
        #expect(try reader.dictionaryRepresentation().count == count)
    }

    @Test func aTornJournalRecordIsIgnoredAndCutOff() throws {
        let fixture = Fixture(); defer { fixture.cleanUp() }
        let defaults = try #require(try GroupDefaults(suiteName: Fixture.group, sandbox: fixture.sandbox()))
        try defaults.set("kept", forKey: "a")
        let journalPath = SuiteFiles(container: try fixture.sandbox().requireGroupContainer(Fixture.group), suiteName: Fixture.group).journal
        // What a writer killed mid-append leaves: a whole record's header and half its payload.
        var torn = try JournalRecord(pid: 1, sets: ["b": "lost"], removes: []).encoded()
        torn.removeLast(torn.count / 3)
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: journalPath))
        handle.seekToEndOfFile()
        handle.write(Data(torn))
        try handle.close()
        let reader = try #require(try GroupDefaults(suiteName: Fixture.group, sandbox: fixture.sandbox("com.example.habits.widget")))
        #expect(try reader.string(forKey: "a") == "kept")
        #expect(try reader.value(forKey: "b") == nil)
        try reader.set("after", forKey: "c")
        let fresh = try #require(try GroupDefaults(suiteName: Fixture.group, sandbox: fixture.sandbox("com.example.habits.intents")))
        #expect(try fresh.string(forKey: "c") == "after")
        #expect(try fresh.dictionaryRepresentation().count == 2)
    }

    @Test func aCorruptedRecordChecksumIsIgnored() throws {
        let fixture = Fixture(); defer { fixture.cleanUp() }
        var bytes = try JournalRecord(pid: 1, sets: ["b": "x"], removes: []).encoded()
        #expect(JournalRecord.decode(bytes, at: 0) != nil)
        bytes[bytes.count - 2] ^= 0xFF
        #expect(JournalRecord.decode(bytes, at: 0) == nil)
        #expect(CRC32.checksum(Array("123456789".utf8)) == 0xCBF4_3926)
        // Values from Python's zlib.crc32: lengths that exercise the eight-byte steps and the tail.
        #expect(CRC32.checksum(Array("The quick brown fox jumps over the lazy dog".utf8)) == 0x414F_A339)
        #expect(CRC32.checksum(Array((0..<768).map { UInt8($0 % 256) })) == 0xB0C0_DF2A)
        #expect(CRC32.checksum([UInt8]()) == 0)
    }

    @Test func compactionPastTheThresholdKeepsEveryValue() throws {
        let fixture = Fixture(); defer { fixture.cleanUp() }
        let defaults = try #require(try GroupDefaults(suiteName: "group.com.example.habits", sandbox: fixture.sandbox()))
        let reader = try #require(try GroupDefaults(suiteName: Fixture.group, sandbox: fixture.sandbox("com.example.habits.widget")))
        for index in 0..<300 {
            try defaults.set(String(repeating: "x", count: 5_000) + "\(index)", forKey: "k\(index % 7)")
            if index % 50 == 0 { _ = try reader.dictionaryRepresentation() }
        }
        // 300 records of ~5 KB passed the 1 MiB threshold at least once.
        let plist = try #require(PropertyList.decodeDictionary(try Data(contentsOf: URL(fileURLWithPath: defaults.plistPath))))
        #expect(plist.count == 7)
        #expect(try reader.string(forKey: "k5")?.hasSuffix("299") == true)
    }

    /// A fold rewrites the whole plist, so it waits until the journal is as big as the plist (or 1 MiB).
    @Test func theCompactionThresholdGrowsWithThePlist() throws {
        let fixture = Fixture(); defer { fixture.cleanUp() }
        let defaults = try #require(try GroupDefaults(suiteName: Fixture.group, sandbox: fixture.sandbox()))
        let journal = SuiteFiles(container: try fixture.sandbox().requireGroupContainer(Fixture.group), suiteName: Fixture.group).journal
        func journalSize() throws -> Int { try FileManager.default.attributesOfItem(atPath: journal)[.size] as? Int ?? 0 }
        try defaults.set(Data(repeating: 1, count: 3 << 20), forKey: "big")
        try defaults.synchronize()
        let chunk = Data(repeating: 2, count: 100_000)
        for _ in 0..<15 { try defaults.set(chunk, forKey: "chunk") }
        #expect(try journalSize() > GroupDefaults.compactionThreshold, "a 1.5 MB journal beside a 3 MB plist was folded")
        for _ in 0..<20 { try defaults.set(chunk, forKey: "chunk") }
        #expect(try journalSize() < 3 << 20, "the journal passed the plist's size and was never folded")
        let reader = try #require(try GroupDefaults(suiteName: Fixture.group, sandbox: fixture.sandbox("com.example.habits.widget")))
        #expect(try reader.value(forKey: "chunk") as? Data == chunk)
        #expect((try reader.value(forKey: "big") as? Data)?.count == 3 << 20)
    }

    /// Another participant folding the suite the way groups/README.md says (plist replaced, then the journal
    /// removed or replaced) is seen by a process that keeps the old journal open.
    @Test func aCompactionByAnotherParticipantIsSeenThroughTheOpenJournal() throws {
        let fixture = Fixture(); defer { fixture.cleanUp() }
        let defaults = try #require(try GroupDefaults(suiteName: Fixture.group, sandbox: fixture.sandbox()))
        try defaults.set(1, forKey: "a")
        let files = SuiteFiles(container: try fixture.sandbox().requireGroupContainer(Fixture.group), suiteName: Fixture.group)
        for replaceJournal in [false, true] {
            let current = try #require(try defaults.integer(forKey: "a"))
            let folded = try PropertyList.encode(["a": current, "script": replaceJournal ? "replaced" : "removed"])
            try AtomicFile.write(folded, to: files.plist)
            if replaceJournal { try AtomicFile.write([UInt8](), to: files.journal) } else { try FileManager.default.removeItem(atPath: files.journal) }
            #expect(try defaults.string(forKey: "script") == (replaceJournal ? "replaced" : "removed"))
            try defaults.increment("a")
        }
        #expect(try defaults.integer(forKey: "a") == 3)
    }

    /// The fixture's suite files and two states of them, as two processes hold them: one that observes, one that writes.
    static func observerAndWriter(_ fixture: Fixture) throws -> (files: SuiteFiles, observer: SuiteState, writer: SuiteState) {
        let files = SuiteFiles(container: try fixture.sandbox().requireGroupContainer(Fixture.group), suiteName: Fixture.group)
        return (files, SuiteState(files: files, writable: true), SuiteState(files: files, writable: true))
    }

    /// `observerAndWriter`, each having read the (empty) suite once: the observer's changes count from there.
    static func startedObserverAndWriter(_ fixture: Fixture) throws -> (observer: SuiteState, writer: SuiteState) {
        let (_, observer, writer) = try observerAndWriter(fixture)
        var none: [GroupDefaults.Change]? = nil
        try observer.refresh(changes: &none)
        try writer.refresh(changes: &none)
        return (observer, writer)
    }

    @Test func anObserverTellsOtherWritersFromItsOwnAcrossACompaction() throws {
        let fixture = Fixture(); defer { fixture.cleanUp() }
        let (observer, writer) = try Self.startedObserverAndWriter(fixture)
        var changes: [GroupDefaults.Change]? = []
        try writer.append(JournalRecord(pid: getpid(), sets: ["own.key": 1], removes: []))
        try writer.append(JournalRecord(pid: getpid() &+ 1, sets: ["other.key": 2], removes: []))
        try writer.compact()
        try observer.refresh(changes: &changes)
        #expect(changes?.map(\.key) == ["other.key"])
        #expect(observer.values["own.key"] as? Int == 1)
        // After the compaction the observer follows the new journal.
        try writer.append(JournalRecord(pid: getpid() &+ 1, sets: [:], removes: ["other.key"]))
        changes = []
        try observer.refresh(changes: &changes)
        #expect(changes?.map(\.key) == ["other.key"])
        #expect(changes?.first?.value == nil)
    }

    /// Other writers' increments replayed in one batch — read through each writer's kept record, stored once per run
    /// of one key — leave the values and the changes that replaying them one at a time leaves, whatever comes between.
    @Test func aBatchOfReplayedIncrementsEndsAsReplayedOneByOne() throws {
        let (a, b) = (getpid() &+ 1, getpid() &+ 2)
        let records: [JournalRecord] = [
            .init(pid: a, sets: ["a": 1], removes: []), .init(pid: a, sets: ["a": 2], removes: []),
            .init(pid: b, sets: ["b": 1], removes: []), .init(pid: b, sets: ["b": 2], removes: []),
            .init(pid: a, sets: ["a": 3], removes: []), .init(pid: getpid() &+ 3, sets: ["c": "x"], removes: ["a"]),
            .init(pid: b, sets: ["b": 3], removes: []), .init(pid: a, sets: ["a": 4], removes: []),
            .init(pid: a, sets: ["a": 5], removes: []), .init(pid: b, sets: ["b": 300], removes: []),
            .init(pid: getpid(), sets: ["b": 4], removes: []), .init(pid: b, sets: ["b": 5], removes: []),
        ]
        var results: [(values: [String: String], changes: [String])] = []
        for batch in [1, records.count, 5] {
            let fixture = Fixture(); defer { fixture.cleanUp() }
            let (observer, writer) = try Self.startedObserverAndWriter(fixture)
            var changes: [GroupDefaults.Change]? = []
            for (index, record) in records.enumerated() {
                try writer.append(record)
                if (index + 1) % batch == 0 || index + 1 == records.count { try observer.refresh(changes: &changes) }
            }
            results.append((observer.values.byString.mapValues { "\($0)" }, (changes ?? []).map { "\($0.key)=\($0.value.map { "\($0)" } ?? "nil")" }))
        }
        #expect(results[0].values == ["a": "5", "b": "5", "c": "x"])
        #expect(results[0].changes == ["a=1", "a=2", "b=1", "b=2", "a=3", "a=nil", "c=x", "b=3", "a=4", "a=5", "b=300", "b=5"])
        for result in results.dropFirst() {
            #expect(result.values == results[0].values)
            #expect(result.changes == results[0].changes)
        }
    }

    /// An observer reads appended records without the lock: a record still being written is not applied until it is
    /// complete, and a compaction sends it back to the locked path.
    @Test func anObserverReadsAppendedRecordsWithoutTheLockButNotAHalfWrittenOne() throws {
        let fixture = Fixture(); defer { fixture.cleanUp() }
        let (files, observer, writer) = try Self.observerAndWriter(fixture)
        var changes: [GroupDefaults.Change]? = []
        #expect(try !observer.readAppended(changes: &changes), "nothing loaded yet: the locked path first")
        try observer.refresh(changes: &changes)
        var none: [GroupDefaults.Change]? = nil
        try writer.refresh(changes: &none)
        try writer.append(JournalRecord(pid: getpid() &+ 1, sets: ["a": 1], removes: []))
        changes = []
        #expect(try observer.readAppended(changes: &changes) && observer.journalIsCurrent())
        #expect(changes?.map(\.key) == ["a"] && observer.values["a"] as? Int == 1)

        // Half of the next record on disk, as a reader racing the writer's pwrite may see it.
        let record = try JournalRecord(pid: getpid() &+ 1, sets: ["a": 2], removes: []).encoded()
        let journal = try FileDescriptor.open(files.journal, O_WRONLY | O_APPEND)
        try journal.writeAll(Array(record.prefix(record.count / 2)), path: files.journal)
        changes = []
        #expect(try observer.readAppended(changes: &changes))
        #expect(changes?.isEmpty == true && observer.values["a"] as? Int == 1)
        try journal.writeAll(Array(record.dropFirst(record.count / 2)), path: files.journal)
        journal.close()
        #expect(try observer.readAppended(changes: &changes))
        #expect(changes?.map(\.key) == ["a"] && observer.values["a"] as? Int == 2)

        // More than one read's worth (the first pread takes 4 KiB): every record, once, in order.
        try writer.refresh(changes: &none)
        for value in 3...200 { try writer.append(JournalRecord(pid: getpid() &+ 1, sets: ["a": value], removes: [])) }
        changes = []
        #expect(try observer.readAppended(changes: &changes))
        #expect(changes?.count == 198 && changes?.last?.value as? Int == 200 && observer.values["a"] as? Int == 200)

        try writer.refresh(changes: &none)
        try writer.compact()
        changes = []
        #expect(try observer.readAppended(changes: &changes) && changes?.isEmpty == true, "the old journal, read to its end")
        #expect(try !observer.journalIsCurrent(), "the journal was replaced: the locked path")
    }

    @Test func incrementAndTransactions() throws {
        let fixture = Fixture(); defer { fixture.cleanUp() }
        let defaults = try #require(try GroupDefaults(suiteName: Fixture.group, sandbox: fixture.sandbox()))
        #expect(try defaults.increment("n") == 1)
        #expect(try defaults.increment("n", by: 41) == 42)
        try defaults.set("text", forKey: "s")
        let error = #expect(throws: AppGroupError.self) { try defaults.increment("s") }
        #expect(error?.code == .invalidValue)
        struct Abort: Error {}
        #expect(throws: Abort.self) {
            try defaults.transaction { transaction in
                try transaction.set(0, forKey: "n")
                throw Abort()
            }
        }
        #expect(try defaults.integer(forKey: "n") == 42)
        try defaults.transaction { transaction in
            transaction.removeObject(forKey: "s")
            try transaction.set(transaction.value(forKey: "n") as! Int * 2, forKey: "m")
        }
        #expect(try defaults.integer(forKey: "m") == 84)
        #expect(try defaults.value(forKey: "s") == nil)
        try defaults.set(Int.max, forKey: "big")
        #expect(throws: AppGroupError.self) { try defaults.increment("big") }
        try defaults.transaction { transaction in
            #expect(Set(transaction.keys) == ["n", "m", "big"])
            for key in transaction.keys { transaction.removeObject(forKey: key) }
        }
        #expect(try defaults.dictionaryRepresentation().isEmpty)
    }

    @Test func threadsInOneProcessDoNotLoseIncrements() async throws {
        let fixture = Fixture(); defer { fixture.cleanUp() }
        let defaults = try #require(try GroupDefaults(suiteName: Fixture.group, sandbox: fixture.sandbox()))
        let other = try #require(try GroupDefaults(suiteName: Fixture.group, sandbox: fixture.sandbox()))
        await withThrowingTaskGroup(of: Void.self) { group in
            for task in 0..<4 {
                group.addTask { for _ in 0..<50 { try (task % 2 == 0 ? defaults : other).increment("n") } }
            }
        }
        #expect(try defaults.integer(forKey: "n") == 200)
    }

    /// An increment after this process's own increment of the key reads the value kept with its record (no
    /// dictionary lookup): every other way of reading or changing the suite in between must still see that value,
    /// and an increment must see every other change. Checked against a model, with another process's writes mixed in.
    @Test func incrementsMixedWithEveryOtherWriteMatchAModel() throws {
        let fixture = Fixture(); defer { fixture.cleanUp() }
        let defaults = try #require(try GroupDefaults(suiteName: Fixture.group, sandbox: fixture.sandbox()))
        let other = try #require(try GroupDefaults(suiteName: Fixture.group, sandbox: fixture.sandbox("com.example.habits.widget")))
        var model: [String: Int] = [:]
        var generator = SeededGenerator(seed: 30)
        for step in 0..<600 {
            let key = ["a", "b"][Int(generator.next() % 2)]
            switch generator.next() % 9 {
            case 0: try defaults.set(step, forKey: key); model[key] = step
            case 1: try other.set(step * 1000, forKey: key); model[key] = step * 1000
            case 2: try other.increment(key); model[key, default: 0] += 1
            case 3: try defaults.removeObject(forKey: key); model[key] = nil
            case 4: try defaults.transaction { try $0.set(step, forKey: key) }; model[key] = step
            case 5: if step % 50 == 0 { try defaults.synchronize() }
            case 6: #expect(try defaults.integer(forKey: key) == model[key])
            default: #expect(try defaults.increment(key, by: 255) == model[key, default: 0] + 255); model[key, default: 0] += 255
            }
            #expect(try other.dictionaryRepresentation() as? [String: Int] == model)
        }
        #expect(try defaults.dictionaryRepresentation() as? [String: Int] == model)
    }
}

/// Collects diagnostic lines from a library call.
final class LineCollector: @unchecked Sendable {  // @unchecked: `lines` is guarded by `lock`.
    private let lock = NSLock()
    private var lines: [String] = []
    func append(_ line: String) { lock.withLock { lines.append(line) } }
    var text: String { lock.withLock { lines.joined(separator: "\n") } }
}
