import AppGroupKit
import Foundation
import LockstepRuntime
import LockstepSystem
import AppIntents
import WatchConnectivity
import Synchronization

/// The containing app (`lockstep-host`): habits CRUD and logging through the shared store, foreground/background,
/// a widget reload after each change, the phone end of WatchConnectivity, and the intents it runs while in use.
/// While it runs, a change to the store made by any process of the app reaches the watch as a new application context.
public final class HostApp: WCSessionDelegate, @unchecked Sendable {  // @unchecked: `presence`, `session` and `storeObservation` are set once, before serving; `pushed` is guarded by `pushLock`.
    public let environment: HabitsEnvironment
    let store: HabitStore
    var presence: Presence?
    var session: WCSession?
    private var storeObservation: Observation?
    private let pushLock = NSLock()
    private var pushed: TodayList?

    public static let usage = "add NAME [EMOJI] [--target N] | log NAME [VALUE] | toggle NAME | remove NAME | list | summary | "
        + "foreground | background | reload | prefer show-completed on|off | context | message TEXT | send-file PATH | "
        + "complication | activity start HABIT|update|end [now] | quit"

    public init(environment: HabitsEnvironment) throws {
        self.environment = environment
        HabitsEnvironment.current = environment
        store = try environment.openStore()
    }

    /// Runs one command and exits (`lockstep-host add Meditate 🧘`). Commands that talk to the watch activate the
    /// phone's session for the duration.
    public func runOnce(_ words: [String]) throws {
        if ["message", "context", "send-file"].contains(words.first) { try activateSession() }
        print(try execute(words))
        session?.deactivate()
    }

    /// The long-running app: announces itself (foreground), opens the store, activates its session (delivering
    /// what the watch queued), pushes today's list to the watch and again whenever the store changes, serves
    /// intents, and takes commands on stdin.
    public static func serve(environment: HabitsEnvironment) throws {
        // Announcing the app (its presence file) waits on the fsyncs of an atomic replacement, and so does creating
        // a new store (built aside, then linked into place): the announcement goes on its own thread while the store
        // opens and the session activates, and ready waits for it.
        let announced = Mutex<Result<Presence, any Error>?>(nil)
        let announcing = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            let result = Result { try Presence(directory: environment.presenceDirectory, bundleIdentifier: environment.bundleIdentifier, state: .foreground) }
            announced.withLock { $0 = result }
            announcing.signal()
        }
        let app = try HostApp(environment: environment)
        try app.serve {
            announcing.wait()
            return try announced.withLock { $0! }.get()
        }
    }

    private func serve(announced: () throws -> Presence) throws {
        try activateSession()
        // Observed before the first push, so a change made meanwhile is pushed too. One-shot `lockstep-host`
        // commands and intents run in the extension post it; so does this process (its own changes are pushed
        // already, and an unchanged list is not sent twice).
        storeObservation = try DarwinNotificationCenter(sandbox: environment.sandbox).observe(HabitsEnvironment.storeChangedNotification) { [self] _ in
            do {
                let (list, sent) = try pushContext()
                if sent { print("store changed (\(HabitsEnvironment.storeChangedNotification)): application context sent to the watch, \(list.fraction) done") }
            } catch {
                stopIfStale(error)
                Standard.error("\(Program.name): the application context was not sent: \(error)")
            }
        }
        presence = try announced()
        try environment.intentRouter.serveContinuously { name, line, milliseconds in
            // The intent posted the store-changed notification: the observer above sends the watch the new list.
            print("intent \(name) performed in the app process (\(milliseconds) ms after the request): \(line)")
        }
        let summary = try store.summary(on: environment.today())
        print("ready \(environment.bundleIdentifier): in the foreground, \(summary.fraction) done today, watch \(session?.isReachable == true ? "reachable" : "not reachable")")
        // The first list for the watch, as an app sends it once launched; after the ready line, since it waits on the
        // fsyncs of its own atomic replacement. Commands read from stdin come after it, so the watch gets lists in order.
        try pushContext()
        try CommandInput.serve(execute)
    }

    private func activateSession() throws {
        let session = WCSession(configuration: .init(linkDirectory: environment.linkDirectory, side: .phone,
                                                     privateContainer: environment.privateContainer))
        session.delegate = self
        self.session = session
        try session.startSession()
    }

    /// Runs one command, returning its result line.
    public func execute(_ words: [String]) throws -> String {
        let today = environment.today()
        let arguments = Array(words.dropFirst())
        func name() throws -> String {
            guard let name = arguments.first else { throw HabitError(.usage, subject: words.joined(separator: " "), detail: "\(words[0]) NAME") }
            return name
        }
        switch words.first ?? "" {
        case "add":
            var rest = arguments
            var target: Double = 1
            if let flag = rest.firstIndex(of: "--target") {
                guard flag + 1 < rest.count else { throw HabitError(.usage, subject: "--target", detail: "add NAME [EMOJI] [--target N]") }
                target = try CommandInput.value(rest[flag + 1])
                rest.removeSubrange(flag...(flag + 1))
            }
            guard (1...2).contains(rest.count) else { throw HabitError(.usage, subject: words.joined(separator: " "), detail: "add NAME [EMOJI] [--target N]") }
            let habit = try store.add(name: rest[0], emoji: rest.count > 1 ? rest[1] : "✅",
                                      kind: target == 1 ? .binary : .numeric, dailyTarget: target)
            return try changed("added \(habit.emoji) \(habit.name)\(habit.kind == .numeric ? " (target \(format(habit.dailyTarget)))" : "")")
        case "log":
            let habitName = try name()
            let value = arguments.count > 1 ? try CommandInput.value(arguments[1]) : nil
            let (logged, total) = try store.log(named: habitName, value: value ?? 1, on: today)
            return try changed("logged \(logged.name): \(format(total))/\(format(logged.dailyTarget))\(logged.isCompleted(by: total) ? ", completed" : "")")
        case "toggle":
            let (habit, completed) = try store.toggle(named: try name(), on: today)
            return try changed("\(habit.name) is \(completed ? "completed" : "not completed")")
        case "remove":
            try store.remove(named: try name())
            return try changed("removed \(arguments[0])")
        case "list":
            return TodayList(summary: try store.summary(on: today), order: try store.habits()).line
        case "summary":
            let summary = try store.summary(on: today)
            return "\(today): \(summary.fraction) done (\(Int((summary.completionPercentage * 100).rounded()))%)"
                + (summary.incompleteHabits.isEmpty ? "" : "; left: \(summary.incompleteHabits.map(\.name).joined(separator: ", "))")
        case "foreground", "background":
            guard let presence else { throw HabitError(.usage, subject: words[0], detail: "send \(words[0]) on the stdin of the running app (lockstep-host with no arguments)") }
            try presence.set(words[0] == "foreground" ? .foreground : .background)
            return words[0] == "foreground"
                ? "host is in the foreground: widget reloads are budget-free (rule widget.budget)"
                : "host is in the background: widget reloads count against the daily budget"
        case "reload":
            try environment.widgetCenter.reloadHabitsWidget()
            return "asked WidgetKit to reload \(HabitsEnvironment.widgetKind) (no acknowledgement: a throttled reload is silent)"
        case "prefer":
            guard arguments.count == 2, arguments[0] == "show-completed", ["on", "off"].contains(arguments[1]) else {
                throw HabitError(.usage, subject: arguments.joined(separator: " "), detail: "prefer show-completed on|off")
            }
            try environment.preferences().setShowCompleted(arguments[1] == "on")
            return try changed("\(HabitPreferences.showCompletedKey) = \(arguments[1] == "on") in the \(environment.groupIdentifier) defaults suite")
        case "context":
            let (list, _) = try pushContext(evenIfUnchanged: true)
            return "application context sent: \(list.fraction) (\(list.items.count) habits; only the latest is delivered)"
        case "message":
            guard !arguments.isEmpty, let session else { throw HabitError(.usage, subject: "", detail: "message TEXT") }
            let started = Monotonic.now
            let reply = try session.sendMessage(["text": arguments.joined(separator: " ")])
            return "watch replied \(reply["received"] as? Bool == true ? "received" : "\(reply)") in \(Int(((Monotonic.now - started) * 1000).rounded())) ms"
        case "complication":
            // rule `watch.complication`: today's progress for the watch face, within the daily allowance.
            guard let session else { throw HabitError(.usage, subject: "complication", detail: "send complication on the stdin of the running app") }
            let summary = try store.summary(on: today)
            let transfer = session.transferCurrentComplicationUserInfo(["complicationDone": summary.completedHabitsCount, "complicationTotal": summary.totalHabits])
            return "complication user info #\(transfer.sequence) sent (\(summary.fraction)): "
                + (transfer.isCurrentComplicationInfo ? "\(session.remainingComplicationUserInfoTransfers) of \(WCSession.complicationTransfersPerDay) left today"
                   : "allowance spent, queued as ordinary user info")
        case "activity":
            return try liveActivity(arguments)
        case "send-file":
            guard arguments.count == 1, let session else { throw HabitError(.usage, subject: "", detail: "send-file PATH") }
            let transfer = try session.queueFile(URL(fileURLWithPath: arguments[0]), metadata: ["kind": "export"])
            return "file transfer #\(transfer.sequence) queued: \(transfer.fileName) → the watch's Documents/Inbox"
        default:
            throw HabitError(.usage, subject: words.joined(separator: " "), detail: Self.usage)
        }
    }

    /// After a change: send the watch today's list, then ask the widget to reload and tell the app's processes.
    private func changed(_ result: String) throws -> String {
        if session?.activationState == .activated { try pushContext() }
        try environment.storeDidChange()
        return result
    }

    /// Sends the watch today's list (rule `wc.context`), unless it is the list this process sent last.
    /// - Returns: the list, and whether it was sent.
    @discardableResult
    private func pushContext(evenIfUnchanged: Bool = false) throws -> (TodayList, sent: Bool) {
        try pushLock.withLock {
            let list = TodayList(summary: try store.summary(on: environment.today()), order: try store.habits())
            guard let session, evenIfUnchanged || list != pushed else { return (list, false) }
            try session.updateApplicationContext(list.context)
            pushed = list
            return (list, true)
        }
    }

    // MARK: WCSessionDelegate (the phone end)

    public func session(_ session: WCSession, didReceiveMessage message: [String: Any], replyHandler: @escaping ([String: Any]) -> Void) {
        let latency = session.deliveryLatencyMilliseconds ?? 0
        guard message["action"] as? String == "toggle", let name = message["habit"] as? String else {
            replyHandler(["ok": false, "error": "unknown message"])
            return
        }
        do {
            let (habit, completed) = try store.toggle(named: name, on: environment.today())
            let (list, _) = try pushContext()
            try environment.storeDidChange()
            print("watch message (\(latency) ms): toggled \(habit.name) → \(completed ? "completed" : "not completed"), \(list.fraction) done")
            replyHandler(["ok": true, "habit": habit.name, "completed": completed, "summary": list.fraction])
        } catch {
            stopIfStale(error)
            replyHandler(["ok": false, "error": "\(error)"])
        }
    }

    public func session(_ session: WCSession, didReceiveUserInfo userInfo: [String: Any]) {
        let latency = session.deliveryLatencyMilliseconds ?? 0
        guard userInfo["action"] as? String == "setCompleted", let name = userInfo["habit"] as? String,
              let completed = userInfo["completed"] as? Bool else { return }
        do {
            let day = (userInfo["day"] as? String).map(Day.init(rawValue:)) ?? environment.today()
            let habit = try store.setCompleted(named: name, completed, on: day)
            try pushContext()
            try environment.storeDidChange()
            print("watch user info (queued \(latency) ms ago): \(habit.name) → \(completed ? "completed" : "not completed") on \(day)")
        } catch {
            stopIfStale(error)
            Standard.error("\(Program.name): watch user info for '\(name)' not applied: \(error)")
        }
    }

    private func stopIfStale(_ error: any Error) {
        if ProcessStop.isFatal(error) { ProcessStop.report(error) }
    }
}

extension CommandInput {
    /// Parses a logged value: a finite number ≥ 0 (<doc:Design> "The command line": invalid input exits 2, nothing written).
    public static func value(_ text: String) throws -> Double {
        guard let value = Double(text), value.isFinite else {
            throw HabitError(.invalidValue, subject: text, detail: "it is not a number")
        }
        guard value >= 0 else { throw HabitError(.invalidValue, subject: text, detail: "a logged value must be a number ≥ 0") }
        return value
    }
}
