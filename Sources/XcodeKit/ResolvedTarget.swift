import BundleKit
import Foundation
import LockstepSystem

/// One target in one configuration, with its build settings and the Info.plist values they produce.
///
/// Immutable and shared (a class, not a struct of thirteen fields): each bundle set, finding and bump step that
/// refers to a resolution would otherwise copy it whole.
package final class ResolvedTarget {
    /// How one checked Info.plist value was obtained.
    package struct Value {
        /// The unexpanded text (`$(CURRENT_PROJECT_VERSION)`, a literal, or the generated `$(MARKETING_VERSION)`).
        package var template: String
        package var value: String
        package var unresolved: Set<String>
        package var source: SourceLocation
        /// True when the text is a literal written in the Info.plist file (bump edits the plist, not a setting).
        package var literalInPlist: Bool
        /// The first setting the template references, which says where the value came from, and its number in
        /// the project's `SettingNames`: another configuration that reads the same finds its source there.
        var reference: String?
        var referenceNumber: Int?
    }

    /// The values of the checked keys, kept by `CheckedKey` (the rules ask for each of every target), not hashed.
    /// One field per key, not an array of optionals: such an array is an allocation per target, and freeing it
    /// goes through the runtime's generic value witnesses for each element (a twentieth of a 200-target check).
    package struct CheckedValues {
        private var bundleIdentifier, buildVersion, shortVersion, companionAppBundleIdentifier, packageType: Value?

        package subscript(_ key: CheckedKey) -> Value? {
            get {
                switch key {
                case .bundleIdentifier: bundleIdentifier
                case .buildVersion: buildVersion
                case .shortVersion: shortVersion
                case .companionAppBundleIdentifier: companionAppBundleIdentifier
                case .packageType: packageType
                }
            }
            set {
                switch key {
                case .bundleIdentifier: bundleIdentifier = newValue
                case .buildVersion: buildVersion = newValue
                case .shortVersion: shortVersion = newValue
                case .companionAppBundleIdentifier: companionAppBundleIdentifier = newValue
                case .packageType: packageType = newValue
                }
            }
        }

        /// The value of the Info.plist key `key`, when it is a checked one.
        package subscript(_ key: String) -> Value? {
            CheckedKey.allCases.first { $0.key == key }.flatMap { self[$0] }
        }

        /// Where each present value came from, by Info.plist key, in room for `extra` more entries: a bundle
        /// record's `valueSources`. Made field by field, as `mapValues(\.source)` does, but without a key path
        /// applied through a generic closure (4% of a 200-target check).
        package func sources(reserving extra: Int) -> ValueSources {
            var result = ValueSources(capacity: CheckedKey.allCases.count + extra)
            // The sources alone: binding each value copied all of it.
            if let source = bundleIdentifier?.source { result.add(CheckedKey.bundleIdentifier.key, source) }
            if let source = buildVersion?.source { result.add(CheckedKey.buildVersion.key, source) }
            if let source = shortVersion?.source { result.add(CheckedKey.shortVersion.key, source) }
            if let source = companionAppBundleIdentifier?.source { result.add(CheckedKey.companionAppBundleIdentifier.key, source) }
            if let source = packageType?.source { result.add(CheckedKey.packageType.key, source) }
            return result
        }

        /// Gives each value that `source` finds a source for (by its reference and the reference's number) that
        /// source, in place: reading a value out of its optional and back copied all of it.
        mutating func resource(_ source: (String, Int?) -> SourceLocation?) {
            func update(_ value: inout Value?) {
                guard let reference = value?.reference, let found = source(reference, value?.referenceNumber) else { return }
                value!.source = found
            }
            update(&bundleIdentifier)
            update(&buildVersion)
            update(&shortVersion)
            update(&companionAppBundleIdentifier)
            update(&packageType)
        }

        /// The expanded text of `key`'s value. The subscript, called from another module, returns a copy of the
        /// whole value (its strings, set and source), 9,600 times in a 200-target check: this copies one string.
        package func text(_ key: CheckedKey) -> String? {
            self[key]?.value
        }

        /// Whether `key`'s value references settings nothing defines, without a copy of the value.
        package func isUnresolved(_ key: CheckedKey) -> Bool {
            self[key].map { !$0.unresolved.isEmpty } ?? false
        }

        /// The values present, by Info.plist key.
        package func mapValues<T>(_ transform: (Value) -> T) -> [String: T] {
            var result = [String: T](minimumCapacity: CheckedKey.allCases.count)
            for key in CheckedKey.allCases {
                if let value = self[key] { result[key.key] = transform(value) }
            }
            return result
        }
    }

    package let target: XcodeProject.Target
    package let configuration: String
    /// "target 'Widget' [Release]", as findings and records name it.
    package let context: String
    package let settings: BuildSettings
    package let plistPath: String?
    package let values: CheckedValues
    package let extensionPoint: String?
    package let hasExtensionDictionary: Bool
    package let appGroups: [String]
    /// What the Info.plist says for <doc:Rules> "The App Store's other embedded-bundle rules" extension rules (display name, activation rule and its types).
    package let store: StoreFacts
    /// The `CODE_SIGN_ENTITLEMENTS` file, when the target has one.
    package let entitlementsPath: String?
    /// False when `CODE_SIGN_ENTITLEMENTS` names its file through a setting the checkout cannot supply: the groups
    /// are unknown, not none (set once, by the resolver that made this).
    package internal(set) var appGroupsKnown = true
    package let productName: String
    /// Sentences for problems found while resolving (a missing Info.plist), as (file, message).
    package let problems: [(file: String, message: String, severity: ProblemWeight)]
    package let missingIncludes: [MissingInclude]
    /// The xcconfig files at the target's own level.
    package let targetXcconfigs: Set<String>
    /// The platform the target builds for (<doc:ReadingProjects> "Platforms").
    package let platform: Platform
    /// The settings its checked values and App Groups use that the checkout cannot supply, with where each would
    /// have come from (<doc:ReadingProjects> "What the checkout does not hold").
    package let unknowns: [String: String]
    /// Whether another configuration whose settings read the same may take this resolution but for where its
    /// values are written (`TargetResolver.sameButForWhereWritten`): it was built (its settings recorded what it
    /// read), and nothing in it names its configuration but its context, its settings and its values' sources.
    let isReusable: Bool

    init(target: XcodeProject.Target, configuration: String, context: String, settings: BuildSettings, plistPath: String?, values: CheckedValues, extensionPoint: String?, hasExtensionDictionary: Bool, appGroups: [String], store: StoreFacts, entitlementsPath: String?, productName: String, problems: [(file: String, message: String, severity: ProblemWeight)], missingIncludes: [MissingInclude], targetXcconfigs: Set<String>, platform: Platform, unknowns: [String: String], isReusable: Bool) {
        self.target = target
        self.configuration = configuration
        self.context = context
        self.settings = settings
        self.plistPath = plistPath
        self.values = values
        self.extensionPoint = extensionPoint
        self.hasExtensionDictionary = hasExtensionDictionary
        self.appGroups = appGroups
        self.store = store
        self.entitlementsPath = entitlementsPath
        self.productName = productName
        self.problems = problems
        self.missingIncludes = missingIncludes
        self.targetXcconfigs = targetXcconfigs
        self.platform = platform
        self.unknowns = unknowns
        self.isReusable = isReusable
    }
}

/// The Info.plist keys the rules of <doc:Rules> "Bundles and versions" compare.
package enum CheckedKey: Int, CaseIterable {
    case bundleIdentifier, buildVersion, shortVersion, companionAppBundleIdentifier, packageType

    package var key: String {
        switch self {
        case .bundleIdentifier: "CFBundleIdentifier"
        case .buildVersion: "CFBundleVersion"
        case .shortVersion: "CFBundleShortVersionString"
        case .companionAppBundleIdentifier: "WKCompanionAppBundleIdentifier"
        case .packageType: "CFBundlePackageType"
        }
    }

    /// The setting a generated Info.plist takes the value from.
    package var standardSetting: String? {
        switch self {
        case .bundleIdentifier: "PRODUCT_BUNDLE_IDENTIFIER"
        case .buildVersion: "CURRENT_PROJECT_VERSION"
        case .shortVersion: "MARKETING_VERSION"
        case .companionAppBundleIdentifier: nil
        case .packageType: "PRODUCT_BUNDLE_PACKAGE_TYPE"
        }
    }
}
