import Foundation
import AppGroupKit
import HabitCore
import LockstepSystem
import LockstepTestSupport
@testable import WatchConnectivity
import Testing

@Suite("WatchConnectivity between lockstep-host and lockstep-watch (rules: WatchConnectivity)")
struct WatchConnectivityTests {
    private func phoneSession(_ fixture: HabitsFixture) -> WCSession {
        WCSession(configuration: .init(linkDirectory: fixture.linkDirectory, side: .phone,
                                       privateContainer: "\(fixture.root.path)/phone/Data/com.example.habits", replyTimeout: 5))
    }

    @Test("wc.activate: nothing is sent before activation (7004); reachability is the counterpart's activated session")
    func activate() throws {
        let fixture = HabitsFixture()
        let session = phoneSession(fixture)
        for attempt in [{ _ = try session.sendMessage(["a": 1]) }, { try session.queueUserInfo(["a": 1]) },
                        { try session.updateApplicationContext(["a": 1]) }] as [() throws -> Void] {
            do {
                try attempt()
                Issue.record("sent before activation")
            } catch let error as WCError {
                #expect(error.code == .sessionNotActivated && error.description.contains("WCErrorDomain error 7004"))
            }
        }
        try session.startSession()
        #expect(!session.isReachable)
        let watch = try fixture.start("lockstep-watch")
        #expect(session.isReachable)
        let second = try fixture.run("lockstep-watch", "list")
        #expect(second.status == 75 && second.stderr.contains("already active"), "\(second)")
        #expect(watch.finish() == 0)
        #expect(!session.isReachable, "the watch exited: its liveness lock is gone")
        session.deactivate()
    }

    @Test("A receiver sleeps until inotify wakes it, as AppGroupKit's observers do (polling is only the fallback)")
    func receiverIsWokenByInotify() throws {
        let fixture = HabitsFixture()
        let session = phoneSession(fixture)
        #expect(session.isWokenByInotify == nil, "not receiving before activation")
        try session.startSession()
        // LOCKSTEP_WATCH=poll forces AppGroupKit's documented fallback (exercised by the process test below).
        #expect(session.isWokenByInotify == (ProcessInfo.processInfo.environment["LOCKSTEP_WATCH"] != "poll"))
        session.deactivate()
        #expect(session.isWokenByInotify == nil)
    }

    @Test("Messages, contexts and reachability changes wake the receiver, by inotify and by the polling fallback",
          arguments: [false, true])
    func receiversWake(polling: Bool) throws {
        let fixture = HabitsFixture(polling ? ["LOCKSTEP_WATCH": "poll"] : [:])
        try fixture.addHabits()
        let reachability = ReachabilityRecorder()
        let phone = phoneSession(fixture)
        phone.delegate = reachability
        try phone.startSession()
        let watch = try fixture.start("lockstep-watch")
        #expect(reachability.wait(for: true), "activating the watch wakes the phone: \(reachability.changes)")
        let reply = try phone.sendMessage(["text": "wake up"])
        #expect(reply["received"] as? Bool == true)
        #expect(watch.waitForLine("message from the phone")?.contains("wake up") == true)
        try phone.updateApplicationContext(["day": "2026-11-22", "habits": [["name": "Stretch", "emoji": "🤸", "completed": true]]])
        #expect(watch.waitForLine("context applied")?.contains("Stretch") == true, "\(watch.output)")
        phone.deactivate()
        #expect(watch.waitForLine("phone is now not reachable") != nil, "deactivating wakes the watch: \(watch.output)")
        let mark = watch.mark
        try phone.startSession()
        #expect(watch.waitForLine("phone is now reachable", after: mark) != nil, "activating wakes the watch: \(watch.output)")
        // A watch that dies (SIGKILL) closes its liveness file: the phone is woken and finds it unreachable.
        kill(watch.pid, SIGKILL)
        #expect(reachability.wait(for: false), "\(reachability.changes)")
        #expect(watch.finish() == 128 + SIGKILL)
        phone.deactivate()
    }

    @Test("wc.message: a reply from a running watch; notReachable (7007, exit 69) when it is not running")
    func message() throws {
        let fixture = HabitsFixture()
        try fixture.addHabits()
        let watch = try fixture.start("lockstep-watch")
        let sent = try fixture.run("lockstep-host", "message", "hello", "watch")
        #expect(sent.status == 0 && sent.stdout.contains("watch replied received"), "\(sent)")
        #expect(watch.waitForLine("message from the phone")?.contains("hello watch") == true)

        // The watch toggles through the running phone app by message.
        let host = try fixture.start("lockstep-host")
        #expect(watch.waitForLine("phone is now reachable") != nil)
        #expect(watch.waitForLine("Meditate") != nil, "the context arrived")
        watch.sendLine("toggle Meditate")
        #expect(watch.waitForLine("toggled Meditate via sendMessage → completed") != nil, "\(watch.output) \(watch.errorOutput)")
        #expect(host.waitForLine("watch message") != nil)
        #expect(host.finish() == 0)
        #expect(watch.finish() == 0)

        let unreachable = try fixture.run("lockstep-host", "message", "hello")
        #expect(unreachable.status == 69, "\(unreachable)")
        #expect(unreachable.stderr.contains("WCErrorDomain error 7007 (notReachable)"))
    }

    @Test("wc.userinfo: queued while the phone app is off, delivered in order when it runs")
    func userInfo() throws {
        let fixture = HabitsFixture()
        try fixture.addHabits()
        #expect(try fixture.run("lockstep-host", "context").status == 0)
        let first = try fixture.run("lockstep-watch", "toggle", "Meditate")
        #expect(first.status == 0 && first.stdout.contains("user info #1"), "\(first)")
        let second = try fixture.run("lockstep-watch", "toggle", "Read")
        #expect(second.status == 0 && second.stdout.contains("user info #2"), "\(second)")
        let unknown = try fixture.run("lockstep-watch", "toggle", "Nope")
        #expect(unknown.status == 1 && unknown.stderr.contains("no habit named 'Nope'"), "\(unknown)")

        let host = try fixture.start("lockstep-host")
        let lines = host.output
        let meditate = lines.firstIndex { $0.contains("watch user info") && $0.contains("Meditate") }
        let read = lines.firstIndex { $0.contains("watch user info") && $0.contains("Read") }
        #expect(meditate != nil && read != nil && meditate! < read!, "\(lines)")
        #expect(host.finish() == 0)
        #expect(try fixture.run("lockstep-host", "summary").stdout.contains("2/3"))
    }

    @Test("wc.context: only the latest context is delivered, on the watch's next launch")
    func context() throws {
        let fixture = HabitsFixture()
        try fixture.addHabits()
        #expect(try fixture.run("lockstep-host", "context").status == 0)
        #expect(try fixture.run("lockstep-host", "add", "Stretch", "🤸").status == 0)
        #expect(try fixture.run("lockstep-host", "context").stdout.contains("4 habits"))
        let list = try fixture.run("lockstep-watch", "list")
        #expect(list.status == 0, "\(list)")
        let applied = list.stdout.split(separator: "\n").filter { $0.contains("context applied") }
        #expect(applied.count == 1 && applied[0].contains("Stretch"), "\(list)")
        let again = try fixture.run("lockstep-watch", "list")
        #expect(!again.stdout.contains("context applied") && again.stdout.contains("Stretch"), "kept, not redelivered: \(again)")

        // rule `group.watch-separate`: the watch's group container is its own, on the watch; the store is not there.
        let watchGroup = "\(fixture.root.path)/watch/AppGroup/group.com.example.habits"
        #expect(FileManager.default.fileExists(atPath: watchGroup))
        #expect(!FileManager.default.fileExists(atPath: "\(watchGroup)/Library/Application Support/Habits.sqlite"))
        #expect(FileManager.default.fileExists(atPath: fixture.storePath))
    }

    @Test("wc.context: the watch app keeps the context it received in its own container on the watch; the link only carries it")
    func receivedContextIsTheWatchAppsOwn() throws {
        let fixture = HabitsFixture()
        try fixture.addHabits()
        #expect(try fixture.run("lockstep-host", "context").status == 0)
        let pending = "\(fixture.linkDirectory)/to-watch/context.plist"
        #expect(FileManager.default.fileExists(atPath: pending), "in transit")
        let list = try fixture.run("lockstep-watch", "list")
        #expect(list.status == 0 && list.stdout.contains("context applied"), "\(list)")

        // rule `container.private` + group.watch-separate: delivered, it is the watch app's, on the watch.
        let kept = "\(fixture.root.path)/watch/Data/com.example.habits.watchkitapp/Library/Application Support/WatchConnectivity/received-context.plist"
        #expect(FileManager.default.fileExists(atPath: kept))
        let linkFiles = try FileManager.default.subpathsOfDirectory(atPath: fixture.linkDirectory)
        #expect(!linkFiles.contains { $0.hasSuffix("context.plist") }, "nothing of it left in the transport: \(linkFiles)")

        // The transport can go (the devices are re-paired): the watch app still shows what it received.
        try FileManager.default.removeItem(atPath: fixture.linkDirectory)
        let again = try fixture.run("lockstep-watch", "list")
        #expect(again.status == 0 && again.stdout.contains("🧘 Meditate ·, 📚 Read ·, 🚶 Walk · (0/3)"), "\(again)")
        #expect(!again.stdout.contains("context applied"), "kept, not redelivered: \(again)")
    }

    @Test("wc.context: while the app runs, a change another process makes to the store (a one-shot command, an intent in the extension) reaches the watch")
    func contextFollowsTheStore() throws {
        let fixture = HabitsFixture()
        try fixture.addHabits()
        let host = try fixture.start("lockstep-host")
        let watch = try fixture.start("lockstep-watch")
        #expect(watch.output.contains { $0.contains("context applied") && $0.contains("(0/3)") }, "\(watch.output)")

        var mark = watch.mark
        let toggled = try fixture.run("lockstep-host", "toggle", "Read")
        #expect(toggled.status == 0, "\(toggled)")
        #expect(watch.waitForLine("(1/3)", after: mark)?.contains("📚 Read ✓") == true, "\(watch.output)")
        #expect(host.waitForLine("store changed") != nil, "\(host.output)")

        // rule `intent.where`: the app is suspended, so the intent runs in the extension; once the app is resumed
        // it learns of the change from the Darwin notification the extension posted, and pushes the new list.
        mark = watch.mark
        kill(host.pid, SIGSTOP)
        let intent = try fixture.run("lockstep-intent", "perform", "CompleteHabit", "--habit", "Meditate")
        kill(host.pid, SIGCONT)
        #expect(intent.status == 0 && intent.stdout.contains("performed in the extension process"), "\(intent)")
        #expect(watch.waitForLine("(2/3)", after: mark)?.contains("🧘 Meditate ✓") == true, "\(watch.output)")
        #expect(host.finish() == 0)
        #expect(watch.finish() == 0)
    }

    @Test("wc.file: the file arrives in the receiver's Documents/Inbox and is removed after the handler")
    func file() throws {
        let fixture = HabitsFixture()
        let watch = try fixture.start("lockstep-watch")
        let source = fixture.root.appendingPathComponent("export.csv")
        try Data("day,done\n2026-11-22,3\n".utf8).write(to: source)
        let sent = try fixture.run("lockstep-host", "send-file", source.path)
        #expect(sent.status == 0, "\(sent)")
        #expect(watch.waitForLine("file export.csv (22 bytes) arrived in Documents/Inbox") != nil, "\(watch.output)")
        let inbox = "\(fixture.root.path)/watch/Data/com.example.habits.watchkitapp/Documents/Inbox"
        let deadline = Monotonic.now + 10
        while ((try? FileManager.default.contentsOfDirectory(atPath: inbox)) ?? []).contains("export.csv") && Monotonic.now < deadline {
            usleep(2_000)
        }
        #expect(!((try? FileManager.default.contentsOfDirectory(atPath: inbox)) ?? []).contains("export.csv"))
        #expect(watch.finish() == 0)
        let missing = try fixture.run("lockstep-host", "send-file", "/nonexistent/file")
        #expect(missing.status == 2 && missing.stderr.contains("7013"), "\(missing)")
    }

    @Test("wc.limits: 65,536 bytes for messages and user info, 262,144 for the context (7009); plist types only (7010)")
    func limits() throws {
        #expect(throws: Never.self) { try Payload.encode(["text": String(repeating: "a", count: 65_000)], limit: Payload.messageLimit, what: "m") }
        for (size, limit) in [(65_600, Payload.messageLimit), (262_200, Payload.contextLimit)] {
            do {
                _ = try Payload.encode(["text": String(repeating: "a", count: size)], limit: limit, what: "the payload")
                Issue.record("\(size) bytes accepted under \(limit)")
            } catch {
                #expect(error.code == .payloadTooLarge && error.exitStatus == .invalidInput)
            }
        }
        #expect(throws: Never.self) { try Payload.encode(["text": String(repeating: "a", count: 200_000)], limit: Payload.contextLimit, what: "c") }
        do {
            _ = try Payload.encode(["when": Date(), "bad": NSObject()], limit: Payload.messageLimit, what: "the message")
            Issue.record("a non-plist value was accepted")
        } catch {
            #expect(error.code == .payloadUnsupportedTypes && error.description.contains("7010"))
        }

        let fixture = HabitsFixture()
        let watch = try fixture.start("lockstep-watch")
        let big = try fixture.run("lockstep-host", "message", String(repeating: "x", count: 70_000))
        #expect(big.status == 2 && big.stderr.contains("WCErrorDomain error 7009 (payloadTooLarge)"), "\(big.stderr)")
        #expect(!watch.output.contains { $0.contains("message from the phone") })
        #expect(watch.finish() == 0)
    }
}

/// Records `sessionReachabilityDidChange` calls, for a test to wait on.
final class ReachabilityRecorder: WCSessionDelegate, @unchecked Sendable {  // @unchecked: guarded by `condition`.
    private let condition = NSCondition()
    private var seen: [Bool] = []

    var changes: [Bool] { condition.withLock { seen } }

    func sessionReachabilityDidChange(_ session: WCSession) {
        let reachable = session.isReachable
        condition.withLock {
            seen.append(reachable)
            condition.broadcast()
        }
    }

    /// Waits (bounded) until the last change reported is `reachable`.
    func wait(for reachable: Bool, timeout: Double = 20) -> Bool {
        let deadline = Date(timeIntervalSinceNow: timeout)
        return condition.withLock {
            while seen.last != reachable {
                if !condition.wait(until: deadline) { return seen.last == reachable }
            }
            return true
        }
    }
}

/// The Apple-shaped surface of `WCSession` (issue 17): a delegate written as for iOS (an `NSObject` subclass with
/// Apple's method names, handlers not `Sendable`), `activate()` reporting to the delegate, message data, the
/// complication allowance, and `WCSession.default` outside a simulated process.
@Suite("WatchConnectivity with Apple's names")
struct AppleWatchConnectivityTests {
    /// A delegate as an iOS developer writes one.
    final class PhoneSync: NSObject, WCSessionDelegate, @unchecked Sendable {  // @unchecked: guarded by `condition`.
        private let condition = NSCondition()
        private var events: [String] = []

        func session(_ session: WCSession, activationDidCompleteWith activationState: WCSessionActivationState, error: Error?) {
            record("activation \(activationState.rawValue) \(error.map { "\(($0 as? WCError)?.code.rawValue ?? 0)" } ?? "ok")")
        }
        func sessionDidBecomeInactive(_ session: WCSession) {}
        func sessionDidDeactivate(_ session: WCSession) { session.activate() }
        func session(_ session: WCSession, didReceiveMessageData messageData: Data, replyHandler: @escaping (Data) -> Void) {
            record("data \(String(decoding: messageData, as: UTF8.self))")
            replyHandler(Data("pong".utf8))
        }
        func session(_ session: WCSession, didReceiveUserInfo userInfo: [String: Any] = [:]) {
            record("userInfo \(userInfo["n"] as? Int ?? -1)")
        }

        func record(_ event: String) { condition.withLock { events.append(event); condition.broadcast() } }

        func wait(for event: String, timeout: Double = 10) -> Bool {
            let deadline = Date(timeIntervalSinceNow: timeout)
            return condition.withLock {
                while !events.contains(event) { if !condition.wait(until: deadline) { return events.contains(event) } }
                return true
            }
        }
    }

    static func pair() -> (phone: WCSession, watch: WCSession, root: URL) {
        let root = TestSupport.temporaryDirectory("wc")
        let link = root.appendingPathComponent("link/com.example.habits").path
        let phone = WCSession(configuration: .init(linkDirectory: link, side: .phone, privateContainer: root.appendingPathComponent("phone/Data/app").path))
        let watch = WCSession(configuration: .init(linkDirectory: link, side: .watch, privateContainer: root.appendingPathComponent("watch/Data/watch").path))
        return (phone, watch, root)
    }

    @Test func aDelegateWrittenForIOSReceivesDataMessagesAndUserInfo() throws {
        let (phone, watch, root) = Self.pair()
        defer { TestSupport.cleanUp(root) }
        let phoneSync = PhoneSync(), watchSync = PhoneSync()
        phone.delegate = phoneSync
        watch.delegate = watchSync
        phone.activate()
        watch.activate()
        #expect(phoneSync.wait(for: "activation 2 ok") && watchSync.wait(for: "activation 2 ok"))
        #expect(phone.isPaired && phone.isWatchAppInstalled && !watch.isPaired && watch.isCompanionAppInstalled)

        let replied = PhoneSync()
        phone.sendMessageData(Data("ping".utf8), replyHandler: { replied.record("reply \(String(decoding: $0, as: UTF8.self))") },
                              errorHandler: { replied.record("error \($0)") })
        #expect(watchSync.wait(for: "data ping"))
        #expect(replied.wait(for: "reply pong"))

        phone.transferUserInfo(["n": 7])
        #expect(watchSync.wait(for: "userInfo 7"))
        phone.deactivate()
        watch.deactivate()
    }

    @Test func failuresReachTheDelegateNotAThrow() throws {
        let (phone, _, root) = Self.pair()
        defer { TestSupport.cleanUp(root) }
        let sync = PhoneSync()
        phone.delegate = sync
        // Not activated: the transfer fails, and the delegate hears of it (7004).
        let transfer = phone.transferUserInfo(["n": 1])
        #expect(transfer.userInfo["n"] as? Int == 1)
        final class Finished: NSObject, WCSessionDelegate, @unchecked Sendable {
            var error: Error?
            func session(_ session: WCSession, didFinish userInfoTransfer: WCSessionUserInfoTransfer, error: Error?) { self.error = error }
        }
        let finished = Finished()
        phone.delegate = finished
        phone.transferUserInfo(["n": 2])
        #expect((finished.error as? WCError)?.code == .sessionNotActivated)
        // Outside a simulated process there is no session to activate (7002), said through the delegate too.
        #expect(!WCSession.isSupported())
        WCSession.default.delegate = sync
        WCSession.default.activate()
        #expect(sync.wait(for: "activation 0 7002"))
    }

    /// Apple's shapes: WCSession is an NSObject; transfers are objects that say whether they still wait and can be
    /// cancelled before delivery; the receiver learns that content is pending; the phone has a watch directory.
    @Test func transfersWaitUntilDeliveredAndCanBeCancelled() throws {
        let (phone, watch, root) = Self.pair()
        defer { TestSupport.cleanUp(root) }
        let object: NSObject = phone
        #expect(object is WCSession)
        try phone.startSession()
        #expect(phone.watchDirectoryURL.map { FileManager.default.fileExists(atPath: $0.path) } == true)
        #expect(watch.watchDirectoryURL == nil)
        let kept = phone.transferUserInfo(["n": 1])
        let cancelled = phone.transferUserInfo(["n": 2])
        let file = root.appendingPathComponent("note.txt")
        try Data("hi".utf8).write(to: file)
        let fileTransfer = phone.transferFile(file, metadata: ["kind": "note"])
        #expect(kept.isTransferring && cancelled.isTransferring && fileTransfer.isTransferring)
        #expect(phone.outstandingFileTransfers.map(\.fileName) == ["note.txt"])
        #expect(watch.hasContentPending)
        cancelled.cancel()
        #expect(!cancelled.isTransferring)
        phone.transferUserInfo(["n": 3])
        #expect(phone.outstandingUserInfoTransfers.map { $0.userInfo["n"] as? Int } == [1, 3])
        fileTransfer.cancel()
        #expect(phone.outstandingFileTransfers.isEmpty && fileTransfer.progress.fractionCompleted == 1)

        let sync = PhoneSync()
        watch.delegate = sync
        watch.activate()
        #expect(sync.wait(for: "userInfo 1") && sync.wait(for: "userInfo 3"))
        // Delivered in order, so the cancelled one, between them, was never delivered.
        #expect(!sync.wait(for: "userInfo 2", timeout: 0))
        #expect(!kept.isTransferring)
        #expect(!watch.hasContentPending)
        phone.deactivate()
        watch.deactivate()
    }

    /// iOS: complication user info keeps its priority for 50 transfers a day, then travels as ordinary user info.
    @Test func complicationTransfersHaveADailyAllowance() throws {
        let (phone, watch, root) = Self.pair()
        defer { TestSupport.cleanUp(root) }
        try phone.startSession()
        #expect(phone.remainingComplicationUserInfoTransfers == 50)
        for n in 0..<50 { #expect(phone.transferCurrentComplicationUserInfo(["n": n]).isCurrentComplicationInfo) }
        #expect(phone.remainingComplicationUserInfoTransfers == 0)
        let late = phone.transferCurrentComplicationUserInfo(["n": 50])
        #expect(!late.isCurrentComplicationInfo)
        #expect(phone.outstandingUserInfoTransfers.count == 51)
        // A day later on the simulated clock, the allowance is back.
        try SimulatedClock(groupsRoot: root.path).advance(by: 86_401)
        #expect(phone.remainingComplicationUserInfoTransfers == 50)
        phone.deactivate()
        _ = watch
    }
}
