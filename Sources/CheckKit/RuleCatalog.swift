import BundleKit

/// Every rule `lockstep check` reports, with what Apple says and what to do: the text of `lockstep rules`, and the
/// rule descriptions of a SARIF report. The ids, severities and Apple's texts are <doc:Rules> "Bundles and versions"'s.
public struct RuleDescription: Sendable, Equatable {
    public var id: RuleID
    /// The severity of its usual finding (some rules also report a lesser one: a verdict that depends on a value the
    /// checkout cannot supply is a warning).
    public var severity: Severity
    public var platforms: Set<Platform>
    /// One line.
    public var summary: String
    /// Apple's own wording, as Xcode, App Store Connect or the installer print it.
    public var appleText: [String]
    public var fix: String
}

public enum RuleCatalog {
    /// In the order `check` evaluates them.
    public static let rules: [RuleDescription] = [
        rule(.versionMissing, .error, "Every bundle's Info.plist has a CFBundleVersion and a CFBundleShortVersionString.",
             ["The bundle's Info.plist does not contain a CFBundleVersion key or its value is not a string.",
              "The bundle's Info.plist does not contain a CFBundleShortVersionString key or its value is a non-string value or a zero-length string value."],
             "Set CFBundleVersion = $(CURRENT_PROJECT_VERSION) and CFBundleShortVersionString = $(MARKETING_VERSION) in the Info.plist (or GENERATE_INFOPLIST_FILE = YES), and define both settings at project level."),
        rule(.versionBuildFormat, .error, "CFBundleVersion is one to three period-separated non-negative integers.",
             ["ITMS-90058: This bundle is invalid - The value for key CFBundleVersion [8.22.3-beta.0] in the Info.plist file must be a period-separated list of at most three non-negative integers."],
             "Use a build number such as 289 or 1.4.2; keep pre-release labels out of CFBundleVersion. Four parts are accepted in practice (a warning); on macOS this rule is a warning."),
        rule(.versionShortFormat, .error, "CFBundleShortVersionString is one to three period-separated non-negative integers.",
             ["ITMS-90060: This bundle is invalid. The value for key CFBundleShortVersionString '5.0.0-beta1' in the Info.plist file must be a period-separated list of at most three non-negative integers."],
             "Use a marketing version such as 2.1 or 2.1.0; on macOS this rule is a warning."),
        rule(.versionBuildMismatch, .error, "Every embedded extension's and watch app's CFBundleVersion equals the containing app's (compared as stored).",
             ["warning: The CFBundleVersion of an app extension ('1') must match that of its containing parent app ('289').",
              "ITMS-90473: CFBundleVersion Mismatch - The CFBundleVersion value '1' of extension 'X.app/PlugIns/Y.appex' does not match the CFBundleVersion value '9.1.18.2' of its containing iOS application 'X.app'.",
              "Asset validation failed (90379) CFBundleVersion Mismatch. The CFBundleVersion value '1' of watch application 'X.app/Watch/W.app' does not match the CFBundleVersion value '18.9.0.1' of its containing iOS application 'X.app'."],
             "Let every target inherit CURRENT_PROJECT_VERSION from the project (delete target-level overrides), or run `lockstep bump PATH --build next`."),
        rule(.versionShortMismatch, .error, "Every embedded extension's and watch app's CFBundleShortVersionString equals the containing app's.",
             ["warning: The CFBundleShortVersionString of an app extension ('1.0.0') must match that of its containing parent app ('1.0').",
              "ITMS-90473: CFBundleShortVersionString Mismatch",
              "error: The value of CFBundleShortVersionString in your WatchKit app's Info.plist (0.3.0) does not match the value in your companion app's Info.plist (0.3.1). These values are required to match."],
             "Let every target inherit MARKETING_VERSION from the project, or run `lockstep bump PATH --version X.Y.Z`."),
        rule(.bundleIDCharset, .error, "A bundle identifier holds only A–Z, a–z, 0–9, '-' and '.', in reverse-DNS form with no empty component.",
             ["The bundle identifier is invalid: only alphanumeric characters (A–Z, a–z, 0–9), hyphens (-) and periods (.)."],
             "Fix PRODUCT_BUNDLE_IDENTIFIER; an empty component usually means a setting it uses is undefined."),
        rule(.bundleIDDuplicate, .error, "No two bundles of an app share a bundle identifier.",
             ["This application or a bundle it contains has the same bundle identifier as this application or another bundle that it contains. Bundle identifiers must be unique."],
             "Give each target its own PRODUCT_BUNDLE_IDENTIFIER."),
        rule(.bundleIDPrefix, .error, "An embedded bundle's identifier starts with its containing app's identifier and a '.'.",
             ["error: Embedded binary's bundle identifier is not prefixed with the parent app's bundle identifier.",
              "App extension bundle identifiers must have a prefix consisting of their containing application's bundle identifier followed by a '.'."],
             "Name the extension <app id>.<name>: com.example.app.widget inside com.example.app."),
        rule(.bundleIDSingleComponent, .error, "After the app's identifier and '.', an extension's identifier has no further '.' (iOS).",
             ["App extension bundle identifiers must have a prefix consisting of their containing application's bundle identifier followed by a '.', with no further '.' characters after the prefix."],
             "Use one component after the app's identifier: com.example.app.widget, not com.example.app.widget.today."),
        rule(.watchCompanion, .error, "A WatchKit app names its companion iOS app in WKCompanionAppBundleIdentifier.",
             ["The WatchKit app's Info.plist must have a WKCompanionAppBundleIdentifier key set to the bundle identifier of the companion app."],
             "Set WKCompanionAppBundleIdentifier (INFOPLIST_KEY_WKCompanionAppBundleIdentifier) to the iOS app's bundle identifier."),
        rule(.watchPrefix, .error, "A WatchKit app's identifier starts with its companion app's identifier and a '.'.",
             ["The bundle identifier of a WatchKit app must have a prefix consisting of the companion app's bundle identifier, followed by a '.'."],
             "Name the watch app <app id>.watchkitapp."),
        rule(.extensionPoint, .error, "An app extension declares a documented extension point (an unknown one is a warning).",
             ["App extensions must define the NSExtension key with a dictionary value in their Info.plist.",
              "Appex bundle does not define the NSExtensionPointIdentifier key in its Info.plist. This key must have a reverse-DNS format string value."],
             "Add NSExtension (or EXAppExtensionAttributes for ExtensionKit) with the extension point identifier to the extension's Info.plist."),
        rule(.groupShared, .error, "Every App Group an embedded bundle claims is also claimed by its app; on iOS a group id starts with 'group.'.",
             ["An embedded bundle that claims a group the host does not claim shares nothing through it."],
             "Add the group to both targets' com.apple.security.application-groups (Signing & Capabilities → App Groups)."),
        rule(.privacyManifest, .error, "A bundle whose executable uses a required-reason API declares it, with an approved reason, in its PrivacyInfo.xcprivacy (a warning when only the app declares it).",
             ["ITMS-91053: Missing API declaration - Your app's code in the \"PlugIns/NotificationService.appex/NotificationService\" file references one or more APIs that require reasons, including the following API categories: NSPrivacyAccessedAPICategoryUserDefaults."],
             "Add PrivacyInfo.xcprivacy to the target with NSPrivacyAccessedAPITypes entries for each category and an approved reason (UserDefaults shared through an App Group: 1C8F.1)."),
        rule(.privacyManifestInvalid, .error, "A PrivacyInfo.xcprivacy has only Apple's keys and types, known categories and approved reasons.",
             ["App Store Connect rejects app submissions that include invalid privacy manifest files. If you upload an app to App Store Connect that contains privacy manifest files with unexpected keys or values, you receive an email that includes the name and path of the invalid files in your app bundle."],
             "Fix the keys, types, categories and reason codes Lockstep names."),
        rule(.bundleNested, .error, "An app extension holds no Frameworks folder and no other bundles.",
             ["Asset validation failed (90205) Invalid Bundle. The bundle at 'X.app/PlugIns/Y.appex' contains disallowed nested bundles.",
              "Asset validation failed (90206) Invalid Bundle. The bundle at 'X.app/PlugIns/Y.appex' contains disallowed file 'Frameworks'."],
             "Embed frameworks in the app only (the extension target links them without embedding: \"Do Not Embed\")."),
        rule(.osPlistVsBinary, .error, "A bundle's MinimumOSVersion is not below the minimum OS its executable was built for.",
             ["ITMS-90208: Invalid Bundle. The bundle X.app/Frameworks/Y.framework does not support the minimum OS Version specified in the Info.plist."],
             "Set the Info.plist's MinimumOSVersion (IPHONEOS_DEPLOYMENT_TARGET) to the deployment target the executable is built with."),
        rule(.osExtensionFloor, .warning, "An extension's MinimumOSVersion is not above its app's.",
             ["installd: Ignoring app extension at X.app/PlugIns/Y.appex because it doesn't work on this OS version"],
             "Give the extension the app's deployment target, or accept that it is missing on the versions in between."),
        rule(.extensionActivationRule, .error, "A share or action extension's NSExtensionActivationRule is not TRUEPREDICATE.",
             ["warning: Embedded binary's NSExtensionActivationRule is TRUEPREDICATE. Before you submit your containing app to the App Store, be sure to replace all uses of TRUEPREDICATE with specific predicate statements or NSExtensionActivationRule keys. If any extensions in your containing app include TRUEPREDICATE, the app will be rejected."],
             "Replace TRUEPREDICATE with NSExtensionActivationSupports… keys or a specific predicate."),
        rule(.extensionPlistTypes, .error, "The NSExtensionActivationSupports… keys are booleans, the …WithMaxCount keys integers.",
             ["ITMS-90361: Invalid info.plist value type. The value type for the key 'NSExtensionActivationSupportsText' in bundle X.app/PlugIns/Y.appex is not boolean."],
             "Write <true/> or <integer>1</integer>, not a string such as \"YES\"."),
        rule(.extensionDisplayName, .error, "An app extension has a non-empty CFBundleDisplayName.",
             ["ITMS-90360: Missing Info.plist value. A value for the key 'CFBundleDisplayName' in bundle X.app/PlugIns/Y.appex is required."],
             "Set CFBundleDisplayName (INFOPLIST_KEY_CFBundleDisplayName) in the extension's Info.plist."),
        rule(.signingProfile, .error, "Each bundle's signed entitlements are allowed by its own embedded.mobileprovision, and every bundle's profile is of the same team.",
             ["Provisioning profile \"…LoopWidgetExtension\" doesn't match the entitlements file's value for the com.apple.security.application-groups entitlement.",
              "ITMS-90164: Invalid Code Signing Entitlements. The entitlements in your app bundle signature do not match the ones that are contained in the provisioning profile."],
             "Add the App Group (or keychain group, push environment) to the extension's App ID in the developer portal and regenerate its profile, or remove it from the target's entitlements."),
        rule(.clipPrefix, .error, "An App Clip's identifier is its full app's identifier, '.', and a string (X.app/AppClips/C.app).",
             ["Ensure that the application identifier for the App Clip uses the full app's application identifier as its prefix, followed by a string"],
             "Name the App Clip <app id>.Clip, as Xcode does."),
        rule(.clipParent, .error, "An App Clip's com.apple.developer.parent-application-identifiers holds exactly the full app's application identifier.",
             ["A list of parent application identifiers for an App Clip with exactly one entry", "the corresponding app's application identifier"],
             "Set the entitlement to [$(AppIdentifierPrefix)<app id>]."),
        rule(.clipSize, .error, "An App Clip's main bundle fits the size limit of its minimum OS: 10 MB before iOS 16, 15 MB on iOS 16, 100 MB from iOS 17.",
             ["ITMS-90865: Thinned app clip size is too large - The main bundle of the … App Clip is 17 MB, which exceeds the maximum allowable size of 15 MB after app thinning."],
             "Move assets to on-demand resources or the full app, or raise the App Clip's deployment target."),
        rule(.groupConfigDrift, .warning, "A bundle claims the same App Groups in every build configuration.",
             ["(Lockstep) An App Group claimed in Debug and not in Release: the widget works in development and shows no data in the shipped build."],
             "Use one entitlements file for every configuration, or add the group to each configuration's file."),
        rule(.settingsUnresolved, .error, "A build setting a checked value uses is defined; a value the checkout cannot supply is unknown, and a warning.",
             ["Xcode builds a $(VAR) that nothing defines as the empty string; Xcode warns \"Unable to open base configuration reference file\" for a missing base xcconfig."],
             "Define the setting, or run the tool that writes the missing file (`pod install`, `flutter pub get`) before `lockstep check`."),
        rule(.settingsTargetOverride, .warning, "An embedded target inherits CURRENT_PROJECT_VERSION and MARKETING_VERSION instead of setting its own.",
             ["(Lockstep) The root cause of most ITMS-90473 mismatches: an extension target that sets its own version."],
             "Delete the target-level setting so the target inherits the project's."),
        rule(.bundleNotEmbedded, .note, "An extension or watch app an app depends on is embedded by a Copy Files phase, so its versions are checked.",
             ["(Lockstep) If a script embeds it, its versions are not checked."],
             "Embed it with an \"Embed Foundation Extensions\" / \"Embed Watch Content\" phase."),
        rule(.bundleEmbedCycle, .error, "No target embeds its own product, directly or through the bundles it embeds.",
             ["(Lockstep) A bundle cannot contain itself."],
             "Remove the app's own product from its Copy Files phases."),
        rule(.specWatchNotEmbedded, .warning, "In an XcodeGen spec, a watch app an iPhone app depends on has `platform: watchOS`, so XcodeGen embeds it in Watch.",
             ["(Lockstep) XcodeGen embeds a dependency in \"Embed Watch Content\" only when its platform is watchOS; a watch app made with `supportedDestinations: [watchOS]` is copied as a resource, and the iPhone app ships without it."],
             "Set `platform: watchOS` on the watch app target (and drop `supportedDestinations`)."),
        rule(.specEmbedFalse, .warning, "In an XcodeGen spec, an app does not depend on its extension, App Clip or watch app with `embed: false`.",
             ["(Lockstep) XcodeGen builds a dependency with `embed: false` but copies it into no bundle: the app ships without it."],
             "Remove `embed: false`, unless a build script embeds the product."),
        rule(.specVersionNumber, .warning, "In an XcodeGen spec, a version is written so that YAML reads it as the text it shows.",
             ["(Lockstep) YAML reads MARKETING_VERSION: 1.10 as the number 1.1 and CURRENT_PROJECT_VERSION: 012 as 10, and XcodeGen writes those."],
             "Quote the version: MARKETING_VERSION: \"1.10\"."),
    ]

    /// The rule with `id`, or nil.
    public static func rule(_ id: RuleID) -> RuleDescription? { rules.first { $0.id == id } }

    private static func rule(_ id: RuleID, _ severity: Severity, _ summary: String, _ appleText: [String], _ fix: String) -> RuleDescription {
        RuleDescription(id: id, severity: severity, platforms: Rules.platforms(of: id), summary: summary, appleText: appleText, fix: fix)
    }

    /// The platforms of a rule in a stable order, for reports.
    public static func platformNames(_ platforms: Set<Platform>) -> [String] {
        Platform.allCases.filter(platforms.contains).map(\.rawValue)
    }
}
