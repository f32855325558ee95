import ActivityKit
import AppGroupKit
import AppIntents
import Foundation
import LockstepRuntime
import LockstepSystem
import Synchronization

extension WidgetBundle {
    /// The entry point of a widget extension: `@main struct MyWidgets: WidgetBundle`. On Linux the executable whose
    /// sources are the extension's iOS files *is* the simulated widget extension (see `WidgetHost`).
    @MainActor
    public static func main() {
        WidgetHost.main { Describe.bundle(Self()) }
    }
}

extension Widget {
    /// The entry point of a widget extension with one widget: `@main struct MyWidget: Widget`.
    @MainActor
    public static func main() {
        WidgetHost.main { Describe.widget(Self()) }
    }
}

/// The simulated widget extension process, started from a `@main` `WidgetBundle` or `Widget`.
///
/// `lockstep up`, `run` and `verify` start it as the manifest's widget (or complication) bundle: the version gate
/// (rule `runtime.version-parity`), a ready line, timelines under the daily budget, reloads when the app asks, the
/// app's Live Activities, and commands on stdin until it ends. The same commands work as arguments, once:
///
///     [--kind KIND] render FAMILY [--svg FILE] [--device NAME] [--appearance light|dark] [--dynamic-type SIZE]
///                                                the texts the view shows, one per line; --svg also draws it; on
///                                                a device of `ReferenceDevice.all`, light or dark, at a Dynamic Type
///                                                size (default: the process's device, light, large)
///     [--kind KIND] placeholder FAMILY           the redacted placeholder
///     [--kind KIND] tap INTENT                   presses the Button(intent:)/Toggle whose intent type or label is INTENT
///     [--kind KIND] configure --PARAMETER VALUE  an AppIntentConfiguration's or IntentConfiguration's settings
///     [--kind KIND] push                         a widget push arrives (iOS 26's pushHandler): a budgeted reload
///     --kind CONTROL render small|medium|large [--svg FILE]   a control (iOS 18) as Control Center draws it
///     --kind CONTROL tap                         runs the control's intent here (a toggle's with the new value)
///     status | quit
///     previews [--svg DIR]                       every #Preview: each widget preview's entries, each view preview
///
/// `--kind` picks a widget of the bundle, else the first. As a complication bundle it serves the bundle's watch
/// widgets (those offering `accessoryCorner`), at the default Apple Watch's sizes (45 mm), on the watch's container.
@MainActor
public enum WidgetHost {
    static let usage = "[--kind KIND] render FAMILY [--svg FILE] [--device NAME] [--appearance light|dark] [--dynamic-type SIZE] | [--kind KIND] placeholder FAMILY | [--kind KIND] tap INTENT | [--kind KIND] configure [--PARAMETER VALUE]… | [--kind KIND] push | --kind CONTROL render small|medium|large [--svg FILE] | --kind CONTROL tap | status | previews [--svg DIR] | quit"

    /// Runs the extension, then exits with the documented status (0; 2 or 64 for bad arguments; 78 for a version
    /// mismatch or a stale build). The one place that exits.
    static func main(_ widgets: () -> [WidgetDescriptor]) -> Never {
        Standard.setUp()
        // A stale build found on a watcher thread ends this process, as iOS ends it (rule runtime.stale).
        ProcessStop.install { exit(withError: $0) }
        do {
            try run(widgets, arguments: Array(CommandLine.arguments.dropFirst()))
            exit(.success)
        } catch {
            exit(withError: error)
        }
    }

    static func run(_ widgets: () -> [WidgetDescriptor], arguments: [String]) throws {
        if arguments.first == "--help" {
            print("usage: \(Program.name) [\(usage)]\n  no arguments: serve the widgets; the same commands on stdin")
            return
        }
        // Previews are Xcode's canvas, not the device: drawn from the executable alone, before any process start-up.
        if arguments.first == "previews" {
            print(try PreviewCommand.run(arguments, activities: widgets().compactMap(\.activity)))
            return
        }
        guard let process = try SimulatedProcess.start(defaultRole: .widget) else { return }  // `up`'s launch check
        let sandbox = try process.sandbox()
        let identifier = process.bundle.bundleIdentifier ?? process.bundle.name
        let onWatch = process.bundle.role.kind.runsOnWatch
        // The group this widget shares with its app: where the app's data and its reload requests are. A widget
        // that claims none still runs, as on iOS (`check` allows it, rule `group.shared`): only its use of a group
        // falls back (rule `group.defaults-fallback`), and its own timelines, budget and renderings are kept in its
        // private container, where the app's reloads, which travel through a shared group here, do not reach.
        let container: Container
        if let group = process.bundle.appGroups.first(where: process.manifest.app.appGroups.contains),
           let shared = try sandbox.groupContainer(group) {
            container = shared
        } else {
            container = try sandbox.privateContainer()
            let groups = process.manifest.app.appGroups
            Standard.error("warning: the widget extension '\(identifier)' shares no App Group with its app (the app's \(groups.isEmpty ? "entitlements list none" : "are \(groups.joined(separator: ", "))")): it runs on its own container, a suite or container of a group it does not claim falls back to a private one, and the app's WidgetCenter reloads do not reach it [group.defaults-fallback].")
        }
        let app = process.manifest.app.bundleIdentifier ?? process.manifest.app.name
        // Reloads are budget-free while the app the widget belongs to is in the foreground: the watch app for a
        // complication (rule widget.budget).
        let watch = process.manifest.bundle(role: .watch)
        let host = onWatch ? (watch?.bundleIdentifier ?? watch?.name ?? app) : app
        // The bundle's body is evaluated now, in the started process: a widget may read its environment in `init()`.
        let all = widgets()
        let served = all.filter { $0.hasTimeline && $0.families.contains(.accessoryCorner) == onWatch }
        let renders = GroupsLayout.widgetRenders(container: container.path)
        let center = try? DarwinNotificationCenter(sandbox: sandbox)
        let systems = served.map {
            let system = WidgetSystem(widget: $0, display: WidgetDisplay(device: onWatch ? .appleWatch : .iPhone), groupsRoot: process.groupsRoot,
                                      groupContainer: container.path, hostBundleIdentifier: host, output: { print($0) })
            system.notifications = center
            return system
        }
        let activities = onWatch ? [] : all.compactMap(\.activity)
        // iOS 18's controls live in the phone's widget extension, beside its widgets.
        let controls: [ControlSystem] = onWatch ? [] : all.filter(\.isControl).map {
            let control = ControlSystem(control: $0, groupsRoot: process.groupsRoot, groupContainer: container.path,
                                        hostBundleIdentifier: app, output: { print($0) })
            control.notifications = center
            return control
        }
        guard !systems.isEmpty || !activities.isEmpty || !controls.isEmpty else {
            throw WidgetKitError(.unknownKind, subject: identifier, detail: "its bundle declares no widget for a \(onWatch ? "watch" : "phone") extension")
        }
        let session = Session(systems: systems, controls: controls)

        guard !arguments.isEmpty else {
            // Serving: every rendering is also drawn into the renders folder, for `lockstep gallery`.
            for system in systems { system.renders = renders }
            for control in controls { control.renders = renders }
            let inbox = Inbox()
            var observations: [AppGroupKit.Observation] = []
            for name in [WidgetCenter.reloadNotification, ActivitySystem.changedNotification] {
                if let observation = try? center?.observe(name, handler: { _ in inbox.wake() }) { observations.append(observation) }
            }
            defer { observations.forEach { $0.cancel() } }
            // Ready once every timeline is loaded: `status`, `render` and `tap` answer from it. Its rendering is
            // drawn right after the ready line (the "first timeline" line says it is on disk): replacing each
            // family's file and picture durably waits on about twenty fsyncs, which `up` need not wait for.
            for system in systems { try system.start(showing: false) }
            let renderer = LiveActivityRenderer(system: ActivitySystem(groupsRoot: process.groupsRoot, appBundleIdentifier: app),
                                                presentations: activities, renders: renders, output: { print($0) })
            // A teardown right after the ready line (`up` with a short scenario) waits for this drawing and the
            // previews', which `lockstep gallery` shows: SIGTERM is held back from before the line is printed.
            try TerminationSignals.deferred {
                print("ready \(identifier): \(systems.first?.status() ?? controls.first?.status() ?? "Live Activities only")")
                for system in systems { try system.showFirstTimeline() }
                for control in controls { try control.start() }
                // Xcode's canvas in the gallery: the executable's previews beside the widgets' own renderings.
                do { _ = try PreviewCommand.draw(into: "\(renders)/\(PreviewCommand.galleryKind)", activities: activities) } catch {
                    if ProcessStop.isFatal(error) { throw error }
                    Standard.error("warning: the previews were not drawn for the gallery: \(error)")
                }
            }
            Thread.detachNewThread {
                while let line = readLine() { inbox.push(line) }
                inbox.close()
            }
            // What the process last did for the system, for its work-returned line (the first timelines, so far).
            var work: String? = "the first timeline"
            // Announced and about to be suspended (rule lock.dead10cc): nothing more until the launcher's next line —
            // a tick here could be stopped holding the budget's lock, which the launcher would take for the team's.
            var waiting = false
            // The one loop: commands, then a look at requests, policies and activities (views render on the main actor).
            while true {
                switch inbox.next(timeout: waiting ? 3600 : 0.05) {
                case .end: return
                case .idle where waiting: continue
                case .line(let line):
                    waiting = false
                    let words = CommandInput.words(line)
                    // An empty line is the launcher waking this suspended process (see "Suspension" in Simulating.md):
                    // what is due is done below, and the work-returned line follows either way.
                    work = (words.first == "--kind" ? words.dropFirst(2).first : words.first) ?? "a wake-up"
                    if let first = words.first {
                        if first == "quit" || first == "exit" { return }
                        do { print(try session.execute(words, serving: true)) } catch {
                            if ProcessStop.isFatal(error) { throw error }
                            Standard.error(error)
                        }
                    }
                case .idle: break
                }
                for system in systems { if try system.tick() { work = "\(system.widget.kind)'s timeline" } }
                for control in controls { if try control.tick() { work = "\(control.control.kind)'s value" } }
                if renderer.tick() { work = "a Live Activity" }
                // rule lock.dead10cc: once nothing more is waiting, the work has returned to the system, which
                // suspends the extension (realistic timing); the next entry or reload date says when it is due again.
                if let done = work, !inbox.hasLines {
                    work = nil
                    let now = SimulatedTime.now(groupsRoot: process.groupsRoot)
                    let due = systems.compactMap { $0.nextDue() }.min()
                    WorkReturned.announce("after \(done)", nextIn: due.map { $0.timeIntervalSince(now) })
                    waiting = WorkReturned.waitsForWake
                }
            }
        }
        print(try session.execute(arguments, serving: false))
    }

    /// The commands, on a bundle's widgets.
    @MainActor
    struct Session {
        let systems: [WidgetSystem]
        var controls: [ControlSystem] = []

        func execute(_ arguments: [String], serving: Bool) throws -> String {
            var words = arguments
            var system = systems.first
            // A control is named by its kind; a bundle of controls alone serves its first.
            if words.first == "--kind", words.count >= 2, let control = controls.first(where: { $0.control.kind == words[1] }) {
                return try execute(control: control, Array(words.dropFirst(2)), serving: serving)
            }
            if words.count == 2, words[0] == "tap", let control = controls.first(where: { $0.control.kind == words[1] }) {
                return try execute(control: control, ["tap"], serving: serving)
            }
            if systems.isEmpty, words.first != "--kind", let control = controls.first {
                return try execute(control: control, words, serving: serving)
            }
            if words.first == "--kind" {
                guard words.count >= 2 else { throw WidgetKitError(.usage, subject: words.joined(separator: " "), detail: usage) }
                guard let chosen = systems.first(where: { $0.widget.kind == words[1] }) else {
                    let kinds = systems.map(\.widget.kind) + controls.map(\.control.kind)
                    throw WidgetKitError(.unknownKind, subject: words[1], detail: "its widgets: \(kinds.joined(separator: ", "))")
                }
                system = chosen
                words.removeFirst(2)
            }
            func family(_ name: String) throws -> WidgetFamily {
                let family = try WidgetFamily(parsing: name)
                guard let system, system.widget.families.contains(family) else {
                    throw WidgetKitError(.unknownFamily, subject: name, detail: system?.widget.families.map(\.rawValue).joined(separator: ", ") ?? "none")
                }
                return family
            }
            guard let system, let command = words.first else {
                if words.first == "status" { return "Live Activities only: no widget kind" }
                throw WidgetKitError(.usage, subject: words.joined(separator: " "), detail: usage)
            }
            switch (command, words.count) {
            case ("render", _):
                // `render --family F` is the old spelling, kept for scripts.
                if words.count > 1 && words[1] == "--family" { words.remove(at: 1) }
                // --device, --appearance and --dynamic-type, anywhere after the family.
                var display = system.display
                try display.take(from: &words)
                guard words.count == 2 || (words.count == 4 && words[2] == "--svg") else {
                    throw WidgetKitError(.usage, subject: arguments.joined(separator: " "), detail: usage)
                }
                // A family the device lacks is refused before asking whether the widget offers it.
                _ = try display.size(of: WidgetFamily(parsing: words[1]))
                let chosen = try family(words[1])
                let view = serving ? system.current(family: chosen, display: display) : try system.snapshot(family: chosen, display: display)
                if words.count == 4 { try write(view.widgetSVG(kind: system.widget.kind, family: chosen, display: display), to: words[3]) }
                for line in view.warnings(kind: system.widget.kind, family: chosen) { Standard.error("warning: " + line) }
                return view.texts.joined(separator: "\n")
            case ("placeholder", 2) where words[1] != "--family", ("placeholder", 3) where words[1] == "--family":
                return system.placeholder(family: try family(words[words.count - 1])).joined(separator: "\n")
            case ("status", 1):
                return (systems.map { $0.status() } + controls.map { $0.status() }).joined(separator: "\n")
            case ("tap", 2):
                if !serving { try system.start() }
                let result = try system.tap(words[1])
                return result.dialog ?? result.value ?? "Done."
            case ("configure", _):
                if !serving { try system.start() }
                try system.configure(try IntentRegistry.arguments(words.dropFirst()))
                return "configured \(system.widget.kind)"
            case ("push", 1):
                // A widget without a push handler is refused before anything is written.
                guard system.widget.pushHandler != nil else { throw WidgetKitError(.noPushHandler, subject: system.widget.kind, detail: "") }
                if !serving { try system.start() }
                try system.push()
                return "delivered a widget push to \(system.widget.kind)"
            default:
                throw WidgetKitError(.usage, subject: words.joined(separator: " "), detail: usage)
            }
        }

        /// A control's commands: `render SIZE [--svg FILE]`, `tap [NAME]`, `configure`, `status`.
        func execute(control: ControlSystem, _ words: [String], serving: Bool) throws -> String {
            switch (words.first, words.count) {
            case ("render", let count) where count == 2 || (count == 4 && words[2] == "--svg"):
                guard let size = ControlCenterSize(rawValue: words[1]) else {
                    throw WidgetKitError(.unknownControlSize, subject: words[1], detail: control.control.kind)
                }
                // One-shot, the value is asked for without being shown: `render` prints only what the control shows.
                if !serving { try control.load() }
                let view = control.render(size)
                if words.count == 4 { try write(view.svg(title: "\(control.control.kind) \(size.rawValue)"), to: words[3]) }
                return view.texts.joined(separator: "\n")
            case ("tap", 1), ("tap", 2):
                // Bad input writes nothing: an unconfigured control is refused before the process shows a value.
                if !serving { try control.ensureConfigured(); try control.start() }
                let result = try control.tap()
                return result.dialog ?? result.value ?? "Done."
            case ("configure", _):
                try control.configure(try IntentRegistry.arguments(words.dropFirst()))
                if !serving { try control.start() }
                return "configured \(control.control.kind)"
            case ("status", 1):
                return control.status()
            default:
                throw WidgetKitError(.usage, subject: words.joined(separator: " "), detail: usage)
            }
        }

        /// Writes a picture where `--svg` asked: through a symlink to its target, and never over a FIFO or a
        /// device, as every file the user names.
        private func write(_ svg: String, to path: String) throws {
            do { try AtomicFile.writeThrough(Array(svg.utf8), to: path) } catch {
                throw WidgetKitError(.unwritable, subject: path, detail: error.reason)
            }
        }
    }
}

/// Lines from stdin and wake-ups from notifications, for the main loop.
final class Inbox: @unchecked Sendable {  // @unchecked: guarded by `condition`.
    enum Item { case line(String), end, idle }
    private let condition = NSCondition()
    private var lines: [String] = []
    private var ended = false
    private var woken = false

    func push(_ line: String) { condition.withLock { lines.append(line); condition.signal() } }
    func close() { condition.withLock { ended = true; condition.signal() } }
    func wake() { condition.withLock { woken = true; condition.signal() } }
    /// Whether a line is waiting.
    var hasLines: Bool { condition.withLock { !lines.isEmpty } }

    /// The next line; `.idle` after a wake-up or `timeout` seconds; `.end` once stdin has ended and every line is taken.
    func next(timeout: Double) -> Item {
        condition.withLock {
            if lines.isEmpty && !ended && !woken { _ = condition.wait(until: Date(timeIntervalSinceNow: timeout)) }
            woken = false
            if !lines.isEmpty { return .line(lines.removeFirst()) }
            return ended ? .end : .idle
        }
    }
}
