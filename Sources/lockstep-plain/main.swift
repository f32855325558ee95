// A plain executable: no `SimulatedProcess.start`, no Lockstep entry point — code written as for iOS, with the
// Linux shim of <doc:YourOwnCode>. Launched by `lockstep run` as a bundle, it is that bundle from its first call.
import Foundation
import os.log
import UserNotifications
#if os(Linux)
@_exported import LockstepFoundation
typealias UserDefaults = LockstepFoundation.UserDefaults
typealias Bundle = LockstepFoundation.Bundle
#endif

let logger = Logger(subsystem: "com.example.plain", category: "probe")

/// One whole line on stdout, written at once (a pipe to `lockstep up` gets it without waiting for a buffer).
func say(_ line: String) { FileHandle.standardOutput.write(Data((line + "\n").utf8)) }

struct Usage: Error {}

func handle(_ arguments: [String]) async throws {
switch arguments.first {
case "write" where arguments.count == 4:
    guard let defaults = UserDefaults(suiteName: arguments[1]) else { say("no suite"); exit(1) }
    defaults.set(arguments[3], forKey: arguments[2])
    say("wrote \(arguments[2])")
case "read" where arguments.count == 3:
    say("read \(UserDefaults(suiteName: arguments[1])?.string(forKey: arguments[2]) ?? "nil")")
case "put-file" where arguments.count == 4:
    guard let container = FileManager.default.containerURL(forSecurityApplicationGroupIdentifier: arguments[1]) else {
        say("no container"); exit(1)
    }
    try Data(arguments[3].utf8).write(to: container.appendingPathComponent(arguments[2]), options: .atomic)
    say("put \(arguments[2])")
case "get-file" where arguments.count == 3:
    guard let container = FileManager.default.containerURL(forSecurityApplicationGroupIdentifier: arguments[1]) else {
        say("no container"); exit(1)
    }
    let data = (try? Data(contentsOf: container.appendingPathComponent(arguments[2]))) ?? Data("nil".utf8)
    say("got \(String(decoding: data, as: UTF8.self))")
case "info" where arguments.count == 2:
    let value = Bundle.main.object(forInfoDictionaryKey: arguments[1]).map { "\($0)" } ?? "nil"
    say("info \(Bundle.main.bundleIdentifier ?? "nil") \(arguments[1])=\(value)")
case "log":
    let name = "Walk"
    logger.notice("synced \(3) habits for \(name) and \(name, privacy: .public)")
    logger.error("failed: \(name, privacy: .private(mask: .hash))")
    logger.debug("debug \(true)")
    os_log("os_log %{public}@ %@ %d", log: OSLog(subsystem: "com.example.plain", category: "legacy"), type: .info, name, name, 7)
    say("logged")
case "notify-add" where arguments.count == 3:
    let center = UNUserNotificationCenter.current()
    let allowed = try await center.requestAuthorization(options: [.alert, .sound, .badge])
    center.setNotificationCategories([UNNotificationCategory(identifier: "REMINDER",
        actions: [UNNotificationAction(identifier: "DONE", title: "Done", options: [.foreground])], intentIdentifiers: [])])
    let content = UNMutableNotificationContent()
    content.title = arguments[2]
    content.sound = .default
    content.categoryIdentifier = "REMINDER"
    try await center.add(UNNotificationRequest(identifier: arguments[1], content: content,
                                               trigger: UNTimeIntervalNotificationTrigger(timeInterval: 3600, repeats: true)))
    say("scheduled \(arguments[1]) (\(allowed ? "allowed" : "not allowed"))")
case "notify-pending":
    let center = UNUserNotificationCenter.current()
    for request in await center.pendingNotificationRequests() {
        let interval = (request.trigger as? UNTimeIntervalNotificationTrigger)?.timeInterval ?? 0
        say("pending \(request.identifier): \(request.content.title) every \(Int(interval)) s, category \(request.content.categoryIdentifier)")
    }
    let categories = await center.notificationCategories()
    say("categories \(categories.map { "\($0.identifier)(\($0.actions.map(\.identifier).joined(separator: ",")))" }.sorted().joined(separator: " "))")
    say("status \(await center.notificationSettings().authorizationStatus == .authorized ? "authorized" : "not authorized")")
case "attach" where arguments.count == 2 || arguments.count == 3:
    var url = URL(fileURLWithPath: arguments[1])
    if arguments.count == 3, arguments[1] == "temp" {  // a file written in the temporary folder, as a download is
        url = FileManager.default.temporaryDirectory.appendingPathComponent(arguments[2])
        try Data("png".utf8).write(to: url)
    } else if arguments.count == 3, let container = FileManager.default.containerURL(forSecurityApplicationGroupIdentifier: arguments[1]) {
        url = container.appendingPathComponent(arguments[2])
    }
    do {
        let attachment = try UNNotificationAttachment(identifier: "a", url: url, options: nil)
        say("attached \(attachment.url.lastPathComponent)")
    } catch {
        say("refused: \(error.localizedDescription)")
    }
case "kvc" where arguments.count == 4:
    // Key-value coding's names, as code written for NSObject calls them.
    UserDefaults(suiteName: arguments[1])?.setValue(arguments[3], forKey: arguments[2])
    say("kvc \(UserDefaults(suiteName: arguments[1])?.value(forKey: arguments[2]).map { "\($0)" } ?? "nil")")
case "localized" where arguments.count == 2:
    let count = Int(arguments[1]) ?? 0
    say(String(localized: "\(count) habits left", comment: "How many habits are not done today."))
    say(String(localized: "greeting", defaultValue: "Hello, \(arguments[1])!", table: "Extra"))
    say(String(localized: "Not in any catalog: \(count)%"))
default:
    say("usage: lockstep-plain write SUITE KEY VALUE | read SUITE KEY | kvc SUITE KEY VALUE | localized COUNT | put-file GROUP NAME TEXT | get-file GROUP NAME | info KEY | log | notify-add ID TITLE | notify-pending | attach PATH | attach GROUP NAME | attach temp NAME")
    throw Usage()
}
}

// With arguments: one command. Without: a long-running bundle for `lockstep up` — a ready line, then one command per
// stdin line until stdin ends.
let arguments = Array(CommandLine.arguments.dropFirst())
if arguments.isEmpty {
    say("ready")
    while let line = readLine() {
        do { try await handle(line.split(separator: " ").map(String.init)) } catch {}
    }
} else {
    do { try await handle(arguments) } catch { exit(64) }
}
