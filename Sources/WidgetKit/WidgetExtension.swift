import AppGroupKit
import AppIntents
import Foundation
import LockstepRuntime
import LockstepSystem

/// Hosts your own timeline provider as a simulated widget extension process, so that a package adds one
/// Linux-only executable per widget extension and points a manifest's `executable` at it:
///
/// ```swift
/// // Sources/HabitsWidgetExtension/main.swift
/// import WidgetKit
/// import HabitsShared   // your shared module: the provider and its entry, unchanged from iOS
///
/// WidgetExtension.main(kind: "HabitsWidget", provider: HabitsProvider(), supportedFamilies: [.systemSmall, .systemMedium]) { entry, family in
///     ["\(entry.done)/\(entry.total) done"]   // the text Lockstep draws where iOS draws your SwiftUI view
/// }
/// ```
///
/// `lockstep up`, `run` and `verify` then treat it as they treat the Habits widget: it starts as the manifest's
/// widget bundle (the version gate, RULES.md `runtime.version-parity`), prints its ready line, serves timelines
/// under the daily budget, reloads when the app asks (`WidgetCenter.shared.reloadTimelines(ofKind:)`), and stops when
/// its stdin ends. Commands on stdin: `render FAMILY`, `placeholder FAMILY`, `status`, `quit`. Arguments:
/// `render --family F` (one snapshot on stdout), `placeholder --family F`, `status`.
public enum WidgetExtension {
    /// The entry point of a widget extension executable: runs `provider` as widget `kind`, then exits with the
    /// documented status (0; 2 or 64 for bad arguments; 77 without an App Group shared with the app; 78 for a
    /// version mismatch or a stale build). Like swift-argument-parser's `main()`, it is the one place that exits.
    /// - Parameter intents: the intents the widget's buttons and toggles run (`Button(intent:)`): `tap INTENT
    ///   --PARAMETER VALUE…` performs one in this process, then the widget reloads, budget-free (RULES.md
    ///   `widget.interactive`); an `openAppWhenRun` intent is handed to the app.
    public static func main<Provider: TimelineProvider>(
        kind: String, provider: Provider, supportedFamilies: [WidgetFamily] = [.systemSmall, .systemMedium, .systemLarge],
        intents: [any AppIntent.Type] = [], arguments: [String] = Array(CommandLine.arguments.dropFirst()),
        view: @escaping (Provider.Entry, WidgetFamily) -> [String]
    ) -> Never {
        entryPoint {
            try run(HostedWidget(kind: kind, provider: provider, supportedFamilies: supportedFamilies, render: view),
                    intents: intents, configure: nil, arguments: arguments)
        }
    }

    /// A configurable widget (`AppIntentConfiguration`): its `AppIntentTimelineProvider` is served the instance's
    /// `WidgetConfigurationIntent`, made from `configuration` (`--PARAMETER VALUE` text, the intent's defaults for the
    /// rest); `configure --PARAMETER VALUE…` changes it and reloads, budget-free (RULES.md `widget.configurable`).
    public static func main<Provider: AppIntentTimelineProvider>(
        kind: String, provider: Provider, supportedFamilies: [WidgetFamily] = [.systemSmall, .systemMedium, .systemLarge],
        configuration: [String: String] = [:], intents: [any AppIntent.Type] = [],
        arguments: [String] = Array(CommandLine.arguments.dropFirst()),
        view: @escaping (Provider.Entry, WidgetFamily) -> [String]
    ) -> Never {
        entryPoint {
            let configured = ConfiguredProvider(provider: provider, settings: .init(configuration))
            _ = try configured.configuration()  // a configuration the intent cannot take is refused at start
            try run(HostedWidget(kind: kind, provider: configured, supportedFamilies: supportedFamilies, render: view),
                    intents: intents, configure: { settings in
                        let previous = configured.settings.current
                        configured.settings.set(settings)
                        do { _ = try configured.configuration() } catch { configured.settings.set(previous); throw error }
                    }, arguments: arguments)
        }
    }

    private static func entryPoint(_ body: () throws -> Void) -> Never {
        Standard.setUp()
        // A stale build found on a watcher thread ends this process, as iOS ends it (RULES.md runtime.stale).
        ProcessStop.install { exit(withError: $0) }
        do {
            try body()
            exit(.success)
        } catch {
            exit(withError: error)
        }
    }

    static func run<W: Widget>(_ widget: W, intents: [any AppIntent.Type], configure: (([String: String]) throws -> Void)?,
                               arguments: [String]) throws {
        var usage = "render FAMILY | placeholder FAMILY | status"
        if !intents.isEmpty { usage += " | tap INTENT [--PARAMETER VALUE]…" }
        if configure != nil { usage += " | configure [--PARAMETER VALUE]…" }
        usage += " | quit"
        if arguments.first == "--help" {
            print("usage: \(Program.name) [render --family F | placeholder --family F | status]\n  stdin commands: \(usage)")
            return
        }
        guard let process = try SimulatedProcess.start(defaultRole: .widget) else { return }  // `up`'s launch check
        let sandbox = try process.sandbox()
        let identifier = process.bundle.bundleIdentifier ?? process.bundle.name
        // The group this widget shares with its app: where the app's data and its reload requests are.
        guard let group = process.bundle.appGroups.first(where: process.manifest.app.appGroups.contains),
              let container = try sandbox.groupContainer(group) else {
            throw WidgetKitError(.noSharedGroup, subject: identifier,
                                 detail: "give both the same group in their com.apple.security.application-groups (the manifest's appGroups)")
        }
        let system = WidgetSystem(widget: widget, groupsRoot: process.groupsRoot, groupContainer: container.path,
                                  hostBundleIdentifier: process.manifest.app.bundleIdentifier ?? process.manifest.app.name,
                                  notifications: try? DarwinNotificationCenter(sandbox: sandbox), output: { print($0) })
        func family(_ name: String) throws -> WidgetFamily {
            let family = try WidgetFamily(parsing: name)
            guard widget.supportedFamilies.contains(family) else {
                throw WidgetKitError(.unknownFamily, subject: name, detail: widget.supportedFamilies.map(\.rawValue).joined(separator: ", "))
            }
            return family
        }
        let router = IntentRouter(registry: IntentRegistry(intents), groupContainer: container.path,
                                  appBundleIdentifier: process.manifest.app.bundleIdentifier ?? process.manifest.app.name,
                                  notifications: try? DarwinNotificationCenter(sandbox: sandbox))
        func execute(_ words: [String]) throws -> String {
            switch (words.first ?? "", words.count) {
            case ("render", 2): return system.render(family: try family(words[1])).joined(separator: "\n")
            case ("placeholder", 2): return system.placeholder(family: try family(words[1])).joined(separator: "\n")
            case ("status", 1): return system.status()
            case ("tap", 2...) where !intents.isEmpty:
                let result = try system.tap(words[1], arguments: try IntentRegistry.arguments(words.dropFirst(2)), router: router)
                return result.dialog ?? result.value ?? "Done."
            case ("configure", _) where configure != nil:
                try configure!(try IntentRegistry.arguments(words.dropFirst()))
                try system.reload(.configuration)
                return "configured \(widget.kind)"
            default: throw WidgetKitError(.usage, subject: words.joined(separator: " "), detail: usage)
            }
        }
        switch (arguments.first, arguments.count) {
        case (nil, _):
            try system.start()
            print("ready \(identifier): \(system.status())")
            try CommandInput.serve(execute)
        case ("render", 3) where arguments[1] == "--family":
            print(try system.snapshot(family: try family(arguments[2])).joined(separator: "\n"))
        case ("placeholder", 3) where arguments[1] == "--family", ("status", 1):
            print(try execute([arguments[0]] + arguments.dropFirst(2)))
        case ("tap", 2...) where !intents.isEmpty:
            // One tap, then the renders in the group container are the reloaded widget's.
            print(try execute(arguments))
        default:
            throw WidgetKitError(.usage, subject: arguments.joined(separator: " "), detail: "render --family F, placeholder --family F, status\(intents.isEmpty ? "" : " or tap INTENT [--PARAMETER VALUE]…")")
        }
    }
}

/// A widget made of `WidgetExtension.main`'s arguments.
struct HostedWidget<Provider: TimelineProvider>: Widget {
    let kind: String
    let provider: Provider
    let supportedFamilies: [WidgetFamily]
    let render: (Provider.Entry, WidgetFamily) -> [String]

    func view(_ entry: Provider.Entry, family: WidgetFamily) -> [String] { render(entry, family) }
}
