import BundleKit
import XcodeKit

// The bundle identifier rules of <doc:Rules> "Bundles and versions": their characters, their prefixes, their
// uniqueness, and a watch app's companion; and an App Clip's prefix (<doc:Rules> "The App Store's other
// embedded-bundle rules"), which the same comparison decides.

extension RuleCatalog {
    static let identifierRules = RuleDescription.parse("""
        bundle-id.charset | error | Bundles and versions
        A bundle identifier holds only A–Z, a–z, 0–9, '-' and '.', in reverse-DNS form with no empty component.
        Apple: The bundle identifier is invalid: only alphanumeric characters (A–Z, a–z, 0–9), hyphens (-) and periods (.).
        Source: developer.apple.com/documentation/bundleresources/information-property-list/cfbundleidentifier
        Lockstep: Reads each bundle's CFBundleIdentifier (expanded from PRODUCT_BUNDLE_IDENTIFIER in a project).
        Fix: Fix PRODUCT_BUNDLE_IDENTIFIER; an empty component usually means a setting it uses is undefined.

        bundle-id.duplicate | error | Bundles and versions
        No two bundles of an app share a bundle identifier.
        Apple: This application or a bundle it contains has the same bundle identifier as this application or another bundle that it contains. Bundle identifiers must be unique.
        Apple: ITMS-90685: CFBundleIdentifier Collision. There is more than one bundle with the CFBundleIdentifier value 'X' under the iOS application 'Y.app'.
        Apple: ITMS-90806: CFBundleIdentifier collision - Each bundle must have a unique bundle identifier.
        Source: The iOS installer
        Source: App Store Connect: ITMS-90685, ITMS-90806
        Lockstep: Compares the identifiers of every bundle of a set and, in a built app, of its frameworks (the app's and the watch app's).
        Fix: Give each target its own PRODUCT_BUNDLE_IDENTIFIER.

        bundle-id.prefix | error | Bundles and versions
        An embedded bundle's identifier starts with its containing app's identifier and a '.'.
        Apple: error: Embedded binary's bundle identifier is not prefixed with the parent app's bundle identifier.
        Apple: App extension bundle identifiers must have a prefix consisting of their containing application's bundle identifier followed by a '.'.
        Source: Xcode's build error
        Source: The iOS installer
        Lockstep: Compares each embedded bundle's identifier with the bundle that directly contains it (a watch app's own widget with the watch app).
        Fix: Name the extension <app id>.<name>: com.example.app.widget inside com.example.app.

        bundle-id.single-component | error | Bundles and versions | iOS, watchOS, tvOS, visionOS
        After the app's identifier and '.', an extension's identifier has no further '.' (iOS).
        Apple: App extension bundle identifiers must have a prefix consisting of their containing application's bundle identifier followed by a '.', with no further '.' characters after the prefix.
        Source: The iOS installer
        Lockstep: Counts the components after the containing app's identifier; not on macOS, whose installer allows more.
        Fix: Use one component after the app's identifier: com.example.app.widget, not com.example.app.widget.today.

        watch.companion | error | Bundles and versions
        A WatchKit app names its companion iOS app in WKCompanionAppBundleIdentifier.
        Apple: The WatchKit app's Info.plist must have a WKCompanionAppBundleIdentifier key set to the bundle identifier of the companion app.
        Source: developer.apple.com/documentation/bundleresources/information-property-list/wkcompanionappbundleidentifier
        Source: Xcode's build error
        Lockstep: Reads a watch app's WKCompanionAppBundleIdentifier and compares it with the iOS app's identifier.
        Fix: Set WKCompanionAppBundleIdentifier (INFOPLIST_KEY_WKCompanionAppBundleIdentifier) to the iOS app's bundle identifier.

        watch.prefix | error | Bundles and versions
        A WatchKit app's identifier starts with its companion app's identifier and a '.'.
        Apple: The bundle identifier of a WatchKit app must have a prefix consisting of the companion app's bundle identifier, followed by a '.'.
        Source: Xcode's build error
        Lockstep: Compares a watch app's identifier with the iOS app's.
        Fix: Name the watch app <app id>.watchkitapp.

        clip.prefix | error | The App Store's other embedded-bundle rules
        An App Clip's identifier is its full app's identifier, '.', and a string (X.app/AppClips/C.app).
        Apple: Ensure that the application identifier for the App Clip uses the full app's application identifier as its prefix, followed by a string
        Source: developer.apple.com/documentation/appclip/creating-an-app-clip-with-xcode
        Lockstep: Compares the identifier of a bundle in AppClips/ with its app's.
        Fix: Name the App Clip <app id>.Clip, as Xcode does.
        """)
}

extension Rules {
    /// `app` is the containing bundle.
    static func identifierFindings(_ bundle: BundleRecord, app: BundleRecord, seen: inout [String: String], into findings: inout [Finding]) {
        guard let identifier = bundle.bundleIdentifier else { return }
        let path = file(bundle, "CFBundleIdentifier")
        // <doc:ReadingProjects> "What the checkout does not hold": an unknown part of either identifier turns an error whose
        // verdict depends on it into a warning that names it.
        let unknown = Unknown(bundle, identifier) ?? (bundle != app ? Unknown(app, app.bundleIdentifier) : nil)
        // The fingerprint's values: the identifier, and the one it is compared with.
        func add(_ rule: RuleID, _ message: String, values: [String], dependsOnUnknown: Bool = false) {
            if dependsOnUnknown, let unknown {
                findings.append(Finding(rule: rule, severity: .warning, bundle: bundle.bundlePath, path: path,
                    message: message + " The verdict depends on \(unknown.names), which the checkout cannot supply. \(unknown.hint)", values: values))
            } else {
                findings.append(Finding(rule: rule, bundle: bundle.bundlePath, path: path, message: message, values: values))
            }
        }
        // rule `bundle-id.charset`: A–Z, a–z, 0–9, '-' and '.', reverse-DNS (no empty component). The known parts
        // are checked; an unknown part stands for a valid component.
        let known = Unknown.known(identifier, of: bundle)
        // On bytes: an ASCII scalar is one byte, and its only alphabetic ones are A–Z and a–z.
        let allowed = ASCII.allSatisfy(known) { ASCII.isLetter($0) || ASCII.isDigit($0) || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: ".") }
        // An empty component: empty, a leading or trailing '.', or "..". Tested in the contiguous UTF-8, not split.
        let dot = UInt8(ascii: ".")
        let emptyComponent = known.utf8.withContiguousStorageIfAvailable { bytes in
            bytes.isEmpty || bytes[0] == dot || bytes[bytes.count - 1] == dot
                || (1..<bytes.count).contains { bytes[$0] == dot && bytes[$0 - 1] == dot }
        } ?? known.utf8.split(separator: dot, omittingEmptySubsequences: false).contains(where: \.isEmpty)
        if !allowed || emptyComponent {
            add("bundle-id.charset", "The bundle identifier '\(identifier)' is invalid: a bundle identifier may contain only alphanumeric characters (A–Z, a–z, 0–9), hyphens (-) and periods (.), in reverse-DNS form with no empty component.", values: [identifier])
        }
        // rule `bundle-id.duplicate`. One lookup for the usual new identifier; a duplicate keeps the first bundle.
        if let first = seen.updateValue(bundle.bundlePath, forKey: identifier) {
            seen[identifier] = first
            add("bundle-id.duplicate", "This application or a bundle it contains has the same bundle identifier as this application or another bundle that it contains. Bundle identifiers must be unique. ('\(identifier)' is also the identifier of '\(first)'.)", values: [identifier, first],
                dependsOnUnknown: Unknown(bundle, identifier) != nil)
        }
        guard bundle != app, let parent = app.bundleIdentifier else { return }
        // Counted in bytes when that is the same as in Characters.
        let ascii = ASCII.isOneBytePerCharacter(identifier) && ASCII.isOneBytePerCharacter(parent)
        let parentCount = ascii ? parent.utf8.count : parent.count
        let prefixed = ascii
            ? identifier.utf8.count > parentCount + 1 && ASCII.hasPrefix(parent, identifier)
                && identifier.utf8.dropFirst(parentCount).first == dot
            : identifier.hasPrefix(parent + ".") && identifier.count > parentCount + 1
        switch bundle.role {
        case .watch:
            // rule `watch.companion`, watch.prefix
            // A watch-only app's stub container is no companion app: its watch app need not name one.
            if !(bundle.companionAppBundleIdentifier.map { VersionParity.stored($0, parent) } ?? false) && !(app.infoPlistWrittenByXcode && bundle.companionAppBundleIdentifier == nil) {
                let found = bundle.companionAppBundleIdentifier.map { "it is '\($0)'" } ?? "it is missing"
                // Known text that already disagrees is an error whatever the unknown parts hold.
                let companion = bundle.companionAppBundleIdentifier ?? ""
                let companionUnknown = Unknown.differ(companion, of: bundle, parent, of: app) ? nil
                    : Unknown(bundle, bundle.companionAppBundleIdentifier) ?? Unknown(app, parent)
                let message = "The WatchKit app's Info.plist must have a WKCompanionAppBundleIdentifier key set to the bundle identifier of the companion app. (\(found); the companion app is '\(parent)'.)"
                findings.append(Finding(rule: "watch.companion", severity: companionUnknown == nil ? .error : .warning, bundle: bundle.bundlePath,
                    path: file(bundle, "WKCompanionAppBundleIdentifier"),
                    message: companionUnknown.map { message + " The verdict depends on \($0.names), which the checkout cannot supply. \($0.hint)" } ?? message,
                    values: [companion, parent]))
            }
            if !prefixed {
                add("watch.prefix", "The bundle identifier of a WatchKit app must have a prefix consisting of the companion app's bundle identifier, followed by a '.'. (WatchKit app: '\(identifier)'; companion app: '\(parent)'.)", values: [identifier, parent],
                    dependsOnUnknown: !Unknown.differ(identifier, of: bundle, parent + ".", of: app, prefixOnly: true))
            }
        case _ where bundle.embedLocation == .appClips:
            // rule `clip.prefix`: the full app's identifier, '.', then a string (Xcode's default is `.Clip`).
            if !prefixed {
                add("clip.prefix", "Ensure that the application identifier for the App Clip uses the full app's application identifier as its prefix, followed by a string. (App Clip: '\(identifier)'; full app: '\(parent)'.)", values: [identifier, parent],
                    dependsOnUnknown: !Unknown.differ(identifier, of: bundle, parent + ".", of: app, prefixOnly: true))
            }
        case .host, .widget, .intent, .complication, .notification, .share, .clip, .extension:
            if !prefixed {
                // rule `bundle-id.prefix`: Xcode's error with its two detail lines, then the installer's sentence.
                add("bundle-id.prefix", "Embedded binary's bundle identifier is not prefixed with the parent app's bundle identifier. Embedded Binary Bundle Identifier: \(identifier) Parent App Bundle Identifier: \(parent) App extension bundle identifiers must have a prefix consisting of their containing application's bundle identifier followed by a '.'.", values: [identifier, parent],
                    dependsOnUnknown: !Unknown.differ(identifier, of: bundle, parent + ".", of: app, prefixOnly: true))
            } else if applies("bundle-id.single-component", to: bundle) {
                // rule `bundle-id.single-component`: the iOS installer's rule; a Mac app's extensions may nest deeper
                // (<doc:ReadingProjects> "Platforms"). A '.' in the known part of the suffix is an error; an unknown part may
                // hold one, a warning.
                let suffix = String(identifier.utf8.dropFirst(parent.utf8.count + 1))!
                let suffixUnknown = Unknown(bundle, suffix)
                if ASCII.contains(".", in: Unknown.known(suffix, of: bundle)) || suffixUnknown != nil {
                    let message = "App extension bundle identifiers must have a prefix consisting of their containing application's bundle identifier followed by a '.', with no further '.' characters after the prefix. ('\(identifier)' has more than one component after '\(parent).'.)"
                    if ASCII.contains(".", in: Unknown.known(suffix, of: bundle)) {
                        add("bundle-id.single-component", message, values: [identifier, parent])
                    } else if let suffixUnknown {
                        findings.append(Finding(rule: "bundle-id.single-component", severity: .warning, bundle: bundle.bundlePath, path: path,
                            message: "After '\(parent).', '\(identifier)' continues with '\(suffix)', built from \(suffixUnknown.names), which the checkout cannot supply: if it holds a '.', App extension bundle identifiers must have a prefix consisting of their containing application's bundle identifier followed by a '.', with no further '.' characters after the prefix. \(suffixUnknown.hint)",
                            values: [identifier, parent]))
                    }
                }
            }
        }
    }

    /// rule `bundle-id.duplicate` extended to frameworks: no two bundles under the app share an identifier
    /// (ITMS-90685), the same framework in the iOS app and its watch app included (ITMS-90806).
    static func frameworkFindings(_ set: AppBundleSet, into findings: inout [Finding]) {
        var first: [String: String] = [:]
        for bundle in set.all { if let id = bundle.bundleIdentifier, first[id] == nil { first[id] = bundle.bundlePath } }
        let appName = set.app.bundlePath
        for framework in set.frameworks {
            guard let earlier = first[framework.identifier] else {
                first[framework.identifier] = framework.bundlePath
                continue
            }
            let message = earlier.hasSuffix(".framework") && PathText.lastComponent(of: earlier) == PathText.lastComponent(of: framework.bundlePath)
                ? "ITMS-90806: CFBundleIdentifier collision - Each bundle must have a unique bundle identifier. The bundle identifier '\(framework.identifier)' is used in the bundles '[\(PathText.lastComponent(of: earlier)), \(PathText.lastComponent(of: framework.bundlePath))]'. ('\(earlier)' and '\(framework.bundlePath)'.)"
                : "ITMS-90685: CFBundleIdentifier Collision. There is more than one bundle with the CFBundleIdentifier value '\(framework.identifier)' under the iOS application '\(appName)'. ('\(earlier)' and '\(framework.bundlePath)'.)"
            findings.append(Finding(rule: "bundle-id.duplicate", bundle: framework.bundlePath, path: framework.source, message: message,
                                    values: [framework.identifier, earlier]))
        }
    }
}
