/// A rule, by its id (`version.build-mismatch`): what every finding names, `lockstep rules` explains,
/// `.lockstep.json` disables and a baseline remembers. Product code names a rule of `check` by its constant, which its
/// family's file under `Rules/` declares beside its description and logic; a literal (`"version.missing"`) is for
/// tests, for ids read from a team's config (which `CheckPolicy` checks against the catalogue), and for the runtime's
/// rules in their descriptions.
public struct RuleID: RawRepresentable, Hashable, Comparable, Sendable, Codable, ExpressibleByStringLiteral, CustomStringConvertible {
    public let rawValue: String

    public init(rawValue: String) { self.rawValue = rawValue }
    public init(stringLiteral value: String) { rawValue = value }
    public init(from decoder: any Decoder) throws { rawValue = try decoder.singleValueContainer().decode(String.self) }
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }

    public var description: String { rawValue }
    public static func < (a: RuleID, b: RuleID) -> Bool { a.rawValue < b.rawValue }
    /// The rule's family: `version`, `bundle-id`, `spec`, ….
    public var family: Substring { rawValue.prefix { $0 != "." } }
}
