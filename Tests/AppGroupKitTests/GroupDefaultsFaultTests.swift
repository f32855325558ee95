import Foundation
import Testing
@testable import AppGroupKit
import LockstepSystem
import LockstepTestSupport

/// The shared defaults under faults (issue 46), across real processes: a full file system (a small tmpfs the test
/// mounts) and the file-size limit (`RLIMIT_FSIZE`, set with `prlimit`). A write reported failed is never visible,
/// one reported done always is — through `lockstep defaults`, a long-lived `GroupDefaults` and an observer — and a
/// retried increment counts once. Damage is refused, never cut; an unreadable suite exits 2.
@Suite struct GroupDefaultsFaultTests {
    static let group = ProcessTests.group
    static let app = ProcessTests.app
    static let widget = ProcessTests.widget

    /// A tmpfs of `size` mounted at `path` (created), or nil when mounting is refused (not root, no CAP_SYS_ADMIN).
    static func mountTmpfs(at path: String, size: String) -> Bool {
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return (try? run("/usr/bin/mount", ["-t", "tmpfs", "-o", "size=\(size)", "tmpfs", path]).status) == 0
    }

    static func unmount(_ path: String) { _ = try? run("/usr/bin/umount", [path]) }

    /// Whether this machine lets the tests mount a tmpfs; the full-disk tests are skipped (saying so) otherwise.
    static let canMount: Bool = {
        let probe = TestSupport.temporaryDirectory("mount-probe")
        defer { TestSupport.cleanUp(probe) }
        guard mountTmpfs(at: probe.path + "/m", size: "64k") else { return false }
        unmount(probe.path + "/m")
        return true
    }()

    /// A long-lived process holding the suite open as `bundle` (`lockstep-probe __worker KIND`).
    static func worker(_ kind: String, _ root: ProcessTests.Root, as bundle: String, limit: Int? = nil) throws -> Child {
        let arguments = ["__worker", kind, root.url.path, bundle, group]
        let child = try limit.map {
            try Child("/usr/bin/prlimit", ["--fsize=\($0)", Child.binDirectory.appendingPathComponent("lockstep-probe").path] + arguments, keepStdinOpen: true)
        } ?? Child("lockstep-probe", arguments, keepStdinOpen: true)
        #expect(child.waitForLine("ready") != nil, "\(child.errorOutput)")
        return child
    }

    /// Sends one command to a `defaults-session` worker and returns its one-line answer.
    static func ask(_ session: Child, _ command: String) -> String {
        let mark = session.mark
        session.sendLine(command)
        return session.waitForLine("= ", after: mark).map { String($0.dropFirst(2)) } ?? "no answer: \(session.errorOutput)"
    }

    /// `lockstep defaults` as `bundle`, under the file-size limit `limit` when given.
    static func defaults(_ root: ProcessTests.Root, as bundle: String, limit: Int? = nil, _ arguments: [String]) throws -> ProcessResult {
        let command = ["defaults", "--as", bundle] + arguments + ["--groups", root.url.path, "--manifest", root.manifest]
        guard let limit else { return try run("lockstep", command) }
        return try run("/usr/bin/prlimit", ["--fsize=\(limit)", Child.binDirectory.appendingPathComponent("lockstep").path] + command)
    }

    /// What a run of writes was told: the keys reported done (with their sizes) and reported failed.
    struct Outcomes {
        var done: [String: Int] = [:]
        var failed: [String] = []
        /// Whether a write succeeded although folding the journal afterwards failed (the first fault of issue 46).
        var foldFailed = false
    }

    /// Writes values of shrinking sizes under fresh keys — alternately through `lockstep defaults` and the
    /// long-lived `session` — until each size fails twice in a row, recording what each write was told.
    static func fill(_ root: ProcessTests.Root, session: Child, limit: Int? = nil, sizes: [Int]) throws -> Outcomes {
        var outcomes = Outcomes()
        var index = 0
        for size in sizes {
            var failuresInARow = 0
            for _ in 0..<60 where failuresInARow < 2 {
                index += 1
                let key = "k" + String(1000 + index)  // one width: "changed k1001" is in no other line
                let ok: Bool
                if index.isMultiple(of: 2) {
                    let result = try defaults(root, as: app, limit: limit, ["write", group, key, String(repeating: "v", count: size)])
                    // Never SIGXFSZ's silent 153, never 1 (a missing key's status): 0 done, 75 no room.
                    #expect(result.status == 0 || result.status == 75, "\(result)")
                    #expect(result.stderr.contains("the write did not happen") == (result.status != 0), "\(result)")
                    if result.status == 0 && result.stderr.contains("was not folded") { outcomes.foldFailed = true }
                    ok = result.status == 0
                } else {
                    let answer = ask(session, "set \(key) \(size)")
                    #expect(answer == "ok \(size)" || answer.hasPrefix("failed 75 "), "\(answer)")
                    #expect(answer.hasPrefix("ok") || answer.contains("the write did not happen"), "\(answer)")
                    ok = answer.hasPrefix("ok")
                }
                if ok {
                    outcomes.done[key] = size
                    failuresInARow = 0
                } else {
                    outcomes.failed.append(key)
                    failuresInARow += 1
                }
            }
        }
        return outcomes
    }

    /// Every write reported done is visible with its value, every one reported failed is not: through
    /// `lockstep defaults`, the long-lived session and the observer's reports.
    static func expectExactly(_ outcomes: Outcomes, _ root: ProcessTests.Root, session: Child, observer: Child) throws {
        for (key, size) in outcomes.done {
            let read = try defaults(root, as: widget, ["read", group, key])
            #expect(read.status == 0 && read.stdout == String(repeating: "v", count: size) + "\n", "\(key): \(read.status) \(read.stderr)")
            #expect(ask(session, "read \(key)") == "ok \(size)", "\(key)")
        }
        for key in outcomes.failed {
            let read = try defaults(root, as: widget, ["read", group, key])
            #expect(read.status == 1, "\(key) was reported failed yet reads: \(read)")
            #expect(ask(session, "read \(key)") == "ok none", "\(key)")
        }
        // The observer reports every change done (in its own time: bounded wait), and none reported failed.
        for key in outcomes.done.keys { #expect(observer.waitForLine("changed \(key)") != nil, "\(key)") }
        let reported = Set(observer.output)
        for key in outcomes.failed { #expect(!reported.contains("changed \(key)"), "\(key)") }
    }

    /// Fills the rest of the file system holding `path` with a file there (4 KiB at a time, until it fails).
    static func fillUp(_ path: String) {
        guard let file = try? FileDescriptor.open(path, O_WRONLY | O_CREAT | O_APPEND) else { return }
        defer { file.close() }
        let chunk = [UInt8](repeating: 0, count: 4096)
        while (try? file.writeAll(chunk, path: path)) != nil {}
    }

    /// Increments until one is reported failed, checks that failure changed nothing, lets `makeRoom` free space,
    /// and retries (through `retry`, when given): the retried increment counts once.
    static func incrementRetriedCountsOnce(_ increment: () throws -> (ok: Bool, value: Int?), retry: (() throws -> (ok: Bool, value: Int?))? = nil,
                                           read: () throws -> Int?, makeRoom: () throws -> Void = {}) throws {
        var acknowledged = try read() ?? 0
        var failedOnce = false
        for _ in 0..<400 {
            let (ok, value) = try increment()
            if !ok { failedOnce = true; break }
            #expect(value == acknowledged + 1)
            acknowledged = value ?? acknowledged
        }
        #expect(failedOnce, "no increment failed")
        #expect(try read() ?? 0 == acknowledged, "a failed increment changed the counter")
        try makeRoom()
        let (ok, value) = try retry.map { try $0() } ?? increment()
        #expect(ok && value == acknowledged + 1, "the retry did not count once: \(String(describing: value)) after \(acknowledged)")
        #expect(try read() == acknowledged + 1)
    }

    static func cliIncrement(_ root: ProcessTests.Root, limit: Int? = nil, key: String) throws -> (ok: Bool, value: Int?) {
        let result = try defaults(root, as: app, limit: limit, ["increment", group, key])
        #expect(result.status == 0 || result.status == 75, "\(result)")
        return (result.status == 0, Int(result.stdout.trimmingCharacters(in: .newlines)))
    }

    static func cliRead(_ root: ProcessTests.Root, _ key: String) throws -> Int? {
        let result = try defaults(root, as: widget, ["read", group, key])
        #expect(result.status == 0 || result.status == 1, "\(result)")
        return Int(result.stdout.trimmingCharacters(in: .newlines))
    }

    static func sessionIncrement(_ session: Child, key: String) -> (ok: Bool, value: Int?) {
        let answer = ask(session, "increment \(key)")
        #expect(answer.hasPrefix("ok ") || answer.hasPrefix("failed 75 "), "\(answer)")
        return (answer.hasPrefix("ok "), Int(answer.dropFirst(3)))
    }

    @Test(.enabled(if: canMount, "mounting a tmpfs is refused here (it needs root): the full-disk test is skipped"))
    func aFullDiskNeverShowsAFailedWriteAndAlwaysShowsADoneOne() throws {
        let root = try ProcessTests.Root()
        let device = root.url.path + "/phone"
        #expect(Self.mountTmpfs(at: device, size: "2600k"))
        defer { Self.unmount(device); root.cleanUp() }
        // Room the test frees later, taken first: files on the same tmpfs.
        let reserves = [device + "/reserve-1", device + "/reserve-2"]
        for reserve in reserves { try Data(count: 150_000).write(to: URL(fileURLWithPath: reserve)) }
        let observer = try Self.worker("observe", root, as: "com.example.habits.watchkitapp")
        let session = try Self.worker("defaults-session", root, as: Self.widget)
        defer { session.closeStdin(); observer.closeStdin(); _ = session.finish(); _ = observer.finish() }

        let outcomes = try Self.fill(root, session: session, sizes: [100_000, 10_000, 1_000, 100])
        #expect(!outcomes.failed.isEmpty && !outcomes.done.isEmpty)
        #expect(outcomes.foldFailed, "no write outlived a failed fold")
        try Self.expectExactly(outcomes, root, session: session, observer: observer)

        // The disk full to the last page: increments fail, and once there is room again, the retry counts once.
        // (Filled now, not by the writes above: a replaced journal's space comes back only once the observer and
        // the session, which keep it open, have moved on to the new one.)
        let filler = device + "/filler"
        Self.fillUp(filler)
        try Self.incrementRetriedCountsOnce({ try Self.cliIncrement(root, key: "n") }, read: { try Self.cliRead(root, "n") }) {
            for path in [filler, reserves[0]] { try FileManager.default.removeItem(atPath: path) }
        }
        Self.fillUp(filler)
        try Self.incrementRetriedCountsOnce({ Self.sessionIncrement(session, key: "m") }, read: { try Self.cliRead(root, "m") }) {
            for path in [filler, reserves[1]] { try FileManager.default.removeItem(atPath: path) }
        }
        // No temp file of a failed fold is left behind once a fold succeeds.
        #expect(try Self.defaults(root, as: Self.app, ["write", Self.group, "last", "x"]).status == 0)
        let preferences = device + "/AppGroup/\(Self.group)/Library/Preferences"
        #expect(try FileManager.default.contentsOfDirectory(atPath: preferences).filter { $0.hasSuffix(".tmp") } == [])
    }

    @Test func theFileSizeLimitIsReportedLikeAFullDisk() throws {
        let root = try ProcessTests.Root(); defer { root.cleanUp() }
        let limit = 400_000
        let observer = try Self.worker("observe", root, as: "com.example.habits.watchkitapp")
        let session = try Self.worker("defaults-session", root, as: Self.widget, limit: limit)
        defer { session.closeStdin(); observer.closeStdin(); _ = session.finish(); _ = observer.finish() }

        let outcomes = try Self.fill(root, session: session, limit: limit, sizes: [50_000, 5_000, 500])
        #expect(!outcomes.failed.isEmpty && !outcomes.done.isEmpty)
        #expect(outcomes.foldFailed, "no write outlived a failed fold")
        try Self.expectExactly(outcomes, root, session: session, observer: observer)
        // Increments under the limit fail once the journal reaches it; the retry, without the limit, counts once.
        try Self.incrementRetriedCountsOnce({ try Self.cliIncrement(root, limit: limit, key: "n") }, retry: { try Self.cliIncrement(root, key: "n") },
                                            read: { try Self.cliRead(root, "n") })
        // That retry folded the journal (no limit): fill it up to the limit again.
        _ = try Self.fill(root, session: session, limit: limit, sizes: [50_000, 5_000, 500, 50])
        try Self.incrementRetriedCountsOnce({ Self.sessionIncrement(session, key: "m") }, retry: { try Self.cliIncrement(root, key: "m") },
                                            read: { try Self.cliRead(root, "m") })
    }

    /// The files of the Habits group suite under `root`.
    static func files(_ root: ProcessTests.Root) -> (journal: String, preferences: String, defaults: String) {
        let container = root.url.path + "/phone/AppGroup/\(group)"
        return ("\(container)/.lockstep/defaults/\(group).journal", "\(container)/Library/Preferences", "\(container)/.lockstep/defaults")
    }

    /// One changed byte anywhere in record 3 of 10, with 7 valid records after it: every verb refuses the suite
    /// (exit 2, naming the journal), and the journal stays byte for byte as it was — never cut, never compacted.
    @Test func aJournalDamagedMidwayIsRefusedAndLeftByteForByte() throws {
        let root = try ProcessTests.Root(); defer { root.cleanUp() }
        let session = try Self.worker("defaults-session", root, as: Self.widget)
        for count in 1...10 { #expect(Self.ask(session, "increment n") == "ok \(count)") }
        // Killed, so that no exit compaction folds the ten records into the plist.
        kill(session.pid, SIGKILL)
        _ = session.finish()
        let journal = Self.files(root).journal
        let original = [UInt8](try Data(contentsOf: URL(fileURLWithPath: journal)))
        var starts = [0]
        while let last = starts.last, last < original.count {
            starts.append(last + 8 + (Int(original[last]) | Int(original[last + 1]) << 8))
        }
        #expect(starts.count == 11 && starts.last == original.count, "\(starts)")
        let verbs = [["read", Self.group, "n"], ["read", Self.group], ["write", Self.group, "other", "x"], ["increment", Self.group, "n"], ["delete", Self.group, "n"]]
        for position in starts[2]..<starts[3] {
            var damaged = original
            damaged[position] ^= 0x41
            try Data(damaged).write(to: URL(fileURLWithPath: journal))
            // Every verb at the first position; a read (which would have printed 2) at every other.
            for verb in position == starts[2] ? verbs : [verbs[0]] {
                let result = try Self.defaults(root, as: Self.app, verb)
                #expect(result.status == 2 && result.stderr.contains(journal) && result.stderr.contains("damaged"), "byte \(position), \(verb[0]): \(result)")
            }
            #expect([UInt8](try Data(contentsOf: URL(fileURLWithPath: journal))) == damaged, "byte \(position) was changed again")
        }
        // The same journal with its last record torn is a killed writer's tail: read past, then cut by a write.
        try Data(original.dropLast(5)).write(to: URL(fileURLWithPath: journal))
        #expect(try Self.cliRead(root, "n") == 9)
        let increment = try Self.cliIncrement(root, key: "n")
        #expect(increment.ok && increment.value == 10)
    }

    /// An I/O error reading the suite (here its journal is a folder) is an unreadable suite, exit 2 — never 1,
    /// which says the key does not exist (`read || use-default` must not take an error for a missing key).
    @Test func anUnreadableSuiteExitsTwo() throws {
        let root = try ProcessTests.Root(); defer { root.cleanUp() }
        try FileManager.default.createDirectory(atPath: Self.files(root).journal, withIntermediateDirectories: true)
        for verb in [["read", Self.group, "k"], ["write", Self.group, "k", "v"], ["increment", Self.group, "n"]] {
            let result = try Self.defaults(root, as: Self.app, verb)
            #expect(result.status == 2 && result.stderr.contains(Self.files(root).journal), "\(verb[0]): \(result)")
        }
    }

    /// A compactor killed between creating its temp files and renaming them leaves them behind; the next
    /// compaction, under the exclusive lock, removes this suite's (and only this suite's).
    @Test func aDeadCompactorsTempFilesAreRemovedByTheNextCompaction() throws {
        let root = try ProcessTests.Root(); defer { root.cleanUp() }
        #expect(try Self.defaults(root, as: Self.app, ["write", Self.group, "a", "1"]).status == 0)
        let (_, preferences, defaults) = Self.files(root)
        let stale = ["\(preferences)/.\(Self.group).plist.99999.1.tmp", "\(defaults)/.\(Self.group).journal.99999.2.tmp"]
        let other = "\(preferences)/.other.plist.99999.3.tmp"
        // The temp file of a suite named `<group>.plist`, another suite with a lock of its own.
        let neighbour = "\(preferences)/.\(Self.group).plist.plist.99999.4.tmp"
        for path in stale + [other, neighbour] { try Data(count: 1000).write(to: URL(fileURLWithPath: path)) }
        #expect(try Self.defaults(root, as: Self.app, ["write", Self.group, "b", "2"]).status == 0)
        for path in stale { #expect(!FileManager.default.fileExists(atPath: path), "\(path)") }
        #expect(FileManager.default.fileExists(atPath: other) && FileManager.default.fileExists(atPath: neighbour))
    }
}
