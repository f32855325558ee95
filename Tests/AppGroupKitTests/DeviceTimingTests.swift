import Foundation
import Testing
@testable import AppGroupKit
import LockstepSystem
import LockstepTestSupport

/// Realistic device timing (issue 43), across real processes: a write reaches the shared store only at a flush point
/// and is lost if its process is SIGKILLed first (rule `defaults.device-flush`), while a flushed write survives any
/// kill; a process reads its cache of the suite (`defaults.device-cache`); changes reach an observer gathered
/// (`defaults.device-coalesce`); the delays are a function of the seed. Strict timing, the default, is unchanged.
@Suite struct DeviceTimingTests {
    static let group = ProcessTests.group
    static let widget = ProcessTests.widget
    static let realistic = [DeviceTiming.modeVariable: "realistic", DeviceTiming.seedVariable: "7"]

    /// A `defaults-session` worker (`lockstep-probe __worker`) as the widget, with `environment` added.
    static func session(_ root: ProcessTests.Root, environment: [String: String]) throws -> Child {
        let child = try Child("lockstep-probe", ["__worker", "defaults-session", root.url.path, widget, group],
                              environment: environment, keepStdinOpen: true)
        #expect(child.waitForLine("ready") != nil, "\(child.errorOutput)")
        return child
    }

    /// The key as the shared store holds it now: a fresh, strict view (a string's length, or nil).
    static func stored(_ root: ProcessTests.Root, _ key: String) throws -> Int? {
        let sandbox = try Sandbox(root: root.groups, identity: ProcessIdentity(bundleIdentifier: ProcessTests.app, appGroups: [group]))
        return (try GroupDefaults(suiteName: group, sandbox: sandbox)!.value(forKey: key) as? String)?.count
    }

    @Test func theDelaysAreTheSeedsAndStayInTheirBounds() {
        let seven = DeviceTiming(mode: .realistic, seed: 7)
        let draws = (0..<50).map { seven.delay(DeviceTiming.flushDelay, stream: "com.example.widget\u{0}group.x", index: $0) }
        #expect(draws == (0..<50).map { DeviceTiming(mode: .realistic, seed: 7).delay(DeviceTiming.flushDelay, stream: "com.example.widget\u{0}group.x", index: $0) })
        #expect(draws.allSatisfy { DeviceTiming.flushDelay.contains($0) })
        #expect(Set(draws).count > 40, "the draws vary")
        let eight = (0..<50).map { DeviceTiming(mode: .realistic, seed: 8).delay(DeviceTiming.flushDelay, stream: "com.example.widget\u{0}group.x", index: $0) }
        #expect(draws != eight, "another seed, other delays")
    }

    @Test func modesAndSeedsAreReadOrRefusedInOneClause() throws {
        #expect(try DeviceTiming.parse(mode: "realistic", seed: "42").get() == DeviceTiming(mode: .realistic, seed: 42))
        #expect(try DeviceTiming.parse(mode: nil, seed: nil).get() == .strict)
        for (mode, seed, reason) in [("fast", nil, "'fast' is not a device timing: use strict (the default) or realistic"),
                                     ("realistic", "-1", "'-1' is not a seed: use a non-negative integer below 2^64"),
                                     ("realistic", "1e3", "'1e3' is not a seed: use a non-negative integer below 2^64")] {
            guard case .failure(let failure) = DeviceTiming.parse(mode: mode, seed: seed) else {
                Issue.record("\(mode) \(seed ?? "") was accepted")
                continue
            }
            #expect(failure.reason == reason)
        }
    }

    @Test func anUnflushedWriteIsLostToAKillAndAFlushedOneSurvives() throws {
        let root = try ProcessTests.Root()
        defer { TestSupport.cleanUp(root.url) }
        let session = try Self.session(root, environment: Self.realistic)
        #expect(GroupDefaultsFaultTests.ask(session, "set flushed 3") == "ok 3")
        #expect(GroupDefaultsFaultTests.ask(session, "read flushed") == "ok 3", "the process sees its own write at once")
        #expect(try Self.stored(root, "flushed") == nil, "not in the shared store before a flush point")
        #expect(GroupDefaultsFaultTests.ask(session, "sync flushed") == "ok synchronized")
        #expect(try Self.stored(root, "flushed") == 3, "synchronize() is a flush point")
        #expect(GroupDefaultsFaultTests.ask(session, "set pending 4") == "ok 4")
        #expect(GroupDefaultsFaultTests.ask(session, "increment counter") == "ok 1")
        #expect(try Self.stored(root, "pending") == 4, "an increment flushes what was pending first")
        #expect(GroupDefaultsFaultTests.ask(session, "set lost 5") == "ok 5")
        session.signal(SIGKILL)
        _ = session.wait()
        #expect(try Self.stored(root, "lost") == nil, "killed before a flush point: lost, as on a device")
        #expect(try Self.stored(root, "flushed") == 3)
        #expect(try Self.stored(root, "pending") == 4)
    }

    @Test func strictTimingKeepsEveryWriteAKillComesAfter() throws {
        let root = try ProcessTests.Root()
        defer { TestSupport.cleanUp(root.url) }
        let session = try Self.session(root, environment: [:])
        #expect(GroupDefaultsFaultTests.ask(session, "set kept 5") == "ok 5")
        #expect(try Self.stored(root, "kept") == 5, "strict: in the shared store when set returns")
        session.signal(SIGKILL)
        _ = session.wait()
        #expect(try Self.stored(root, "kept") == 5)
    }

    @Test func aPendingWriteIsFlushedAfterItsDelayAndAtExit() throws {
        let root = try ProcessTests.Root()
        defer { TestSupport.cleanUp(root.url) }
        let session = try Self.session(root, environment: Self.realistic)
        #expect(GroupDefaultsFaultTests.ask(session, "set later 2") == "ok 2")
        // Polled against a deadline past the longest delay: the flush comes by itself.
        let deadline = Monotonic.now + DeviceTiming.flushDelay.upperBound + 10
        while try Self.stored(root, "later") == nil && Monotonic.now < deadline { Pause.microseconds(20_000) }
        #expect(try Self.stored(root, "later") == 2)
        #expect(GroupDefaultsFaultTests.ask(session, "set atExit 6") == "ok 6")
        session.closeStdin()
        #expect(session.finish() == 0)
        #expect(try Self.stored(root, "atExit") == 6, "a normal exit is a flush point")
    }

    @Test func aProcessReadsItsCacheUntilItSynchronizes() throws {
        let root = try ProcessTests.Root()
        defer { TestSupport.cleanUp(root.url) }
        let session = try Self.session(root, environment: Self.realistic)
        let start = Monotonic.now
        #expect(GroupDefaultsFaultTests.ask(session, "read news") == "ok none")
        let sandbox = try Sandbox(root: root.groups, identity: ProcessIdentity(bundleIdentifier: ProcessTests.app, appGroups: [Self.group]))
        try GroupDefaults(suiteName: Self.group, sandbox: sandbox)!.set("xxx", forKey: "news")
        let stale = GroupDefaultsFaultTests.ask(session, "read news")
        // The cache lives at least DeviceTiming.cacheLifetime's lower bound: only a machine slower than that sees past it.
        if Monotonic.now - start < DeviceTiming.cacheLifetime.lowerBound {
            #expect(stale == "ok none", "served from the process's cache, as cfprefsd's clients are")
        }
        #expect(GroupDefaultsFaultTests.ask(session, "sync news") == "ok synchronized")
        #expect(GroupDefaultsFaultTests.ask(session, "read news") == "ok 3", "synchronize() takes the suite afresh")
    }

    @Test func anObserverGetsAWindowsChangesInOneCallEachKeyOnce() throws {
        let calls = Calls()
        let coalescer = ChangeCoalescer(timing: DeviceTiming(mode: .realistic, seed: 3), bundle: "b", suite: "s") { changes in
            calls.append(changes.map { "\($0.key)=\($0.value.map { "\($0)" } ?? "nil")" })
        }
        coalescer.add([GroupDefaults.Change(key: "a", value: 1), GroupDefaults.Change(key: "b", value: 1),
                       GroupDefaults.Change(key: "a", value: 2), GroupDefaults.Change(key: "b", value: nil)])
        #expect(calls.waitForFirst(timeout: 10) == [["a=2", "b=nil"]])
    }

    /// The calls of a handler, waited for with a bound.
    final class Calls: @unchecked Sendable {  // @unchecked: `made` only under `condition`.
        private let condition = NSCondition()
        private var made: [[String]] = []

        func append(_ call: [String]) {
            condition.withLock {
                made.append(call)
                condition.broadcast()
            }
        }

        func waitForFirst(timeout: Double) -> [[String]] {
            let deadline = Date(timeIntervalSinceNow: timeout)
            return condition.withLock {
                while made.isEmpty && condition.wait(until: deadline) {}
                return made
            }
        }
    }

    @Test func aBadTimingInTheEnvironmentIsOneSentenceAndExitsTwo() throws {
        let root = try ProcessTests.Root()
        defer { TestSupport.cleanUp(root.url) }
        let result = try root.lockstep(["defaults", "--as", Self.widget, "read", Self.group],
                                       environment: [DeviceTiming.modeVariable: "realistic", DeviceTiming.seedVariable: "soon"])
        #expect(result.status == 2)
        #expect(result.stderr == "lockstep defaults: The environment's LOCKSTEP_SEED=soon is invalid: 'soon' is not a seed: use a non-negative integer below 2^64.\n", "\(result)")
    }
}

/// `CoordinatedFiles.watch` (rule `files.device-rename`): strict follows the path; realistic holds the opened file and
/// goes stale after the rename that replaces it, as a file-system object source does on a device.
@Suite struct FileWatchTests {
    /// The events a watch of `notes.txt` reports while the file is replaced twice (each replacement waited for).
    static func events(_ timing: DeviceTiming) throws -> [[FileEvent]] {
        let root = try ProcessTests.Root()
        defer { TestSupport.cleanUp(root.url) }
        let sandbox = try Sandbox(root: root.groups, identity: ProcessIdentity(bundleIdentifier: ProcessTests.app, appGroups: [ProcessTests.group]))
        let files = CoordinatedFiles(container: try sandbox.groupContainer(ProcessTests.group)!)
        try files.write(Data("zero".utf8), to: "notes.txt")
        let seen = Events()
        let observation = try files.watch("notes.txt", timing: timing) { seen.append($0) }
        defer { observation.cancel() }
        var afterEach: [[FileEvent]] = []
        for text in ["first", "second"] {
            try files.write(Data(text.utf8), to: "notes.txt")
            // Bounded: a stale watch never reports, so a short bound is the expected outcome there.
            afterEach.append(seen.waitForMore(than: afterEach.last?.count ?? 0, timeout: timing.isRealistic && text == "second" ? 0.5 : 10))
        }
        return afterEach
    }

    @Test func strictFollowsThePath() throws {
        let seen = try Self.events(.strict)
        #expect(seen[0].last == .write && seen[1].count > seen[0].count && seen[1].last == .write, "\(seen)")
    }

    @Test func realisticHoldsTheReplacedFile() throws {
        let seen = try Self.events(DeviceTiming(mode: .realistic, seed: 1))
        #expect(seen[0] == [.delete], "\(seen)")
        #expect(seen[1] == [.delete], "stale after the first replacement: \(seen)")
    }

    /// Events, waited for with a bound.
    final class Events: @unchecked Sendable {  // @unchecked: `all` only under `condition`.
        private let condition = NSCondition()
        private var all: [FileEvent] = []

        func append(_ event: FileEvent) { condition.withLock { all.append(event); condition.broadcast() } }

        func waitForMore(than count: Int, timeout: Double) -> [FileEvent] {
            let deadline = Date(timeIntervalSinceNow: timeout)
            return condition.withLock {
                while all.count <= count && condition.wait(until: deadline) {}
                return all
            }
        }
    }
}
