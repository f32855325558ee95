import BundleKit
import CheckKit
import Foundation
import LockstepSystem

enum RulesCommand: Command {
    static let name = "rules"
    static let summary = "List every rule Lockstep checks or enforces, or explain one with Apple's wording and the fix"
    static let help = """
        Usage: lockstep rules [ID] [--format text|json|markdown]

        Without ID, lists every rule, grouped by section: the rules `lockstep check` reports (with their severity
        and the platforms they apply to) and the rules the simulated processes enforce (`runtime`). With ID,
        prints that rule in full: what it says, Apple's own wording and where it comes from, what Lockstep checks
        or enforces, and how to fix it. `--format markdown` writes the rules reference article
        (Sources/lockstep/Lockstep.docc/Rules.md).

        Exit status: 0; 2 for an ID that is no rule (the sentence lists them); 64 for a usage error.
        """

    static func run(_ arguments: [String]) throws -> ExitStatus {
        let parsed = try Arguments(arguments, options: ["--format"], command: name)
        let format = parsed.value("--format") ?? "text"
        guard ["text", "json", "markdown"].contains(format) else {
            throw UsageError("lockstep rules: unknown format '\(format)'; use text, json or markdown.")
        }
        guard parsed.operands.count <= 1 else { throw UsageError("lockstep rules: give at most one rule ID; see 'lockstep rules --help'.") }
        if format == "markdown" {
            guard parsed.operands.isEmpty else { throw UsageError("lockstep rules: --format markdown writes the whole reference; give no ID.") }
            print(RuleCatalog.markdown(), terminator: "")
            return .success
        }
        var rules = RuleCatalog.all
        if let id = parsed.operands.first {
            guard let rule = RuleCatalog.rule(RuleID(rawValue: id)) else {
                Standard.error("lockstep rules: '\(id)' is not a rule of Lockstep; the rules are \(RuleCatalog.all.map(\.id.rawValue).joined(separator: ", ")).")
                return .invalidInput
            }
            rules = [rule]
        }
        if format == "json" {
            let object: Any = rules.map { rule -> [String: Any] in
                ["id": rule.id.rawValue, "severity": rule.isChecked ? rule.severity.rawValue : "runtime",
                 "platforms": RuleCatalog.platformNames(rule.platforms), "section": rule.section.rawValue,
                 "summary": rule.summary, "appleText": rule.appleText, "sources": rule.sources,
                 "enforcement": rule.enforcement, "fix": rule.fix]
            }
            let data = try JSONSerialization.data(withJSONObject: parsed.operands.isEmpty ? object : (object as! [Any])[0],
                                                  options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])
            print(String(decoding: data, as: UTF8.self))
        } else if parsed.operands.isEmpty {
            for section in RuleSection.allCases {
                let members = rules.filter { $0.section == section }
                guard !members.isEmpty else { continue }
                if section != RuleSection.allCases.first { print("") }
                print(section.rawValue)
                for rule in members {
                    let platforms = rule.platforms.count == Platform.allCases.count ? "all platforms" : RuleCatalog.platformNames(rule.platforms).joined(separator: ", ")
                    let severity = rule.isChecked ? rule.severity.rawValue : "runtime"
                    print("  \(rule.id.rawValue.padding(toLength: 28, withPad: " ", startingAt: 0)) \(severity.padding(toLength: 8, withPad: " ", startingAt: 0)) \(rule.summary) (\(platforms))")
                }
            }
        } else {
            let rule = rules[0]
            let kind = rule.isChecked ? "\(rule.severity.rawValue), reported by lockstep check" : "enforced by the simulated processes"
            print("\(rule.id) (\(kind); \(RuleCatalog.platformNames(rule.platforms).joined(separator: ", ")))")
            print("")
            print(rule.summary)
            print("")
            print("Apple's wording:")
            for text in rule.appleText { print("  \(text)") }
            print("Source: \(rule.sources.joined(separator: "; "))")
            print("")
            print("What Lockstep does: \(rule.enforcement)")
            print("")
            print("Fix: \(rule.fix)")
            print("")
            print("See \"\(rule.section.rawValue)\" in the rules reference, Sources/lockstep/Lockstep.docc/Rules.md.")
        }
        return .success
    }
}
