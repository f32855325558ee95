import Foundation
import LockstepRuntime
import LockstepSystem

/// Hosts your own `UNNotificationServiceExtension` subclass as a simulated notification service extension: each
/// `deliver PAYLOAD` (a push payload's JSON, as an argument or a stdin line) is a remote notification arriving
/// (rule `notification.service`).
///
/// ```swift
/// // Sources/HabitsNotificationService/main.swift
/// import UserNotifications
/// import HabitsShared
///
/// NotificationServiceExtension.main(service: NotificationService())
/// ```
///
/// Only a payload with `"mutable-content": 1` in `aps` reaches the service; it has the time limit
/// (`LOCKSTEP_NOTIFICATION_TIMEOUT`, default 30 s: Apple says "about 30 seconds") to call its content handler. Shortly
/// before the limit `serviceExtensionTimeWillExpire()` is called; if no content has come by the limit, the original
/// content is shown. Each delivery prints the line the device would show: `shown: TITLE — BODY (…)`.
public enum NotificationServiceExtension {
    /// The entry point of a notification service extension executable; like swift-argument-parser's `main()`, the one
    /// place that exits (0; 2 for a payload that is not JSON; 78 for a version mismatch or a stale build).
    /// - Parameter service: makes the principal object, once per notification (iOS makes it from
    ///   `NSExtensionPrincipalClass`).
    public static func main(service: @autoclosure @escaping () -> UNNotificationServiceExtension,
                            arguments: [String] = Array(CommandLine.arguments.dropFirst())) -> Never {
        let usage = "\(Program.name) [deliver 'PAYLOAD-JSON']\n  stdin commands: deliver 'PAYLOAD-JSON' | quit"
        DeviceNetwork.install()
        SimulatedProcess.main(role: .notification, usage: usage, arguments: arguments) { process, arguments in
            if arguments.isEmpty {
                print("ready \(process.bundle.bundleIdentifier ?? process.bundle.name)")
                // iOS suspends the service once its content handler was called or its time ran out.
                try CommandInput.serve(workReturned: { "after " + ($0.first ?? "") }, split: commandWords) { words in try deliver(words, service: service) }
            } else {
                print(try deliver(arguments, service: service))
            }
        }
    }

    /// A stdin line as words: the command, then the rest of the line as one word, in single quotes or not — a JSON
    /// payload's own double quotes and blanks are its, not the line protocol's.
    static func commandWords(_ line: String) -> [String] {
        let trimmed = line.trimmingCharacters(in: .whitespaces)
        guard let blank = trimmed.firstIndex(where: \.isWhitespace) else { return trimmed.isEmpty ? [] : [trimmed] }
        var rest = trimmed[blank...].trimmingCharacters(in: .whitespaces)
        if rest.count >= 2, rest.hasPrefix("'"), rest.hasSuffix("'") { rest = String(rest.dropFirst().dropLast()) }
        return [String(trimmed[..<blank]), rest]
    }

    static func deliver(_ words: [String], service: () -> UNNotificationServiceExtension) throws -> String {
        guard words.first == "deliver", words.count == 2 else {
            throw NotificationError(.notANotification, subject: words.joined(separator: " "), detail: "give deliver 'PAYLOAD-JSON'")
        }
        let (request, mutable) = try request(from: words[1])
        guard mutable else {
            return "shown: \(request.content.shownText) (the original content: the payload has no \"mutable-content\": 1)"
        }
        DeviceNetwork.loadNetworking()  // the service may fetch an attachment from here on
        return Self.serve(request, with: service(), timeout: timeLimit)
    }

    /// The time a service has; `LOCKSTEP_NOTIFICATION_TIMEOUT` overrides Apple's "about 30 seconds".
    static var timeLimit: Double {
        ProcessEnvironment.value("LOCKSTEP_NOTIFICATION_TIMEOUT").flatMap(Double.init).map { max(0.05, $0) } ?? 30
    }

    /// Runs the service on a thread of its own and shows what it delivers in time, else the original content.
    static func serve(_ request: UNNotificationRequest, with service: UNNotificationServiceExtension, timeout: Double) -> String {
        // The first content delivered is kept, as a copy: the service cannot change it afterwards.
        let delivered = Handoff<UNNotificationContent>()
        let started = Monotonic.now
        nonisolated(unsafe) let work = (service: service, request: request)
        Thread.detachNewThread {
            work.service.didReceive(work.request) { delivered.set($0.copy() as! UNNotificationContent) }
        }
        // Apple: "shortly before" the limit the extension is told to deliver its best attempt.
        let warning = max(0, timeout - min(1, timeout / 10))
        if delivered.wait(timeout: warning - (Monotonic.now - started)) == nil {
            work.service.serviceExtensionTimeWillExpire()
        }
        let milliseconds = { Int(((Monotonic.now - started) * 1000).rounded()) }
        guard let content = delivered.wait(timeout: timeout - (Monotonic.now - started)) else {
            return "shown: \(request.content.shownText) (the original content: the service extension did not deliver within \(format(timeout)) s)"
        }
        let offline = DeviceNetwork.isOffline ? "; the device is offline: \(DeviceNetwork.offlineVariable)=1" : ""
        return "shown: \(content.shownText) (from the service extension, \(milliseconds()) ms\(offline))"
    }

    static func format(_ seconds: Double) -> String {
        seconds == seconds.rounded() ? String(Int(seconds)) : String(seconds)
    }

    /// The request a push payload makes: `aps.alert` (a string or `{title, subtitle, body}`), `aps.badge`,
    /// `aps.thread-id`, `aps.category`, the other keys as `userInfo`; and whether `aps.mutable-content` is 1.
    static func request(from json: String) throws -> (UNNotificationRequest, mutable: Bool) {
        guard let payload = (try? JSONSerialization.jsonObject(with: Data(json.utf8))) as? [String: Any],
              let aps = payload["aps"] as? [String: Any] else {
            throw NotificationError(.notANotification, subject: json, detail: "a push payload is a JSON object with an \"aps\" object")
        }
        let content = UNMutableNotificationContent()
        if let alert = aps["alert"] as? String {
            content.body = alert
        } else if let alert = aps["alert"] as? [String: Any] {
            content.title = alert["title"] as? String ?? ""
            content.subtitle = alert["subtitle"] as? String ?? ""
            content.body = alert["body"] as? String ?? ""
        }
        content.badge = (aps["badge"] as? Int).map { NSNumber(value: $0) }
        content.threadIdentifier = aps["thread-id"] as? String ?? ""
        content.categoryIdentifier = aps["category"] as? String ?? ""
        var userInfo: [AnyHashable: Any] = [:]
        for (key, value) in payload where key != "aps" { userInfo[key] = value }
        content.userInfo = userInfo
        let original = content.copy() as! UNNotificationContent
        return (UNNotificationRequest(identifier: UUID().uuidString, content: original), (aps["mutable-content"] as? Int) == 1)
    }
}

/// A payload or command the notification service extension cannot take: one sentence naming it (`subject`).
public typealias NotificationError = CodedError<NotificationErrorCode>

/// What a `NotificationError` is.
public enum NotificationErrorCode: ErrorCode {
    /// Words that are no `deliver 'PAYLOAD-JSON'`, or a payload that is no push payload (exit 2).
    case notANotification

    public func sentence(subject: String, detail: String) -> String {
        "'\(subject)' is not a notification to deliver: \(detail)."
    }

    public var exitStatus: ExitStatus { .invalidInput }
}
