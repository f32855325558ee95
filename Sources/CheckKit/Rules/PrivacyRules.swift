import BundleKit
import XcodeKit

// The privacy manifest rules of <doc:Rules> "The App Store's other embedded-bundle rules".

extension RuleCatalog {
    static let privacyRules = RuleDescription.parse("""
        privacy.manifest | error | The App Store's other embedded-bundle rules
        A bundle whose executable uses a required-reason API declares it, with an approved reason, in its PrivacyInfo.xcprivacy (a warning when only the app declares it).
        Apple: ITMS-91053: Missing API declaration - Your app's code in the "PlugIns/NotificationService.appex/NotificationService" file references one or more APIs that require reasons, including the following API categories: NSPrivacyAccessedAPICategoryUserDefaults.
        Source: App Store Connect: ITMS-91053
        Source: developer.apple.com/documentation/bundleresources/describing-use-of-required-reason-api
        Lockstep: Reads the symbols each built executable imports (Mach-O) for the required-reason API categories and the categories its PrivacyInfo.xcprivacy declares; for a project, a target that claims an App Group uses its defaults suite.
        Fix: Add PrivacyInfo.xcprivacy to the target with NSPrivacyAccessedAPITypes entries for each category and an approved reason (UserDefaults shared through an App Group: 1C8F.1).

        privacy.manifest-invalid | error | The App Store's other embedded-bundle rules
        A PrivacyInfo.xcprivacy has only Apple's keys and types, known categories and approved reasons.
        Apple: App Store Connect rejects app submissions that include invalid privacy manifest files. If you upload an app to App Store Connect that contains privacy manifest files with unexpected keys or values, you receive an email that includes the name and path of the invalid files in your app bundle.
        Source: developer.apple.com/documentation/bundleresources/privacy-manifest-files
        Lockstep: Reads every privacy manifest a built bundle holds or a target copies, key by key (XcodeKit's PrivacyManifest).
        Fix: Fix the keys, types, categories and reason codes Lockstep names.
        """)
}

extension Rules {
    /// rule `privacy.manifest`, `privacy.manifest-invalid`: App Store Connect evaluates each executable.
    static func privacyFindings(_ bundle: BundleRecord, app: BundleRecord, into findings: inout [Finding]) {
        guard let privacy = bundle.privacy else { return }
        let path = privacy.manifestPath ?? bundle.source.file
        if !privacy.problems.isEmpty {
            findings.append(Finding(rule: "privacy.manifest-invalid", bundle: bundle.bundlePath, path: path,
                message: "App Store Connect rejects app submissions that include invalid privacy manifest files. (\(privacy.problems.joined(separator: "; ")).)", values: privacy.problems))
        }
        let missing = privacy.used.keys.filter { !(privacy.declared?.contains($0) ?? false) }.sorted()
        guard !missing.isEmpty else { return }
        // Apple's documentation says the app's manifest covers its extensions, yet its emails name extension
        // executables: declared only in the app, a warning; nowhere, an error.
        let coveredByApp = bundle != app && missing.allSatisfy { app.privacy?.declared?.contains($0) ?? false }
        let symbols = missing.flatMap { privacy.used[$0]!.prefix(2) }.joined(separator: ", ")
        let manifest = "\(bundle.bundlePath)/PrivacyInfo.xcprivacy"
        findings.append(Finding(rule: "privacy.manifest", severity: coveredByApp ? .warning : .error, bundle: bundle.bundlePath, path: path,
            message: "ITMS-91053: Missing API declaration - Your app's code in the \"\(privacy.executable)\" file references one or more APIs that require reasons, including the following API categories: \(missing.joined(separator: ", ")). (It imports \(symbols).) "
                + (coveredByApp ? "Only the app's privacy manifest declares them; App Store Connect names extension executables, so declare them in \(manifest) too."
                                : "Declare each with an approved reason in \(manifest) (NSPrivacyAccessedAPITypes)."), values: missing))
    }
}

extension ProjectReading {
    /// rule `privacy.manifest` for a project: a target that claims an App Group evidently reads the group's
    /// UserDefaults suite, a required-reason API. The project shows no imports, so a missing declaration is a warning
    /// (a built app's executable decides); an invalid manifest it copies is an error.
    /// - Throws: `BundleError` for a privacy manifest that is a damaged binary property list (`DamagedPropertyList`).
    func privacyFindings(_ member: Member) throws(BundleError) -> [Finding] {
        let target = member.resolved.target
        let bundle = member.bundlePath
        let category = "NSPrivacyAccessedAPICategoryUserDefaults"
        var findings: [Finding] = []
        var declared = false
        for path in target.privacyManifests {
            guard let plist = TargetResolver.readPlist(path) else {
                if let damage = DamagedPropertyList.problem(at: path) { throw BundleError(.notAPropertyList, path: path, detail: damage) }
                findings.append(Finding(rule: "privacy.manifest-invalid", bundle: bundle, path: path,
                    message: "App Store Connect rejects app submissions that include invalid privacy manifest files. (\(path) \(TargetResolver.whyUnreadable(path)).)"))
                continue
            }
            let (categories, problems) = PrivacyManifest.read(plist)
            declared = declared || categories.contains(category)
            if !problems.isEmpty {
                findings.append(Finding(rule: "privacy.manifest-invalid", bundle: bundle, path: path,
                    message: "App Store Connect rejects app submissions that include invalid privacy manifest files. (\(problems.joined(separator: "; ")).)"))
            }
        }
        guard !declared else { return findings }
        let copies = target.privacyManifests.isEmpty ? "copies no PrivacyInfo.xcprivacy" : "copies a PrivacyInfo.xcprivacy that does not declare it"
        findings.append(Finding(rule: "privacy.manifest", severity: .warning, bundle: bundle, path: member.resolved.entitlementsPath ?? project.pbxprojPath,
            message: "Target '\(target.name)' claims the App Group '\(member.resolved.appGroups[0])', so its code reads the group's UserDefaults suite (\(category), reason 1C8F.1), but it \(copies): App Store Connect sends ITMS-91053 naming its executable when the build imports NSUserDefaults. (A project shows no imports; check the built .app to be sure.)"))
        return findings
    }
}
