// A plain executable: no `SimulatedProcess.start`, no Lockstep entry point — code written as for iOS, with the
// README's Linux block. Launched by `lockstep run` as a bundle, it is that bundle from its first call.
import Foundation
import os.log
#if os(Linux)
@_exported import LockstepFoundation
typealias UserDefaults = LockstepFoundation.UserDefaults
typealias Bundle = LockstepFoundation.Bundle
#endif

let logger = Logger(subsystem: "com.example.plain", category: "probe")
let arguments = Array(CommandLine.arguments.dropFirst())

func say(_ line: String) { print(line) }  // one command per run: exit flushes stdout

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
default:
    say("usage: lockstep-plain write SUITE KEY VALUE | read SUITE KEY | put-file GROUP NAME TEXT | get-file GROUP NAME | info KEY | log")
    exit(64)
}
