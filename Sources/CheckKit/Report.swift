import BundleKit
import Foundation
import LockstepSystem
import XcodeKit

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

    /// The bundles read, each counted once however many build configurations it was read in (an Xcode project's
    /// Debug and Release sets hold the same bundles), and the build configurations.
    public var bundleCount: Int {
        var seen = Set<String>()
        for set in sets {
            let input = set.configuration.map { configuration in
                set.origin.hasSuffix(" [\(configuration)]") ? String(set.origin.dropLast(configuration.count + 3)) : set.origin
            } ?? set.origin
            for bundle in set.all { seen.insert("\(input)\u{0}\(bundle.bundlePath)") }
        }
        return seen.count
    }

    /// The distinct build configurations read (none for a built app or a manifest).
    public var configurationCount: Int { Set(sets.compactMap(\.configuration)).count }
}

/// The report formats of `lockstep check --format`.
public enum ReportFormat: String, Sendable, CaseIterable {
    /// A compiler's `path:line:column: error: message [rule-id]` (the line and column where known), one line per
    /// finding, then a summary line.
    case text
    /// `{"fingerprintVersion":2,"findings":[{"rule","severity","bundle","path","line","column","message",
    /// "fingerprint"}],"summary":{"errors","warnings","bundles","configurations"}}`; `line` and `column` only where
    /// known; bundles counted once across build configurations.
    case json
    /// GitHub Actions workflow commands (`::error file=…,line=…,col=…,title=…::…`), which annotate the pull request.
    case github
    /// JUnit XML 1.0: one test case per rule × bundle, a failure for each error.
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
            return Standard.printable("\(oneLine(position(finding))): \(finding.severity.rawValue): \(message) [\(finding.rule)]\(finding.suppressionLabel)")
        }
        let suppressed = result.suppressedCount > 0 ? " (\(result.suppressedCount) waived or known from the baseline)" : ""
        let configurations = result.configurationCount > 1 ? ", \(count(result.configurationCount, "build configuration"))" : ""
        lines.append("\(count(result.errorCount, "error")), \(count(result.warningCount, "warning")) in \(count(result.bundleCount, "bundle"))\(configurations)\(suppressed).")
        return lines.joined(separator: "\n") + "\n"
    }

    /// `text` on one line: a newline in a path or name (git stores such names) is written `\u{A}`, as other control
    /// characters are, so a line of a report is never two (nor a CI runner's command).
    static func oneLine(_ text: String) -> String {
        text.contains("\n") ? text.replacingOccurrences(of: "\n", with: "\\u{A}") : text
    }

    /// `path:line:column` as compilers print a position (Xcode and CI problem matchers read it); the parts known.
    static func position(_ finding: Finding) -> String {
        guard let line = finding.line else { return finding.path }
        return finding.column.map { "\(finding.path):\(line):\($0)" } ?? "\(finding.path):\(line)"
    }

    static func json(_ result: CheckResult) -> String {
        let object: [String: Any] = [
            "fingerprintVersion": Baseline.fingerprintVersion,
            "findings": result.findings.map { finding -> [String: Any] in
                var entry: [String: Any] = ["rule": finding.rule.rawValue, "severity": finding.severity.rawValue, "bundle": finding.bundle,
                                            "path": finding.path, "message": finding.message, "fingerprint": finding.fingerprint]
                if let line = finding.line { entry["line"] = line }
                if let column = finding.column { entry["column"] = column }
                switch finding.suppression {
                case .waived(let reason)?: entry["suppression"] = ["kind": "waived", "reason": reason]
                case .baseline?: entry["suppression"] = ["kind": "baseline"]
                case nil: break
                }
                return entry
            },
            "summary": ["errors": result.errorCount, "warnings": result.warningCount,
                        "bundles": result.bundleCount, "configurations": result.configurationCount],
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
            var position = ""
            if let line = finding.line { position += ",line=\(line)" }
            if let column = finding.column { position += ",col=\(column)" }
            return "::\(command) file=\(property(finding.path))\(position),title=\(property("\(finding.rule) (\(finding.bundle))"))::\(data(finding.message + finding.suppressionLabel))"
        }
        lines.append("lockstep check: \(count(result.errorCount, "error")), \(count(result.warningCount, "warning")).")
        return lines.joined(separator: "\n") + "\n"
    }

    static func junit(_ result: CheckResult) -> String {
        // XML 1.0 allows no control character but tab, newline and carriage return (not even as a reference):
        // others (a U+0001 in a bundle id) are written as `\u{1}`, as `text` writes them; so are U+FFFE and U+FFFF.
        func xml(_ text: String, attribute: Bool = false) -> String {
            var result = ""
            for scalar in Standard.printable(text).unicodeScalars {
                switch scalar {
                case "&": result += "&amp;"
                case "<": result += "&lt;"
                case ">": result += "&gt;"
                case "\"": result += "&quot;"
                case "\n" where attribute: result += "&#10;"
                case "\t" where attribute: result += "&#9;"
                case "\r": result += "&#13;"
                case "\u{FFFE}", "\u{FFFF}": result += "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
                default: result.unicodeScalars.append(scalar)
                }
            }
            return result
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
                    let text = errors.map { "\(oneLine(position($0))): \(oneLine($0.message))" }.joined(separator: "\n")
                    body += "\n      <failure type=\"\(xml(rule.rawValue, attribute: true))\" message=\"\(xml(first.message, attribute: true))\">\(xml(text))</failure>"
                }
                let others = found.filter { $0.severity != .error || $0.suppression != nil }
                if !others.isEmpty {
                    let text = others.map { "\(oneLine(position($0))): \($0.severity.rawValue): \(oneLine($0.message))\($0.suppressionLabel)" }.joined(separator: "\n")
                    body += "\n      <system-out>\(xml(text))</system-out>"
                }
                var open = "    <testcase classname=\"\(xml(bundle, attribute: true))\" name=\"\(xml(rule.rawValue, attribute: true))\""
                // The file and line of the first failure, as the attributes JUnit readers (GitLab, Jenkins, the
                // test-report Actions) take a test case's position from.
                if let first = errors.first {
                    open += " file=\"\(xml(first.path, attribute: true))\""
                    if let line = first.line { open += " line=\"\(line)\"" }
                }
                cases.append(body.isEmpty ? open + "/>" : open + ">" + body + "\n    </testcase>")
            }
        }
        let failures = Set(result.findings.filter { $0.severity == .error && $0.suppression == nil }.map { "\($0.bundle)\u{0}\($0.rule)" }).count
        return """
            <?xml version="1.0" encoding="UTF-8"?>
            <testsuites name="lockstep check" tests="\(cases.count)" failures="\(failures)">
              <testsuite name="lockstep check" tests="\(cases.count)" failures="\(failures)">
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
                return ["uri": uriPath(String(normalized.dropFirst(root.count))), "uriBaseId": "%SRCROOT%"]
            }
            return ["uri": "file://" + uriPath(normalized)]
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
            // An entry of an .ipa (`App.ipa:Payload/App.app/Info.plist`) points at the .ipa, the file the checkout
            // holds; the entry is named as a logical location and in the message. Written whole, the archive name
            // would read as a URI scheme.
            let (file, entry) = archiveEntry(finding.path)
            var physical: [String: Any] = ["artifactLocation": location(file)]
            if let line = finding.line {
                physical["region"] = finding.column.map { ["startLine": line, "startColumn": $0] } ?? ["startLine": line]
            }
            var place: [String: Any] = ["physicalLocation": physical]
            if let entry { place["logicalLocations"] = [["fullyQualifiedName": entry, "kind": "archive entry"]] }
            var result: [String: Any] = [
                "ruleId": finding.rule.rawValue,
                "ruleIndex": descriptions.firstIndex { $0.id == finding.rule }!,
                "level": level(finding.severity),
                "message": ["text": entry.map { "\(finding.message) (\($0) in \(file))" } ?? finding.message],
                "locations": [place],
                "properties": ["bundle": finding.bundle],
                "partialFingerprints": ["lockstep/v\(Baseline.fingerprintVersion)": finding.fingerprint],
            ]
            // SARIF §3.35 suppressions and §3.27.24 baselineState.
            switch finding.suppression {
            case .waived(let reason)?: result["suppressions"] = [["kind": "external", "justification": reason]]
            case .baseline?: result["baselineState"] = "unchanged"
            case nil: break
            }
            return result
        }
        let object: [String: Any] = [
            "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
            "version": "2.1.0",
            "runs": [[
                "tool": ["driver": [
                    "name": "lockstep", "rules": rules,
                ] as [String: Any]],
                "originalUriBaseIds": ["%SRCROOT%": ["uri": "file://" + uriPath(root)]],
                "results": results,
            ] as [String: Any]],
        ]
        let data = try! JSONSerialization.data(withJSONObject: object, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])
        return String(decoding: data, as: UTF8.self) + "\n"
    }

    private static func count(_ n: Int, _ noun: String) -> String { "\(n) \(noun)\(n == 1 ? "" : "s")" }

    /// A file path as the path of a URI reference (RFC 3986): each byte of its UTF-8 outside the unreserved
    /// characters, the sub-delimiters, '@' and '/' percent-encoded (`My App/project.yml` → `My%20App/project.yml`).
    /// ':' is encoded too, so that a relative path's first segment never reads as a scheme.
    static func uriPath(_ path: String) -> String {
        let allowed = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~!$&'()*+,;=@/".utf8)
        var result = ""
        for byte in path.utf8 {
            if allowed.contains(byte) {
                result.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                let hex = String(byte, radix: 16, uppercase: true)
                result += "%" + (hex.count == 1 ? "0" + hex : hex)
            }
        }
        return result
    }

    /// `App.ipa:Payload/App.app/Info.plist` as the archive and the entry in it; any other path as itself.
    static func archiveEntry(_ path: String) -> (file: String, entry: String?) {
        guard let range = path.range(of: ".ipa:", options: .caseInsensitive) else { return (path, nil) }
        return (String(path[..<range.upperBound].dropLast()), String(path[range.upperBound...]))
    }
}
