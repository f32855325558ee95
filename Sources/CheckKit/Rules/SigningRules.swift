import BundleKit

// The signing rule of <doc:Rules> "The App Store's other embedded-bundle rules".

extension RuleCatalog {
    static let signingRules = RuleDescription.parse("""
        signing.profile | error | The App Store's other embedded-bundle rules
        Each bundle's signed entitlements are allowed by its own embedded.mobileprovision, and every bundle's profile is of the same team.
        Apple: Provisioning profile "…LoopWidgetExtension" doesn't match the entitlements file's value for the com.apple.security.application-groups entitlement.
        Apple: ITMS-90164: Invalid Code Signing Entitlements. The entitlements in your app bundle signature do not match the ones that are contained in the provisioning profile.
        Source: Xcode's signing error
        Source: App Store Connect: ITMS-90164
        Lockstep: Reads each built bundle's embedded.mobileprovision (the property list inside its CMS SignedData) and its signed entitlements, and compares application identifier, App Groups, keychain groups, aps-environment and team.
        Fix: Add the App Group (or keychain group, push environment) to the extension's App ID in the developer portal and regenerate its profile, or remove it from the target's entitlements.
        """)
}

extension Rules {
    /// rule `signing.profile`: each bundle's signed entitlements are allowed by its own profile, and every
    /// bundle's profile is of the app's team.
    static func signingFindings(_ bundle: BundleRecord, app: BundleRecord, into findings: inout [Finding]) {
        guard let signing = bundle.signing else { return }
        func add(_ severity: Severity, _ message: String, values: [String] = []) {
            findings.append(Finding(rule: "signing.profile", severity: severity, bundle: bundle.bundlePath, path: signing.profilePath, message: message, values: values))
        }
        guard signing.readable else {
            add(.warning, "The embedded.mobileprovision of \(bundle.bundlePath) cannot be read (it is not a CMS SignedData holding a property list), so its entitlements were not compared.")
            return
        }
        // A profile's values may end in '*' (com.example.*, TEAMID.*).
        func allows(_ pattern: String, _ value: String) -> Bool {
            pattern.hasSuffix("*") ? value.hasPrefix(String(pattern.dropLast())) : pattern == value
        }
        func mismatch(_ key: String, _ value: String) {
            add(.error, "Provisioning profile of \(bundle.bundlePath) doesn't match the entitlements file's value for the \(key) entitlement. ITMS-90164: Invalid Code Signing Entitlements. The entitlements in your app bundle signature do not match the ones that are contained in the provisioning profile. According to the provisioning profile, the bundle contains a key value that is not allowed: '\(value)' for the key '\(key)' in '\(bundle.bundlePath)'.", values: [key, value])
        }
        if let signed = signing.signed {
            if let id = signed.applicationIdentifier, let allowed = signing.allowed.applicationIdentifier, !allows(allowed, id) {
                mismatch("application-identifier", id)
            }
            for group in signed.appGroups where !signing.allowed.appGroups.contains(where: { allows($0, group) }) {
                mismatch("com.apple.security.application-groups", group)
            }
            for group in signed.keychainGroups where !signing.allowed.keychainGroups.contains(where: { allows($0, group) }) {
                mismatch("keychain-access-groups", group)
            }
            if let aps = signed.apsEnvironment, signing.allowed.apsEnvironment != aps {
                mismatch("aps-environment", aps)
            }
        }
        if bundle != app, let team = signing.team, let appTeam = app.signing?.team, team != appTeam {
            add(.error, "The provisioning profile of \(bundle.bundlePath) is of team \(team), and the app's of team \(appTeam): every bundle of an app must be signed by the same team.", values: [team, appTeam])
        }
    }
}
