import BundleKit
import XcodeKit

// The rules of <doc:Rules> "The App Store's other embedded-bundle rules" that a built bundle's folder, Info.plist
// and executable show: nesting, minimum OS versions, and the keys of an extension's Info.plist.

extension RuleCatalog {
    static let storeRules = RuleDescription.parse("""
        bundle.nested | error | The App Store's other embedded-bundle rules
        An app extension holds no Frameworks folder and no other bundles.
        Apple: Asset validation failed (90205) Invalid Bundle. The bundle at 'X.app/PlugIns/Y.appex' contains disallowed nested bundles.
        Apple: Asset validation failed (90206) Invalid Bundle. The bundle at 'X.app/PlugIns/Y.appex' contains disallowed file 'Frameworks'.
        Source: App Store Connect: asset validation 90205, 90206
        Lockstep: Lists what a built extension's folder holds.
        Fix: Embed frameworks in the app only (the extension target links them without embedding: "Do Not Embed").

        os.plist-vs-binary | error | The App Store's other embedded-bundle rules
        A bundle's MinimumOSVersion is not below the minimum OS its executable was built for.
        Apple: ITMS-90208: Invalid Bundle. The bundle X.app/Frameworks/Y.framework does not support the minimum OS Version specified in the Info.plist.
        Source: App Store Connect: ITMS-90208
        Lockstep: Compares a built bundle's MinimumOSVersion with its executable's LC_BUILD_VERSION (or LC_VERSION_MIN_*) minimum.
        Fix: Set the Info.plist's MinimumOSVersion (IPHONEOS_DEPLOYMENT_TARGET) to the deployment target the executable is built with.

        os.extension-floor | warning | The App Store's other embedded-bundle rules
        An extension's MinimumOSVersion is not above its app's.
        Apple: installd: Ignoring app extension at X.app/PlugIns/Y.appex because it doesn't work on this OS version
        Source: The iOS installer's log (observed)
        Lockstep: Compares each extension's MinimumOSVersion (a project's deployment target) with its app's.
        Fix: Give the extension the app's deployment target, or accept that it is missing on the versions in between.

        extension.activation-rule | error | The App Store's other embedded-bundle rules
        A share or action extension's NSExtensionActivationRule is not TRUEPREDICATE.
        Apple: warning: Embedded binary's NSExtensionActivationRule is TRUEPREDICATE. Before you submit your containing app to the App Store, be sure to replace all uses of TRUEPREDICATE with specific predicate statements or NSExtensionActivationRule keys. If any extensions in your containing app include TRUEPREDICATE, the app will be rejected.
        Source: Xcode's build warning
        Source: developer.apple.com/library/archive/documentation/General/Conceptual/ExtensibilityPG/ShareExtension.html
        Lockstep: Reads the extension's NSExtensionAttributes.NSExtensionActivationRule when it is a predicate string.
        Fix: Replace TRUEPREDICATE with NSExtensionActivationSupports… keys or a specific predicate.

        extension.plist-types | error | The App Store's other embedded-bundle rules
        The NSExtensionActivationSupports… keys are booleans, the …WithMaxCount keys integers.
        Apple: ITMS-90361: Invalid info.plist value type. The value type for the key 'NSExtensionActivationSupportsText' in bundle X.app/PlugIns/Y.appex is not boolean.
        Source: App Store Connect: ITMS-90361
        Lockstep: Reads the type of each NSExtensionActivationSupports… value of a dictionary activation rule.
        Fix: Write <true/> or <integer>1</integer>, not a string such as "YES".

        extension.display-name | error | The App Store's other embedded-bundle rules
        An app extension has a non-empty CFBundleDisplayName.
        Apple: ITMS-90360: Missing Info.plist value. A value for the key 'CFBundleDisplayName' in bundle X.app/PlugIns/Y.appex is required.
        Source: App Store Connect: ITMS-90360
        Lockstep: Reads each extension's CFBundleDisplayName; a warning for a project, whose build may still write it.
        Fix: Set CFBundleDisplayName (INFOPLIST_KEY_CFBundleDisplayName) in the extension's Info.plist.
        """)
}

extension Rules {
    /// Built bundles only: what their folders, Info.plists and executables say.
    static func storeFindings(_ bundle: BundleRecord, app: BundleRecord, into findings: inout [Finding]) {
        guard let store = bundle.store else { return }
        let path = bundle.source.file
        /// At the rule's severity, or a lesser one.
        func add(_ rule: RuleID, lesser severity: Severity? = nil, _ message: String, values: [String] = []) {
            var finding = Finding(rule: rule, bundle: bundle.bundlePath, path: path, message: message, values: values)
            if let severity { finding.severity = severity }
            findings.append(finding)
        }
        let isExtension = bundle.embedLocation == .plugIns || bundle.embedLocation == .extensions
        // rule `bundle.nested` (ITMS-90206 for a Frameworks folder, 90205 for other bundles).
        for item in store.nested {
            add("bundle.nested", item == "Frameworks"
                ? "Asset validation failed (90206) Invalid Bundle. The bundle at '\(bundle.bundlePath)' contains disallowed file 'Frameworks'. (Embed frameworks in the app, not in its extensions.)"
                : "Asset validation failed (90205) Invalid Bundle. The bundle at '\(bundle.bundlePath)' contains disallowed nested bundles. ('\(item)')", values: [item])
        }
        // rule `os.plist-vs-binary` (ITMS-90208).
        if let declared = store.minimumOS, let built = store.executableMinimumOS, compareVersions(declared, built) < 0 {
            add("os.plist-vs-binary", "ITMS-90208: Invalid Bundle. The bundle \(bundle.bundlePath) does not support the minimum OS Version specified in the Info.plist. (MinimumOSVersion is \(declared); the executable is built for \(built) and later.)", values: [declared, built])
        }
        // rule `os.extension-floor`: allowed, but the extension is silently dropped on the versions in between.
        if isExtension, bundle != app, let own = store.minimumOS, let parent = app.store?.minimumOS, compareVersions(own, parent) > 0 {
            add("os.extension-floor", "The extension's MinimumOSVersion \(own) is above its app's \(parent): on the versions in between installd logs \"Ignoring app extension at \(bundle.bundlePath) because it doesn't work on this OS version\" and the extension is missing.", values: [own, parent])
        }
        guard bundle.embedLocation == .plugIns else { return }
        // rule `extension.activation-rule`, extension.plist-types, extension.display-name.
        if let rule = store.activationRule, ASCII.contains("TRUEPREDICATE", in: rule) {
            add("extension.activation-rule", "Embedded binary's NSExtensionActivationRule is TRUEPREDICATE. Before you submit your containing app to the App Store, be sure to replace all uses of TRUEPREDICATE with specific predicate statements or NSExtensionActivationRule keys. If any extensions in your containing app include TRUEPREDICATE, the app will be rejected.")
        }
        for problem in store.activationTypeProblems {
            let key = String(problem.prefix { $0 != " " })
            add("extension.plist-types", "ITMS-90361: Invalid info.plist value type. The value type for the key '\(key)' in bundle \(bundle.bundlePath) \(problem.hasSuffix("is not an integer)") ? "is not an integer" : "is not boolean").", values: [key])
        }
        if !store.hasDisplayName {
            // A project's Info.plist may be completed at build time (a plist the build writes, a script): a warning.
            // A project's extensions seldom set it: made for nearly every one, so made at its final size.
            add("extension.display-name", lesser: store.isBuilt ? nil : .warning, ASCII.joined(
                "ITMS-90360: Missing Info.plist value. A value for the key 'CFBundleDisplayName' in bundle ", bundle.bundlePath, " is required."))
        }
    }

    /// -1, 0 or 1 as `a` is below, equal to or above `b`, by numeric components (`9.0` = `9`, `16.4` < `16.10`).
    static func compareVersions(_ a: String, _ b: String) -> Int {
        let left = a.split(separator: ".").map { Int($0) ?? 0 }, right = b.split(separator: ".").map { Int($0) ?? 0 }
        for index in 0..<max(left.count, right.count) {
            let (x, y) = (index < left.count ? left[index] : 0, index < right.count ? right[index] : 0)
            if x != y { return x < y ? -1 : 1 }
        }
        return 0
    }
}
