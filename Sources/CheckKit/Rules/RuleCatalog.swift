import BundleKit

/// The sections of the rules reference (<doc:Rules>), which comments cite as `<doc:Rules> "Title"`: each rule
/// belongs to one.
public enum RuleSection: String, CaseIterable, Sendable {
    case processes = "Processes and containers"
    case sharing = "Sharing data across processes"
    case widgetKit = "WidgetKit"
    case watchConnectivity = "WatchConnectivity"
    case appIntents = "App Intents"
    case bundles = "Bundles and versions"
    case stale = "The stale extension"
    case appStore = "The App Store's other embedded-bundle rules"
    case extensionFamily = "The rest of the extension family"

    /// The paragraph that opens the section in the reference.
    public var introduction: String {
        switch self {
        case .processes:
            "The host app, each extension and the watch app are separate processes with private containers; they share only the App Groups they are entitled to. The simulated processes enforce these rules."
        case .sharing:
            "How processes share data through a group container: defaults, files, notifications, SQLite and locks. The simulated frameworks enforce these rules."
        case .widgetKit:
            "Timelines, reloads, budgets, families and memory of a widget extension, as the simulated WidgetKit enforces them."
        case .watchConnectivity:
            "The phone and the watch share no container: data crosses between them through WCSession only, as the simulated WatchConnectivity enforces it."
        case .appIntents:
            "Where an App Intent runs and what it returns, as the simulated AppIntents enforces it."
        case .bundles:
            "What `lockstep check` reports about the versions, identifiers, extension points and App Groups of a containing app and the bundles it embeds, read from a manifest, a built app or a project (<doc:ReadingProjects>)."
        case .stale:
            "Every simulated process refuses to run at another build than its installed app: the runtime's own version rules."
        case .appStore:
            "The other App Store Connect rules on embedded bundles that `lockstep check` reports: privacy manifests, nesting, minimum OS versions, extension keys, signing and App Clips."
        case .extensionFamily:
            "Interactive and configurable widgets, complications, Live Activities, notification service and share extensions, App Clips and memory limits: each a separate process of its own bundle."
        }
    }
}

/// One rule, as `lockstep rules ID` explains it: its id, what Apple says and where, what Lockstep checks or enforces,
/// and the fix. A rule's description is written once, in its family's file under `Rules/` beside its logic; the
/// catalogue, `lockstep rules`, the SARIF rule descriptions and the reference article are derived from it.
public struct RuleDescription: Sendable, Equatable {
    public var id: RuleID
    /// The severity of its usual finding (some rules also report a lesser one: a verdict that depends on a value the
    /// checkout cannot supply is a warning). For a rule the simulated processes enforce, `.error`: it is refused.
    public var severity: Severity
    public var platforms: Set<Platform>
    /// One line.
    public var summary: String
    /// Apple's own wording, as Xcode, App Store Connect, the installer or the documentation print it.
    public var appleText: [String]
    public var fix: String
    /// The section of the reference it belongs to.
    public var section: RuleSection
    /// Where Apple says it: the document (title or URL), the App Store Connect message, the Xcode diagnostic; or
    /// "observed" and where, when Apple publishes no figure.
    public var sources: [String]
    /// What Lockstep checks or enforces: the command or process, what it reads, the exit status.
    public var enforcement: String
    /// Whether `lockstep check` reports it as a finding; otherwise the simulated processes enforce it.
    public var isChecked: Bool

    public init(id: RuleID, severity: Severity, platforms: Set<Platform>, summary: String, appleText: [String], fix: String,
                section: RuleSection = .bundles, sources: [String] = [], enforcement: String = "", isChecked: Bool = true) {
        self.id = id
        self.severity = severity
        self.platforms = platforms
        self.summary = summary
        self.appleText = appleText
        self.fix = fix
        self.section = section
        self.sources = sources
        self.enforcement = enforcement
        self.isChecked = isChecked
    }

    /// A family's rules, written as the reference reads them: one paragraph per rule, separated by a blank line.
    ///
    ///     version.missing | error | Bundles and versions
    ///     Every bundle's Info.plist has a CFBundleVersion and a CFBundleShortVersionString.
    ///     Apple: The bundle's Info.plist does not contain a CFBundleVersion key or its value is not a string.
    ///     Source: App Store Connect's upload validation
    ///     Lockstep: Reads each bundle's CFBundleVersion and CFBundleShortVersionString …
    ///     Fix: Set CFBundleVersion = $(CURRENT_PROJECT_VERSION) …
    ///
    /// The first line is the id, then `error`, `warning` or `note` for a rule `lockstep check` reports (its usual
    /// severity) or `runtime` for one the simulated processes enforce, then its `RuleSection`, and optionally the
    /// platforms it applies to (every platform for a rule of check, iOS and watchOS for the runtime's). Then the
    /// summary, and `Apple:` (one or more), `Source:` (one or more), `Lockstep:` and `Fix:` lines.
    /// A paragraph that does not read so stops the program: every rule file is read by the catalogue's tests.
    static func parse(_ text: String) -> [RuleDescription] {
        text.components(separatedBy: "\n\n").compactMap { paragraph -> RuleDescription? in
            let lines = paragraph.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
            guard let head = lines.first else { return nil }
            let fields = head.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
            guard fields.count >= 3, lines.count >= 2, let section = RuleSection(rawValue: fields[2]) else {
                preconditionFailure("A rule description must start with 'id | severity | section': \(head)")
            }
            let isChecked = fields[1] != "runtime"
            guard let severity = isChecked ? Severity(rawValue: fields[1]) : .error else {
                preconditionFailure("\(fields[0]): '\(fields[1])' is no severity (error, warning, note) and not 'runtime'")
            }
            let platforms: Set<Platform> = fields.count > 3
                ? Set(fields[3].split(separator: ",").map { name in
                    guard let platform = Platform(rawValue: name.trimmingCharacters(in: .whitespaces)) else {
                        preconditionFailure("\(fields[0]): '\(name)' is no platform")
                    }
                    return platform
                })
                : isChecked ? Set(Platform.allCases) : [.iOS, .watchOS]
            func values(_ label: String) -> [String] {
                lines.dropFirst(2).filter { $0.hasPrefix(label + ": ") }.map { String($0.dropFirst(label.count + 2)) }
            }
            return RuleDescription(id: RuleID(rawValue: fields[0]), severity: severity, platforms: platforms, summary: lines[1],
                                   appleText: values("Apple"), fix: values("Fix").joined(separator: " "), section: section,
                                   sources: values("Source"), enforcement: values("Lockstep").joined(separator: " "), isChecked: isChecked)
        }
    }
}

public enum RuleCatalog {
    /// Every rule Lockstep knows, family by family: each family's file under `Rules/` adds its list here.
    public static let all: [RuleDescription] = [
        processRules, groupRules, sharingRules, widgetRules, watchConnectivityRules, intentRules,
        versionRules, identifierRules, extensionPointRules, projectRules, specRules, staleRules,
        privacyRules, storeRules, signingRules, clipRules, extensionFamilyRules,
    ].flatMap { $0 }

    /// The rules `lockstep check` reports, in the order of the reference.
    public static let rules: [RuleDescription] = all.filter(\.isChecked)

    private static let byID = Dictionary(all.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })

    /// The rule with `id` (a rule of `check` or of the runtime), or nil.
    public static func rule(_ id: RuleID) -> RuleDescription? { byID[id] }

    /// The platforms of a rule in a stable order, for reports.
    public static func platformNames(_ platforms: Set<Platform>) -> [String] {
        Platform.allCases.filter(platforms.contains).map(\.rawValue)
    }

    /// The rules reference article (`Sources/lockstep/Lockstep.docc/Rules.md`), as `lockstep rules --format
    /// markdown` writes it: a section per `RuleSection`, a subsection per rule.
    public static func markdown() -> String {
        var lines = [
            "# Rules", "",
            "Every rule Lockstep checks or enforces: Apple's wording and where it comes from, what Lockstep does, and the fix.", "",
            "## Overview", "",
            "`lockstep check` reports the rules of \"Bundles and versions\" and \"The App Store's other embedded-bundle rules\"; the simulated processes (`lockstep up`, `run`, `verify`) enforce the others. `lockstep rules ID` prints one rule as below. This article is generated by `lockstep rules --format markdown` from the rule files in `Sources/CheckKit/Rules/`; edit those, not this file.", "",
        ]
        for section in RuleSection.allCases {
            lines += ["## \(section.rawValue)", "", section.introduction, ""]
            for rule in all where rule.section == section {
                lines += ["### `\(rule.id)`", "", rule.summary, ""]
                lines.append(rule.isChecked
                    ? "- **Checked by:** `lockstep check`, as \(article(rule.severity)) \(rule.severity.rawValue) (\(platformNames(rule.platforms).joined(separator: ", ")))."
                    : "- **Enforced by:** the simulated processes.")
                lines.append("- **Apple's wording:**")
                lines += rule.appleText.map { "  - \($0)" }
                lines.append("- **Source:** \(rule.sources.joined(separator: "; ")).")
                lines.append("- **What Lockstep does:** \(rule.enforcement)")
                lines.append("- **Fix:** \(rule.fix)")
                lines.append("")
            }
        }
        return lines.joined(separator: "\n")
    }

    private static func article(_ severity: Severity) -> String { severity == .error ? "an" : "a" }
}
