import BundleKit
import CheckKit
import Foundation
import LockstepSystem

enum RulesCommand: Command {
    static let name = "rules"
    static let summary = "List the rules check applies, or explain one with Apple's wording and the fix"
    static let help = """
        Usage: lockstep rules [ID] [--format text|json]

        Without ID, lists every rule `lockstep check` reports: its id, severity, the platforms it applies to
        and one line. With ID, prints that rule in full: what it checks, Apple's own wording (Xcode, App Store
        Connect, the installer) and how to fix it.

        Exit status: 0; 2 for an ID that is no rule (the sentence lists them); 64 for a usage error.
        """

    static func run(_ arguments: [String]) throws -> ExitStatus {
        let parsed = try Arguments(arguments, options: ["--format"], command: name)
        let format = parsed.value("--format") ?? "text"
        guard format == "text" || format == "json" else {
            throw UsageError("lockstep rules: unknown format '\(format)'; use text or json.")
        }
        guard parsed.operands.count <= 1 else { throw UsageError("lockstep rules: give at most one rule ID; see 'lockstep rules --help'.") }
        var rules = RuleCatalog.rules
        if let id = parsed.operands.first {
            guard let rule = RuleCatalog.rule(RuleID(rawValue: id)) else {
                Standard.error("lockstep rules: '\(id)' is not a rule of lockstep check; the rules are \(RuleCatalog.rules.map(\.id.rawValue).joined(separator: ", ")).")
                return .invalidInput
            }
            rules = [rule]
        }
        if format == "json" {
            let object: Any = rules.map { rule -> [String: Any] in
                ["id": rule.id.rawValue, "severity": rule.severity.rawValue, "platforms": RuleCatalog.platformNames(rule.platforms),
                 "summary": rule.summary, "appleText": rule.appleText, "fix": rule.fix]
            }
            let data = try JSONSerialization.data(withJSONObject: parsed.operands.isEmpty ? object : (object as! [Any])[0],
                                                  options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])
            print(String(decoding: data, as: UTF8.self))
        } else if parsed.operands.isEmpty {
            for rule in rules {
                let platforms = rule.platforms.count == Platform.allCases.count ? "all platforms" : RuleCatalog.platformNames(rule.platforms).joined(separator: ", ")
                print("\(rule.id.rawValue.padding(toLength: 28, withPad: " ", startingAt: 0)) \(rule.severity.rawValue.padding(toLength: 8, withPad: " ", startingAt: 0)) \(rule.summary) (\(platforms))")
            }
        } else {
            let rule = rules[0]
            print("\(rule.id) (\(rule.severity.rawValue); \(RuleCatalog.platformNames(rule.platforms).joined(separator: ", ")))")
            print("")
            print(rule.summary)
            print("")
            print("Apple's wording:")
            for text in rule.appleText { print("  \(text)") }
            print("")
            print("Fix: \(rule.fix)")
        }
        return .success
    }
}
