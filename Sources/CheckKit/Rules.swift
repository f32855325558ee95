import BundleKit
import XcodeKit

/// The rule engine of <doc:Rules> "Bundles and versions": every violation in a containing app and its embedded bundles, each with
/// Apple's own wording (Xcode's line, then the App Store Connect / installer text).
///
/// Rules never stop at the first finding: all of them run, and the caller decides the exit status once.
public enum Rules {
    /// The rule ids `check` evaluates for every bundle, in report order.
    public static let ids: [RuleID] = [
        .versionMissing, .versionBuildFormat, .versionShortFormat, .versionBuildMismatch, .versionShortMismatch,
        .bundleIDCharset, .bundleIDDuplicate, .bundleIDPrefix, .bundleIDSingleComponent, .watchCompanion, .watchPrefix,
        .extensionPoint, .groupShared,
    ]

    /// Extension points Apple documents (rule `extension.point`), NSExtension's and ExtensionKit's, for iOS,
    /// watchOS, tvOS, visionOS and macOS app extensions; any other is a warning.
    public static let knownExtensionPoints: Set<String> = [
        // Widgets, notifications, sharing and actions (`com.apple.services` is an Action extension without UI).
        "com.apple.widgetkit-extension", "com.apple.widget-extension", "com.apple.usernotifications.service",
        "com.apple.usernotifications.content-extension", "com.apple.share-services", "com.apple.ui-services",
        "com.apple.services",
        // Siri, App Intents and keyboards.
        "com.apple.intents-service", "com.apple.intents-ui-service", "com.apple.appintents-extension",
        "com.apple.keyboard-service",
        // Files, photos, messages, Quick Look, Spotlight.
        "com.apple.fileprovider-nonui", "com.apple.fileprovider-ui", "com.apple.fileprovider-actionsui",
        "com.apple.photo-editing", "com.apple.message-payload-provider", "com.apple.quicklook.preview",
        "com.apple.quicklook.thumbnail", "com.apple.spotlight.index", "com.apple.spotlight.import",
        "com.apple.FinderSync",
        // Calls, messages filters, network extensions, credentials.
        "com.apple.callkit.call-directory", "com.apple.identitylookup.message-filter",
        "com.apple.identitylookup.classification-ui", "com.apple.calendar.virtualconference",
        "com.apple.networkextension.packet-tunnel", "com.apple.networkextension.app-proxy",
        "com.apple.networkextension.filter-data", "com.apple.networkextension.filter-control",
        "com.apple.networkextension.dns-proxy", "com.apple.authentication-services-credential-provider-ui",
        "com.apple.authentication-services-account-authentication-modification-ui",
        // Safari, broadcast, printing, education, location, Screen Time, background assets, Matter.
        "com.apple.Safari.content-blocker", "com.apple.Safari.web-extension", "com.apple.Safari.extension",
        "com.apple.broadcast-services-upload", "com.apple.broadcast-services-setupui", "com.apple.printing.discovery",
        "com.apple.classkit.context-provider", "com.apple.location.push.service",
        "com.apple.deviceactivity.monitor-extension", "com.apple.deviceactivityui.report-extension",
        "com.apple.ManagedSettings.shield-action-service", "com.apple.ManagedSettingsUI.shield-configuration-service",
        "com.apple.background-asset-downloader-extension", "com.apple.matter.support.extension.device-setup",
        // tvOS, audio units, and the WatchKit extension of a watchOS 2–6 app.
        "com.apple.tv-top-shelf", "com.apple.AudioUnit", "com.apple.AudioUnit-UI", "com.apple.watchkit",
    ]

    /// The platforms a rule applies to (<doc:ReadingProjects> "Platforms"); a rule not named here applies to every platform.
    /// - Parameter rule: a rule id (`group.id-format` for the `group.` prefix that `group.shared` reports).
    public static func platforms(of rule: RuleID) -> Set<Platform> {
        switch rule {
        // The installer's text: on macOS an extension's identifier may have more components after the app's.
        case .bundleIDSingleComponent: [.iOS, .watchOS, .tvOS, .visionOS]
        // iOS App Group ids are `group.<name>`; macOS also allows `<TeamID>.<name>` (`$(TeamIdentifierPrefix)…`).
        case .groupIDFormat: [.iOS, .watchOS, .tvOS, .visionOS]
        default: Set(Platform.allCases)
        }
    }

    /// Whether `rule` applies to `bundle`, by the platform it is built for.
    static func applies(_ rule: RuleID, to bundle: BundleRecord) -> Bool { platforms(of: rule).contains(bundle.platform) }

    /// Every finding for `set`, bundle by bundle (the app first, then the embedded bundles in order), each
    /// bundle's findings in the order of `ids`.
    public static func check(_ set: AppBundleSet) -> [Finding] {
        var findings: [Finding] = []
        var seen = [String: String](minimumCapacity: set.embedded.count + 1)
        let asciiPaths = set.embedded.map { ASCII.isOneBytePerCharacter($0.bundlePath) }
        // When every path has one byte per Character, the container is found by looking up the bundle's parent
        // folders: testing every bundle of the set as a prefix of every other is quadratic in the number of targets.
        var byPath: ContainerIndex?
        if asciiPaths.allSatisfy({ $0 }) { byPath = ContainerIndex(set.embedded) }
        // The app, then the embedded bundles (as `set.all`, without copying every record into a new array).
        for index in -1..<set.embedded.count {
            let bundle = index < 0 ? set.app : set.embedded[index]
            // Versions are compared with the iOS app (App Store Connect does); identifiers and groups with the
            // bundle that directly contains this one (a watch app's own widget is prefixed with the watch app's id).
            let container = if let byPath, ASCII.isOneBytePerCharacter(bundle.bundlePath) {
                container(of: bundle, in: set, byPath: byPath)
            } else {
                container(of: bundle, in: set, asciiPaths: asciiPaths)
            }
            let first = findings.count
            versionFindings(bundle, app: set.app, container: container, rule: nil, into: &findings)
            identifierFindings(bundle, app: container, seen: &seen, into: &findings)
            extensionFindings(bundle, into: &findings)
            groupFindings(bundle, app: container, into: &findings)
            privacyFindings(bundle, app: set.app, into: &findings)
            storeFindings(bundle, app: container, into: &findings)
            signingFindings(bundle, app: set.app, into: &findings)
            clipFindings(bundle, app: set.app, into: &findings)
            locate(&findings, from: first, in: bundle)
        }
        frameworkFindings(set, into: &findings)
        return findings
    }

    /// Gives the findings from `first` on that point at a file of `bundle`'s values the line (and column) of the
    /// value they are about: the one whose key the finding names (a finding about the bundle as a whole, or about
    /// a key it lacks, keeps no line). (Issue 27: findings with lines in every format.)
    static func locate(_ findings: inout [Finding], from first: Int, in bundle: BundleRecord) {
        guard first < findings.count, bundle.valueSources.values.contains(where: { $0.line != nil }) else { return }
        for index in first..<findings.count where findings[index].line == nil {
            let finding = findings[index]
            let candidates = bundle.valueSources.filter { $0.value.file == finding.path && $0.value.line != nil }
            guard !candidates.isEmpty else { continue }
            // The longest key the message names (CFBundleShortVersionString before CFBundleVersion).
            let named = candidates.filter { finding.message.contains($0.key) }.max { $0.key.count < $1.key.count }
            guard let source = named?.value else { continue }
            findings[index] = finding.with(line: source.line, column: source.column)
        }
    }

    /// The bundle that directly contains `bundle`: the one with the longest bundle path that is a folder prefix of
    /// its path (`X.app/Watch/W.app` for `X.app/Watch/W.app/PlugIns/Z.appex`), else the app.
    /// - Parameter asciiPaths: for each of `set.embedded`, whether its bundle path is `ASCII.isOneBytePerCharacter`.
    static func container(of bundle: BundleRecord, in set: AppBundleSet, asciiPaths: [Bool]) -> BundleRecord {
        // This runs for every bundle of the set, so it is quadratic in a project with hundreds of targets: the path
        // test comes first, on bytes when both paths have one byte per Character (ASCII, no "\r\n"), and
        // rules out nearly every candidate before a whole record is compared.
        let path = bundle.bundlePath
        let pathIsASCII = ASCII.isOneBytePerCharacter(path)
        func isFolderPrefix(_ index: Int) -> Bool {
            let prefix = set.embedded[index].bundlePath
            guard pathIsASCII, asciiPaths[index] else { return path.hasPrefix(prefix + "/") }
            return path.utf8.count > prefix.utf8.count && path.utf8.starts(with: prefix.utf8)
                && path.utf8.dropFirst(prefix.utf8.count).first == UInt8(ascii: "/")
        }
        return set.embedded.indices
            .lazy
            .filter { isFolderPrefix($0) && set.embedded[$0] != bundle }
            .map { set.embedded[$0] }
            .max { $0.bundlePath.count < $1.bundlePath.count } ?? set.app
    }

    /// `container(of:in:asciiPaths:)` when the bundle's path and every path of `set.embedded` have one byte per
    /// Character: its parent folders, longest first, looked up in `byPath` (the indices of `set.embedded` by path).
    static func container(of bundle: BundleRecord, in set: AppBundleSet, byPath: ContainerIndex) -> BundleRecord {
        let path = bundle.bundlePath.utf8
        var length = path.count
        for slash in path.indices.reversed() {
            length -= 1
            guard path[slash] == UInt8(ascii: "/"), byPath.hasPath(ofLength: length),
                  let index = byPath.indices[bundle.bundlePath[..<slash]]?.first(where: { set.embedded[$0] != bundle }) else { continue }
            return set.embedded[index]
        }
        return set.app
    }

    /// The indices of a set's embedded bundles by bundle path, and which lengths (in bytes) their paths have: most
    /// parent folders of a bundle are no bundle (`X.app/PlugIns`), and their length says so without hashing them.
    struct ContainerIndex {
        var indices: [Substring: [Int]]
        private var lengths: [Bool] = []

        init(_ bundles: [BundleRecord]) {
            indices = [Substring: [Int]](minimumCapacity: bundles.count)
            for (index, bundle) in bundles.enumerated() {
                indices[bundle.bundlePath[...], default: []].append(index)
                let length = bundle.bundlePath.utf8.count
                if length >= lengths.count { lengths += repeatElement(false, count: length + 1 - lengths.count) }
                lengths[length] = true
            }
        }

        func hasPath(ofLength length: Int) -> Bool { length < lengths.count && lengths[length] }
    }

    /// The findings a process runs on before starting (rule `runtime.version-parity`): `bundle`'s
    /// CFBundleVersion and CFBundleShortVersionString against its containing app's, in Apple's wording.
    static func runtimeFindings(_ bundle: BundleRecord, app: BundleRecord) -> [Finding] {
        guard bundle != app else { return [] }
        var findings: [Finding] = []
        versionFindings(bundle, app: app, rule: .runtimeVersionParity, into: &findings)
        return findings.filter {
            $0.rule == .runtimeVersionParity
        }
    }

    // MARK: - Versions

    private typealias VersionKey = VersionParity.Key

    /// `mismatchRule` replaces the mismatch rules' ids (for the runtime check); `nil` runs every version rule.
    /// - Parameter container: the bundle that directly contains `bundle` (a watch app for its own widget), which
    ///   Xcode's sentence names; App Store Connect compares every bundle with the iOS app, `app`.
    private static func versionFindings(_ bundle: BundleRecord, app: BundleRecord, container: BundleRecord? = nil, rule mismatchRule: RuleID?, into findings: inout [Finding]) {
        for kind in [VersionKey.build, .short] {
            let path = file(bundle, kind.key)
            guard let value = kind.value(bundle), !value.isEmpty else {
                // A watch-only app's stub container: Xcode writes its Info.plist, so nothing to be missing.
                if bundle.infoPlistWrittenByXcode { continue }
                // rule `version.missing`
                let message = kind == .build
                    ? "The bundle's Info.plist does not contain a CFBundleVersion key or its value is not a string."
                    : "The bundle's Info.plist does not contain a CFBundleShortVersionString key or its value is a non-string value or a zero-length string value."
                findings.append(Finding(rule: .versionMissing, severity: .error, bundle: bundle.bundlePath, path: path, message: message, values: [kind.key]))
                continue
            }
            // <doc:ReadingProjects> "What the checkout does not hold": a value built from a setting the checkout cannot supply is
            // compared as it stands; only a verdict that depends on the unknown is a warning.
            let unknown = Unknown(bundle, value)
            let sameAsApp = bundle != app && kind.value(app).map { VersionParity.stored($0, value) } == true
            if let unknown {
                // The app's format stands for every bundle that reads the same value.
                if !sameAsApp {
                    findings.append(Finding(rule: kind == .build ? RuleID.versionBuildFormat : .versionShortFormat, severity: .warning,
                        bundle: bundle.bundlePath, path: path,
                        message: "\(kind.key) of \(bundle.bundlePath) is '\(value)', built from \(unknown.names), which the checkout cannot supply, so its format is not checked. \(unknown.hint)", values: [value]))
                }
            } else { switch numericParts(value) {
            case .some(1...3):
                break
            case .some(4) where kind == .build:
                // rule `version.build-format`: four numeric parts are accepted in practice, so a warning.
                findings.append(Finding(rule: .versionBuildFormat, severity: .warning, bundle: bundle.bundlePath, path: path,
                    message: "ITMS-90058: This bundle is invalid - The value for key CFBundleVersion [\(value)] in the Info.plist file must be a period-separated list of at most three non-negative integers. (App Store Connect accepts four in practice.)", values: [value]))
            default:
                let message = kind == .build
                    ? "ITMS-90058: This bundle is invalid - The value for key CFBundleVersion [\(value)] in the Info.plist file must be a period-separated list of at most three non-negative integers."
                    : "ITMS-90060: This bundle is invalid. The value for key CFBundleShortVersionString '\(value)' in the Info.plist file must be a period-separated list of at most three non-negative integers."
                // <doc:ReadingProjects> "Platforms": the format is App Store Connect's rule. A Mac app may ship outside the Mac App
                // Store (Developer ID, a Sparkle feed) with a pre-release version such as '6.0a2': there, a warning.
                let onMac = bundle.platform == .macOS
                findings.append(Finding(rule: kind == .build ? RuleID.versionBuildFormat : .versionShortFormat, severity: onMac ? .warning : .error,
                                        bundle: bundle.bundlePath, path: path,
                                        message: onMac ? message + " (App Store Connect's rule: a Mac app distributed outside the Mac App Store may use any version string.)" : message,
                                        values: [value]))
            } }
            // rule `version.build-mismatch` / version.short-mismatch: a string comparison ("1.0" ≠ "1.0.0").
            guard bundle != app, let parent = kind.value(app), !parent.isEmpty, !VersionParity.stored(parent, value) else { continue }
            let rule = mismatchRule ?? (kind == .build ? RuleID.versionBuildMismatch : .versionShortMismatch)
            // Known text that already differs is the error it always is, whatever the unknown parts hold.
            if let unknown = unknown ?? Unknown(app, parent), !Unknown.differ(value, of: bundle, parent, of: app) {
                findings.append(Finding(rule: rule, severity: .warning, bundle: bundle.bundlePath, path: path,
                    message: "\(kind.key) of \(bundle.bundlePath) is '\(value)' and of its containing app \(app.bundlePath) '\(parent)': whether they match depends on \(unknown.names), which the checkout cannot supply. \(unknown.hint)", values: [value, parent]))
                continue
            }
            findings.append(Finding(rule: rule, severity: .error, bundle: bundle.bundlePath, path: path,
                                    message: VersionParity.mismatchMessage(kind, value: value, parent: parent, bundle: bundle, app: app, container: container ?? app),
                                    values: [value, parent]))
        }
    }

    /// The number of period-separated non-negative integers in `version`, or `nil` if it is not such a list.
    public static func numericParts(_ version: String) -> Int? {
        if ASCII.isASCII(version), let parts = version.utf8.withContiguousStorageIfAvailable({ bytes -> Int? in
            // On bytes, in one pass: in ASCII text a Character is one byte ("\r\n" aside, which is no digit either way).
            var parts = 1, digits = 0
            for byte in bytes {
                if byte == UInt8(ascii: ".") {
                    guard digits > 0 else { return nil }
                    parts += 1
                    digits = 0
                } else if ASCII.isDigit(byte) {
                    digits += 1
                } else {
                    return nil
                }
            }
            return digits > 0 ? parts : nil
        }) {
            return parts
        }
        let parts = version.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.allSatisfy({ !$0.isEmpty && $0.allSatisfy { $0.isASCII && $0.isNumber } }) else { return nil }
        return parts.count
    }

    // MARK: - Bundle identifiers

    /// `app` is the containing bundle.
    private static func identifierFindings(_ bundle: BundleRecord, app: BundleRecord, seen: inout [String: String], into findings: inout [Finding]) {
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
                findings.append(Finding(rule: rule, severity: .error, bundle: bundle.bundlePath, path: path, message: message, values: values))
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
            add(.bundleIDCharset, "The bundle identifier '\(identifier)' is invalid: a bundle identifier may contain only alphanumeric characters (A–Z, a–z, 0–9), hyphens (-) and periods (.), in reverse-DNS form with no empty component.", values: [identifier])
        }
        // rule `bundle-id.duplicate`. One lookup for the usual new identifier; a duplicate keeps the first bundle.
        if let first = seen.updateValue(bundle.bundlePath, forKey: identifier) {
            seen[identifier] = first
            add(.bundleIDDuplicate, "This application or a bundle it contains has the same bundle identifier as this application or another bundle that it contains. Bundle identifiers must be unique. ('\(identifier)' is also the identifier of '\(first)'.)", values: [identifier, first],
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
                findings.append(Finding(rule: .watchCompanion, severity: companionUnknown == nil ? .error : .warning, bundle: bundle.bundlePath,
                    path: file(bundle, "WKCompanionAppBundleIdentifier"),
                    message: companionUnknown.map { message + " The verdict depends on \($0.names), which the checkout cannot supply. \($0.hint)" } ?? message,
                    values: [companion, parent]))
            }
            if !prefixed {
                add(.watchPrefix, "The bundle identifier of a WatchKit app must have a prefix consisting of the companion app's bundle identifier, followed by a '.'. (WatchKit app: '\(identifier)'; companion app: '\(parent)'.)", values: [identifier, parent],
                    dependsOnUnknown: !Unknown.differ(identifier, of: bundle, parent + ".", of: app, prefixOnly: true))
            }
        case _ where bundle.embedLocation == .appClips:
            // rule `clip.prefix`: the full app's identifier, '.', then a string (Xcode's default is `.Clip`).
            if !prefixed {
                add(.clipPrefix, "Ensure that the application identifier for the App Clip uses the full app's application identifier as its prefix, followed by a string. (App Clip: '\(identifier)'; full app: '\(parent)'.)", values: [identifier, parent],
                    dependsOnUnknown: !Unknown.differ(identifier, of: bundle, parent + ".", of: app, prefixOnly: true))
            }
        case .host, .widget, .intent, .complication, .notification, .share, .clip, .extension:
            if !prefixed {
                // rule `bundle-id.prefix`: Xcode's error with its two detail lines, then the installer's sentence.
                add(.bundleIDPrefix, "Embedded binary's bundle identifier is not prefixed with the parent app's bundle identifier. Embedded Binary Bundle Identifier: \(identifier) Parent App Bundle Identifier: \(parent) App extension bundle identifiers must have a prefix consisting of their containing application's bundle identifier followed by a '.'.", values: [identifier, parent],
                    dependsOnUnknown: !Unknown.differ(identifier, of: bundle, parent + ".", of: app, prefixOnly: true))
            } else if applies(.bundleIDSingleComponent, to: bundle) {
                // rule `bundle-id.single-component`: the iOS installer's rule; a Mac app's extensions may nest deeper
                // (<doc:ReadingProjects> "Platforms"). A '.' in the known part of the suffix is an error; an unknown part may
                // hold one, a warning.
                let suffix = String(identifier.utf8.dropFirst(parent.utf8.count + 1))!
                let suffixUnknown = Unknown(bundle, suffix)
                if ASCII.contains(".", in: Unknown.known(suffix, of: bundle)) || suffixUnknown != nil {
                    let message = "App extension bundle identifiers must have a prefix consisting of their containing application's bundle identifier followed by a '.', with no further '.' characters after the prefix. ('\(identifier)' has more than one component after '\(parent).'.)"
                    if ASCII.contains(".", in: Unknown.known(suffix, of: bundle)) {
                        add(.bundleIDSingleComponent, message, values: [identifier, parent])
                    } else if let suffixUnknown {
                        findings.append(Finding(rule: .bundleIDSingleComponent, severity: .warning, bundle: bundle.bundlePath, path: path,
                            message: "After '\(parent).', '\(identifier)' continues with '\(suffix)', built from \(suffixUnknown.names), which the checkout cannot supply: if it holds a '.', App extension bundle identifiers must have a prefix consisting of their containing application's bundle identifier followed by a '.', with no further '.' characters after the prefix. \(suffixUnknown.hint)",
                            values: [identifier, parent]))
                    }
                }
            }
        }
    }

    // MARK: - Extension points

    private static func extensionFindings(_ bundle: BundleRecord, into findings: inout [Finding]) {
        guard bundle.embedLocation == .plugIns || bundle.embedLocation == .extensions else { return }
        let path = file(bundle, "NSExtensionPointIdentifier")
        // rule `extension.point` (and intent.extension-point for ExtensionKit bundles in Extensions/).
        let dictionaryKey = bundle.embedLocation == .extensions ? "EXAppExtensionAttributes" : "NSExtension"
        let pointKey = bundle.embedLocation == .extensions ? "EXExtensionPointIdentifier" : "NSExtensionPointIdentifier"
        guard bundle.hasExtensionDictionary else {
            findings.append(Finding(rule: .extensionPoint, severity: .error, bundle: bundle.bundlePath, path: path,
                                    message: "App extensions must define the \(dictionaryKey) key with a dictionary value in their Info.plist.", values: [dictionaryKey]))
            return
        }
        guard let point = bundle.extensionPoint, !point.isEmpty else {
            findings.append(Finding(rule: .extensionPoint, severity: .error, bundle: bundle.bundlePath, path: path,
                                    message: "Appex bundle at \(bundle.bundlePath) does not define the \(pointKey) key in its Info.plist. This key must have a reverse-DNS format string value.", values: [pointKey]))
            return
        }
        guard knownExtensionPoints.contains(point) else {
            findings.append(Finding(rule: .extensionPoint, severity: .warning, bundle: bundle.bundlePath, path: path,
                                    message: "The extension point '\(point)' of \(bundle.bundlePath) is not one Apple documents for iOS app extensions; check its \(pointKey).", values: [point]))
            return
        }
    }

    // MARK: - The App Store's other embedded-bundle rules (<doc:Rules> "The App Store's other embedded-bundle rules")

    /// Built bundles only: what their folders, Info.plists and executables say.
    private static func storeFindings(_ bundle: BundleRecord, app: BundleRecord, into findings: inout [Finding]) {
        guard let store = bundle.store else { return }
        let path = bundle.source.file
        func add(_ rule: RuleID, _ severity: Severity, _ message: String, values: [String] = []) {
            findings.append(Finding(rule: rule, severity: severity, bundle: bundle.bundlePath, path: path, message: message, values: values))
        }
        let isExtension = bundle.embedLocation == .plugIns || bundle.embedLocation == .extensions
        // rule `bundle.nested` (ITMS-90206 for a Frameworks folder, 90205 for other bundles).
        for item in store.nested {
            add(.bundleNested, .error, item == "Frameworks"
                ? "Asset validation failed (90206) Invalid Bundle. The bundle at '\(bundle.bundlePath)' contains disallowed file 'Frameworks'. (Embed frameworks in the app, not in its extensions.)"
                : "Asset validation failed (90205) Invalid Bundle. The bundle at '\(bundle.bundlePath)' contains disallowed nested bundles. ('\(item)')", values: [item])
        }
        // rule `os.plist-vs-binary` (ITMS-90208).
        if let declared = store.minimumOS, let built = store.executableMinimumOS, compareVersions(declared, built) < 0 {
            add(.osPlistVsBinary, .error, "ITMS-90208: Invalid Bundle. The bundle \(bundle.bundlePath) does not support the minimum OS Version specified in the Info.plist. (MinimumOSVersion is \(declared); the executable is built for \(built) and later.)", values: [declared, built])
        }
        // rule `os.extension-floor`: allowed, but the extension is silently dropped on the versions in between.
        if isExtension, bundle != app, let own = store.minimumOS, let parent = app.store?.minimumOS, compareVersions(own, parent) > 0 {
            add(.osExtensionFloor, .warning, "The extension's MinimumOSVersion \(own) is above its app's \(parent): on the versions in between installd logs \"Ignoring app extension at \(bundle.bundlePath) because it doesn't work on this OS version\" and the extension is missing.", values: [own, parent])
        }
        guard bundle.embedLocation == .plugIns else { return }
        // rule `extension.activation-rule`, extension.plist-types, extension.display-name.
        if let rule = store.activationRule, ASCII.contains("TRUEPREDICATE", in: rule) {
            add(.extensionActivationRule, .error, "Embedded binary's NSExtensionActivationRule is TRUEPREDICATE. Before you submit your containing app to the App Store, be sure to replace all uses of TRUEPREDICATE with specific predicate statements or NSExtensionActivationRule keys. If any extensions in your containing app include TRUEPREDICATE, the app will be rejected.")
        }
        for problem in store.activationTypeProblems {
            let key = String(problem.prefix { $0 != " " })
            add(.extensionPlistTypes, .error, "ITMS-90361: Invalid info.plist value type. The value type for the key '\(key)' in bundle \(bundle.bundlePath) \(problem.hasSuffix("is not an integer)") ? "is not an integer" : "is not boolean").", values: [key])
        }
        if !store.hasDisplayName {
            // A project's Info.plist may be completed at build time (a plist the build writes, a script): a warning.
            add(.extensionDisplayName, store.isBuilt ? .error : .warning, "ITMS-90360: Missing Info.plist value. A value for the key 'CFBundleDisplayName' in bundle \(bundle.bundlePath) is required.")
        }
    }

    /// rule `signing.profile`: each bundle's signed entitlements are allowed by its own profile, and every
    /// bundle's profile is of the app's team.
    private static func signingFindings(_ bundle: BundleRecord, app: BundleRecord, into findings: inout [Finding]) {
        guard let signing = bundle.signing else { return }
        func add(_ severity: Severity, _ message: String, values: [String] = []) {
            findings.append(Finding(rule: .signingProfile, severity: severity, bundle: bundle.bundlePath, path: signing.profilePath, message: message, values: values))
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

    /// rule `bundle-id.duplicate` extended to frameworks: no two bundles under the app share an identifier
    /// (ITMS-90685), the same framework in the iOS app and its watch app included (ITMS-90806).
    private static func frameworkFindings(_ set: AppBundleSet, into findings: inout [Finding]) {
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
            findings.append(Finding(rule: .bundleIDDuplicate, severity: .error, bundle: framework.bundlePath, path: framework.source, message: message,
                                    values: [framework.identifier, earlier]))
        }
    }

    /// rule `clip.parent` and clip.size, for an App Clip in `X.app/AppClips`.
    private static func clipFindings(_ clip: BundleRecord, app: BundleRecord, into findings: inout [Finding]) {
        guard clip.embedLocation == .appClips, let store = clip.store else { return }
        func add(_ rule: RuleID, _ message: String, values: [String] = []) {
            findings.append(Finding(rule: rule, severity: .error, bundle: clip.bundlePath, path: clip.source.file, message: message, values: values))
        }
        // The parent list is in the signed entitlements; without them (an unsigned build) there is nothing to compare.
        if let parents = store.parentApplicationIdentifiers {
            let expected = app.store?.applicationIdentifier
            if parents.count != 1 || (expected != nil && parents.first != expected) {
                add(.clipParent, "com.apple.developer.parent-application-identifiers must be a list of parent application identifiers for an App Clip with exactly one entry, the corresponding app's application identifier. (It is \(parents.map { "'\($0)'" }.joined(separator: ", ")); the app's is '\(expected ?? "unknown")'.)", values: parents + [expected ?? ""])
            }
        }
        // By the clip's minimum OS: before iOS 16 10 MB, iOS 16 15 MB, iOS 17 and later 100 MB (digital invocations).
        if let size = store.size {
            let major = Int(store.minimumOS?.split(separator: ".").first ?? "") ?? 0
            let limit = major >= 17 ? 100 : major == 16 ? 15 : 10
            if size > limit * 1_000_000 {
                add(.clipSize, "ITMS-90865: Thinned app clip size is too large - The main bundle of the \(clip.name) App Clip is \(size / 1_000_000) MB, which exceeds the maximum allowable size of \(limit) MB after app thinning. (Measured uncompressed, before thinning; its MinimumOSVersion is \(store.minimumOS ?? "not set").)", values: [String(limit)])
            }
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

    // MARK: - Privacy manifests

    /// rule `privacy.manifest`, `privacy.manifest-invalid`: App Store Connect evaluates each executable.
    private static func privacyFindings(_ bundle: BundleRecord, app: BundleRecord, into findings: inout [Finding]) {
        guard let privacy = bundle.privacy else { return }
        let path = privacy.manifestPath ?? bundle.source.file
        if !privacy.problems.isEmpty {
            findings.append(Finding(rule: .privacyManifestInvalid, severity: .error, bundle: bundle.bundlePath, path: path,
                message: "App Store Connect rejects app submissions that include invalid privacy manifest files. (\(privacy.problems.joined(separator: "; ")).)", values: privacy.problems))
        }
        let missing = privacy.used.keys.filter { !(privacy.declared?.contains($0) ?? false) }.sorted()
        guard !missing.isEmpty else { return }
        // Apple's documentation says the app's manifest covers its extensions, yet its emails name extension
        // executables: declared only in the app, a warning; nowhere, an error.
        let coveredByApp = bundle != app && missing.allSatisfy { app.privacy?.declared?.contains($0) ?? false }
        let symbols = missing.flatMap { privacy.used[$0]!.prefix(2) }.joined(separator: ", ")
        let manifest = "\(bundle.bundlePath)/PrivacyInfo.xcprivacy"
        findings.append(Finding(rule: .privacyManifest, severity: coveredByApp ? .warning : .error, bundle: bundle.bundlePath, path: path,
            message: "ITMS-91053: Missing API declaration - Your app's code in the \"\(privacy.executable)\" file references one or more APIs that require reasons, including the following API categories: \(missing.joined(separator: ", ")). (It imports \(symbols).) "
                + (coveredByApp ? "Only the app's privacy manifest declares them; App Store Connect names extension executables, so declare them in \(manifest) too."
                                : "Declare each with an approved reason in \(manifest) (NSPrivacyAccessedAPITypes)."), values: missing))
    }

    // MARK: - App Groups

    /// `app` is the containing bundle.
    private static func groupFindings(_ bundle: BundleRecord, app: BundleRecord, into findings: inout [Finding]) {
        let path = file(bundle, "com.apple.security.application-groups")
        guard bundle.appGroupsKnown else {
            findings.append(Finding(rule: .groupShared, severity: .note, bundle: bundle.bundlePath, path: path,
                                    message: "The entitlements of \(bundle.bundlePath) are not in a file Lockstep reads (archived-expanded-entitlements.xcent or a .entitlements file), so its App Groups were not checked.", values: []))
            return
        }
        // rule `group.id-format`: iOS App Group ids are `group.<name>`; a Mac app's may be team-prefixed
        // (`$(TeamIdentifierPrefix)…`, <doc:ReadingProjects> "Platforms").
        for group in bundle.appGroups where !group.hasPrefix("group.") && applies(.groupIDFormat, to: bundle) {
            let message = "The App Group '\(group)' claimed by \(bundle.bundlePath) does not start with 'group.': on iOS an App Group identifier has the form group.<name>."
            if let unknown = Unknown(bundle, group), group.hasPrefix(BuildSettings.unknownSymbol(unknown.first)) {
                findings.append(Finding(rule: .groupShared, severity: .warning, bundle: bundle.bundlePath, path: path,
                    message: message + " It starts with \(unknown.names), which the checkout cannot supply. \(unknown.hint)", values: [group]))
            } else {
                findings.append(Finding(rule: .groupShared, severity: .error, bundle: bundle.bundlePath, path: path, message: message, values: [group]))
            }
        }
        // A watch app's group containers are watch-local (rule `group.watch-separate`): nothing to share with the host.
        guard bundle != app, bundle.role != .watch, app.appGroupsKnown else { return }
        if bundle.appGroups.isEmpty {
            findings.append(Finding(rule: .groupShared, severity: .note, bundle: bundle.bundlePath, path: path,
                message: "\(bundle.bundlePath) claims no App Group, so it shares no container with \(app.bundlePath) (allowed; many extensions need none).", values: []))
        }
        for group in bundle.appGroups where !app.appGroups.contains(group) {
            let message = "\(bundle.bundlePath) claims the App Group '\(group)', which its containing app \(app.bundlePath) does not claim: they share nothing through it. Every group of an extension must also be in the app's com.apple.security.application-groups."
            // A warning only where some group of the app may be this one, whatever the unknown parts hold.
            let possible = app.appGroups.filter { !Unknown.differ(group, of: bundle, $0, of: app) }
            let unknown = possible.isEmpty ? nil : Unknown(bundle, group) ?? possible.lazy.compactMap { Unknown(app, $0) }.first
            findings.append(Finding(rule: .groupShared, severity: unknown == nil ? .error : .warning, bundle: bundle.bundlePath, path: path,
                message: unknown.map { message + " The verdict depends on \($0.names), which the checkout cannot supply. \($0.hint)" } ?? message,
                values: [group]))
        }
    }

    /// The settings the checkout cannot supply that one value is built from (<doc:ReadingProjects> "What the checkout does not
    /// hold"), and the sentence saying where the first would have come from.
    struct Unknown: Equatable {
        var all: [String]
        var hint: String
        var first: String { all[0] }
        /// "$(DEVELOPMENT_TEAM)", "$(A) and $(B)".
        var names: String { all.map(BuildSettings.unknownSymbol).joined(separator: " and ") }

        /// Nil when `value` is known.
        init?(_ bundle: BundleRecord, _ value: String?) {
            let names = bundle.unknownNames(in: value)
            guard let first = names.first else { return nil }
            all = names
            hint = bundle.unknowns[first] ?? ""
        }

        /// Whether `a` (a value of `x`) and `b` (of `y`) differ whatever their unknown parts hold (with `prefixOnly`:
        /// whether `a` cannot start with `b`): the known text before the first unknown part, or after the last, disagrees
        /// (`1.$(PATCH)` and `2.$(PATCH)`; `org.other.widget` under `com.$(DEVELOPMENT_TEAM).app`).
        static func differ(_ a: String, of x: BundleRecord, _ b: String, of y: BundleRecord, prefixOnly: Bool = false) -> Bool {
            let (headA, tailA, unknownA) = ends(a, of: x), (headB, tailB, unknownB) = ends(b, of: y)
            let heads: Bool
            switch (unknownA, unknownB) {
            case (false, false): heads = prefixOnly ? a.hasPrefix(b) : a == b
            case (false, true): heads = a.hasPrefix(headB)
            // The unknown part of `a` may complete `b` (prefixOnly), or `b` must hold `a`'s known start.
            case (true, false): heads = b.hasPrefix(headA) || (prefixOnly && headA.hasPrefix(b))
            case (true, true): heads = headA.hasPrefix(headB) || headB.hasPrefix(headA)
            }
            guard !prefixOnly else { return !heads }
            let tails: Bool
            switch (unknownA, unknownB) {
            case (false, false): tails = a == b
            case (false, true): tails = a.hasSuffix(tailB)
            case (true, false): tails = b.hasSuffix(tailA)
            case (true, true): tails = tailA.hasSuffix(tailB) || tailB.hasSuffix(tailA)
            }
            return !(heads && tails)
        }

        /// The known text of `value` before its first unknown part and after its last, and whether it has one.
        private static func ends(_ value: String, of bundle: BundleRecord) -> (head: Substring, tail: Substring, unknown: Bool) {
            let symbols = bundle.unknownNames(in: value).map(BuildSettings.unknownSymbol)
            let first = symbols.compactMap { value.range(of: $0)?.lowerBound }.min()
            let last = symbols.compactMap { value.range(of: $0, options: .backwards)?.upperBound }.max()
            guard let first, let last else { return (value[...], value[...], false) }
            return (value[..<first], value[last...], true)
        }

        /// `value` with each unknown part replaced by a letter: the part of it whose form the rules can check.
        static func known(_ value: String, of bundle: BundleRecord) -> String {
            bundle.unknownNames(in: value).reduce(value) { ASCII.replacing(BuildSettings.unknownSymbol($1), with: "X", in: $0) }
        }
    }

    /// The file a finding about `key` points at: where the value came from, else the bundle's own file.
    private static func file(_ bundle: BundleRecord, _ key: String) -> String {
        bundle.valueSources[key]?.file ?? bundle.source.file
    }
}

extension Manifest {
    /// The findings that stop `bundleIdentifier`'s process from starting (rule `runtime.version-parity`, exit
    /// 78): its CFBundleVersion or CFBundleShortVersionString differs from the containing app's. Empty for
    /// the app itself, for a matching bundle, and for an identifier the manifest does not list.
    public func versionFindings(for bundleIdentifier: String) -> [Finding] {
        guard let bundle = bundle(identifier: bundleIdentifier) else { return [] }
        return Rules.runtimeFindings(bundle, app: app)
    }
}
