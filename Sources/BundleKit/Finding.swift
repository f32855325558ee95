/// How serious a finding is. `--strict` turns warnings into errors.
public enum Severity: String, Codable, Sendable, Comparable {
    case note, warning, error

    public static func < (a: Severity, b: Severity) -> Bool {
        let order: [Severity] = [.note, .warning, .error]
        return order.firstIndex(of: a)! < order.firstIndex(of: b)!
    }
}

/// One violation of a rule of RULES.md, with Apple's own wording.
public struct Finding: Equatable, Hashable, Sendable {
    /// The rule id from RULES.md (`version.build-mismatch`).
    public var rule: String
    public var severity: Severity
    /// The bundle concerned (its bundle path, `Habits.app/PlugIns/HabitsWidget.appex`, or a target name).
    public var bundle: String
    /// The file the finding points at.
    public var path: String
    /// Apple's wording, then Lockstep's explanation when that adds something.
    public var message: String

    public init(rule: String, severity: Severity, bundle: String, path: String, message: String) {
        self.rule = rule
        self.severity = severity
        self.bundle = bundle
        self.path = path
        self.message = message
    }
}
