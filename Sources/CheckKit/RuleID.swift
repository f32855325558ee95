/// A rule, by its id (`version.build-mismatch`): what every finding names, `lockstep rules` explains,
/// `.lockstep.json` disables and a baseline remembers. Product code names a rule by its constant here; a literal
/// (`"version.missing"`) is for tests and for ids read from a team's config, which `CheckPolicy` checks against
/// the catalogue.
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


    public static let bundleIDCharset: RuleID = "bundle-id.charset"
    public static let bundleIDDuplicate: RuleID = "bundle-id.duplicate"
    public static let bundleIDPrefix: RuleID = "bundle-id.prefix"
    public static let bundleIDSingleComponent: RuleID = "bundle-id.single-component"

    public static let bundleEmbedCycle: RuleID = "bundle.embed-cycle"
    public static let bundleNested: RuleID = "bundle.nested"
    public static let bundleNotEmbedded: RuleID = "bundle.not-embedded"

    public static let clipParent: RuleID = "clip.parent"
    public static let clipPrefix: RuleID = "clip.prefix"
    public static let clipSize: RuleID = "clip.size"

    public static let extensionActivationRule: RuleID = "extension.activation-rule"
    public static let extensionDisplayName: RuleID = "extension.display-name"
    public static let extensionPlistTypes: RuleID = "extension.plist-types"
    public static let extensionPoint: RuleID = "extension.point"

    public static let groupConfigDrift: RuleID = "group.config-drift"
    public static let groupIDFormat: RuleID = "group.id-format"
    public static let groupShared: RuleID = "group.shared"

    public static let osExtensionFloor: RuleID = "os.extension-floor"
    public static let osPlistVsBinary: RuleID = "os.plist-vs-binary"

    public static let privacyManifest: RuleID = "privacy.manifest"
    public static let privacyManifestInvalid: RuleID = "privacy.manifest-invalid"

    public static let runtimeVersionParity: RuleID = "runtime.version-parity"

    public static let settingsTargetOverride: RuleID = "settings.target-override"
    public static let settingsUnresolved: RuleID = "settings.unresolved"

    public static let signingProfile: RuleID = "signing.profile"

    public static let specEmbedFalse: RuleID = "spec.embed-false"
    public static let specVersionNumber: RuleID = "spec.version-number"
    public static let specWatchNotEmbedded: RuleID = "spec.watch-not-embedded"

    public static let versionBuildFormat: RuleID = "version.build-format"
    public static let versionBuildMismatch: RuleID = "version.build-mismatch"
    public static let versionMissing: RuleID = "version.missing"
    public static let versionShortFormat: RuleID = "version.short-format"
    public static let versionShortMismatch: RuleID = "version.short-mismatch"

    public static let watchCompanion: RuleID = "watch.companion"
    public static let watchPrefix: RuleID = "watch.prefix"
}
