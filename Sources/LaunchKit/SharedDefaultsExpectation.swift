import AppGroupKit
import BundleKit
import LockstepRuntime
import LockstepSystem

/// The scenario step `expect ROLE sees KEY = VALUE [in SUITE] within DURATION`: what a read of the shared store by
/// the bundle finds, polled until the deadline. Under realistic device timing (rule `defaults.device-flush`) a
/// value another process has set but not flushed is not there yet, so the step fails on the bug a device shows.
enum SharedDefaultsExpectation {
    /// How often the suite is read again while the value is not there.
    static let pollMicroseconds: UInt32 = 5_000

    /// - Returns: whether it held, and the step's sentence; `latency`: seconds until the value was seen.
    static func check(_ record: BundleRecord, label: String, groupsRoot: String, suite: String?, key: String, value expected: String,
                      within: Double) throws -> (held: Bool, message: String, latency: Double?) {
        guard let suite = suite ?? record.appGroups.first else {
            return (false, "\(label) claims no App Group: name the suite (expect \(label) sees KEY = VALUE in SUITE within DURATION)", nil)
        }
        let sandbox = try Sandbox(root: GroupsRoot(path: groupsRoot), identity: ProcessIdentity(bundle: record))
        let start = Monotonic.now
        let deadline = start + within
        var seen: String?
        while true {
            // A fresh view each time: what a read by the bundle finds in the shared store, never a cache of this process.
            guard let defaults = try GroupDefaults(suiteName: suite, sandbox: sandbox, diagnostics: { _ in }) else {
                return (false, "UserDefaults(suiteName: \"\(suite)\") is nil for \(label) [group.defaults-suite-name]", nil)
            }
            seen = try defaults.value(forKey: key).map(describe)
            if seen == expected {
                let latency = Monotonic.now - start
                return (true, "\(label) sees \(key) = \(expected) in \(suite) after \(milliseconds(latency))", latency)
            }
            if Monotonic.now >= deadline { break }
            Pause.microseconds(pollMicroseconds)
        }
        return (false, "\(label) sees \(key) = \(seen ?? "nothing") in \(suite), not \(expected), after \(milliseconds(within))", nil)
    }

    /// A value as the step spells it: strings, numbers and true/false as text; anything else as its plist type.
    static func describe(_ value: Any) -> String {
        switch value {
        case let text as String: return text
        case let flag as Bool: return flag ? "true" : "false"
        case let number as Int: return String(number)
        case let number as Double: return String(number)
        default: return "a \(PropertyList.describeType(value))"
        }
    }
}
