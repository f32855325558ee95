import Foundation
import LockstepRuntime
import LockstepSystem
import WatchConnectivity
import WidgetKit

/// The watch app (`lockstep-watch`): its own containers on the watch device (rule `group.watch-separate`), today's
/// list from the phone's application context, and toggles sent by message when the phone is reachable, else queued
/// as user info.
public final class WatchApp: WCSessionDelegate, @unchecked Sendable {  // @unchecked: `list` is guarded by `lock`.
    public let environment: HabitsEnvironment
    public let session: WCSession
    private let lock = NSLock()
    private var list = TodayList(day: "", items: [])

    public static let usage = "list | toggle NAME | status | quit"

    public init(environment: HabitsEnvironment) {
        self.environment = environment
        session = WCSession(configuration: .init(linkDirectory: environment.linkDirectory, side: .watch,
                                                 privateContainer: environment.privateContainer))
    }

    /// Activates the session: the last delivered context first, then whatever queued up while the watch was off.
    public func start() throws {
        if let saved = TodayList(context: session.receivedApplicationContext) { lock.withLock { list = saved } }
        session.delegate = self
        try session.startSession()
    }

    /// The long-running watch app.
    public func serve() throws {
        try start()
        print("ready \(environment.bundleIdentifier): \(lock.withLock { list.fraction }) done, phone \(session.isReachable ? "reachable" : "not reachable")")
        try CommandInput.serve(execute)
    }

    /// Runs one command (`lockstep-watch toggle Meditate`) and leaves.
    public func runOnce(_ words: [String]) throws {
        try start()
        print(try execute(words))
        session.deactivate()
    }

    public func execute(_ words: [String]) throws -> String {
        switch words.first ?? "" {
        case "list":
            let current = lock.withLock { list }
            return "\(current.day.isEmpty ? "no context from the phone yet" : current.day): \(current.line) (\(current.fraction))"
        case "status":
            return "phone \(session.isReachable ? "reachable" : "not reachable"), \(session.outstandingUserInfoTransfers.count) user info transfer(s) queued"
        case "toggle":
            guard words.count == 2 else { throw HabitError(.usage, subject: words.joined(separator: " "), detail: "toggle NAME") }
            return try toggle(words[1])
        default:
            throw HabitError(.usage, subject: words.joined(separator: " "), detail: Self.usage)
        }
    }

    /// Toggles through the phone: an interactive message when reachable (rule `wc.message`), otherwise a queued
    /// user-info transfer carrying the new state (rule `wc.userinfo`).
    func toggle(_ name: String) throws -> String {
        let current = lock.withLock { list }
        guard let index = current.items.firstIndex(where: { $0.name.lowercased() == name.lowercased() }) else {
            throw HabitError(.unknownHabit, subject: name, detail: current.items.map(\.name).joined(separator: ", "))
        }
        let item = current.items[index]
        if session.isReachable {
            let started = Monotonic.now
            do {
                let reply = try session.sendMessage(["action": "toggle", "habit": item.name])
                let milliseconds = Int(((Monotonic.now - started) * 1000).rounded())
                guard reply["ok"] as? Bool == true else {
                    throw HabitError(.unknownHabit, subject: item.name, detail: reply["error"] as? String ?? "")
                }
                let completed = reply["completed"] as? Bool ?? !item.completed
                setLocal(index, completed)
                return "toggled \(item.name) via sendMessage → \(completed ? "completed" : "not completed"), phone replied in \(milliseconds) ms (\(reply["summary"] as? String ?? "?") done)"
            } catch let error as WCError where error.code == .notReachable {
                // The phone went away between the check and the send: fall through to the queue.
            }
        }
        let transfer = try session.queueUserInfo(["action": "setCompleted", "habit": item.name, "completed": !item.completed, "day": current.day])
        setLocal(index, !item.completed)
        return "phone not reachable: queued \(item.name) → \(!item.completed ? "completed" : "not completed") as user info #\(transfer.sequence) (delivered in order when the phone app runs)"
    }

    private func setLocal(_ index: Int, _ completed: Bool) {
        lock.withLock { if index < list.items.count { list.items[index].completed = completed } }
    }

    // MARK: WCSessionDelegate (the watch end)

    public func session(_ session: WCSession, didReceiveApplicationContext applicationContext: [String: Any]) {
        guard let new = TodayList(context: applicationContext) else { return }
        lock.withLock { list = new }
        print("context applied (\(session.deliveryLatencyMilliseconds ?? 0) ms after it was sent): \(new.line) (\(new.fraction))")
    }

    public func session(_ session: WCSession, didReceiveMessage message: [String: Any], replyHandler: @escaping ([String: Any]) -> Void) {
        print("message from the phone (\(session.deliveryLatencyMilliseconds ?? 0) ms): \(message["text"] as? String ?? "\(message)")")
        replyHandler(["received": true])
    }

    public func session(_ session: WCSession, didReceive file: WCSessionFile) {
        let size = (try? AtomicFile.read(file.fileURL.path))??.count ?? 0
        // Not moved: rule `wc.file`, the system removes it when this method returns.
        print("file \(file.fileURL.lastPathComponent) (\(size) bytes) arrived in Documents/Inbox (\(session.deliveryLatencyMilliseconds ?? 0) ms); not moved, so it is removed after this handler")
    }

    /// The phone's complication progress (`transferCurrentComplicationUserInfo`, rule `watch.complication`): kept in
    /// the watch's own group container, then WidgetKit on the watch reloads the complication.
    public func session(_ session: WCSession, didReceiveUserInfo userInfo: [String: Any]) {
        guard let done = userInfo["complicationDone"] as? Int, let total = userInfo["complicationTotal"] as? Int else { return }
        do {
            try ComplicationData(environment: environment).store(done: done, total: total)
            print("complication user info (\(session.deliveryLatencyMilliseconds ?? 0) ms): \(done)/\(total) stored in the watch's group container; complication reload requested")
        } catch {
            if ProcessStop.isFatal(error) { ProcessStop.report(error) }
            Standard.error("\(Program.name): complication user info not stored: \(error)")
        }
    }

    public func sessionReachabilityDidChange(_ session: WCSession) {
        print("phone is now \(session.isReachable ? "reachable" : "not reachable")")
    }
}
