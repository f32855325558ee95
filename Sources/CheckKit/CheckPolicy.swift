import BundleKit
import Foundation
import LockstepSystem
import XcodeKit

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
        /// The bundle a finding names, by its path (`App.app/PlugIns/Share.appex`, a target name) or its bundle
        /// identifier (`com.example.app.share`), or `*` for every bundle.
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
    /// The baseline as the config writes it (`lockstep-baseline.json`), for messages.
    public var baselineAsWritten: String?
    /// The config file this policy was read from (nil for the defaults).
    public var source: String?
    public var strict = false
    /// `lockstep build`: a folder of Swift files (absolute) that replaces each named module of the team's own
    /// (<doc:RunningYourProject> "Stand-ins").
    public var standIns: [String: String] = [:]

    public init() {}

    /// Reads the config at `path`.
    /// - Throws: `BundleError(.invalidConfig)` naming the file and the key: invalid JSON, a key given twice, an
    ///   unknown key, a rule id `check` does not have, a value of the wrong type (quoted on one line, at most 60
    ///   characters of it).
    public static func load(_ path: String) throws(BundleError) -> CheckPolicy {
        let bytes = try InputFile.read(path, limit: maximumFileSize)
        let root: JSONValue
        do {
            // A key given twice is refused: one of the two decisions would be silently dropped.
            root = try JSONValue.parseRefusingDuplicateKeys(bytes, path: path)
        } catch {
            throw BundleError(.invalidConfig, path: path, detail: error.detail)
        }
        func invalid(_ detail: String) -> BundleError { BundleError(.invalidConfig, path: path, detail: detail) }
        func shown(_ text: String) -> String { JSONValue.shown(text) }
        func rule(_ value: JSONValue, _ key: String) throws(BundleError) -> RuleID {
            guard case .string(let text) = value else { throw invalid("'\(key)' must hold rule ids as strings, not \(value.shownText())") }
            let id = RuleID(rawValue: text)
            // The runtime's rules are enforced by the simulated processes: a config of `check` cannot disable them.
            guard RuleCatalog.rule(id)?.isChecked == true else {
                throw invalid("'\(key)' names \(shown(text)), which is not a rule of lockstep check (see 'lockstep rules')")
            }
            return id
        }
        guard case .object(let members) = root else { throw invalid("its top level must be an object, not \(root.shownText())") }
        var policy = CheckPolicy()
        policy.source = path
        for (key, value) in members.sorted(by: { $0.key < $1.key }) {
            switch (key, value) {
            case ("disable", .array(let ids)):
                for id in ids { policy.disabled.insert(try rule(id, key)) }
            case ("severity", .object(let levels)):
                for (id, level) in levels.sorted(by: { $0.key < $1.key }) {
                    let id = try rule(.string(id), "severity")
                    guard case .string(let name) = level, let severity = Severity(rawValue: name) else {
                        throw invalid("'severity' gives '\(id)' \(level.shownText()); use \"error\", \"warning\" or \"note\"")
                    }
                    policy.severities[id] = severity
                }
            case ("waivers", .array(let entries)):
                // Each waiver is a decision someone reviews: more than this is no list anyone reads, and each one
                // costs every run (200,000 took 22 s and 757 MB to report).
                guard entries.count <= maximumWaivers else {
                    throw invalid("'waivers' holds \(entries.count) entries; at most \(maximumWaivers) are read (waive a rule for every bundle with \"bundle\": \"*\", or disable it)")
                }
                for entry in entries {
                    guard case .object(let fields) = entry, case .string(let bundle)? = fields["bundle"], !bundle.isEmpty,
                          case .string(let reason)? = fields["reason"], !reason.isEmpty, let id = fields["rule"],
                          Set(fields.keys).isSubset(of: ["rule", "bundle", "reason"]) else {
                        throw invalid("each entry of 'waivers' must be {\"rule\", \"bundle\", \"reason\"} with a non-empty bundle and reason")
                    }
                    policy.waivers.append(Waiver(rule: try rule(id, "waivers"), bundle: bundle, reason: reason))
                }
            case ("baseline", .string(let file)):
                guard !file.isEmpty else { throw invalid("'baseline' is empty; name the baseline file") }
                policy.baseline = file.hasPrefix("/") ? file : PathText.join(PathText.parent(of: path), file)
                policy.baselineAsWritten = file
            case ("strict", .bool(let strict)):
                policy.strict = strict
            case ("standIns", .object(let modules)):
                for (module, folder) in modules.sorted(by: { $0.key < $1.key }) {
                    guard case .string(let folder) = folder, !folder.isEmpty, !module.isEmpty else {
                        throw invalid("'standIns' gives \(shown(module)) \(folder.shownText()); give each module the folder of its Linux files as a string")
                    }
                    policy.standIns[module] = folder.hasPrefix("/") ? folder : PathText.join(PathText.absolute(PathText.parent(of: path)), folder)
                }
            case ("disable", _), ("severity", _), ("waivers", _), ("baseline", _), ("strict", _), ("standIns", _):
                throw invalid("'\(key)' has the wrong type (\(value.shownText()))")
            default:
                throw invalid("\(shown(key)) is not a key it knows (disable, severity, waivers, baseline, strict, standIns)")
            }
        }
        return policy
    }

    /// The largest config read: a real one is a few KB.
    public static let maximumFileSize = 4 << 20
    /// The most waivers a config may hold.
    public static let maximumWaivers = 10_000

    /// Reads the baseline this policy names, or `explicit` (`--baseline`) when given.
    /// - Throws: `BundleError(.invalidBaseline)` naming the baseline (and the config that names it).
    public func knownFindings(explicit: String?) throws(BundleError) -> Baseline.Known {
        if let explicit { return try Baseline.known(at: explicit) }
        guard let baseline else { return Baseline.Known() }
        return try Baseline.known(at: baseline, shownAs: baselineAsWritten, namedBy: source)
    }

    /// `result` with this policy applied: disabled rules' findings dropped, severities changed, waived findings and
    /// those `known` (a baseline's fingerprints) marked, so that they are reported and do not fail the run. A
    /// waiver that matches no finding is reported as a note, so that a stale one is noticed and removed.
    public func apply(to result: CheckResult, known: Baseline.Known = Baseline.Known()) -> CheckResult {
        // The bundle identifiers each bundle path had (per build configuration they may differ).
        var identifiers: [String: Set<String>] = [:]
        for set in result.sets {
            for bundle in set.all { if let id = bundle.bundleIdentifier { identifiers[bundle.bundlePath, default: []].insert(id) } }
        }
        func matches(_ waiver: Waiver, _ finding: Finding) -> Bool {
            waiver.rule == finding.rule && (waiver.bundle == "*" || waiver.bundle == finding.bundle
                || identifiers[finding.bundle]?.contains(waiver.bundle) == true)
        }
        // The waivers of each rule, in order: a finding is compared with its own rule's, not with every waiver.
        var waiversByRule: [RuleID: [Int]] = [:]
        for (index, waiver) in waivers.enumerated() { waiversByRule[waiver.rule, default: []].append(index) }
        var used = Set<Int>()
        var copy = result
        copy.findings = result.findings.compactMap { finding in
            guard !disabled.contains(finding.rule) else { return nil }
            var changed = finding
            if let severity = severities[finding.rule] { changed.severity = severity }
            if let index = waiversByRule[finding.rule]?.first(where: { matches(waivers[$0], finding) }) {
                used.insert(index)
                changed.suppression = .waived(reason: waivers[index].reason)
            } else if known.contains(finding) {
                changed.suppression = .baseline
            }
            return changed
        }
        for (index, waiver) in waivers.enumerated() where !used.contains(index) && !disabled.contains(waiver.rule) {
            copy.findings.append(Finding(rule: waiver.rule, severity: .note, bundle: waiver.bundle, path: source ?? Self.fileName,
                message: "The waiver of \(waiver.rule) for '\(waiver.bundle)' (\(waiver.reason)) matches no finding: remove it, or correct its bundle (a bundle path or bundle identifier).",
                values: ["unused waiver", waiver.bundle]))
        }
        return copy
    }
}

/// A JSON report written by `check --format json` (or `--write-baseline`): the fingerprints of its findings.
public enum Baseline {
    /// Which way a report's fingerprints were made: 2 from rule, bundle and the finding's values; a report
    /// without `fingerprintVersion` from every quoted span of the message (`Finding.legacyFingerprint`).
    public static let fingerprintVersion = 2

    /// The findings a baseline knows.
    public struct Known: Sendable, Equatable {
        /// Fingerprints of the current version.
        public var fingerprints: Set<String> = []
        /// Fingerprints from a report written before `fingerprintVersion`, matched by `Finding.legacyFingerprint`.
        public var legacy: Set<String> = []

        public init(fingerprints: Set<String> = [], legacy: Set<String> = []) {
            self.fingerprints = fingerprints
            self.legacy = legacy
        }

        public func contains(_ finding: Finding) -> Bool {
            fingerprints.contains(finding.fingerprint) || (!legacy.isEmpty && legacy.contains(finding.legacyFingerprint))
        }
    }

    /// The largest baseline read: 64 MB is some 150,000 findings.
    public static let maximumFileSize = 64 << 20

    /// Reads the baseline at `path`.
    /// - Parameters:
    ///   - shownAs: the name messages give it (as a config writes it); `path` when nil.
    ///   - namedBy: the config that names it, for messages.
    /// - Throws: `BundleError(.invalidBaseline)` naming the file when it does not exist, cannot be read or is not
    ///   such a report (which entry, and why).
    public static func known(at path: String, shownAs: String? = nil, namedBy config: String? = nil) throws(BundleError) -> Known {
        let name = shownAs ?? path
        let by = config.map { " named by '\($0)'" } ?? ""
        func invalid(_ detail: String) -> BundleError { BundleError(.invalidBaseline, path: name, detail: "\(by) \(detail)") }
        let read: [UInt8]?
        do throws(BundleError) {
            // Only a regular file: a config (a pull request's file) naming /dev/stdin or a FIFO would make `check`
            // wait for a writer forever. Bounded like the report `check` writes for its largest projects.
            read = try InputFile.readIfExists(path, limit: maximumFileSize)
        } catch {
            throw invalid("cannot be read: \(error.detail)")
        }
        guard let bytes = read else { throw invalid("does not exist") }
        let root: JSONValue
        do {
            // A key given twice is refused, as in a config: a second "findings" would silently replace the first.
            root = try JSONValue.parseRefusingDuplicateKeys(bytes, path: path)
        } catch {
            throw invalid("is not a JSON report of lockstep check: \(error.detail)")
        }
        guard case .array(let findings)? = root["findings"] else {
            throw invalid("is not a JSON report of lockstep check (no 'findings' array)")
        }
        let current = root["fingerprintVersion"]?.integer == fingerprintVersion
        var known = Known()
        for (index, finding) in findings.enumerated() {
            guard case .object = finding else {
                throw invalid("is not a JSON report of lockstep check (finding \(index) is not an object)")
            }
            if case .string(let fingerprint)? = finding["fingerprint"] {
                if current { known.fingerprints.insert(fingerprint) } else { known.legacy.insert(fingerprint) }
            } else if finding["fingerprint"] != nil {
                throw invalid("is not a JSON report of lockstep check (the fingerprint of finding \(index) is not a string)")
            } else if case .string(let rule)? = finding["rule"], case .string(let bundle)? = finding["bundle"], case .string(let message)? = finding["message"] {
                // A report written before fingerprints existed: made as that version made them.
                known.legacy.insert(Finding(rule: RuleID(rawValue: rule), severity: .note, bundle: bundle, path: "", message: message).legacyFingerprint)
            } else {
                throw invalid("is not a JSON report of lockstep check (finding \(index) has no fingerprint, nor rule, bundle and message)")
            }
        }
        return known
    }

    /// Writes `result` as a baseline (the JSON report) to `path`: through a symlink to its target, atomically;
    /// nothing is written when `path` is a folder, a FIFO or a device.
    /// - Throws: `BundleError(.unwritable)` naming the file, with nothing written.
    public static func write(_ result: CheckResult, to path: String) throws(BundleError) {
        try SafeWrite.write(Array(Report.json(result).utf8), to: path, code: .unwritable, outcome: "the baseline was not written")
    }
}

/// Replacing a file `check` or `bump` writes where the user points (a baseline, an edited project): atomically (rule
/// `files.atomic`), through a symlink that stays inside the folder holding it, keeping its permissions, never over a
/// folder, a FIFO or a device.
enum SafeWrite {
    /// - Parameters:
    ///   - code: the error's code (`.unwritable` for a baseline, `.invalidBump` for `bump`).
    ///   - outcome: what the sentence ends with ("the baseline was not written", "nothing was written").
    /// - Throws: `BundleError` naming `path`: why it cannot be written, then `outcome`; nothing was written.
    static func write(_ bytes: [UInt8], to path: String, code: BundleError.Code, outcome: String) throws(BundleError) {
        try requireLinkInside(path, code: code, outcome: outcome)
        do {
            try AtomicFile.writeThrough(bytes, to: path)
        } catch {
            let reason: String
            switch error.code {
            case .notARegularFile(let kind): reason = "it is \(kind), not a regular file"
            default: reason = error.errno.map { "\($0)" } ?? "it cannot be written"
            }
            throw BundleError(code, path: path, detail: "\(reason); \(outcome)")
        }
    }

    /// Refuses a symbolic link at `path` whose file lies outside the folder holding the link: a checkout's files
    /// come from pull requests, and git stores links, so `lockstep-baseline.json -> ../../.profile` committed by one
    /// would have the documented refresh (`--write-baseline lockstep-baseline.json`) replace any file the user can
    /// write. A link to a file beside it or below it (`Release.xcconfig -> Shared.xcconfig`) is written through.
    static func requireLinkInside(_ path: String, code: BundleError.Code, outcome: String) throws(BundleError) {
        guard FileSystem.isSymbolicLink(path) else { return }
        let target: String
        do { target = try AtomicFile.writeTarget(of: path) } catch {
            throw BundleError(code, path: path, detail: "its symbolic link cannot be followed; \(outcome)")
        }
        guard let folder = FileSystem.realPath(AtomicFile.parentDirectory(of: path)),
              let targetFolder = FileSystem.realPath(AtomicFile.parentDirectory(of: target)), isInside(targetFolder, folder) else {
            throw BundleError(code, path: path, detail: "it is a symbolic link to '\(target)', outside the folder that holds the link; \(outcome) (name the file itself to write there)")
        }
    }

    /// Refuses a file that, links and `..` resolved, lies in none of `folders`: `bump` edits the files a project
    /// names (xcconfigs, Info.plists, included specs), and a pull request's project can name `/home/me/.profile.xcconfig`
    /// or `../../x`.
    static func requireInside(_ path: String, folders: [String], code: BundleError.Code, outcome: String) throws(BundleError) {
        let target = (try? AtomicFile.writeTarget(of: path)) ?? path
        guard let resolved = FileSystem.realPath(AtomicFile.parentDirectory(of: target)) else { return }  // the write reports it
        let roots = folders.compactMap { FileSystem.realPath($0) }
        guard roots.contains(where: { isInside(resolved, $0) }) else {
            throw BundleError(code, path: path, detail: "it is outside the project's folder and the working directory; \(outcome)")
        }
    }

    /// Whether the resolved folder `path` is `folder` or inside it.
    static func isInside(_ path: String, _ folder: String) -> Bool {
        path == folder || path.hasPrefix(folder == "/" ? "/" : folder + "/")
    }
}
