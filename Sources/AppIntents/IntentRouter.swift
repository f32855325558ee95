import AppGroupKit
import Foundation
import LockstepSystem

/// The intents an app declares, by name.
public struct IntentRegistry: Sendable {
    public let intents: [any AppIntent.Type]

    public init(_ intents: [any AppIntent.Type]) { self.intents = intents }

    /// The intent type called `name`.
    public func type(named name: String) throws(IntentError) -> any AppIntent.Type {
        guard let type = intents.first(where: { $0.name == name }) else {
            throw IntentError(.unknownIntent, subject: name, detail: intents.map { $0.name }.joined(separator: ", "))
        }
        return type
    }

    /// The `--NAME VALUE` pairs after an intent's name on a command line, as resolution takes them.
    /// - Throws: `IntentError.usage` for a flag without a value or a word that is not a flag.
    public static func arguments(_ words: ArraySlice<String>) throws(IntentError) -> [String: String] {
        var parameters: [String: String] = [:]
        var rest = words
        while let flag = rest.popFirst() {
            guard flag.hasPrefix("--"), let value = rest.popFirst() else {
                throw IntentError(.usage, subject: flag, detail: "give parameters as --NAME VALUE")
            }
            parameters[String(flag.dropFirst(2))] = value
        }
        return parameters
    }

    /// Resolves and performs an intent in this process.
    public func perform(_ name: String, arguments: [String: String]) throws -> PerformedResult {
        try type(named: name).performResolved(arguments)
    }
}

/// Where an intent ran (rule `intent.where`).
public enum IntentExecutionTarget: String, Sendable {
    /// In the app's process: it was running and not suspended.
    case app
    /// In the App Intents extension's process: the app was not running (or suspended).
    case `extension`
}

/// Runs intents where iOS would (rule `intent.where`): in the app if it is running and not suspended, else in
/// the extension.
///
/// On disk (`<group container>/.lockstep/intents/`): the extension writes `requests/<id>.plist`
/// (`{intent, arguments: {name: text}, sentAt}`, atomically); the app takes it by renaming it into `taken/`,
/// performs it, and writes `responses/<id>.plist` (`{dialog?, value?, snippetTexts?, snippetSVG?, opens?,
/// opensArguments?}` or `{error, status}`). An extension that sees no taker within `claimTimeout` withdraws the
/// request (unlink) and performs the intent itself. After writing a request the extension posts the Darwin notification
/// `requestNotification`, which wakes the app at once.
public struct IntentRouter: Sendable {
    /// Posted (name only) after a request is written.
    public static let requestNotification = "com.lockstep.appintents.request"

    public let registry: IntentRegistry
    public let groupContainer: String
    public let appBundleIdentifier: String
    /// The device's Darwin center; nil: the app finds requests when it next looks.
    public let notifications: DarwinNotificationCenter?
    public var claimTimeout: Double = 2
    public var responseTimeout: Double = 10

    public init(registry: IntentRegistry, groupContainer: String, appBundleIdentifier: String,
                notifications: DarwinNotificationCenter? = nil) {
        self.registry = registry
        self.groupContainer = groupContainer
        self.appBundleIdentifier = appBundleIdentifier
        self.notifications = notifications
    }

    var directory: String { GroupsLayout.intents(container: groupContainer) }
    /// Requests from extensions to the app, and the app's answers.
    var mailbox: Mailbox {
        Mailbox(requests: GroupsLayout.intentRequests(container: groupContainer), responses: GroupsLayout.intentResponses(container: groupContainer))
    }

    /// Performs `name` in the right process.
    /// - Returns: the result and where it ran.
    public func perform(_ name: String, arguments: [String: String]) throws -> (PerformedResult, IntentExecutionTarget) {
        // Resolve here first: bad input fails the same way wherever the intent would have run.
        let type = try registry.type(named: name)
        _ = try type.resolve(arguments)
        let app = Presence.observe(directory: GroupsLayout.presence(container: groupContainer), bundleIdentifier: appBundleIdentifier)
        if app.isRunning && !app.isSuspended, let result = try forward(name, arguments: arguments) {
            return (result, .app)
        }
        // rule `intent.where`: an intent that opens its app never runs in an extension (Apple: "Setting this
        // property to true generates an error if the app intent runs in an app extension").
        guard !type.openAppWhenRun else {
            throw IntentError(.needsApp, subject: name, detail: appBundleIdentifier)
        }
        return (try registry.perform(name, arguments: arguments), .extension)
    }

    /// Hands the intent to the running app; nil when the app did not take it in time.
    private func forward(_ name: String, arguments: [String: String]) throws -> PerformedResult? {
        let id = "\(Int(Date().timeIntervalSince1970 * 1_000_000))-\(ProcessEnvironment.processID)"
        let mailbox = mailbox
        try SharedWriteGate.check()
        // Watch for the response before the request exists, so an answer can never slip past unseen.
        let watcher: DirectoryWatcher
        do {
            try mailbox.prepare()
            watcher = try DirectoryWatcher(directories: [mailbox.responses, mailbox.requests])
        } catch {
            throw IntentError(.transport, subject: directory, detail: "\(error)")
        }
        do {
            let fields: [String: Any] = ["intent": name, "arguments": arguments, "sentAt": Date().timeIntervalSince1970]
            // Strings and a number: always a property list (PropertyList writes it however Foundation is linked).
            try mailbox.post(Array(PropertyList.data(fields, format: .xml) ?? Data()), id: id)
            try notifications?.post(Self.requestNotification)
        } catch {
            throw IntentError(.transport, subject: "\(mailbox.requests)/\(id).plist", detail: "\(error)")
        }
        let claimDeadline = Monotonic.now + claimTimeout
        let deadline = Monotonic.now + responseTimeout
        while true {
            if let bytes = (try? mailbox.takeResponse(id)) ?? nil, !BinaryPropertyList.containsSet(bytes),  // Foundation would crash on a set
               let fields = (try? PropertyListSerialization.propertyList(from: Data(bytes), format: nil)) as? [String: Any] {
                if let message = fields["error"] as? String {
                    throw IntentError(.failedElsewhere(status: Int32(fields["status"] as? Int ?? 1)), subject: message)
                }
                let snippet = (fields["snippetTexts"] as? [String]).map { RenderedSnippet(texts: $0, svg: fields["snippetSVG"] as? String ?? "") }
                let opens = (fields["opens"] as? String).map { OpenedIntentRequest(name: $0, arguments: fields["opensArguments"] as? [String: String] ?? [:]) }
                return PerformedResult(dialog: fields["dialog"] as? String, value: fields["value"] as? String, snippet: snippet, opens: opens)
            }
            // Not taken in time: withdraw it; if the unlink fails, the app took it just now, so keep waiting.
            if Monotonic.now >= claimDeadline && mailbox.withdraw(id) { return nil }
            if Monotonic.now >= deadline {
                throw IntentError(.transport, subject: "\(mailbox.responses)/\(id).plist", detail: "the app took the request but did not answer within \(Int(responseTimeout)) s")
            }
            // Woken by the response (or the app taking the request); bounded by the nearer deadline.
            let now = Monotonic.now
            _ = watcher.wait(timeout: max(0.001, (now < claimDeadline ? claimDeadline : deadline) - now))
        }
    }

    /// In the app: serves requests on a background thread for the rest of the process, woken by
    /// `requestNotification` and looking every `pollInterval` seconds in case a post was missed.
    /// - Parameter performed: told about each intent performed here (name, result line, latency in ms).
    public func serveContinuously(pollInterval: Double = 0.05, performed: @escaping @Sendable (String, String, Int) -> Void) throws {
        let wakeup = WakeUp()
        let observation = try notifications?.observe(Self.requestNotification) { _ in wakeup.signal() }
        Thread.detachNewThread {
            withExtendedLifetime(observation) {
                while true {
                    serve(performed: performed)
                    wakeup.wait(timeout: pollInterval)
                }
            }
        }
    }

    /// In the app: takes and performs pending requests, one pass.
    /// - Parameter performed: told about each intent performed here (name, result line, latency in ms).
    public func serve(performed: (String, String, Int) -> Void) {
        let mailbox = mailbox
        for id in mailbox.pending() {
            // Claimed by a rename into the app's own folder: a second serving process never performs it twice.
            guard let bytes = mailbox.take(id, claimingInto: GroupsLayout.intentsTaken(container: groupContainer)), !BinaryPropertyList.containsSet(bytes),  // Foundation would crash on a set
                  let fields = (try? PropertyListSerialization.propertyList(from: Data(bytes), format: nil)) as? [String: Any],
                  let intent = fields["intent"] as? String else { continue }
            let arguments = fields["arguments"] as? [String: String] ?? [:]
            var answer: [String: Any] = [:]
            do {
                let result = try registry.perform(intent, arguments: arguments)
                if let dialog = result.dialog { answer["dialog"] = dialog }
                if let value = result.value { answer["value"] = value }
                if let snippet = result.snippet {
                    answer["snippetTexts"] = snippet.texts
                    answer["snippetSVG"] = snippet.svg
                }
                if let opens = result.opens {
                    answer["opens"] = opens.name
                    answer["opensArguments"] = opens.arguments
                }
            } catch {
                answer["error"] = (error as? any ReportableError)?.description ?? "\(error)"
                answer["status"] = Int((error as? any ReportableError)?.exitStatus.rawValue ?? 1)
            }
            try? AtomicFile.createDirectories(mailbox.responses)
            if let data = PropertyList.data(answer, format: .xml) {
                try? mailbox.respond(Array(data), to: id)
            }
            let latency = Int(((Date().timeIntervalSince1970 - (fields["sentAt"] as? Double ?? 0)) * 1000).rounded())
            performed(intent, (answer["dialog"] as? String) ?? (answer["error"] as? String) ?? "done", latency)
        }
    }
}

/// A wake-up flag a notification handler sets and a serving loop waits on (bounded).
final class WakeUp: @unchecked Sendable {  // @unchecked: guarded by `condition`.
    private let condition = NSCondition()
    private var woken = false

    func signal() {
        condition.withLock { woken = true; condition.signal() }
    }

    func wait(timeout: Double) {
        condition.withLock {
            if !woken { _ = condition.wait(until: Date(timeIntervalSinceNow: timeout)) }
            woken = false
        }
    }
}
