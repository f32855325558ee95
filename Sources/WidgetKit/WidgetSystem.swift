import AppGroupKit
import AppIntents
import Foundation
import LockstepSystem
import Synchronization
import SwiftUI

/// The system side of WidgetKit for one widget of the bundle, run inside the widget process: asks the provider
/// for timelines, honours reload requests and policies under the daily budget, and renders every family.
///
/// Files (`<group container>/.lockstep/widgetkit/<kind>/`): `<family>.txt` (the texts the current rendering shows,
/// one per line, replaced atomically), `budget` (see `ReloadBudget`), `log` (one appended line per reload decision,
/// throttled ones included); while serving, `renders/<kind>/<family>.svg`, each rendering's picture.
///
/// It runs on the main actor, as SwiftUI views do: the widget process's one loop (`WidgetHost`) calls `tick()`.
@MainActor
public final class WidgetSystem {
    /// Why a timeline was requested.
    public enum Reason: Sendable, CustomStringConvertible {
        case initial
        case app(WidgetCenter.Request)
        case policy(TimelineReloadPolicy)
        /// An intent a person ran from the widget (`Button(intent:)`, rule `widget.interactive`).
        case interaction(intent: String)
        /// The person changed the widget's configuration (rule `widget.configurable`).
        case configuration
        /// A widget push from the app's server arrived (iOS 26's `WidgetPushHandler`).
        case push

        public var description: String {
            switch self {
            case .interaction(let intent): return "\(intent) tapped in the widget"
            case .configuration: return "configuration changed"
            case .push: return "widget push received"
            case .initial: return "first timeline"
            case .app(let request): return "app request from \(request.requester)"
            case .policy(let policy): return "policy \(policy) reached"
            }
        }
    }

    public let widget: WidgetDescriptor
    let source: TimelineSource
    /// The device whose sizes the families are drawn at.
    public var device: ReferenceDevice { display.device }
    /// The device, appearance and Dynamic Type size every rendering of this process uses, unless a `render` names
    /// its own.
    public let display: WidgetDisplay
    /// Where each rendering's picture goes (`GroupsLayout.widgetRenders`), or nil: only a serving process draws.
    public var renders: String?
    /// The device's Darwin center, to wake the app an `openAppWhenRun` intent is handed to.
    public var notifications: DarwinNotificationCenter?
    public let groupsRoot: String
    public let groupContainer: String
    /// The containing app: reloads are budget-free while it is in the foreground (rule `widget.budget`).
    public let hostBundleIdentifier: String
    private let budget: ReloadBudget
    private let output: @Sendable (String) -> Void
    private let lock = NSLock()
    private var timeline: Timeline<AnyEntry>?
    private var shownEntryDate: Date?
    private var seenRequests: [String: Int] = [:]
    /// A timeline loaded but not rendered yet, with its log line (`start(showing: false)`).
    private var unshown: (Timeline<AnyEntry>, String)?
    /// The warnings last printed for each family (`warn`).
    private var warned: [WidgetFamily: [String]] = [:]

    /// - Parameters:
    ///   - output: receives one line per event (reload, throttle, new entry shown), for stdout.
    public init(widget: WidgetDescriptor, display: WidgetDisplay = WidgetDisplay(), groupsRoot: String, groupContainer: String,
                hostBundleIdentifier: String, output: @escaping @Sendable (String) -> Void) {
        self.widget = widget
        // A Live Activity has no timeline; the host never makes a WidgetSystem of one.
        source = widget.source!
        self.display = display
        self.groupsRoot = groupsRoot
        self.groupContainer = groupContainer
        self.hostBundleIdentifier = hostBundleIdentifier
        budget = ReloadBudget(groupContainer: groupContainer, kind: widget.kind)
        self.output = output
    }

    var directory: String { GroupsLayout.widget(widget.kind, container: groupContainer) }

    /// The file holding the current rendering of `family`.
    nonisolated public static func renderPath(groupContainer: String, kind: String, family: WidgetFamily) -> String {
        GroupsLayout.widgetRendering(kind, family: family.rawValue, container: groupContainer)
    }

    /// Loads the first timeline and renders it; from then on `tick()` follows requests, policies and entry dates.
    /// - Parameter showing: false loads the timeline only (`status()` and `render` answer from it at once) and
    ///   leaves its rendering — every family's file and picture, replaced durably — to `showFirstTimeline()`: a
    ///   serving extension says it is ready first, as those writes wait on the disk (see `WidgetHost`).
    public func start(showing: Bool = true) throws {
        try prepare()
        lock.withLock {
            // Requests made before this process started are satisfied by the first timeline.
            for name in [widget.kind, WidgetCenter.allKinds] {
                seenRequests[name] = WidgetCenter.readRequest(at: WidgetCenter.requestPath(groupContainer: groupContainer, name: name))?.count ?? 0
            }
        }
        try reload(.initial, showing: showing)
        if let handler = widget.pushHandler {
            // The system hands the extension its push token once it runs; the app's server sends pushes to it.
            let token = WidgetPushInfo(token: Data("lockstep-push:\(hostBundleIdentifier):\(widget.kind)".utf8))
            handler(token, widget.families.map { WidgetInfo(kind: widget.kind, family: $0) })
            output("push token for \(widget.kind): \(token.token.map { String(format: "%02x", $0) }.joined())")
        }
    }

    /// A widget push arrives for this widget: its timeline is reloaded, counted against the daily budget as any
    /// reload the person did not ask for (a throttled push is logged and dropped, as a throttled request is).
    /// - Throws: `WidgetKitError.noPushHandler` when the widget declares none: iOS delivers it no push.
    public func push() throws {
        guard widget.pushHandler != nil else {
            throw WidgetKitError(.noPushHandler, subject: widget.kind, detail: "")
        }
        try prepare()
        try reload(.push)
    }

    /// Renders the first timeline that `start(showing: false)` loaded (nothing when there is none waiting).
    /// - Returns: whether there was one.
    @discardableResult
    public func showFirstTimeline() throws -> Bool {
        guard let (timeline, reason) = lock.withLock({ () -> (Timeline<AnyEntry>, String)? in
            defer { unshown = nil }
            return unshown
        }) else { return false }
        try show(timeline, reason: reason)
        return true
    }

    /// One look at the world: app requests first, then the policy date, then a later entry becoming current.
    /// A failure ends the process (a stale build, exit 78, rule `runtime.stale`, or a broken container).
    /// - Returns: whether it did any work (a timeline requested, throttled or shown): the serving process then says
    ///   its work returned (rule `lock.dead10cc`).
    @discardableResult
    public func tick() throws -> Bool {
        if try showFirstTimeline() { return true }
        for name in [widget.kind, WidgetCenter.allKinds] {
            let path = WidgetCenter.requestPath(groupContainer: groupContainer, name: name)
            if let request = WidgetCenter.readRequest(at: path), request.count != lock.withLock({ seenRequests[name] }) {
                lock.withLock { seenRequests[name] = request.count }
                try reload(.app(request))
                return true
            }
        }
        let now = SimulatedTime.now(groupsRoot: groupsRoot)
        let (current, shown) = lock.withLock { (timeline, shownEntryDate) }
        guard let current else { return false }
        if let next = current.nextReloadDate, now >= next {
            try reload(.policy(current.policy))
        } else if let entry = current.entry(at: now), entry.date != shown {
            try show(current, reason: "entry of \(SimulatedTime.format(entry.date)) is due")
        } else {
            return false
        }
        return true
    }

    /// The simulated time of this widget's next work of its own — its timeline's next entry or its reload policy's
    /// date, whichever is first; now when one is due already — or nil when it has none (`.never`, no more entries).
    /// The widget process also draws what the system displays, so a suspended one must be woken then.
    public func nextDue() -> Date? {
        let now = SimulatedTime.now(groupsRoot: groupsRoot)
        let (current, shown, pending) = lock.withLock { (timeline, shownEntryDate, unshown != nil) }
        if pending { return now }
        guard let current else { return nil }
        var dates = [current.nextReloadDate, current.entries.first { $0.date > now }?.date].compactMap { $0 }
        if let entry = current.entry(at: now), entry.date != shown { dates.append(now) }
        return dates.min()
    }

    /// A person taps the widget's `Button(intent:)` or `Toggle(isOn:intent:)` (rule `widget.interactive`): the
    /// control is found in the current rendering of the widget's families — by its intent's type name or its label
    /// — and the very intent instance the view holds runs in this, the widget extension's, process (one that opens
    /// its app, in the app); then the widget reloads, budget-free.
    /// - Throws: `WidgetKitError.noSuchControl` naming what the views do offer; the intent's own error.
    public func tap(_ name: String) throws -> PerformedResult {
        var offered: [String] = []
        for family in widget.families {
            let controls = current(family: family).controls
            offered += controls.map { "\($0.intentTypeName) (\($0.label))" }
            // The intent's type, else the label; else the one label that contains the name ("Walk" for "🚶 Walk").
            let containing = controls.filter { $0.label.contains(name) }
            guard let control = controls.first(where: { $0.intentTypeName == name || $0.label == name })
                    ?? (containing.count == 1 ? containing.first : nil) else { continue }
            let result = try Self.perform(control.intent, groupContainer: groupContainer, hostBundleIdentifier: hostBundleIdentifier,
                                          notifications: notifications)
            try prepare()
            try reload(.interaction(intent: control.intentTypeName))
            return result
        }
        throw WidgetKitError(.noSuchControl, subject: name,
                             detail: offered.isEmpty ? "its views show no Button(intent:) or Toggle" : Array(Set(offered)).sorted().joined(separator: ", "))
    }

    /// Performs an intent a person tapped in a widget or a control: in this, the widget extension's, process — or,
    /// for one that opens its app, in the app (rule `intent.where`: exit 69 when it is not running), handed over with
    /// the parameters this instance holds.
    /// Nonisolated: the intent's task must not need the main actor, which the waiting caller may be holding.
    nonisolated static func perform(_ intent: any AppIntent, groupContainer: String, hostBundleIdentifier: String,
                        notifications: DarwinNotificationCenter?) throws -> PerformedResult {
        let type = Swift.type(of: intent)
        if type.openAppWhenRun {
            let router = IntentRouter(registry: IntentRegistry([type]), groupContainer: groupContainer,
                                      appBundleIdentifier: hostBundleIdentifier, notifications: notifications)
            return try router.perform(type.name, arguments: intent.argumentTexts).0
        }
        let box = IntentBox(intent)
        return try IntentExecution.run { PerformedResult(try await box.intent.perform()) }
    }

    /// `configure --PARAMETER VALUE…` for an `AppIntentConfiguration` or `IntentConfiguration` (rule `widget.configurable`): the instance's
    /// new settings, then a budget-free reload.
    public func configure(_ settings: [String: String]) throws {
        guard let configure = source.configure else {
            throw WidgetKitError(.usage, subject: "configure", detail: "\(widget.kind) is a StaticConfiguration: it has no settings")
        }
        try configure(settings)
        try prepare()
        try reload(.configuration)
    }

    /// Creates the kind's folder (renders, budget, log): `start()` does, and a one-shot reload needs it too.
    public func prepare() throws {
        try AtomicFile.createDirectories(directory)
    }

    /// Asks the provider for a new timeline, unless the budget forbids it (then the request is logged and dropped).
    /// - Parameter showing: false keeps the new timeline's rendering for `showFirstTimeline()`.
    public func reload(_ reason: Reason, showing: Bool = true) throws {
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
                // rule widget.reload: the caller is never told; only the system log shows it.
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
        var latency = ""
        if case .app(let request) = reason {
            latency = ", \(Milliseconds.since(request.requestedAt, now: WidgetCenter.realNow())) ms after the request"
        }
        let line = "reloaded \(widget.kind) (\(reason)\(latency); \(accounting); next \(new.policy))"
        lock.withLock {
            timeline = new
            shownEntryDate = nil
            unshown = showing ? nil : (new, line)
        }
        if showing { try show(new, reason: line) }
    }

    /// Renders the entry due now to every family's file (and picture, while serving) and reports it.
    private func show(_ timeline: Timeline<AnyEntry>, reason: String) throws {
        let now = SimulatedTime.now(groupsRoot: groupsRoot)
        // Rule widget.policy: an entry may be shown late, never early; before the first date, the placeholder.
        let entry = timeline.entry(at: now)
        lock.withLock { shownEntryDate = entry?.date }
        var files: [(path: String, text: String)] = []
        var summary = "placeholder"
        // Only the families the device has: a phone draws no systemExtraLarge, a watch no Home Screen family.
        for family in widget.families where device.size(of: family) != nil {
            let view = entry.map { source.render($0, request(family)) } ?? placeholderView(family: family)
            let texts = entry == nil ? WidgetRedaction.redacted(view.texts) : view.texts
            files.append((Self.renderPath(groupContainer: groupContainer, kind: widget.kind, family: family), texts.map { $0 + "\n" }.joined()))
            if let renders {
                files.append(("\(renders)/\(widget.kind)/\(family.rawValue).svg", view.widgetSVG(kind: widget.kind, family: family, display: display)))
                // iOS 17 shows its message in place of a view without a container background: the gallery also shows
                // the view as iOS 16 drew it, so the team sees what it will look like once it adopts the API.
                if let plain = view.withoutMessage {
                    files.append(("\(renders)/\(widget.kind)/\(family.rawValue).iOS16.svg", plain.widgetSVG(kind: widget.kind, family: family, display: display)))
                }
                // The other modes WidgetKit draws the family in (a tinted Home Screen, a tinted watch face), for the
                // gallery to show side by side: `<family>.<mode>.svg`.
                for mode in family.renderingModes(on: device).dropFirst() {
                    var other = display
                    other.renderingMode = mode
                    let drawn = entry.map { source.render($0, widget.request(family, display: other)) } ?? placeholderView(family: family, display: other)
                    files.append(("\(renders)/\(widget.kind)/\(family.rawValue).\(mode).svg", drawn.widgetSVG(kind: widget.kind, family: family, display: other)))
                }
            }
            if entry != nil { warn(view.warnings(kind: widget.kind, family: family), family: family) }
            // The log line shows the inline family when there is one (the shortest summary), else the first.
            if entry != nil, family == (widget.families.contains(.accessoryInline) ? .accessoryInline : widget.families.first) {
                summary = texts.joined(separator: " · ")
            }
        }
        try SharedWriteGate.check()
        if let renders { try AtomicFile.createDirectories("\(renders)/\(widget.kind)") }
        try Self.writeConcurrently(files)
        let line = "\(reason) → \(summary)"
        log(line)
        output(line)
    }

    func request(_ family: WidgetFamily, display: WidgetDisplay? = nil) -> RenderRequest {
        widget.request(family, display: display ?? self.display)
    }

    /// Prints a family's warnings to stderr when they differ from the last ones printed for it: once per change, not
    /// at every reload.
    private func warn(_ lines: [String], family: WidgetFamily) {
        guard lock.withLock({ warned.updateValue(lines, forKey: family) }) != lines else { return }
        for line in lines { Standard.error("warning: " + line) }
    }

    /// Replaces every file atomically (rule `files.atomic`: each one temp, fsync, rename; then each folder is
    /// fsynced once, for all the renames in it), all at once, one thread each, and returns once all are done. Each
    /// replacement waits mostly on its fsync, and the disk completes concurrent flushes together: six families in
    /// about the time of one or two, not six.
    /// - Throws: the first failure (`SystemError` naming the file); every write has ended by then.
    nonisolated static func writeConcurrently(_ files: [(path: String, text: String)]) throws {
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

    /// The current rendering of `family` (the placeholder until an entry is due), on `display` (nil: the process's).
    package func current(family: WidgetFamily, display: WidgetDisplay? = nil) -> RenderedView {
        let now = SimulatedTime.now(groupsRoot: groupsRoot)
        guard let entry = lock.withLock({ timeline })?.entry(at: now) else { return placeholderView(family: family, display: display) }
        return source.render(entry, request(family, display: display))
    }

    /// What `render FAMILY` prints: one line per text, in reading order (redacted for the placeholder).
    public func render(family: WidgetFamily) -> [String] {
        let now = SimulatedTime.now(groupsRoot: groupsRoot)
        guard let entry = lock.withLock({ timeline })?.entry(at: now) else { return placeholder(family: family) }
        return source.render(entry, request(family)).texts
    }

    /// The placeholder rendering: synchronous, no data, redacted.
    public func placeholder(family: WidgetFamily) -> [String] {
        WidgetRedaction.redacted(placeholderView(family: family).texts)
    }

    func placeholderView(family: WidgetFamily, display: WidgetDisplay? = nil) -> RenderedView {
        let context = TimelineProviderContext(family: family, device: (display ?? self.display).device)
        return source.render(source.placeholder(context), request(family, display: display))
    }

    /// A one-shot snapshot rendering (what `render FAMILY` as arguments prints, and draws with `--svg`), on
    /// `display` (nil: the process's).
    package func snapshot(family: WidgetFamily, isPreview: Bool = false, display: WidgetDisplay? = nil) throws -> RenderedView {
        let context = TimelineProviderContext(family: family, isPreview: isPreview, device: (display ?? self.display).device)
        let entry = try wait("getSnapshot") { done in source.snapshot(context, done) }
        return source.render(entry, request(family, display: display))
    }

    /// The budget and policy, for a `status` command.
    public func status() -> String {
        let now = SimulatedTime.now(groupsRoot: groupsRoot)
        let policy = lock.withLock { timeline?.policy.description } ?? "none (no timeline served by this process)"
        let disfavored = widget.families.compactMap { family in
            widget.disfavoredLocations[family].map { "\(family.rawValue) not suggested for \($0.map(\.description).joined(separator: ", "))" }
        }
        return "\(widget.kind): clock \(SimulatedTime.format(now)), budget \(budget.used(at: now.timeIntervalSince1970))/\(budget.limit) used in the last 24 h, policy \(policy)"
            + (disfavored.isEmpty ? "" : "; " + disfavored.joined(separator: "; "))
    }

    private func fetchTimeline() throws -> Timeline<AnyEntry> {
        let context = TimelineProviderContext(family: widget.families.first ?? .systemSmall, device: device)
        return try wait("getTimeline") { done in source.timeline(context, done) }
    }

    /// Calls a completion-handler API and waits for it (bounded), as the system waits for an extension. The main
    /// run loop turns meanwhile: a provider may complete on the main queue.
    private func wait<T>(_ name: String, _ call: (@escaping (T) -> Void) -> Void) throws -> T {
        let box = Handoff<T>()
        call { box.set($0) }
        let deadline = Date(timeIntervalSinceNow: 10)
        var value: T?
        while value == nil && Date() < deadline {
            value = box.wait(timeout: 0)
            if value == nil { _ = RunLoop.main.run(mode: .default, before: Date(timeIntervalSinceNow: 0.01)) }
        }
        guard let value else {
            throw WidgetKitError(.providerTimedOut, subject: widget.kind, detail: "10 s (\(name))")
        }
        return value
    }

    private func log(_ line: String) {
        Self.log(line, kind: widget.kind, groupsRoot: groupsRoot, groupContainer: groupContainer)
    }

    /// Appends a line, stamped with the simulated time, to a widget's or control's log.
    static func log(_ line: String, kind: String, groupsRoot: String, groupContainer: String) {
        let stamp = SimulatedTime.format(SimulatedTime.now(groupsRoot: groupsRoot))
        let path = GroupsLayout.widgetLog(kind, container: groupContainer)
        guard let fd = try? FileDescriptor.open(path, O_WRONLY | O_CREAT | O_APPEND) else { return }
        // One write(2) per line with O_APPEND: lines from several processes never interleave.
        try? fd.closeAfter { try $0.writeAll(Array("\(stamp) \(line)\n".utf8), path: path) }
    }
}

/// An intent instance handed to the task that performs it (intents need not be `Sendable`).
final class IntentBox: @unchecked Sendable {  // @unchecked: used by one task, once.
    let intent: any AppIntent
    init(_ intent: any AppIntent) { self.intent = intent }
}

/// Whole milliseconds between a stamp another process wrote and now, for the latency the log lines show. A stamp
/// from a damaged or hostile file (1e300, NaN) gives 0 instead of trapping in Int().
enum Milliseconds {
    static func since(_ stamp: Double, now: Double) -> Int {
        Int(exactly: ((now - stamp) * 1000).rounded()) ?? 0
    }
}
