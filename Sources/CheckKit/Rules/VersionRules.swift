import BundleKit
import XcodeKit

// The version rules of <doc:Rules> "Bundles and versions": every bundle has both versions, in App Store Connect's
// format, equal to its containing app's; and the same comparison a simulated process makes before it starts
// (<doc:Rules> "The stale extension").

extension RuleCatalog {
    static let versionRules = RuleDescription.parse("""
        version.missing | error | Bundles and versions
        Every bundle's Info.plist has a CFBundleVersion and a CFBundleShortVersionString.
        Apple: The bundle's Info.plist does not contain a CFBundleVersion key or its value is not a string.
        Apple: The bundle's Info.plist does not contain a CFBundleShortVersionString key or its value is a non-string value or a zero-length string value.
        Source: App Store Connect's upload validation
        Source: developer.apple.com/documentation/bundleresources/information-property-list/cfbundleversion
        Lockstep: Reads each bundle's CFBundleVersion and CFBundleShortVersionString (a manifest, the Info.plist, or the value a project's build settings give it); a value that is not a string counts as missing.
        Fix: Set CFBundleVersion = $(CURRENT_PROJECT_VERSION) and CFBundleShortVersionString = $(MARKETING_VERSION) in the Info.plist (or GENERATE_INFOPLIST_FILE = YES), and define both settings at project level.

        version.build-format | error | Bundles and versions
        CFBundleVersion is one to three period-separated non-negative integers.
        Apple: ITMS-90058: This bundle is invalid - The value for key CFBundleVersion [8.22.3-beta.0] in the Info.plist file must be a period-separated list of at most three non-negative integers.
        Source: App Store Connect: ITMS-90058
        Source: developer.apple.com/documentation/bundleresources/information-property-list/cfbundleversion
        Lockstep: Counts the numeric parts of each CFBundleVersion: four is a warning (accepted in practice), anything else an error; a warning on macOS, where an app may ship outside the Mac App Store. A value the checkout cannot supply — a setting it does not hold, a number a Run Script phase writes into the built Info.plist, a macro of a missing Info.plist prefix header — is not checked, with a warning naming it.
        Fix: Use a build number such as 289 or 1.4.2; keep pre-release labels out of CFBundleVersion. Four parts are accepted in practice (a warning); on macOS this rule is a warning.

        version.short-format | error | Bundles and versions
        CFBundleShortVersionString is one to three period-separated non-negative integers.
        Apple: ITMS-90060: This bundle is invalid. The value for key CFBundleShortVersionString '5.0.0-beta1' in the Info.plist file must be a period-separated list of at most three non-negative integers.
        Source: App Store Connect: ITMS-90060
        Source: developer.apple.com/documentation/bundleresources/information-property-list/cfbundleshortversionstring
        Lockstep: Counts the numeric parts of each CFBundleShortVersionString; a warning on macOS.
        Fix: Use a marketing version such as 2.1 or 2.1.0; on macOS this rule is a warning.

        version.build-mismatch | error | Bundles and versions
        Every embedded extension's and watch app's CFBundleVersion equals the containing app's (compared as stored).
        Apple: warning: The CFBundleVersion of an app extension ('1') must match that of its containing parent app ('289').
        Apple: ITMS-90473: CFBundleVersion Mismatch - The CFBundleVersion value '1' of extension 'X.app/PlugIns/Y.appex' does not match the CFBundleVersion value '9.1.18.2' of its containing iOS application 'X.app'.
        Apple: Asset validation failed (90379) CFBundleVersion Mismatch. The CFBundleVersion value '1' of watch application 'X.app/Watch/W.app' does not match the CFBundleVersion value '18.9.0.1' of its containing iOS application 'X.app'.
        Source: Xcode's build warning
        Source: App Store Connect: ITMS-90473, 90379
        Lockstep: Compares each embedded bundle's CFBundleVersion with the containing app's byte for byte ("1.0" is not "1.0.0"), in every platform's build a copy phase embeds it into; a verdict that depends on a value the checkout cannot supply (a setting it does not hold, a Run Script phase's number on one side only) is a warning.
        Fix: Let every target inherit CURRENT_PROJECT_VERSION from the project (delete target-level overrides), or run `lockstep bump PATH --build next`.

        version.short-mismatch | error | Bundles and versions
        Every embedded extension's and watch app's CFBundleShortVersionString equals the containing app's.
        Apple: warning: The CFBundleShortVersionString of an app extension ('1.0.0') must match that of its containing parent app ('1.0').
        Apple: ITMS-90473: CFBundleShortVersionString Mismatch
        Apple: error: The value of CFBundleShortVersionString in your WatchKit app's Info.plist (0.3.0) does not match the value in your companion app's Info.plist (0.3.1). These values are required to match.
        Source: Xcode's build warning and error
        Source: App Store Connect: ITMS-90473
        Lockstep: Compares each embedded bundle's CFBundleShortVersionString with the iOS app's byte for byte; a verdict that depends on an unknown setting is a warning.
        Fix: Let every target inherit MARKETING_VERSION from the project, or run `lockstep bump PATH --version X.Y.Z`.

        runtime.version-parity | runtime | The stale extension
        A simulated process refuses to start when its bundle's CFBundleVersion or CFBundleShortVersionString differs from the installed containing app's.
        Apple: The CFBundleVersion of an app extension ('2') must match that of its containing parent app ('3').
        Apple: ITMS-90473: CFBundleVersion Mismatch
        Source: Xcode's build warning
        Source: App Store Connect: ITMS-90473
        Lockstep: Every simulated process compares its own versions with the installed manifest's app before it starts (LockstepRuntime's SimulatedProcess.checkVersions, with BundleKit's VersionParity sentences) and exits 78 with Apple's wording and [runtime.version-parity]; `lockstep up` reports the bundle as exited before it was ready.
        Fix: Build and install every bundle at the app's versions (`lockstep bump` sets them in a project or manifest).
        """)
}

extension VersionParity.Key {
    /// rule `version.build-format` or `version.short-format`: the form of this key's value.
    var formatRule: RuleID { self == .build ? "version.build-format" : "version.short-format" }
    /// rule `version.build-mismatch` or `version.short-mismatch`: this key's value against the app's.
    var mismatchRule: RuleID { self == .build ? "version.build-mismatch" : "version.short-mismatch" }
}

extension Rules {
    typealias VersionKey = VersionParity.Key

    /// `mismatchRule` replaces the mismatch rules' ids (for the runtime check); `nil` runs every version rule.
    /// - Parameter container: the bundle that directly contains `bundle` (a watch app for its own widget), which
    ///   Xcode's sentence names; App Store Connect compares every bundle with the iOS app, `app`. Not optional: a
    ///   record made optional is a copy of every field, for each bundle of a set.
    static func versionFindings(_ bundle: BundleRecord, app: BundleRecord, container: BundleRecord, rule mismatchRule: RuleID?, into findings: inout [Finding]) {
        for kind in [VersionKey.build, .short] {
            let path = file(bundle, kind.key)
            guard let value = kind.value(bundle), !value.isEmpty else {
                // A watch-only app's stub container: Xcode writes its Info.plist, so nothing to be missing.
                if bundle.infoPlistWrittenByXcode { continue }
                // rule `version.missing`
                let message = kind == .build
                    ? "The bundle's Info.plist does not contain a CFBundleVersion key or its value is not a string."
                    : "The bundle's Info.plist does not contain a CFBundleShortVersionString key or its value is a non-string value or a zero-length string value."
                findings.append(Finding(rule: "version.missing", bundle: bundle.bundlePath, path: path, message: message, values: [kind.key]))
                continue
            }
            // <doc:ReadingProjects> "What the checkout does not hold": a value built from a setting the checkout cannot supply is
            // compared as it stands; only a verdict that depends on the unknown is a warning.
            let unknown = Unknown(bundle, value)
            let sameAsApp = bundle != app && kind.value(app).map { VersionParity.stored($0, value) } == true
            if let unknown {
                // The app's format stands for every bundle that reads the same value.
                if !sameAsApp {
                    findings.append(Finding(rule: kind.formatRule, severity: .warning,
                        bundle: bundle.bundlePath, path: path,
                        message: "\(kind.key) of \(bundle.bundlePath) is '\(value)', built from \(unknown.names), which the checkout cannot supply, so its format is not checked. \(unknown.hint)", values: [value]))
                }
            } else { switch numericParts(value) {
            case .some(1...3):
                break
            case .some(4) where kind == .build:
                // rule `version.build-format`: four numeric parts are accepted in practice, so a warning.
                findings.append(Finding(rule: "version.build-format", severity: .warning, bundle: bundle.bundlePath, path: path,
                    message: "ITMS-90058: This bundle is invalid - The value for key CFBundleVersion [\(value)] in the Info.plist file must be a period-separated list of at most three non-negative integers. (App Store Connect accepts four in practice.)", values: [value]))
            default:
                let message = kind == .build
                    ? "ITMS-90058: This bundle is invalid - The value for key CFBundleVersion [\(value)] in the Info.plist file must be a period-separated list of at most three non-negative integers."
                    : "ITMS-90060: This bundle is invalid. The value for key CFBundleShortVersionString '\(value)' in the Info.plist file must be a period-separated list of at most three non-negative integers."
                // <doc:ReadingProjects> "Platforms": the format is App Store Connect's rule. A Mac app may ship outside the Mac App
                // Store (Developer ID, a Sparkle feed) with a pre-release version such as '6.0a2': there, a warning.
                let onMac = bundle.platform == .macOS
                findings.append(Finding(rule: kind.formatRule, severity: onMac ? .warning : .error,
                                        bundle: bundle.bundlePath, path: path,
                                        message: onMac ? message + " (App Store Connect's rule: a Mac app distributed outside the Mac App Store may use any version string.)" : message,
                                        values: [value]))
            } }
            // rule `version.build-mismatch` / version.short-mismatch: a string comparison ("1.0" ≠ "1.0.0").
            guard bundle != app, let parent = kind.value(app), !parent.isEmpty, !VersionParity.stored(parent, value) else { continue }
            let rule = mismatchRule ?? kind.mismatchRule
            // Known text that already differs is the error it always is, whatever the unknown parts hold.
            if let unknown = unknown ?? Unknown(app, parent), !Unknown.differ(value, of: bundle, parent, of: app) {
                findings.append(Finding(rule: rule, severity: .warning, bundle: bundle.bundlePath, path: path,
                    message: "\(kind.key) of \(bundle.bundlePath) is '\(value)' and of its containing app \(app.bundlePath) '\(parent)': whether they match depends on \(unknown.names), which the checkout cannot supply. \(unknown.hint)", values: [value, parent]))
                continue
            }
            findings.append(Finding(rule: rule, bundle: bundle.bundlePath, path: path,
                                    message: VersionParity.mismatchMessage(kind, value: value, parent: parent, bundle: bundle, app: app, container: container),
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

    /// The findings a process runs on before starting (rule `runtime.version-parity`): `bundle`'s
    /// CFBundleVersion and CFBundleShortVersionString against its containing app's, in Apple's wording.
    static func runtimeFindings(_ bundle: BundleRecord, app: BundleRecord) -> [Finding] {
        guard bundle != app else { return [] }
        var findings: [Finding] = []
        versionFindings(bundle, app: app, container: app, rule: "runtime.version-parity", into: &findings)
        return findings.filter {
            $0.rule == "runtime.version-parity"
        }
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
