import AppGroupKit
import Foundation
import LockstepRuntime
import LockstepSystem
import Synchronization

/// An App Intents extension, declared as on iOS: `@main struct HabitsIntentsExtension: AppIntentsExtension {}`.
///
/// Its `main()` runs the process as the simulated App Intents extension (`AppIntentsProcess.main`), with every
/// `AppIntent` and `AppShortcutsProvider` the executable was linked with, as Apple's build step lists the intents of
/// the extension and the frameworks it links: Lockstep reads them from the Swift runtime's conformance records
/// (`LinkerSection.conformingTypes`). Generic intent types, which iOS does not list either, are left out.
public protocol AppIntentsExtension {
    init()
}

extension AppIntentsExtension {
    /// The `@main` entry point: the extension process with every intent and App Shortcuts provider linked in.
    public static func main() {
        AppIntentsProcess.main(intents: AppIntentsProcess.linkedIntents, shortcuts: AppIntentsProcess.linkedShortcuts.first)
    }
}

/// Hosts your own intents as a simulated App Intents extension process, and lets your app run them too, where
/// iOS would run them (rule `intent.where`): in the app while it runs and is not suspended, else in the
/// extension; an `openAppWhenRun` intent only in the app. `@main struct X: AppIntentsExtension {}` calls it with the
/// intents linked in; call it yourself to name them:
///
/// ```swift
/// // Sources/HabitsIntentsExtension/main.swift
/// import AppIntents
/// import HabitsShared
///
/// AppIntentsProcess.main(intents: [CompleteHabitIntent.self, AddHabitIntent.self], shortcuts: HabitsShortcuts.self)
/// ```
///
/// Arguments: `list`, `shortcuts`, `options INTENT PARAMETER`, `perform INTENT [--PARAMETER VALUE]…`; with none it
/// serves those commands on stdin until stdin ends.
public enum AppIntentsProcess {
    /// Every `AppIntent` type this executable was linked with (its own and its modules'), in link order.
    public static var linkedIntents: [any AppIntent.Type] {
        // The system's own intents (OpenURLIntent) are not the app's, as iOS does not list them among its actions.
        LinkerSection.conformingTypes(to: "AppIntent", in: "AppIntents").compactMap { $0 as? any AppIntent.Type }
            .filter { !String(reflecting: $0).hasPrefix("AppIntents.") }
    }

    /// Every `AppShortcutsProvider` this executable was linked with; iOS allows one per app.
    public static var linkedShortcuts: [any AppShortcutsProvider.Type] {
        LinkerSection.conformingTypes(to: "AppShortcutsProvider", in: "AppIntents").compactMap { $0 as? any AppShortcutsProvider.Type }
    }

    /// The entry point of an App Intents extension executable; like swift-argument-parser's `main()`, the one place
    /// that exits (0; 2 or 64 for a bad intent or parameter; 69 for an `openAppWhenRun` intent while the app is not
    /// running; 78 for a version mismatch or a stale build; an intent's own error, 1).
    public static func main(intents: [any AppIntent.Type], shortcuts: (any AppShortcutsProvider.Type)? = nil,
                            arguments: [String] = Array(CommandLine.arguments.dropFirst())) -> Never {
        SimulatedProcess.main(role: .intent, usage: nil, arguments: arguments) { process, arguments in
            let host = try IntentsHost(process: process, registry: IntentRegistry(intents), shortcuts: shortcuts)
            if arguments.isEmpty {
                print("ready \(process.bundle.bundleIdentifier ?? process.bundle.name)")
                // Each command is one request of the system's: iOS suspends the extension once it has returned.
                try CommandInput.serve(workReturned: { "after " + $0.prefix(2).joined(separator: " ") }) { try host.run($0) }
            } else {
                print(try host.run(arguments))
            }
        }
    }

    /// In the app: announces it as running and serves the intents the extension hands it, on a background thread,
    /// for the rest of the process (call it where the app starts, e.g. `AppProcess.main(onStart:)`). An app that
    /// claims no App Group is warned on stderr and serves nothing: its extension runs every intent.
    /// - Parameter performed: told about each intent performed here (name, dialog, latency in ms); prints a line by
    ///   default.
    public static func serveInApp(intents: [any AppIntent.Type] = linkedIntents,
                                  performed: @escaping @Sendable (String, String, Int) -> Void = { print("intent \($0) performed in the app (\($2) ms): \($1)") }) throws {
        guard let process = SimulatedProcess.current else {
            throw IntentError(.transport, subject: "the app", detail: "this code runs in no simulated process")
        }
        let sandbox = try process.sandbox()
        guard let group = process.bundle.appGroups.first, let container = try sandbox.groupContainer(group) else {
            // The app still runs; its extension performs every intent itself (and refuses those that open the app).
            Standard.error("\(Program.name): warning: \(process.bundle.bundleIdentifier ?? process.bundle.name) claims no App Group, which intents reach the app through: the intents extension runs them all [intent.where].")
            return
        }
        let identifier = sandbox.identity.bundleIdentifier
        let presence = try Presence(directory: GroupsLayout.presence(container: container.path), bundleIdentifier: identifier, state: .foreground)
        appPresence.withLock { $0 = presence }
        let router = IntentRouter(registry: IntentRegistry(intents), groupContainer: container.path, appBundleIdentifier: identifier,
                                  notifications: try? DarwinNotificationCenter(sandbox: sandbox))
        try router.serveContinuously(performed: performed)
    }

    /// The app's presence, held for the rest of the process.
    private static let appPresence = Mutex<Presence?>(nil)
}

/// The extension's side: its router to the app, or none when it shares no group with the app.
struct IntentsHost {
    let registry: IntentRegistry
    let router: IntentRouter?
    let shortcuts: (any AppShortcutsProvider.Type)?
    let appName: String
}

extension IntentsHost {
    init(process: SimulatedProcess, registry: IntentRegistry, shortcuts: (any AppShortcutsProvider.Type)?) throws {
        self.registry = registry
        self.shortcuts = shortcuts
        appName = process.manifest.app.name
        let sandbox = try process.sandbox()
        let app = process.manifest.app
        if let group = process.bundle.appGroups.first(where: app.appGroups.contains), let container = try sandbox.groupContainer(group) {
            router = IntentRouter(registry: registry, groupContainer: container.path, appBundleIdentifier: app.bundleIdentifier ?? app.name,
                                  notifications: try? DarwinNotificationCenter(sandbox: sandbox))
        } else {
            router = nil
        }
    }

    /// One command: its output lines.
    func run(_ words: [String]) throws -> String {
        switch words.first {
        case "list":
            return registry.intents.map { intent in
                let parameters = intent.parameters.map { $0.isRequired ? "--\($0.name) <\($0.typeName)>" : "[--\($0.name) <\($0.typeName)>]" }
                let summary = intent.summaryText.map { "\n  summary: \($0)" } ?? ""
                return ([intent.name] + parameters).joined(separator: " ") + "  — \(intent.description.map { "\($0)" } ?? "\(intent.title)")" + summary
            }.joined(separator: "\n")
        case "shortcuts":
            let all = shortcuts?.appShortcuts ?? []
            // Apple refuses such a phrase at build time; Lockstep says so when the shortcuts are listed.
            if let bad = all.flatMap(\.invalidPhrases).first {
                throw IntentError(.invalidParameter, subject: bad, detail: "every App Shortcut phrase names the app once, with \\(.applicationName)")
            }
            return try all.flatMap { shortcut in
                try shortcut.spokenPhrases(applicationName: appName).map { spoken in
                    "\"\(spoken.phrase)\" → " + ([shortcut.intentName] + spoken.arguments).joined(separator: " ")
                }
            }.joined(separator: "\n")
        case "options" where words.count == 3:
            // What the Shortcuts app or a widget's configuration offers for the parameter.
            let type = try registry.type(named: words[1])
            return try type.optionLines(for: words[2]).joined(separator: "\n")
        case "perform" where words.count >= 2:
            var parameters = try IntentRegistry.arguments(words.dropFirst(2))
            // Not a parameter (no Swift property has a dash): where to draw the result's snippet. Checked before the
            // intent runs, so a bad request performs nothing.
            let snippetFile = parameters.removeValue(forKey: "snippet-svg")
            if let snippetFile {
                guard try registry.type(named: words[1]).showsSnippet else {
                    throw IntentError(.invalidParameter, subject: snippetFile, detail: "\(words[1])'s result shows no snippet, so there is nothing to draw")
                }
                guard FileManager.default.fileExists(atPath: AtomicFile.parentDirectory(of: snippetFile)) else {
                    throw IntentError(.invalidParameter, subject: snippetFile, detail: "its folder does not exist")
                }
            }
            let started = Monotonic.now
            let (result, target) = try router?.perform(words[1], arguments: parameters) ?? (try locally(words[1], parameters), .extension)
            let milliseconds = Int(((Monotonic.now - started) * 1000).rounded())
            var lines = [result.dialog ?? result.value ?? "Done."]
            if let snippet = result.snippet {
                lines.append("snippet: " + snippet.texts.joined(separator: " · "))
                if let snippetFile {
                    try AtomicFile.write(Array(snippet.svg.utf8), to: snippetFile)
                    lines.append("snippet drawn: \(snippetFile)")
                }
            }
            lines.append(target == .app ? "(performed in the app process; \(milliseconds) ms)" : "(performed in the extension process; \(milliseconds) ms)")
            if let opens = result.opens { lines.append(try open(opens)) }
            return lines.joined(separator: "\n")
        default:
            throw IntentError(.usage, subject: words.joined(separator: " "), detail: "list, shortcuts, options INTENT PARAMETER or perform INTENT [--PARAMETER VALUE]…")
        }
    }

    /// Runs the intent a result opened, as the system does next: a URL opens the app at it; another intent of the
    /// app's runs where iOS would run it (its own result's further openings are reported, not followed).
    private func open(_ opened: OpenedIntentRequest) throws -> String {
        if opened.name == OpenURLIntent.name {
            return "opens \(opened.arguments["url"] ?? "a URL") in \(appName)"
        }
        let (result, target) = try router?.perform(opened.name, arguments: opened.arguments) ?? (try locally(opened.name, opened.arguments), .extension)
        let arguments = opened.arguments.sorted { $0.key < $1.key }.map { "--\($0.key) \($0.value)" }
        return (["opens", opened.name] + arguments).joined(separator: " ") + ": " + (result.dialog ?? result.value ?? "Done.")
            + (target == .app ? " (performed in the app process)" : " (performed in the extension process)")
    }

    /// With no group shared with the app, the extension cannot hand anything to it: it performs here.
    private func locally(_ name: String, _ parameters: [String: String]) throws -> PerformedResult {
        let type = try registry.type(named: name)
        guard !type.openAppWhenRun else { throw IntentError(.needsApp, subject: name, detail: "the app") }
        return try registry.perform(name, arguments: parameters)
    }
}
