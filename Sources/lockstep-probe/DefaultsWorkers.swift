import AppGroupKit
import Foundation
import LockstepSystem

/// Workers the fault tests (Tests/AppGroupKitTests/GroupDefaultsFaultTests) start: one long-lived `GroupDefaults`
/// driven line by line, and an observer, both on a suite of a bundle's own choosing (`GROUPS BUNDLE GROUP`).
enum DefaultsWorkers {
    /// The suite `group` as `bundle`, entitled to it, under `groupsRoot`.
    static func suite(_ arguments: [String]) throws -> GroupDefaults {
        guard arguments.count == 3 else { throw ProbeError("lockstep-probe __worker: give GROUPS BUNDLE GROUP.") }
        let sandbox = try Sandbox(root: GroupsRoot(path: arguments[0]),
                                  identity: ProcessIdentity(bundleIdentifier: arguments[1], appGroups: [arguments[2]]))
        guard let defaults = try GroupDefaults(suiteName: arguments[2], sandbox: sandbox) else {
            throw ProbeError("GroupDefaults refused the suite \(arguments[2]).")
        }
        return defaults
    }

    /// `defaults-session GROUPS BUNDLE GROUP`: one command per stdin line, each answered with one line starting
    /// `= ` — `set KEY BYTES` (a string of BYTES letters) and `increment KEY` print `= ok VALUE-OR-BYTES`,
    /// `read KEY` prints `= ok VALUE` (a string's length) or `= ok none`, `sync KEY` synchronizes (a flush point of
    /// realistic device timing) and prints `= ok synchronized`, and any failure `= failed STATUS SENTENCE`.
    /// The process lives on after a failure.
    static func session(_ arguments: [String]) throws {
        let defaults = try suite(arguments)
        print("ready")
        while let line = readLine() {
            let words = line.split(separator: " ").map(String.init)
            guard words.count >= 2 else { continue }
            do {
                switch words[0] {
                case "set":
                    let bytes = words.count > 2 ? Int(words[2]) ?? 1 : 1
                    try defaults.set(String(repeating: "v", count: bytes), forKey: words[1])
                    print("= ok \(bytes)")
                case "increment": print("= ok \(try defaults.increment(words[1]))")
                case "sync":
                    try defaults.synchronize()
                    print("= ok synchronized")
                default:
                    let value = try defaults.value(forKey: words[1])
                    print("= ok \(value.map { ($0 as? String)?.count ?? $0 as? Int ?? -1 }.map(String.init) ?? "none")")
                }
            } catch let error as any ReportableError {
                print("= failed \(error.exitStatus.rawValue) \(error.description)")
            }
        }
    }

    /// `observe GROUPS BUNDLE GROUP`: prints `ready`, then `changed KEY` for every key another process changes.
    static func observe(_ arguments: [String]) throws {
        let defaults = try suite(arguments)
        let observation = try defaults.observe { changes in
            for change in changes { print("changed \(change.key)") }
        }
        print("ready")
        while readLine() != nil {}
        observation.cancel()
    }
}
