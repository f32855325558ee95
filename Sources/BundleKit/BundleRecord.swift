import Foundation

/// Where an embedded bundle sits inside its containing app.
public enum EmbedLocation: String, Codable, Sendable {
    /// `X.app/PlugIns/Y.appex` (NSExtension app extensions).
    case plugIns = "PlugIns"
    /// `X.app/Extensions/Y.appex` (ExtensionKit extensions, e.g. App Intents).
    case extensions = "Extensions"
    /// `X.app/Watch/W.app`.
    case watch = "Watch"
    /// `X.app/AppClips/C.app`: an App Clip, a bundle of the set like any other (versions, groups).
    case appClips = "AppClips"
}

/// The platform a bundle is built for (<doc:ReadingProjects> "Platforms"): some rules are the iOS installer's and do not apply
/// to a Mac app, whose App Group ids may also be team-prefixed.
public enum Platform: String, Codable, Sendable, CaseIterable {
    case iOS, watchOS, tvOS, visionOS, macOS

    /// The platform of an SDK name (`iphoneos`, `watchsimulator`, `macosx14.0`), or nil for `auto` and the unknown.
    public init?(sdk: String) {
        let name = sdk.lowercased()
        if name.hasPrefix("iphone") { self = .iOS }
        else if name.hasPrefix("watch") { self = .watchOS }
        else if name.hasPrefix("appletv") { self = .tvOS }
        else if name.hasPrefix("xr") { self = .visionOS }
        else if name.hasPrefix("macosx") || name == "macos" { self = .macOS }
        else { return nil }
    }

    /// The platform a built bundle's Info.plist names in `CFBundleSupportedPlatforms` (`iPhoneOS`, `MacOSX`).
    public init?(supportedPlatform name: String) {
        self.init(sdk: name == "MacOSX" ? "macosx" : name)
    }

    /// The build setting of the platform's minimum OS version.
    package var deploymentTargetSetting: String {
        switch self {
        case .iOS: "IPHONEOS_DEPLOYMENT_TARGET"
        case .watchOS: "WATCHOS_DEPLOYMENT_TARGET"
        case .tvOS: "TVOS_DEPLOYMENT_TARGET"
        case .visionOS: "XROS_DEPLOYMENT_TARGET"
        case .macOS: "MACOSX_DEPLOYMENT_TARGET"
        }
    }

    /// The device SDK that `[sdk=…]` conditions are decided for.
    package var sdk: String {
        switch self {
        case .iOS: "iphoneos"
        case .watchOS: "watchos"
        case .tvOS: "appletvos"
        case .visionOS: "xros"
        case .macOS: "macosx"
        }
    }
}

/// Where a value came from, for diagnostics: a file, and optionally the key or build setting inside it.
public struct SourceLocation: Equatable, Hashable, Sendable, CustomStringConvertible {
    /// The same place when the file and the key are: the line and column say where the key is, not which.
    public static func == (a: SourceLocation, b: SourceLocation) -> Bool { a.file == b.file && a.detail == b.detail }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(file)
        hasher.combine(detail)
    }

    /// The file a finding points at (a manifest, an Info.plist, a project.pbxproj, an xcconfig).
    public var file: String
    /// The key, setting or target inside the file, when known (`CFBundleVersion`, `CURRENT_PROJECT_VERSION`).
    public var detail: String?
    /// Where in `file` (1-based), when the reader knows it: the xcconfig assignment, the pbxproj setting, the
    /// plist key, the spec's value. Findings about the value carry it.
    public var line: Int?
    public var column: Int?
    /// For a setting in a project.pbxproj, whose line is found only when a finding points at it: the setting's key
    /// as written and the id of the object that holds it (`PbxprojPositions.located`). Finding the line of every
    /// checked value of every target when few of them are reported was a thirteenth of a 200-target check.
    package var pbxprojSetting: PbxprojSetting?

    public init(file: String, detail: String? = nil) {
        self.file = file
        self.detail = detail
    }

    public init(file: String, detail: String?, line: Int?, column: Int? = nil) {
        self.file = file
        self.detail = detail
        self.line = line
        self.column = line == nil ? nil : column
    }

    public var description: String { detail.map { "\(file) (\($0))" } ?? file }
}

/// Where each of a bundle's values came from, by Info.plist or entitlement key (`CFBundleVersion` → the xcconfig
/// line that set it). A bundle has a handful, found by comparing keys: a dictionary hashed each key to add it and
/// again to find it, for every bundle (a fiftieth of a 200-target check), and its equality hashed them all again.
public struct ValueSources: Equatable, Sendable, Sequence, ExpressibleByDictionaryLiteral, CustomStringConvertible {
    public typealias Element = (key: String, value: SourceLocation)
    /// The keys, each once, in the order they were added, and their sources at the same indices (two arrays: an
    /// array of pairs is copied pair by pair to compare one key).
    public private(set) var keys: [String] = []
    package private(set) var sources: [SourceLocation] = []

    /// The sources, in the order of `keys`.
    public var values: [SourceLocation] { sources }

    public init() {}

    /// Empty, with room for `capacity` entries.
    package init(capacity: Int) {
        keys.reserveCapacity(capacity)
        sources.reserveCapacity(capacity)
    }

    public init(dictionaryLiteral elements: (String, SourceLocation)...) {
        for (key, value) in elements { self[key] = value }
    }

    /// Adds `key`, which is not among the keys yet, without looking for it (asserted in debug builds; the resolver,
    /// its one caller, adds the five checked keys, each once).
    package mutating func add(_ key: String, _ source: SourceLocation) {
        assert(!keys.contains(key), "\(key) is a value source already")
        keys.append(key)
        sources.append(source)
    }

    public var count: Int { keys.count }
    public var isEmpty: Bool { keys.isEmpty }

    /// The source of `key`'s value; setting nil removes it.
    public subscript(key: String) -> SourceLocation? {
        get { keys.firstIndex(of: key).map { sources[$0] } }
        set {
            switch (keys.firstIndex(of: key), newValue) {
            case (let index?, let value?): sources[index] = value
            case (let index?, nil): keys.remove(at: index); sources.remove(at: index)
            case (nil, let value?): keys.append(key); sources.append(value)
            case (nil, nil): break
            }
        }
    }

    public func makeIterator() -> AnyIterator<Element> {
        var index = 0
        return AnyIterator {
            guard index < keys.count else { return nil }
            defer { index += 1 }
            return (keys[index], sources[index])
        }
    }

    /// The same keys with equal sources, in any order (as two dictionaries are equal).
    public static func == (a: ValueSources, b: ValueSources) -> Bool {
        a.count == b.count && a.keys.indices.allSatisfy { b[a.keys[$0]] == a.sources[$0] }
    }

    public var description: String {
        "[" + keys.indices.map { "\(keys[$0]): \(sources[$0])" }.joined(separator: ", ") + "]"
    }
}

/// A setting in a project.pbxproj: its key as written and the id of the object that holds it. A class, so that a
/// `SourceLocation` grows by a word, not by two strings, for the values that never need their line.
package final class PbxprojSetting: Sendable {
    package let key: String
    package let object: String

    package init(key: String, object: String) {
        self.key = key
        self.object = object
    }
}

/// One bundle's facts, as the rules of <doc:Rules> "Bundles and versions" need them — from a manifest, an Info.plist and
/// `.entitlements`, a built `.app`, or a resolved Xcode target.
///
/// Every value is optional because real inputs omit them; the rules report what is missing.
public struct BundleRecord: Equatable, Sendable {
    /// Display name (`HabitsWidget`, or the Xcode target name).
    public var name: String { get { box.fields.name } set { fields.name = newValue } }
    public var role: BundleRole { get { box.fields.role } set { fields.role = newValue } }
    /// `CFBundleIdentifier`.
    public var bundleIdentifier: String? { get { box.fields.bundleIdentifier } set { fields.bundleIdentifier = newValue } }
    /// `CFBundleShortVersionString`.
    public var shortVersion: String? { get { box.fields.shortVersion } set { fields.shortVersion = newValue } }
    /// `CFBundleVersion`.
    public var buildVersion: String? { get { box.fields.buildVersion } set { fields.buildVersion = newValue } }
    /// `NSExtension.NSExtensionPointIdentifier` or `EXAppExtensionAttributes.EXExtensionPointIdentifier`.
    public var extensionPoint: String? { get { box.fields.extensionPoint } set { fields.extensionPoint = newValue } }
    /// Whether the Info.plist has an `NSExtension` (or `EXAppExtensionAttributes`) dictionary at all.
    public var hasExtensionDictionary: Bool { get { box.fields.hasExtensionDictionary } set { fields.hasExtensionDictionary = newValue } }
    /// `WKCompanionAppBundleIdentifier`.
    public var companionAppBundleIdentifier: String? { get { box.fields.companionAppBundleIdentifier } set { fields.companionAppBundleIdentifier = newValue } }
    /// `CFBundlePackageType` (`APPL`, `XPC!`).
    public var packageType: String? { get { box.fields.packageType } set { fields.packageType = newValue } }
    /// `com.apple.security.application-groups`.
    public var appGroups: [String] { get { box.fields.appGroups } set { fields.appGroups = newValue } }
    /// Whether `appGroups` is known: `false` for a built bundle whose entitlements file could not be found
    /// (they are then only inside the code signature), so the App Group rules are skipped, not guessed.
    public var appGroupsKnown: Bool { get { box.fields.appGroupsKnown } set { fields.appGroupsKnown = newValue } }
    /// Where the bundle is embedded in its containing app (`nil` for the app itself).
    public var embedLocation: EmbedLocation? { get { box.fields.embedLocation } set { fields.embedLocation = newValue } }
    /// The bundle's path as App Store Connect names it: `Habits.app/PlugIns/HabitsWidget.appex`.
    public var bundlePath: String { get { box.fields.bundlePath } set { fields.bundlePath = newValue } }
    /// The file diagnostics point at for this bundle (an Info.plist, the manifest, a pbxproj).
    public var source: SourceLocation { get { box.fields.source } set { fields.source = newValue } }
    /// Where each checked value came from, keyed by Info.plist key (`CFBundleVersion` → the xcconfig line that set it).
    public var valueSources: ValueSources { get { box.fields.valueSources } set { fields.valueSources = newValue } }
    /// The executable to launch for this bundle (manifest only).
    public var executable: String? { get { box.fields.executable } set { fields.executable = newValue } }
    /// The memory limit in MB the supervisor enforces (rule `widget.memory`), if any.
    public var memoryLimitMB: Int? { get { box.fields.memoryLimitMB } set { fields.memoryLimitMB = newValue } }
    /// The platform the bundle is built for.
    public var platform: Platform { get { box.fields.platform } set { fields.platform = newValue } }
    /// `NSSupportsLiveActivities`: the app may start Live Activities (rule `activity.lifecycle`).
    public var supportsLiveActivities: Bool { get { box.fields.supportsLiveActivities } set { fields.supportsLiveActivities = newValue } }
    /// The `NSExtensionActivationSupports…` keys of a dictionary `NSExtensionActivationRule`, each as a count (a
    /// boolean is 0 or 1): the items a share extension is offered (rule `share.extension`).
    public var activationSupports: [String: Int] { get { box.fields.activationSupports } set { fields.activationSupports = newValue } }
    /// What a built bundle's executable and privacy manifest say (rule `privacy.manifest`); nil when there is
    /// no executable Lockstep could read (a project, a manifest, an unsigned fixture).
    public var privacy: PrivacyFacts? { get { box.fields.privacy } set { fields.privacy = newValue } }
    /// What a built bundle's Info.plist, executable and folder say for the other App Store rules of <doc:Rules> "The App Store's other embedded-bundle rules".
    public var store: StoreFacts? { get { box.fields.store } set { fields.store = newValue } }
    /// A built bundle's `embedded.mobileprovision` and signed entitlements (rule `signing.profile`).
    public var signing: SigningFacts? { get { box.fields.signing } set { fields.signing = newValue } }
    /// Whether Xcode writes this bundle's Info.plist itself, versions included: the stub container of a watch-only
    /// app (`com.apple.product-type.application.watchapp2-container`), which has no Info.plist of its own to check.
    public var infoPlistWrittenByXcode: Bool { get { box.fields.infoPlistWrittenByXcode } set { fields.infoPlistWrittenByXcode = newValue } }
    /// Settings its values use that the checkout cannot supply (kept as `$(NAME)` in the values), with a sentence
    /// saying where each would have come from (<doc:ReadingProjects> "What the checkout does not hold").
    public var unknowns: [String: String] { get { box.fields.unknowns } set { fields.unknowns = newValue } }
    /// The bundle's resources (manifest only): asset catalogs, string catalogs, `.lproj` folders and other files,
    /// absolute, where `Bundle.main`, `Color("Name")` and `Image("Name")` look.
    public var resources: [String] { get { box.fields.resources } set { fields.resources = newValue } }

    /// The stored fields (each documented at its property above), shared by the copies of a record until one of
    /// them changes a field.
    package struct Fields: Equatable, Sendable {
        var name: String
        var role: BundleRole
        var bundleIdentifier: String?
        var shortVersion: String?
        var buildVersion: String?
        var extensionPoint: String?
        var hasExtensionDictionary: Bool
        var companionAppBundleIdentifier: String?
        var packageType: String?
        var appGroups: [String]
        var appGroupsKnown: Bool
        var embedLocation: EmbedLocation?
        var bundlePath: String
        var source: SourceLocation
        var valueSources: ValueSources
        var executable: String?
        var memoryLimitMB: Int?
        var platform: Platform
        var supportsLiveActivities: Bool = false
        var activationSupports: [String: Int] = [:]
        var privacy: PrivacyFacts?
        var store: StoreFacts?
        var signing: SigningFacts?
        var infoPlistWrittenByXcode: Bool
        var unknowns: [String: String]
        var resources: [String] = []
    }

    /// A record's fields, immutable: changing one makes a new box. The fields are 600 bytes holding some thirty
    /// references, and Swift copied them whole — retaining each reference, then releasing them all again —
    /// whenever a record was made, or read out of an array to be handed to another module or to a closure (the
    /// rules, the comparison of two configurations): 1,200 copies in a 200-target check. A box is copied by one retain.
    private final class Box: Sendable {
        let fields: Fields
        init(_ fields: Fields) { self.fields = fields }
    }

    private var box: Box

    /// Every field at once, for the comparisons that read them all.
    package var fields: Fields {
        get { box.fields }
        set { box = Box(newValue) }
    }

    /// Equal records: the same box, or equal fields. The rules ask whether a bundle is its set's app this way for
    /// every bundle: two bundles of a set differ in their paths, compared before every field.
    public static func == (a: BundleRecord, b: BundleRecord) -> Bool {
        a.box === b.box || (a.box.fields.bundlePath == b.box.fields.bundlePath && a.box.fields == b.box.fields)
    }

    public init(
        name: String, role: BundleRole, bundleIdentifier: String? = nil, shortVersion: String? = nil,
        buildVersion: String? = nil, extensionPoint: String? = nil, hasExtensionDictionary: Bool = false,
        companionAppBundleIdentifier: String? = nil, packageType: String? = nil, appGroups: [String] = [],
        appGroupsKnown: Bool = true, embedLocation: EmbedLocation? = nil, bundlePath: String, source: SourceLocation,
        valueSources: ValueSources = [:], executable: String? = nil, memoryLimitMB: Int? = nil,
        platform: Platform = .iOS, unknowns: [String: String] = [:], store: StoreFacts? = nil, infoPlistWrittenByXcode: Bool = false
    ) {
        box = Box(Fields(
            name: name, role: role, bundleIdentifier: bundleIdentifier, shortVersion: shortVersion, buildVersion: buildVersion,
            extensionPoint: extensionPoint, hasExtensionDictionary: hasExtensionDictionary,
            companionAppBundleIdentifier: companionAppBundleIdentifier, packageType: packageType, appGroups: appGroups,
            appGroupsKnown: appGroupsKnown, embedLocation: embedLocation, bundlePath: bundlePath, source: source,
            valueSources: valueSources, executable: executable, memoryLimitMB: memoryLimitMB, platform: platform,
            privacy: nil, store: store, signing: nil, infoPlistWrittenByXcode: infoPlistWrittenByXcode, unknowns: unknowns))
    }
}

extension BundleRecord: CustomDebugStringConvertible {
    /// Every field, as a struct of them prints (`BundleRecord(name: "Widget", role: …)`), not the box that holds them.
    public var debugDescription: String { "BundleRecord" + String(describing: box.fields).dropFirst("Fields".count) }
}

extension BundleRecord {
    /// The fields `equalsButForWhereWritten` compares, in declaration order: a test fails when one is added to the
    /// record and not to the comparison.
    package static let comparedButForWhereWritten = [
        "name", "role", "bundleIdentifier", "shortVersion", "buildVersion", "extensionPoint", "hasExtensionDictionary",
        "companionAppBundleIdentifier", "packageType", "appGroups", "appGroupsKnown", "embedLocation", "bundlePath", "source",
        "valueSources", "executable", "memoryLimitMB", "platform", "supportsLiveActivities", "activationSupports", "privacy",
        "store", "signing", "infoPlistWrittenByXcode", "unknowns", "resources",
    ]

    /// Whether the two are equal but for where their values are written: `source` and `valueSources` are compared by
    /// file only, not by detail, line or column — the same bundle in two build configurations, each of whose settings
    /// has its own line and its own `[Debug]` in a source's detail. Field by field, without copying either record.
    package func equalsButForWhereWritten(_ other: BundleRecord) -> Bool {
        guard name == other.name, role == other.role, bundleIdentifier == other.bundleIdentifier,
              shortVersion == other.shortVersion, buildVersion == other.buildVersion, extensionPoint == other.extensionPoint,
              hasExtensionDictionary == other.hasExtensionDictionary,
              companionAppBundleIdentifier == other.companionAppBundleIdentifier, packageType == other.packageType,
              appGroups == other.appGroups, appGroupsKnown == other.appGroupsKnown, embedLocation == other.embedLocation,
              bundlePath == other.bundlePath, source.file == other.source.file, valueSources.count == other.valueSources.count,
              executable == other.executable, memoryLimitMB == other.memoryLimitMB, platform == other.platform,
              supportsLiveActivities == other.supportsLiveActivities, activationSupports == other.activationSupports,
              privacy == other.privacy, store == other.store, signing == other.signing,
              infoPlistWrittenByXcode == other.infoPlistWrittenByXcode, unknowns == other.unknowns,
              resources == other.resources else { return false }
        // Sources are usually added in the same order: compared side by side, a key looked up only where they are not.
        let (keys, sources) = (valueSources.keys, valueSources.sources)
        let (otherKeys, otherSources) = (other.valueSources.keys, other.valueSources.sources)
        for index in keys.indices {
            if keys[index] == otherKeys[index] {
                guard sources[index].file == otherSources[index].file else { return false }
            } else if other.valueSources[keys[index]]?.file != sources[index].file {
                return false
            }
        }
        return true
    }
}

/// What a built bundle's provisioning profile allows and what it is signed with (rule `signing.profile`).
public struct SigningFacts: Equatable, Sendable {
    /// The profile, as reports name it.
    public var profilePath: String
    /// Whether the profile could be read as a CMS SignedData holding a property list.
    public var readable = true
    public var team: String?
    /// The profile's entitlements (application-identifier, groups, keychain groups, aps-environment).
    public var allowed = Entitlements()
    /// The bundle's signed entitlements; nil when they are not in a file Lockstep reads.
    public var signed: Entitlements?

    public struct Entitlements: Equatable, Sendable {
        public var applicationIdentifier: String?
        public var appGroups: [String] = []
        public var keychainGroups: [String] = []
        public var apsEnvironment: String?

        public init() {}

        package init(_ plist: [String: Any]) {
            applicationIdentifier = plist["application-identifier"] as? String
            appGroups = plist["com.apple.security.application-groups"] as? [String] ?? []
            keychainGroups = plist["keychain-access-groups"] as? [String] ?? []
            apsEnvironment = plist["aps-environment"] as? String
        }
    }

    public init(profilePath: String) { self.profilePath = profilePath }
}

/// The facts of a built bundle the App Store's other embedded-bundle rules need (<doc:Rules> "The App Store's other embedded-bundle rules").
public struct StoreFacts: Equatable, Sendable {
    /// `MinimumOSVersion` (`LSMinimumSystemVersion` on macOS).
    public var minimumOS: String?
    /// The minimum OS the executable was built for (`LC_BUILD_VERSION` / `LC_VERSION_MIN_*`).
    public var executableMinimumOS: String?
    /// What an extension holds that it may not: a `Frameworks` folder, nested bundles (rule `bundle.nested`).
    public var nested: [String] = []
    /// Whether `CFBundleDisplayName` is a non-empty string.
    public var hasDisplayName = false
    /// `NSExtensionAttributes.NSExtensionActivationRule` when it is a string (a predicate).
    public var activationRule: String?
    /// `NSExtensionActivationSupports…` keys whose value has the wrong type, as "key (type)".
    public var activationTypeProblems: [String] = []
    /// The signed `com.apple.developer.parent-application-identifiers` (an App Clip's), and `application-identifier`.
    public var parentApplicationIdentifiers: [String]?
    public var applicationIdentifier: String?
    /// The bytes of every file in the bundle, uncompressed (measured for App Clips, rule `clip.size`).
    public var size: Int?
    /// Whether these facts come from a built bundle (else from a project, which shows no build's result).
    public var isBuilt = true

    public init() {}

    /// rule `extension.activation-rule` and extension.plist-types: an Info.plist's activation rule when it is a
    /// predicate string, and the `NSExtensionActivationSupports…` keys whose values are neither booleans nor numbers.
    package static func activation(_ plist: [String: Any]) -> (rule: String?, problems: [String]) {
        let attributes = (plist["NSExtension"] as? [String: Any])?["NSExtensionAttributes"] as? [String: Any]
        let rule = attributes?["NSExtensionActivationRule"]
        var problems: [String] = []
        for (key, value) in ((rule as? [String: Any]) ?? [:]).sorted(by: { $0.key < $1.key }) where key.hasPrefix("NSExtensionActivationSupports") {
            // ITMS-90361: the …WithMaxCount keys are integers, the others booleans. A plist's numbers and booleans
            // both reach here as numbers on Linux, so what is refused is what is neither: a string ("YES"), a
            // collection, data.
            guard !(value is NSNumber || value is Bool || value is Int) else { continue }
            problems.append("\(key) (\(key.hasSuffix("WithMaxCount") ? "is not an integer" : "is not boolean"))")
        }
        return (rule as? String, problems)
    }
}

/// The required-reason API facts of one built bundle.
public struct PrivacyFacts: Equatable, Sendable {
    /// The executable as App Store Connect names it, relative to the app: `PlugIns/Widget.appex/Widget`.
    public var executable: String
    /// The required-reason API categories its imports show, each with the symbols that show it.
    public var used: [String: [String]]
    /// The categories its `PrivacyInfo.xcprivacy` declares with a reason; nil when it has none.
    public var declared: Set<String>?
    /// The privacy manifest, as reports name it.
    public var manifestPath: String?
    /// Why the privacy manifest is invalid (empty when it is valid).
    public var problems: [String]

    public init(executable: String, used: [String: [String]], declared: Set<String>?, manifestPath: String?, problems: [String]) {
        self.executable = executable
        self.used = used
        self.declared = declared
        self.manifestPath = manifestPath
        self.problems = problems
    }
}
