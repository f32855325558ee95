import AppGroupKit
import Foundation
import LockstepSystem

enum DefaultsCommand: Command {
    static let name = "defaults"
    static let summary = "Read and write a defaults suite as a bundle"
    static let help = """
        Usage: lockstep defaults --as BUNDLE-ID read|write|delete|increment SUITE [KEY [VALUE]] [-string|-int|-float|-bool]
                                 [--manifest F] [--groups DIR]

        Reads and writes the suite UserDefaults(suiteName: SUITE) gives the bundle, under its entitlements (macOS
        'defaults' style). A group suite the bundle is not entitled to silently falls back to a private plist, as
        on iOS; a warning on stderr names the missing entitlement.

          read SUITE              the whole suite, as an XML property list
          read SUITE KEY          the value: strings, numbers and true/false as text, arrays and dictionaries as XML
          write SUITE KEY VALUE   sets KEY; VALUE is a string unless -int, -float or -bool says otherwise
          delete SUITE [KEY]      removes KEY, or every key of the suite
          increment SUITE KEY     adds 1 to the integer KEY (absent: 0) atomically and prints the new value

        A write has happened once its record is in the suite's journal: then it exits 0, even if folding the
        journal into the plist afterwards fails (a warning on stderr; the fold is retried by the next write). A
        write that exits non-zero did not happen, and no reader ever sees it: retrying it (an increment too) is safe.

        Exit statuses: 0 success, 1 the key does not exist (read), 2 invalid input or an unreadable suite (a bad
        value, a malformed suite plist, a damaged journal, an I/O error, an unknown bundle; nothing written),
        64 usage, 75 busy (lock wait timed out) or no room (a full disk, the file-size limit): retry later.
        """

    private enum ValueType: String, CaseIterable { case string = "-string", int = "-int", float = "-float", bool = "-bool" }

    static func run(_ arguments: [String]) throws -> ExitStatus {
        let types = Set(ValueType.allCases.map(\.rawValue))
        let arguments = try Arguments(arguments, options: BundleSandbox.options.union(["--repeat"]), flags: types, command: name)
        let positionals = arguments.operands
        guard positionals.count >= 2 else {
            throw UsageError("lockstep defaults: give an action (read, write, delete, increment) and a SUITE; see 'lockstep defaults --help'.")
        }
        let (action, suite) = (positionals[0], positionals[1])
        let chosenTypes = ValueType.allCases.filter { arguments.has($0.rawValue) }
        guard chosenTypes.count <= 1 else {
            throw UsageError("lockstep defaults: give at most one of -string, -int, -float, -bool.")
        }
        let expected: ClosedRange<Int>
        switch action {
        case "read", "delete": expected = 2...3
        case "write": expected = 4...4
        case "increment": expected = 3...3
        default: throw UsageError("lockstep defaults: unknown action '\(action)'; use read, write, delete or increment.")
        }
        guard expected.contains(positionals.count) else {
            throw UsageError("lockstep defaults \(action): wrong number of arguments; see 'lockstep defaults --help'.")
        }
        let sandbox = try BundleSandbox.resolve(arguments, command: name)
        guard let defaults = try GroupDefaults(suiteName: suite, sandbox: sandbox) else {
            // rule `group.defaults-suite-name`: UserDefaults(suiteName:) is nil for these.
            throw AppGroupError(.invalidIdentifier, subject: suite, detail: "UserDefaults(suiteName:) returns nil for the bundle's own identifier and the global domain [group.defaults-suite-name]")
        }
        let key = positionals.count > 2 ? positionals[2] : nil
        switch action {
        case "read":
            guard let key else {
                // Each spelling of a key its own, as the suite holds them (NFC and NFD "café" are two keys on iOS).
                print(Standard.printable(xml(try defaults.suiteValues())), terminator: "")
                return .success
            }
            guard let value = try defaults.value(forKey: key) else {
                Standard.error("lockstep defaults: the key '\(key)' does not exist in the suite '\(suite)' of '\(sandbox.identity.bundleIdentifier)'.")
                return .failure
            }
            // Another bundle wrote the value: its control characters (an escape sequence that retitles the window
            // or clears the screen) are written as `\u{1B}`, never sent to the terminal; and so the XML of
            // `read SUITE` holds no character XML 1.0 forbids.
            print(Standard.printable(text(value)), terminator: "")
        case "write":
            let value = try parse(positionals[3], as: chosenTypes.first ?? .string, key: positionals[2])
            try defaults.set(value, forKey: positionals[2])
        case "delete":
            if let key {
                try defaults.removeObject(forKey: key)
            } else {
                try defaults.transaction { transaction in
                    for key in transaction.keys { transaction.removeObject(forKey: key) }
                }
            }
        default:  // increment
            var value = 0
            for _ in 0..<(try repeatCount(arguments, command: name)) { value = try defaults.increment(positionals[2]) }
            print(value)
        }
        // Under realistic device timing a write waits in the process for a flush point: the command's own exit is
        // one, but its status must say whether the write happened, so it flushes before deciding (a no-op in strict
        // timing, where the write is in the journal already).
        try defaults.flush()
        return .success
    }

    private static func parse(_ text: String, as type: ValueType, key: String) throws -> Any {
        switch type {
        case .string: return text
        case .int:
            // Up to 2⁶⁴−1, the largest integer a property list holds.
            if let value = Int(text) { return value }
            guard let value = UInt64(text) else { throw AppGroupError(.invalidValue, subject: key, detail: "'\(text)' is not an integer from -2⁶³ to 2⁶⁴−1 (-int)") }
            return value
        case .float:
            guard let value = Double(text), value.isFinite else { throw AppGroupError(.invalidValue, subject: key, detail: "'\(text)' is not a finite real number (-float)") }
            return value
        case .bool:
            switch text.lowercased() {
            case "true", "yes", "1": return true
            case "false", "no", "0": return false
            default: throw AppGroupError(.invalidValue, subject: key, detail: "'\(text)' is not a boolean (-bool takes true, false, yes, no, 1 or 0)")
            }
        }
    }

    /// A scalar as one line of text; arrays, dictionaries, dates and data as an XML plist.
    private static func text(_ value: Any) -> String {
        switch value {
        case let value as String: return value + "\n"
        case let value as Bool: return "\(value)\n"
        case let value as Int: return "\(value)\n"
        case let value as UInt64: return "\(value)\n"
        case let value as Double: return "\(value)\n"
        default: return xml(["value": value])
        }
    }

    /// Values read from a suite are always property lists; PropertyList writes them however Foundation is linked.
    private static func xml(_ dictionary: Any) -> String {
        String(decoding: PropertyList.data(dictionary, format: .xml) ?? Data(), as: UTF8.self)
    }
}
