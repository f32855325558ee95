import BundleKit

// The App Clip rules: what `check` reports (<doc:Rules> "The App Store's other embedded-bundle rules") and what the
// simulated clip does (<doc:Rules> "The rest of the extension family"). Rule `clip.prefix` is an identifier rule, in
// IdentifierRules.swift.

extension RuleCatalog {
    static let clipRules = RuleDescription.parse("""
        clip.parent | error | The App Store's other embedded-bundle rules
        An App Clip's com.apple.developer.parent-application-identifiers holds exactly the full app's application identifier.
        Apple: A list of parent application identifiers for an App Clip with exactly one entry
        Apple: the corresponding app's application identifier
        Source: developer.apple.com/documentation/bundleresources/entitlements/com.apple.developer.parent-application-identifiers
        Lockstep: Reads a built clip's signed entitlements and the app's application-identifier.
        Fix: Set the entitlement to [$(AppIdentifierPrefix)<app id>].

        clip.size | error | The App Store's other embedded-bundle rules
        An App Clip's main bundle fits the size limit of its minimum OS: 10 MB before iOS 16, 15 MB on iOS 16, 100 MB from iOS 17.
        Apple: ITMS-90865: Thinned app clip size is too large - The main bundle of the … App Clip is 17 MB, which exceeds the maximum allowable size of 15 MB after app thinning.
        Source: App Store Connect: ITMS-90865
        Source: developer.apple.com/help/app-store-connect/reference/maximum-build-file-sizes
        Lockstep: Adds up the uncompressed bytes of every file of a built clip and compares them with its MinimumOSVersion's limit.
        Fix: Move assets to on-demand resources or the full app, or raise the App Clip's deployment target.

        clip.container | runtime | The rest of the extension family
        An App Clip hands data to its full app through an App Group both claim; its own container is not migrated.
        Apple: When users of your App Clip install your full app, the full app replaces the App Clip and receives all invocations in its place.
        Source: developer.apple.com/documentation/appclip/sharing-data-between-your-app-clip-and-your-full-app
        Lockstep: lockstep-clip runs as its own process with its own private container; the scenario step `install-over-clip` replaces it by the full app, keeps the App Groups and drops the clip's container (LaunchKit's Scenario).
        Fix: Write what the full app needs to a group container both claim, not to the clip's own container.
        """)
}

extension Rules {
    /// rule `clip.parent` and clip.size, for an App Clip in `X.app/AppClips`.
    static func clipFindings(_ clip: BundleRecord, app: BundleRecord, into findings: inout [Finding]) {
        guard clip.embedLocation == .appClips, let store = clip.store else { return }
        func add(_ rule: RuleID, _ message: String, values: [String] = []) {
            findings.append(Finding(rule: rule, bundle: clip.bundlePath, path: clip.source.file, message: message, values: values))
        }
        // The parent list is in the signed entitlements; without them (an unsigned build) there is nothing to compare.
        if let parents = store.parentApplicationIdentifiers {
            let expected = app.store?.applicationIdentifier
            if parents.count != 1 || (expected != nil && parents.first != expected) {
                add("clip.parent", "com.apple.developer.parent-application-identifiers must be a list of parent application identifiers for an App Clip with exactly one entry, the corresponding app's application identifier. (It is \(parents.map { "'\($0)'" }.joined(separator: ", ")); the app's is '\(expected ?? "unknown")'.)", values: parents + [expected ?? ""])
            }
        }
        // By the clip's minimum OS: before iOS 16 10 MB, iOS 16 15 MB, iOS 17 and later 100 MB (digital invocations).
        if let size = store.size {
            let major = Int(store.minimumOS?.split(separator: ".").first ?? "") ?? 0
            let limit = major >= 17 ? 100 : major == 16 ? 15 : 10
            if size > limit * 1_000_000 {
                add("clip.size", "ITMS-90865: Thinned app clip size is too large - The main bundle of the \(clip.name) App Clip is \(size / 1_000_000) MB, which exceeds the maximum allowable size of \(limit) MB after app thinning. (Measured uncompressed, before thinning; its MinimumOSVersion is \(store.minimumOS ?? "not set").)", values: [String(limit)])
            }
        }
    }
}
