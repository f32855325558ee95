import AppGroupKit
import AppIntents
import Foundation
import LockstepSystem
import Synchronization

/// The system side of WidgetKit, run inside the widget process: asks the provider for timelines, honours reload
/// requests and policies under the daily budget, and renders every family to a text box and a file.
///
/// Files (`<group container>/.lockstep/widgetkit/<kind>/`): `<family>.txt` (the current rendering, replaced
/// atomically), `budget` (see `ReloadBudget`), `log` (one appended line per reload decision, throttled ones included).
public final class WidgetSystem<W: Widget>: @unchecked Sendable {  // @unchecked: mutable state is guarded by `lock`.
    /// Why a timeline was requested.
    public enum Reason: Sendable, CustomStringConvertible {
        case initial
        case app(WidgetCenter.Request)
        case policy(TimelineReloadPolicy)
        /// An intent a person ran from the widget (`Button(intent:)`, RULES.md `widget.interactive`).
        case interaction(intent: String)
        /// The person changed the widget's configuration (RULES.md `widget.configurable`).
        case configuration

        public var description: String {
            switch self {
            case .interaction(let intent): return "\(intent) tapped in the widget"
            case .configuration: return "configuration changed"
            case .initial: return "first timeline"
            case .app(let request): return "app request from \(request.requester)"
            case .policy(let policy): return "policy \(policy) reached"
            }
        }
    }

    public let widget: W
    public let groupsRoot: String
    public let groupContainer: String
    /// The containing app: reloads are budget-free while it is in the foreground (RULES.md `widget.budget`).
    public let hostBundleIdentifier: String
    private let budget: ReloadBudget
    private let output: @Sendable (String) -> Void
    private let lock = NSLock()
    private var timeline: Timeline<W.Provider.Entry>?
    private var shownEntryDate: Date?
    private var seenRequests: [String: Int] = [:]
    private var running = false
    private let notifications: DarwinNotificationCenter?
    private var observation: AppGroupKit.Observation?
    private let wakeup = NSCondition()
    private var woken = false

    /// - Parameters:
    ///   - notifications: the device's Darwin center: a `WidgetCenter.reloadNotification` wakes the widget at once.
    ///   - output: receives one line per event (reload, throttle, new entry shown), for stdout.
    public init(widget: W, groupsRoot: String, groupContainer: String, hostBundleIdentifier: String,
                notifications: DarwinNotificationCenter? = nil, output: @escaping @Sendable (String) -> Void) {
        self.notifications = notifications
        self.widget = widget
        self.groupsRoot = groupsRoot
        self.groupContainer = groupContainer
        self.hostBundleIdentifier = hostBundleIdentifier
        budget = ReloadBudget(groupContainer: groupContainer, kind: widget.kind)
        self.output = output
    }

    var directory: String { GroupsLayout.widget(widget.kind, container: groupContainer) }

    /// The file holding the current rendering of `family`.
    public static func renderPath(groupContainer: String, kind: String, family: WidgetFamily) -> String {
        GroupsLayout.widgetRendering(kind, family: family.rawValue, container: groupContainer)
    }

    /// Loads the first timeline, renders it, and starts watching for reload requests, policy dates and entry dates.
    /// - Parameter pollInterval: how often it looks without a notification (the simulated clock moves on its own).
    public func start(pollInterval: Double = 0.05) throws {
        try prepare()
        lock.withLock {
            // Requests made before this process started are satisfied by the first timeline.
            for name in [widget.kind, WidgetCenter.allKinds] {
                seenRequests[name] = WidgetCenter.readRequest(at: WidgetCenter.requestPath(groupContainer: groupContainer, name: name))?.count ?? 0
            }
            running = true
        }
        try reload(.initial)
        let observation = try notifications?.observe(WidgetCenter.reloadNotification) { [self] _ in
            wakeup.withLock { woken = true; wakeup.signal() }
        }
        lock.withLock { self.observation = observation }
        Thread.detachNewThread { [self] in
            while lock.withLock({ running }) {
                // A failed tick ends the process (a stale build, exit 78, RULES.md runtime.stale, or a broken container):
                // it is reported to ProcessStop, and this thread stops serving either way.
                do { try tick() } catch {
                    ProcessStop.report(error)
                    lock.withLock { running = false }
                    return
                }
                wakeup.withLock {
                    if !woken { _ = wakeup.wait(until: Date(timeIntervalSinceNow: pollInterval)) }
                    woken = false
                }
            }
        }
    }

    /// Stops watching.
    public func stop() {
        lock.withLock {
            running = false
            observation?.cancel()
        }
    }

    /// One look at the world: app requests first, then the policy date, then a later entry becoming current.
    func tick() throws {
        for name in [widget.kind, WidgetCenter.allKinds] {
            let path = WidgetCenter.requestPath(groupContainer: groupContainer, name: name)
            if let request = WidgetCenter.readRequest(at: path), request.count != lock.withLock({ seenRequests[name] }) {
                lock.withLock { seenRequests[name] = request.count }
                try reload(.app(request))
                return
            }
        }
        let now = SimulatedTime.now(groupsRoot: groupsRoot)
        let (current, shown) = lock.withLock { (timeline, shownEntryDate) }
        guard let current else { return }
        if let next = current.nextReloadDate, now >= next {
            try reload(.policy(current.policy))
        } else if let entry = current.entry(at: now), entry.date != shown {
            try show(current, reason: "entry of \(SimulatedTime.format(entry.date)) is due")
        }
    }

    /// A person taps the widget's `Button(intent:)` or `Toggle(isOn:intent:)` (RULES.md `widget.interactive`): the
    /// intent runs in this, the widget extension's, process — one that opens its app (`openAppWhenRun`) runs there,
    /// through `router` — and then the widget reloads, budget-free.
    public func tap(_ name: String, arguments: [String: String], router: IntentRouter) throws -> PerformedResult {
        let registry = router.registry
        let result = try registry.type(named: name).openAppWhenRun
            ? router.perform(name, arguments: arguments).0 : registry.perform(name, arguments: arguments)
        try prepare()
        try reload(.interaction(intent: name))
        return result
    }

    /// Creates the kind's folder (renders, budget, log): `start()` does, and a one-shot reload needs it too.
    public func prepare() throws {
        try AtomicFile.createDirectories(directory)
    }

    /// Asks the provider for a new timeline, unless the budget forbids it (then the request is logged and dropped).
    public func reload(_ reason: Reason) throws {
        let now = SimulatedTime.now(groupsRoot: groupsRoot)
        let host = Presence.observe(directory: GroupsLayout.presence(container: groupContainer), bundleIdentifier: hostBundleIdentifier)
        var accounting: String
        switch reason {
        case .initial:
            accounting = "not counted"
        case .interaction, .configuration:
            // Apple: a reload that follows a person's interaction with the widget does not count against its budget.
            accounting = "not counted: the person's own action"
        case _ where host.isRunning && !host.isSuspended && host.state == .foreground:
            accounting = "budget-free: host in foreground, \(budget.used(at: now.timeIntervalSince1970))/\(budget.limit) used"
        default:
            let spent = try budget.spend(at: now.timeIntervalSince1970)
            guard spent.allowed else {
                // RULES.md widget.reload: the caller is never told; only the system log shows it.
                let line = "throttled \(widget.kind) reload (\(reason)): daily budget \(spent.used)/\(budget.limit) used in the last 24 h"
                log(line)
                output(line)
                // A throttled policy reload waits for the app's next request (or the next day's budget) instead of retrying.
                if case .policy = reason { lock.withLock { timeline = timeline.map { Timeline(entries: $0.entries, policy: .never) } } }
                return
            }
            accounting = "budget \(spent.used)/\(budget.limit) used"
        }
        let new = try fetchTimeline()
        lock.withLock { timeline = new; shownEntryDate = nil }
        var latency = ""
        if case .app(let request) = reason {
            latency = ", \(Int(((WidgetCenter.realNow() - request.requestedAt) * 1000).rounded())) ms after the request"
        }
        try show(new, reason: "reloaded \(widget.kind) (\(reason)\(latency); \(accounting); next \(new.policy))")
    }

    /// Renders the entry due now to every family's file and reports it.
    private func show(_ timeline: Timeline<W.Provider.Entry>, reason: String) throws {
        let now = SimulatedTime.now(groupsRoot: groupsRoot)
        // RULES.md widget.policy: an entry may be shown late, never early; before the first date, the placeholder.
        let entry = timeline.entry(at: now)
        lock.withLock { shownEntryDate = entry?.date }
        let files = widget.supportedFamilies.map { family in
            let box = entry.map { WidgetRenderer.render(widget.view($0, family: family), family: family) }
                ?? placeholder(family: family)
            return (path: Self.renderPath(groupContainer: groupContainer, kind: widget.kind, family: family),
                    text: box.joined(separator: "\n") + "\n")
        }
        try SharedWriteGate.check()
        try Self.writeConcurrently(files)
        let inline = entry.map { widget.view($0, family: .accessoryInline).joined(separator: " ") } ?? "placeholder"
        let line = "\(reason) → \(inline)"
        log(line)
        output(line)
    }

    /// Replaces every file atomically (RULES.md `files.atomic`: each one temp, fsync, rename; then each folder is
    /// fsynced once, for all the renames in it), all at once, one thread each, and returns once all are done. Each
    /// replacement waits mostly on its fsync, and the disk completes concurrent flushes together: six families in
    /// about the time of one or two, not six.
    /// - Throws: the first failure (`SystemError` naming the file); every write has ended by then.
    static func writeConcurrently(_ files: [(path: String, text: String)]) throws {
        let failures = Mutex<[any Error]>([])
        let group = DispatchGroup()
        for file in files {
            group.enter()
            Thread.detachNewThread {
                do { try AtomicFile.replace(Array(file.text.utf8), at: file.path) } catch { failures.withLock { $0.append(error) } }
                group.leave()
            }
        }
        group.wait()
        if let failure = failures.withLock({ $0.first }) { throw failure }
        for directory in Set(files.map { AtomicFile.parentDirectory(of: $0.path) }) { try AtomicFile.syncDirectory(directory) }
    }

    /// The current rendering of `family` (the placeholder until an entry is due).
    public func render(family: WidgetFamily) -> [String] {
        let now = SimulatedTime.now(groupsRoot: groupsRoot)
        guard let entry = lock.withLock({ timeline })?.entry(at: now) else { return placeholder(family: family) }
        return WidgetRenderer.render(widget.view(entry, family: family), family: family)
    }

    /// The placeholder rendering: synchronous, no data, redacted.
    public func placeholder(family: WidgetFamily) -> [String] {
        let entry = widget.provider.placeholder(in: TimelineProviderContext(family: family))
        return WidgetRenderer.render(WidgetRenderer.redacted(widget.view(entry, family: family)), family: family)
    }

    /// A one-shot snapshot rendering (what `lockstep-widget render --family F` prints).
    public func snapshot(family: WidgetFamily, isPreview: Bool = false) throws -> [String] {
        let entry = try wait("getSnapshot") { done in
            widget.provider.getSnapshot(in: TimelineProviderContext(family: family, isPreview: isPreview), completion: done)
        }
        return WidgetRenderer.render(widget.view(entry, family: family), family: family)
    }

    /// The budget and policy, for a `status` command.
    public func status() -> String {
        let now = SimulatedTime.now(groupsRoot: groupsRoot)
        let policy = lock.withLock { timeline?.policy.description } ?? "none (no timeline served by this process)"
        return "\(widget.kind): clock \(SimulatedTime.format(now)), budget \(budget.used(at: now.timeIntervalSince1970))/\(budget.limit) used in the last 24 h, policy \(policy)"
    }

    private func fetchTimeline() throws -> Timeline<W.Provider.Entry> {
        let family = widget.supportedFamilies.first ?? .systemSmall
        return try wait("getTimeline") { done in
            widget.provider.getTimeline(in: TimelineProviderContext(family: family), completion: done)
        }
    }

    /// Calls a completion-handler API and waits for it (bounded), as the system waits for an extension.
    private func wait<T>(_ name: String, _ call: (@escaping (T) -> Void) -> Void) throws -> T {
        let box = Handoff<T>()
        call { box.set($0) }
        guard let value = box.wait(timeout: 10) else {
            throw WidgetKitError(.providerTimedOut, subject: widget.kind, detail: "10 s (\(name))")
        }
        return value
    }

    private func log(_ line: String) {
        let stamp = SimulatedTime.format(SimulatedTime.now(groupsRoot: groupsRoot))
        let path = GroupsLayout.widgetLog(widget.kind, container: groupContainer)
        guard let fd = try? FileDescriptor.open(path, O_WRONLY | O_CREAT | O_APPEND) else { return }
        // One write(2) per line with O_APPEND: lines from several processes never interleave.
        try? fd.closeAfter { try $0.writeAll(Array("\(stamp) \(line)\n".utf8), path: path) }
    }
}
