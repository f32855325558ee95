import Foundation
import LockstepSystem

/// What a team has decided about `check`'s rules, from `.lockstep.json`: rules turned off, severities changed,
/// findings waived with a reason, a baseline of known findings, and `--strict`.
///
/// ```json
/// { "disable": ["extension.point"], "severity": {"settings.target-override": "error"},
///   "waivers": [{"rule": "group.shared", "bundle": "App.app/PlugIns/Share.appex", "reason": "shares by URL"}],
///   "baseline": "lockstep-baseline.json", "strict": true }
/// ```
public struct CheckPolicy: Sendable, Equatable {
    public struct Waiver: Sendable, Equatable {
        public var rule: RuleID
        /// The bundle path a finding names (`App.app/PlugIns/Share.appex`), or `*` for every bundle.
        public var bundle: String
        public var reason: String
    }

    /// The file read from the working directory when no `--config` is given.
    public static let fileName = ".lockstep.json"

    public var disabled: Set<RuleID> = []
    public var severities: [RuleID: Severity] = [:]
    public var waivers: [Waiver] = []
    /// The baseline file, relative to the working directory (resolved against the config file's folder).
    public var baseline: String?
    public var strict = false

    public init() {}

    /// Reads the config at `path`.
    /// - Throws: `BundleError(.invalidConfig)` naming the file and the key: invalid JSON, an unknown key, a rule id
    ///   `check` does not have, a value of the wrong type.
    public static func load(_ path: String) throws(BundleError) -> CheckPolicy {
        let bytes = try InputFile.read(path)
        let root: JSONValue
        do {
            root = try JSONValue.parse(bytes, path: path)
        } catch {
            throw BundleError(.invalidConfig, path: path, detail: error.detail)
        }
        func invalid(_ detail: String) -> BundleError { BundleError(.invalidConfig, path: path, detail: detail) }
        func rule(_ value: JSONValue, _ key: String) throws(BundleError) -> RuleID {
            guard case .string(let text) = value else { throw invalid("'\(key)' must hold rule ids as strings") }
            let id = RuleID(rawValue: text)
            guard RuleCatalog.rule(id) != nil else {
                throw invalid("'\(key)' names '\(text)', which is not a rule of lockstep check (see 'lockstep rules')")
            }
            return id
        }
        guard case .object(let members) = root else { throw invalid("its top level must be an object") }
        var policy = CheckPolicy()
        for (key, value) in members.sorted(by: { $0.key < $1.key }) {
            switch (key, value) {
            case ("disable", .array(let ids)):
                for id in ids { policy.disabled.insert(try rule(id, key)) }
            case ("severity", .object(let levels)):
                for (id, level) in levels.sorted(by: { $0.key < $1.key }) {
                    let id = try rule(.string(id), "severity")
                    guard case .string(let name) = level, let severity = Severity(rawValue: name) else {
                        throw invalid("'severity' gives '\(id)' \(level.compactText); use \"error\", \"warning\" or \"note\"")
                    }
                    policy.severities[id] = severity
                }
            case ("waivers", .array(let entries)):
                for entry in entries {
                    guard case .object(let fields) = entry, case .string(let bundle)? = fields["bundle"],
                          case .string(let reason)? = fields["reason"], !reason.isEmpty, let id = fields["rule"],
                          Set(fields.keys).isSubset(of: ["rule", "bundle", "reason"]) else {
                        throw invalid("each entry of 'waivers' must be {\"rule\", \"bundle\", \"reason\"} with a non-empty reason")
                    }
                    policy.waivers.append(Waiver(rule: try rule(id, "waivers"), bundle: bundle, reason: reason))
                }
            case ("baseline", .string(let file)):
                policy.baseline = file.hasPrefix("/") ? file : PathText.join(PathText.parent(of: path), file)
            case ("strict", .bool(let strict)):
                policy.strict = strict
            case ("disable", _), ("severity", _), ("waivers", _), ("baseline", _), ("strict", _):
                throw invalid("'\(key)' has the wrong type (\(value.compactText))")
            default:
                throw invalid("'\(key)' is not a key it knows (disable, severity, waivers, baseline, strict)")
            }
        }
        return policy
    }

    /// `result` with this policy applied: disabled rules' findings dropped, severities changed, waived findings and
    /// those `known` (a baseline's fingerprints) marked, so that they are reported and do not fail the run.
    public func apply(to result: CheckResult, known: Set<String> = []) -> CheckResult {
        var copy = result
        copy.findings = result.findings.compactMap { finding in
            guard !disabled.contains(finding.rule) else { return nil }
            var changed = finding
            if let severity = severities[finding.rule] { changed.severity = severity }
            if let waiver = waivers.first(where: { $0.rule == finding.rule && ($0.bundle == "*" || $0.bundle == finding.bundle) }) {
                changed.suppression = .waived(reason: waiver.reason)
            } else if known.contains(finding.fingerprint) {
                changed.suppression = .baseline
            }
            return changed
        }
        return copy
    }
}

/// A JSON report written by `check --format json` (or `--write-baseline`): the fingerprints of its findings.
public enum Baseline {
    /// - Throws: `BundleError(.invalidConfig)` naming the file when it is not such a report.
    public static func fingerprints(at path: String) throws(BundleError) -> Set<String> {
        let root: JSONValue
        do {
            root = try JSONValue.parse(try InputFile.read(path), path: path)
        } catch {
            throw BundleError(.invalidConfig, path: path, detail: error.code == .unreadable ? error.detail : "it is not a JSON report of lockstep check: \(error.detail)")
        }
        guard case .array(let findings)? = root["findings"] else {
            throw BundleError(.invalidConfig, path: path, detail: "it is not a JSON report of lockstep check (no 'findings' array)")
        }
        var result: Set<String> = []
        for finding in findings {
            if case .string(let fingerprint)? = finding["fingerprint"] {
                result.insert(fingerprint)
            } else if case .string(let rule)? = finding["rule"], case .string(let bundle)? = finding["bundle"], case .string(let message)? = finding["message"] {
                // A report written before fingerprints existed: made the same way from its fields.
                result.insert(Finding(rule: RuleID(rawValue: rule), severity: .note, bundle: bundle, path: "", message: message).fingerprint)
            }
        }
        return result
    }

    /// Writes `result` as a baseline (the JSON report), atomically.
    public static func write(_ result: CheckResult, to path: String) throws(BundleError) {
        do {
            try AtomicFile.write(Array(Report.json(result).utf8), to: path)
        } catch {
            throw BundleError(.unreadable, path: path, detail: "the baseline cannot be written: \(error)")
        }
    }
}
