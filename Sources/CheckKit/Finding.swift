import XcodeKit

/// How serious a finding is. `--strict` turns warnings into errors.
public enum Severity: String, Codable, Sendable, Comparable {
    case note, warning, error

    public static func < (a: Severity, b: Severity) -> Bool {
        let order: [Severity] = [.note, .warning, .error]
        return order.firstIndex(of: a)! < order.firstIndex(of: b)!
    }
}

/// One violation of a rule of `lockstep check`, with Apple's own wording.
public struct Finding: Equatable, Hashable, Sendable {
    /// The rule (`version.build-mismatch`).
    public var rule: RuleID
    public var severity: Severity
    /// The bundle concerned (its bundle path, `Habits.app/PlugIns/HabitsWidget.appex`, or a target name).
    public var bundle: String
    /// The file the finding points at.
    public var path: String
    /// The 1-based line in `path` the finding points at, when its reader knows it (the pbxproj setting, the
    /// xcconfig assignment, the plist key, the spec's key); nil for a file without lines or a finding about a
    /// whole file.
    public var line: Int?
    /// The 1-based column (in characters) on `line`, when the reader knows it; nil otherwise, and always nil
    /// without a line.
    public var column: Int?
    /// Apple's wording, then Lockstep's explanation when that adds something.
    public var message: String
    /// Why the finding is reported but does not fail the run (`.lockstep.json` waivers, a baseline).
    public var suppression: Suppression?

    public enum Suppression: Equatable, Hashable, Sendable {
        /// A waiver in the config, with its reason.
        case waived(reason: String)
        /// Present in the baseline: known, not new.
        case baseline
    }

    /// How a suppressed finding is labelled in every format: " (waived: reason)", " (known from the baseline)".
    public var suppressionLabel: String {
        switch suppression {
        case .waived(let reason)?: " (waived: \(reason))"
        case .baseline?: " (known from the baseline)"
        case nil: ""
        }
    }

    /// The values the finding is about (the two versions that differ, the identifier, the group), in a fixed
    /// order: what its fingerprint is made of. Nil when the rule gives none; the fingerprint then takes the values
    /// the message quotes in '…' or "…".
    public var values: [String]?

    /// What identifies the finding across runs, for a baseline: its rule, its bundle and its values — not its
    /// wording, file or line, which change with Lockstep's version and the project's layout.
    public var fingerprint: String {
        ([rule.rawValue, bundle] + (values ?? Self.quotedValues(message))).joined(separator: "|")
    }

    /// The fingerprint Lockstep wrote before fingerprints were versioned (every '…' pair of the message, an
    /// apostrophe in prose included): how a finding is matched against a baseline written then.
    public var legacyFingerprint: String {
        var values: [Substring] = []
        var rest = message[...]
        while let open = rest.firstIndex(of: "'"), let close = rest[rest.index(after: open)...].firstIndex(of: "'") {
            values.append(rest[rest.index(after: open)..<close])
            rest = rest[rest.index(after: close)...]
        }
        return ([rule.rawValue, bundle] + values.map(String.init)).joined(separator: "|")
    }

    /// The spans of `message` quoted as values, '1.0' or "Config/Version.xcconfig": a single quote opens only
    /// where no letter or digit precedes it and closes only where none follows, so the apostrophe of "project's"
    /// or "it's" is prose, not a quote. A quoted absolute path keeps only its last component: the checkout's
    /// folder differs between a laptop and CI.
    static func quotedValues(_ message: String) -> [String] {
        let characters = Array(message)
        func isWord(_ index: Int) -> Bool {
            index >= 0 && index < characters.count && (characters[index].isLetter || characters[index].isNumber)
        }
        func closes(_ quote: Character, at index: Int) -> Bool {
            characters[index] == quote && (quote == "\"" || !isWord(index + 1))
        }
        var values: [String] = []
        var index = 0
        while index < characters.count {
            let quote = characters[index]
            guard quote == "\"" || (quote == "'" && !isWord(index - 1)) else { index += 1; continue }
            var close = index + 1
            while close < characters.count, !closes(quote, at: close) { close += 1 }
            guard close < characters.count else { break }
            let value = String(characters[(index + 1)..<close])
            values.append(value.hasPrefix("/") ? PathText.lastComponent(of: value) : value)
            index = close + 1
        }
        return values
    }

    public init(rule: RuleID, severity: Severity, bundle: String, path: String, message: String,
                line: Int? = nil, column: Int? = nil, values: [String]? = nil) {
        self.values = values
        self.rule = rule
        self.severity = severity
        self.bundle = bundle
        self.path = path
        self.message = message
        self.line = line
        self.column = line == nil ? nil : column
    }

    /// Equal when everything a report shows is equal: `values`, which only make the fingerprint (and which a
    /// test building an expected finding from its message need not repeat), are left out.
    public static func == (a: Finding, b: Finding) -> Bool {
        a.rule == b.rule && a.severity == b.severity && a.bundle == b.bundle && a.path == b.path && a.line == b.line
            && a.column == b.column && a.message == b.message && a.suppression == b.suppression
    }

    /// Whether the two are equal but for their line and column: the same finding of two configurations.
    func equalsIgnoringPosition(_ other: Finding) -> Bool {
        rule == other.rule && severity == other.severity && bundle == other.bundle && path == other.path
            && message == other.message && suppression == other.suppression
    }

    /// The rule, bundle, path and line: findings that share them are few and are told apart by `==`, and hashing
    /// every message was most of what `check` spends removing the findings two configurations share.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(rule)
        hasher.combine(bundle)
        hasher.combine(path)
        hasher.combine(line)
    }

    /// This finding pointing at `line` (and `column`) of its file: how a rule attaches the position its reader
    /// recorded. A nil line clears both.
    public func with(line: Int?, column: Int? = nil) -> Finding {
        var copy = self
        copy.line = line
        copy.column = line == nil ? nil : column
        return copy
    }

    /// This finding pointing at `path`, `line` and `column`: for a rule whose value came from another file than
    /// the one the finding first named (an xcconfig, a prefix header).
    public func with(path: String, line: Int?, column: Int? = nil) -> Finding {
        var copy = with(line: line, column: column)
        copy.path = path
        return copy
    }
}

extension Finding {
    /// A finding at its rule's usual severity, as the rule's description in its family's file states it: a rule's
    /// severity is written once, there. Only a lesser finding (a verdict an unknown setting decides, a note) names
    /// its own. The rule is looked up in the catalogue, so a rule file cannot report an id it does not describe.
    init(rule: RuleID, bundle: String, path: String, message: String, line: Int? = nil, column: Int? = nil, values: [String]? = nil) {
        guard let description = RuleCatalog.rule(rule) else { preconditionFailure("rule \(rule) is reported but no rule file describes it") }
        self.init(rule: rule, severity: description.severity, bundle: bundle, path: path, message: message,
                  line: line, column: column, values: values)
    }
}
