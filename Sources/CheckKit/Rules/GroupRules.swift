import AppGroupKit
import BundleKit
import XcodeKit

// The App Group rules: what `check` reports (<doc:Rules> "Bundles and versions", "The App Store's other
// embedded-bundle rules") and what the simulated processes enforce (<doc:Rules> "Processes and containers").

extension RuleCatalog {
    static let groupRules = RuleDescription.parse("""
        group.id-format | runtime | Processes and containers | iOS, watchOS, tvOS, visionOS
        An iOS App Group identifier has the form group.<name> (macOS also allows <TeamID>.<name>).
        Apple: In iOS, the value is nil when the group identifier is invalid.
        Source: developer.apple.com/documentation/foundation/filemanager/containerurl(forsecurityapplicationgroupidentifier:)
        Source: developer.apple.com/documentation/bundleresources/entitlements/com.apple.security.application-groups
        Lockstep: `check` reports an App Group claimed without the `group.` prefix under group.shared (not on macOS); the simulated processes refuse such a group (AppGroupKit's Sandbox, exit 77 from `lockstep container`).
        Fix: Name the group group.<reverse-DNS name> in the developer portal and in every target's entitlements.

        group.entitlement | runtime | Processes and containers
        A process opens a group container only if its entitlements list that group exactly.
        Apple: In iOS, the value is nil when the group identifier is invalid.
        Source: developer.apple.com/documentation/foundation/filemanager/containerurl(forsecurityapplicationgroupidentifier:)
        Lockstep: Every simulated process gets a group container only for the groups its manifest entry claims (AppGroupKit's Sandbox): `containerURL(forSecurityApplicationGroupIdentifier:)` returns nil otherwise, `lockstep container` exits 77, SwiftData's `ModelConfiguration(groupContainer: .identifier(…))` throws (77) and `.automatic` puts the store in the bundle's own container (a private store, as on iOS), and `lockstep verify` shows the pair as not shared. A group an `.entitlements` file writes with a build setting the checkout does not supply (`group.$(SAMPLE_CODE_DISAMBIGUATOR).com.example`) is kept as written, as `check` keeps it: the bundles that claim the same text share it.
        Fix: Add the group to the bundle's com.apple.security.application-groups (and to its manifest entry's appGroups).

        group.defaults-fallback | runtime | Processes and containers
        UserDefaults(suiteName:) for a group the process is not entitled to gives a private, unshared suite, silently.
        Apple: Couldn't read values in CFPrefsPlistSource<…> (Domain: group.x, User: kCFPreferencesAnyUser, ByHost: Yes, Container: (null), Contents Need Refresh: Yes): Using kCFPreferencesAnyUser with a container is only allowed for System Containers, detaching from cfprefsd
        Source: developer.apple.com/documentation/foundation/userdefaults/init(suitename:)
        Source: Observed in device logs (Apple Developer Forums thread 721701)
        Lockstep: LockstepFoundation's UserDefaults reproduces the fallback (the values stay in the process's own container) and prints a line naming the missing entitlement; `lockstep verify` reports the pair as not shared. A widget extension that shares no group with its app still launches under `up` and `run` (as `check` allows it): it says so once, keeps its timelines, budget and renderings in its private container, and the app's WidgetCenter reloads, which travel through a shared group in Lockstep, do not reach it.
        Fix: Claim the group in both bundles' entitlements; the widget that "shows no data" then reads the app's values.

        group.defaults-suite-name | runtime | Processes and containers
        UserDefaults(suiteName:) is nil for the app's own bundle identifier and for the global domain.
        Apple: Don't specify the globalDomain or your app's bundle identifier
        Source: developer.apple.com/documentation/foundation/userdefaults/init(suitename:)
        Lockstep: LockstepFoundation's UserDefaults(suiteName:) returns nil for those names, as AppGroupKit's GroupDefaults refuses them.
        Fix: Use UserDefaults.standard for the process's own defaults and the group id for shared ones.

        group.layout | runtime | Processes and containers
        A group container holds Library/Preferences/<group-id>.plist, Library/Application Support/ and Library/Caches/.
        Apple: (Lockstep) Library/Preferences/<group-id>.plist is the shared defaults suite; Library/Application Support/ and Library/Caches/ are as in any container.
        Source: developer.apple.com/documentation/foundation/filemanager/containerurl(forsecurityapplicationgroupidentifier:)
        Lockstep: AppGroupKit's GroupsLayout makes each group's container at groups/<device>/AppGroup/<group-id> with that layout; the shared defaults suite is its Library/Preferences plist.
        Fix: Write shared files under the container URL, never at a path built by hand.

        group.watch-separate | runtime | Processes and containers
        A group container on the watch is the watch's own: the phone and the watch share data through WatchConnectivity only.
        Apple: If your existing Watch app and iOS app use a shared group container or iCloud to exchange data, you must change the way you exchange that data in watchOS 2 ... the extension must exchange data with the iOS app wirelessly.
        Source: developer.apple.com/library/archive/documentation/General/Conceptual/AppleWatch2TransitionGuide/
        Lockstep: The watch's bundles get the watch device's containers (groups/watch/…), never the phone's, even for the same group id; `check` does not ask a watch app to share the app's groups.
        Fix: Send what the watch needs with WCSession (application context, user info, messages, files).

        group.shared | error | Bundles and versions
        Every App Group an embedded bundle claims is also claimed by its app; on iOS a group id starts with 'group.'.
        Apple: An embedded bundle that claims a group the host does not claim shares nothing through it.
        Source: developer.apple.com/documentation/bundleresources/entitlements/com.apple.security.application-groups
        Lockstep: Reads each bundle's com.apple.security.application-groups (the .entitlements file, or a built bundle's archived-expanded-entitlements.xcent) and compares it with the containing app's; an extension with no group is a note, and so is a bundle whose CODE_SIGN_ENTITLEMENTS names its file through a setting the checkout cannot supply (its groups are unknown, not none).
        Fix: Add the group to both targets' com.apple.security.application-groups (Signing & Capabilities → App Groups).

        group.config-drift | warning | The App Store's other embedded-bundle rules
        A bundle claims the same App Groups in every build configuration.
        Apple: (Lockstep) An App Group claimed in Debug and not in Release: the widget works in development and shows no data in the shipped build.
        Source: Lockstep's own rule: the consequence is group.entitlement's (developer.apple.com/documentation/bundleresources/entitlements/com.apple.security.application-groups)
        Lockstep: For an Xcode project or spec, compares each bundle's App Groups across its build configurations, within one platform's build (a multiplatform app's tvOS build may sign with other entitlements than its iOS build; logic: XcodeProjectInput's configurationDrift).
        Fix: Use one entitlements file for every configuration, or add the group to each configuration's file.
        """)
}

extension Rules {
    /// `app` is the containing bundle.
    static func groupFindings(_ bundle: BundleRecord, app: BundleRecord, into findings: inout [Finding]) {
        let path = file(bundle, "com.apple.security.application-groups")
        guard bundle.appGroupsKnown else {
            findings.append(Finding(rule: "group.shared", severity: .note, bundle: bundle.bundlePath, path: path,
                                    message: bundle.store?.isBuilt != false
                                        ? "The entitlements of \(bundle.bundlePath) are not in a file Lockstep reads (archived-expanded-entitlements.xcent or a .entitlements file), so its App Groups were not checked."
                                        : "The entitlements file of \(bundle.bundlePath) is named through a setting the checkout cannot supply (CODE_SIGN_ENTITLEMENTS), so its App Groups were not checked.", values: []))
            return
        }
        // rule `group.id-format`: iOS App Group ids are `group.<name>`; a Mac app's may be team-prefixed
        // (`$(TeamIdentifierPrefix)…`, <doc:ReadingProjects> "Platforms").
        for group in bundle.appGroups where !group.hasPrefix("group.") && applies("group.id-format", to: bundle) {
            let message = "The App Group '\(group)' claimed by \(bundle.bundlePath) does not start with 'group.': on iOS an App Group identifier has the form group.<name>."
            if let unknown = Unknown(bundle, group), group.hasPrefix(BuildSettings.unknownSymbol(unknown.first)) {
                findings.append(Finding(rule: "group.shared", severity: .warning, bundle: bundle.bundlePath, path: path,
                    message: message + " It starts with \(unknown.names), which the checkout cannot supply. \(unknown.hint)", values: [group]))
            } else {
                findings.append(Finding(rule: "group.shared", bundle: bundle.bundlePath, path: path, message: message, values: [group]))
            }
        }
        // rule `group.id-format`: past its prefix, reverse-DNS components of letters, digits and '-', as the device
        // checks them ('group.com.example.a/../../x' would name a folder elsewhere, and is refused there).
        for group in bundle.appGroups where group.hasPrefix("group.") && applies("group.id-format", to: bundle)
                && (try? Sandbox.validateGroupIdentifier(group)) == nil {
            findings.append(Finding(rule: "group.shared", bundle: bundle.bundlePath, path: path,
                message: "The App Group '\(group)' claimed by \(bundle.bundlePath) is not 'group.' followed by reverse-DNS components of letters, digits and '-': the device refuses it.", values: [group]))
        }
        // A watch app's group containers are watch-local (rule `group.watch-separate`): nothing to share with the host.
        guard bundle != app, bundle.role != .watch, app.appGroupsKnown else { return }
        if bundle.appGroups.isEmpty {
            // Most extensions claim none: this note is made for nearly every one, so made at its final size.
            findings.append(Finding(rule: "group.shared", severity: .note, bundle: bundle.bundlePath, path: path,
                message: ASCII.joined(bundle.bundlePath, " claims no App Group, so it shares no container with ", app.bundlePath,
                                      " (allowed; many extensions need none)."), values: []))
        }
        for group in bundle.appGroups where !app.appGroups.contains(group) {
            let message = "\(bundle.bundlePath) claims the App Group '\(group)', which its containing app \(app.bundlePath) does not claim: they share nothing through it. Every group of an extension must also be in the app's com.apple.security.application-groups."
            // A warning only where some group of the app may be this one, whatever the unknown parts hold.
            let possible = app.appGroups.filter { !Unknown.differ(group, of: bundle, $0, of: app) }
            let unknown = possible.isEmpty ? nil : Unknown(bundle, group) ?? possible.lazy.compactMap { Unknown(app, $0) }.first
            findings.append(Finding(rule: "group.shared", severity: unknown == nil ? .error : .warning, bundle: bundle.bundlePath, path: path,
                message: unknown.map { message + " The verdict depends on \($0.names), which the checkout cannot supply. \($0.hint)" } ?? message,
                values: [group]))
        }
    }
}

extension ProjectReading {
    /// rule `group.config-drift`: a bundle that claims App Groups in one build configuration and none in another
    /// — commonly Debug has them and Release not, so the widget works in development and shows no data when shipped.
    /// Different groups per configuration (`group.x` in Release, `group.x-debug` in Debug) are a choice, not drift:
    /// `group.shared` compares them with the app's in each configuration.
    func configurationDrift(_ sets: [AppBundleSet]) -> [Finding] {
        guard configurations.count > 1 else { return [] }
        // One app target's bundle in one platform's build: two apps of a project may both build a `NetNewsWire.app`,
        // and a multiplatform app's tvOS build may use other entitlements than its iOS build (Provenance's, chosen
        // by PLATFORM_NAME), which is no drift between configurations.
        struct Key: Hashable {
            var app: String
            var build: Substring
            var bundle: String
        }
        // "App.xcodeproj (tvOS) [Release]": the build, then its configuration in brackets.
        func build(of set: AppBundleSet) -> (build: Substring, configuration: String) {
            guard let configuration = set.configuration else { return (set.origin[...], set.origin) }
            return (set.origin.dropLast(configuration.count + 2), configuration)
        }
        // Only a bundle that claims a group somewhere can drift: those first, so that the others (in a project
        // without App Groups, every one) are not collected per configuration.
        var claiming: Set<Key> = []
        for set in sets {
            let build = build(of: set).build
            if !set.app.appGroups.isEmpty { claiming.insert(Key(app: set.app.name, build: build, bundle: set.app.bundlePath)) }
            for index in set.embedded.indices where !set.embedded[index].appGroups.isEmpty {
                claiming.insert(Key(app: set.app.name, build: build, bundle: set.embedded[index].bundlePath))
            }
        }
        guard !claiming.isEmpty else { return [] }
        var seen: [Key: [(configuration: String, groups: [String], file: String)]] = [:]
        var order: [(key: Key, bundle: String)] = []
        for set in sets {
            let (build, configuration) = build(of: set)
            func note(_ bundle: BundleRecord) {
                let key = Key(app: set.app.name, build: build, bundle: bundle.bundlePath)
                guard bundle.appGroupsKnown, claiming.contains(key) else { return }
                // One lookup: the dictionary grows when the key is new.
                let known = seen.count
                seen[key, default: []].append((configuration, bundle.appGroups,
                                               bundle.valueSources["com.apple.security.application-groups"]?.file ?? bundle.source.file))
                if seen.count != known { order.append((key, bundle.bundlePath)) }
            }
            // The app, then the embedded bundles, read in place: `set.all` copies every record into a new array.
            note(set.app)
            for index in set.embedded.indices { note(set.embedded[index]) }
        }
        return order.compactMap { key, bundle in
            let all = seen[key]!
            let with = all.filter { !$0.groups.isEmpty }, without = all.filter { $0.groups.isEmpty }
            guard let first = with.first, !without.isEmpty else { return nil }
            return Finding(rule: "group.config-drift", bundle: bundle, path: first.file,
                message: "\(bundle) claims the App Group '\(first.groups[0])' in \(with.map(\.configuration).joined(separator: ", ")) but no App Group in \(without.map(\.configuration).joined(separator: ", ")): built that way it shares nothing with its app (a widget that works in development shows no data when shipped).")
        }
    }
}
