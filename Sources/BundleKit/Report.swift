import Foundation
import LockstepSystem

/// What `lockstep check` read and found: the bundle sets (for the JUnit test cases) and every finding.
public struct CheckResult: Sendable {
    public var sets: [AppBundleSet]
    public var findings: [Finding]

    public init(sets: [AppBundleSet] = [], findings: [Finding] = []) {
        self.sets = sets
        self.findings = findings
    }

    /// Adds another input's sets and findings after these.
    public mutating func merge(_ other: CheckResult) {
        sets += other.sets
        findings += other.findings
    }

    /// The findings with warnings raised to errors (`--strict`).
    public func strict() -> CheckResult {
        var copy = self
        copy.findings = findings.map { finding in
            var raised = finding
            if raised.severity == .warning { raised.severity = .error }
            return raised
        }
        return copy
    }

    /// The exit status the findings decide, once, after all of them are collected: 1 if any error is neither
    /// waived nor known from the baseline.
    public var exitStatus: ExitStatus {
        findings.contains { $0.severity == .error && $0.suppression == nil } ? .failure : .success
    }

    /// Errors and warnings that count (neither waived nor in the baseline).
    public var errorCount: Int { findings.filter { $0.severity == .error && $0.suppression == nil }.count }
    public var warningCount: Int { findings.filter { $0.severity == .warning && $0.suppression == nil }.count }
    public var suppressedCount: Int { findings.filter { $0.suppression != nil }.count }

}

/// The report formats of `lockstep check --format`.
public enum ReportFormat: String, Sendable, CaseIterable {
    /// A compiler's `path: error: message [rule-id]`, one line per finding, then a summary line.
    case text
    /// `{"findings":[{"rule","severity","bundle","path","message"}],"summary":{"errors","warnings"}}`.
    case json
    /// GitHub Actions workflow commands (`::error file=…,title=…::…`), which annotate the pull request.
    case github
    /// JUnit XML: one test case per rule × bundle, a failure for each error.
    case junit
    /// SARIF 2.1.0, for GitHub code scanning and other static-analysis dashboards: the rule catalogue and one
    /// result per finding, its file relative to the working directory.
    case sarif
}

/// Renders a `CheckResult` in one of the `ReportFormat`s. Output is deterministic: findings keep the order the
/// inputs and rules produced them in.
public enum Report {
    /// The whole report, ending with a newline.
    public static func render(_ result: CheckResult, as format: ReportFormat) -> String {
        switch format {
        case .text: return text(result)
        case .json: return json(result)
        case .github: return github(result)
        case .junit: return junit(result)
        case .sarif: return sarif(result, workingDirectory: FileManager.default.currentDirectoryPath)
        }
    }

    static func text(_ result: CheckResult) -> String {
        // One line per finding, as a compiler prints them, so CI problem matchers can parse each one.
        var lines = result.findings.map { finding in
            let message = finding.message.split(whereSeparator: \.isNewline).joined(separator: " ")
            return Standard.printable("\(finding.path): \(finding.severity.rawValue): \(message) [\(finding.rule)]\(finding.suppressionLabel)")
        }
        let bundles = result.sets.reduce(0) { $0 + $1.all.count }
        let suppressed = result.suppressedCount > 0 ? " (\(result.suppressedCount) waived or known from the baseline)" : ""
        lines.append("\(count(result.errorCount, "error")), \(count(result.warningCount, "warning")) in \(count(bundles, "bundle"))\(suppressed).")
        return lines.joined(separator: "\n") + "\n"
    }

    static func json(_ result: CheckResult) -> String {
        let object: [String: Any] = [
            "findings": result.findings.map { finding -> [String: Any] in
                var entry: [String: Any] = ["rule": finding.rule.rawValue, "severity": finding.severity.rawValue, "bundle": finding.bundle,
                                            "path": finding.path, "message": finding.message, "fingerprint": finding.fingerprint]
                switch finding.suppression {
                case .waived(let reason)?: entry["suppression"] = ["kind": "waived", "reason": reason]
                case .baseline?: entry["suppression"] = ["kind": "baseline"]
                case nil: break
                }
                return entry
            },
            "summary": ["errors": result.errorCount, "warnings": result.warningCount],
        ]
        // Only strings and integers: JSONSerialization throws for nothing else (NaN, a non-JSON type).
        let data = try! JSONSerialization.data(withJSONObject: object, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])
        return String(decoding: data, as: UTF8.self) + "\n"
    }

    static func github(_ result: CheckResult) -> String {
        // Workflow command escaping: https://github.com/actions/toolkit/blob/main/packages/core/src/command.ts
        func data(_ text: String) -> String {
            text.replacingOccurrences(of: "%", with: "%25").replacingOccurrences(of: "\r", with: "%0D")
                .replacingOccurrences(of: "\n", with: "%0A")
        }
        func property(_ text: String) -> String {
            data(text).replacingOccurrences(of: ":", with: "%3A").replacingOccurrences(of: ",", with: "%2C")
        }
        var lines = result.findings.map { finding -> String in
            // A waived or known finding annotates as a notice: it does not fail the run.
            let command = switch finding.suppression == nil ? finding.severity : .note {
            case .error: "error"
            case .warning: "warning"
            case .note: "notice"
            }
            return "::\(command) file=\(property(finding.path)),title=\(property("\(finding.rule) (\(finding.bundle))"))::\(data(finding.message + finding.suppressionLabel))"
        }
        lines.append("lockstep check: \(count(result.errorCount, "error")), \(count(result.warningCount, "warning")).")
        return lines.joined(separator: "\n") + "\n"
    }

    static func junit(_ result: CheckResult) -> String {
        func xml(_ text: String) -> String {
            text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
                .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
        }
        // Test cases: every rule × every bundle, plus any rule only another reader produced (settings.*).
        var rules = Rules.ids
        for finding in result.findings where !rules.contains(finding.rule) { rules.append(finding.rule) }
        var bundles: [String] = []
        for set in result.sets { for bundle in set.all where !bundles.contains(bundle.bundlePath) { bundles.append(bundle.bundlePath) } }
        for finding in result.findings where !bundles.contains(finding.bundle) { bundles.append(finding.bundle) }

        var cases: [String] = []
        for bundle in bundles {
            for rule in rules {
                let found = result.findings.filter { $0.bundle == bundle && $0.rule == rule }
                var body = ""
                // One <failure> per test case (the JUnit schema allows one): the first message, every finding in the text.
                // A waived or known error is no failure: its reason goes to the output with the warnings.
                let errors = found.filter { $0.severity == .error && $0.suppression == nil }
                if let first = errors.first {
                    let text = errors.map { "\($0.path): \($0.message)" }.joined(separator: "\n")
                    body += "\n      <failure type=\"\(rule)\" message=\"\(xml(first.message).replacingOccurrences(of: "\n", with: "&#10;"))\">\(xml(text))</failure>"
                }
                let others = found.filter { $0.severity != .error || $0.suppression != nil }
                if !others.isEmpty {
                    let text = others.map { "\($0.path): \($0.severity.rawValue): \($0.message)\($0.suppressionLabel)" }.joined(separator: "\n")
                    body += "\n      <system-out>\(xml(text))</system-out>"
                }
                let open = "    <testcase classname=\"\(xml(bundle))\" name=\"\(xml(rule.rawValue))\""
                cases.append(body.isEmpty ? open + "/>" : open + ">" + body + "\n    </testcase>")
            }
        }
        let failures = Set(result.findings.filter { $0.severity == .error && $0.suppression == nil }.map { "\($0.bundle)\u{0}\($0.rule)" }).count
        return """
            <?xml version="1.0" encoding="UTF-8"?>
            <testsuites name="lockstep check" tests="\(cases.count)" failures="\(failures)">
              <testsuite name="RULES.md §6" tests="\(cases.count)" failures="\(failures)">
            \(cases.joined(separator: "\n"))
              </testsuite>
            </testsuites>

            """
    }

    /// SARIF 2.1.0 (OASIS): one run whose driver lists every rule of `RuleCatalog` (and any other id a finding
    /// names), and a result per finding. A path inside `workingDirectory` is given relative to it with the base id
    /// `%SRCROOT%` (what code scanning resolves against the checkout); one outside it as an absolute file URI.
    static func sarif(_ result: CheckResult, workingDirectory: String) -> String {
        var descriptions = RuleCatalog.rules
        for finding in result.findings where !descriptions.contains(where: { $0.id == finding.rule }) {
            descriptions.append(RuleDescription(id: finding.rule, severity: finding.severity, platforms: Set(Platform.allCases),
                                                summary: finding.rule.rawValue, appleText: [], fix: ""))
        }
        func level(_ severity: Severity) -> String { severity == .note ? "note" : severity.rawValue }
        let root = workingDirectory.hasSuffix("/") ? workingDirectory : workingDirectory + "/"
        func location(_ path: String) -> [String: Any] {
            let absolute = path.hasPrefix("/") ? path : root + path
            let normalized = PathText.join("/", absolute)
            if normalized.hasPrefix(root) {
                return ["uri": String(normalized.dropFirst(root.count)), "uriBaseId": "%SRCROOT%"]
            }
            return ["uri": URL(fileURLWithPath: normalized).absoluteString]
        }
        let rules: [[String: Any]] = descriptions.map { rule in
            [
                "id": rule.id.rawValue,
                "name": rule.id.rawValue,
                "shortDescription": ["text": rule.summary],
                "fullDescription": ["text": ([rule.summary] + rule.appleText).joined(separator: " ")],
                "help": ["text": rule.fix.isEmpty ? rule.summary : rule.fix],
                "defaultConfiguration": ["level": level(rule.severity)],
                "properties": ["platforms": RuleCatalog.platformNames(rule.platforms)],
            ]
        }
        let results: [[String: Any]] = result.findings.map { finding in
            var entry: [String: Any] = [
                "ruleId": finding.rule.rawValue,
                "ruleIndex": descriptions.firstIndex { $0.id == finding.rule }!,
                "level": level(finding.severity),
                "message": ["text": finding.message],
                "locations": [["physicalLocation": ["artifactLocation": location(finding.path)]]],
                "properties": ["bundle": finding.bundle],
                "partialFingerprints": ["lockstep/v1": finding.fingerprint],
            ]
            // SARIF §3.35 suppressions and §3.27.24 baselineState.
            switch finding.suppression {
            case .waived(let reason)?: entry["suppressions"] = [["kind": "external", "justification": reason]]
            case .baseline?: entry["baselineState"] = "unchanged"
            case nil: break
            }
            return entry
        }
        let object: [String: Any] = [
            "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
            "version": "2.1.0",
            "runs": [[
                "tool": ["driver": [
                    "name": "lockstep", "rules": rules,
                ] as [String: Any]],
                "originalUriBaseIds": ["%SRCROOT%": ["uri": URL(fileURLWithPath: root, isDirectory: true).absoluteString]],
                "results": results,
            ] as [String: Any]],
        ]
        let data = try! JSONSerialization.data(withJSONObject: object, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])
        return String(decoding: data, as: UTF8.self) + "\n"
    }

    private static func count(_ n: Int, _ noun: String) -> String { "\(n) \(noun)\(n == 1 ? "" : "s")" }
}
