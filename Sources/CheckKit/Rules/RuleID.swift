/// A rule, by its id (`version.build-mismatch`): what every finding names, `lockstep rules` explains,
/// `.lockstep.json` disables and a baseline remembers. An id is written as the literal users read
/// (`"version.missing"`), in its family's file under `Rules/` only: at the head of its description, which makes it a
/// rule of the catalogue, and in the logic that reports it. A finding at its rule's severity looks the rule up in the
/// catalogue, and `RuleCatalogTests` checks that a rule file reports only the ids it describes; ids read from a
/// team's config are checked against the catalogue by `CheckPolicy`.
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
