@testable import BundleKit
@testable import CheckKit
import Foundation
import Testing
@testable import XcodeKit

/// Issue 42: what a project's files can make unknown or unreadable — a damaged binary plist, a build number a Run
/// Script phase writes, a macro of a missing prefix header — and which setting a generated Info.plist takes.
@Suite struct ReaderRoundFourTests {
    static let appType = "com.apple.product-type.application"
    static let appexType = "com.apple.product-type.app-extension"
    static let versioned = EmbeddingRoundFourTests.versioned
    static let damaged = "bplist00;" + String(repeating: "\u{0}", count: 60)

    static func appAndShare(_ app: [String: String] = [:], share: [String: String] = [:]) -> ProjectFixture {
        ProjectFixture(projectSettings: ["CURRENT_PROJECT_VERSION": "5", "MARKETING_VERSION": "1.0"], targets: [
            .init(name: "App", productType: appType, settings: ["INFOPLIST_FILE": "App/Info.plist", "PRODUCT_BUNDLE_IDENTIFIER": "com.example.app"]
                    .merging(app) { $1 }, embeds: [.init(target: "Share", spec: 13)]),
            .init(name: "Share", productType: appexType, settings: ["INFOPLIST_FILE": "Share/Info.plist", "PRODUCT_BUNDLE_IDENTIFIER": "com.example.app.share"]
                    .merging(share) { $1 }),
        ])
    }

    static let files = [
        "App/Info.plist": FixtureTree.plist(versioned),
        "Share/Info.plist": EmbeddingRoundFourTests.extensionPlist("com.apple.share-services"),
    ]

    /// A damaged binary Info.plist or entitlements file is unreadable input (exit 2 naming the file), not a bundle
    /// whose keys are missing.
    @Test(arguments: ["Share/Info.plist", "Share/Share.entitlements"]) func aDamagedBinaryPlistIsUnreadable(file: String) throws {
        let fixture = Self.appAndShare(share: ["CODE_SIGN_ENTITLEMENTS": "Share/Share.entitlements"])
        var files = Self.files.merging(["Share/Share.entitlements": FixtureTree.plist([:])]) { $1 }
        files[file] = Self.damaged
        let error = #expect(throws: BundleError.self) { try fixture.load(with: files) }
        #expect(error?.code == .notAPropertyList)
        #expect(error?.path.hasSuffix(file) == true, "\(String(describing: error))")
        #expect(error?.description.contains("binary property list") == true, "\(String(describing: error))")
        #expect(error?.exitStatus == .invalidInput)
    }

    // MARK: - Item 3: Run Script phases that write the version

    static let setBuildNumber = #"appBuild=`git rev-list --count HEAD`; /usr/libexec/PlistBuddy -c "Set :CFBundleVersion $appBuild" "${TARGET_BUILD_DIR}/${INFOPLIST_PATH}""#

    /// cryptomator's form: CURRENT_PROJECT_VERSION = AUTOMATIC, and each target's "Set Build Number" phase writes the
    /// real number. The literal is not what ships: no ITMS-90058 error, one warning naming the phase, and the same
    /// script in the app and the extension is the same value.
    @Test func aBuildNumberAScriptWritesIsAWarningNamingThePhase() throws {
        var fixture = Self.appAndShare()
        fixture.projectSettings["CURRENT_PROJECT_VERSION"] = "AUTOMATIC"
        for index in fixture.targets.indices { fixture.targets[index].scripts = ["Set Build Number": Self.setBuildNumber] }
        let result = try fixture.load(with: Self.files, configuration: nil)
        let findings = result.findings + result.sets.flatMap(Rules.check)
        #expect(findings.filter { $0.severity == .error }.isEmpty, "\(findings)")
        let warnings = findings.filter { $0.severity == .warning }
        #expect(warnings.map(\.rule) == ["version.build-format", "version.build-format"], "\(warnings)")  // once per configuration
        #expect(warnings.first?.bundle == "App.app")
        #expect(warnings.first?.message.contains("The Run Script phase 'Set Build Number' of target 'App' writes CFBundleVersion into the built Info.plist (") == true, "\(warnings)")
        #expect(warnings.first?.message.contains("(the project gives 'AUTOMATIC')") == true, "\(warnings)")
        #expect(warnings.first?.path.hasSuffix("project.pbxproj") == true && warnings.first?.line != nil, "\(warnings)")
    }

    /// Parity is judged where it can be: a script only in the app makes the comparison a warning, while the
    /// extension's own literal is still checked; a short version no script writes is still compared.
    @Test func aScriptOnOneSideOnlyMakesParityUnknown() throws {
        var fixture = Self.appAndShare(share: ["MARKETING_VERSION": "9.9.9"])
        fixture.targets[0].scripts = ["Bump": #"agvtool next-version -all; plutil -replace CFBundleVersion -string 7 "$TARGET_BUILD_DIR/$INFOPLIST_PATH""#]
        let result = try fixture.load(with: Self.files)
        let findings = result.sets.flatMap(Rules.check).filter { $0.severity != .note }
        #expect(findings.map(\.rule).sorted() == ["version.build-format", "version.build-mismatch", "version.short-mismatch"], "\(findings)")
        #expect(findings.first { $0.rule == "version.build-mismatch" }?.severity == .warning)
        #expect(findings.first { $0.rule == "version.short-mismatch" }?.severity == .error)
    }

    /// What counts as writing a version, and what does not (a read, an echo, another key).
    @Test func scriptsThatWriteAVersion() {
        #expect(VersionScript.writes(Self.setBuildNumber)?.keys == ["CFBundleVersion"])
        #expect(VersionScript.writes("xcrun agvtool new-marketing-version 2.0")?.keys == ["CFBundleShortVersionString"])
        #expect(VersionScript.writes(#"defaults write "$PLIST" CFBundleShortVersionString 2; defaults write "$PLIST" CFBundleVersion 3"#)?.keys == ["CFBundleShortVersionString", "CFBundleVersion"])
        #expect(VersionScript.writes(#"/usr/libexec/PlistBuddy -c "Print :CFBundleVersion" Info.plist"#) == nil)
        #expect(VersionScript.writes(#"echo "Set :CFBundleVersion 1 with PlistBuddy""#) == nil)
        #expect(VersionScript.writes(#"/usr/libexec/PlistBuddy -c "Add :CFBundleURLTypes:1 string x" "$P""#) == nil)
    }

    // MARK: - Item 4: a macro of a missing prefix header

    /// Transmission's form: a preprocessed Info.plist whose prefix header a build phase writes (not in the checkout)
    /// and whose CFBundleVersion is one of its macros. The macro is unknown: a warning, never ITMS-90058's error.
    @Test func aMacroOfAMissingPrefixHeaderIsUnknown() throws {
        let fixture = Self.appAndShare(["INFOPLIST_PREPROCESS": "YES", "INFOPLIST_PREFIX_HEADER": "build/version.h"],
                                       share: ["INFOPLIST_PREPROCESS": "YES", "INFOPLIST_PREFIX_HEADER": "build/version.h"])
        let macro = ["CFBundleVersion": "BUILD_STRING_INFOPLIST", "CFBundleShortVersionString": "$(MARKETING_VERSION)",
                     "CFBundleIdentifier": "$(PRODUCT_BUNDLE_IDENTIFIER)"]
        var share = macro as [String: Any]
        share["CFBundleDisplayName"] = "Share"
        share["NSExtension"] = ["NSExtensionPointIdentifier": "com.apple.share-services"]
        let result = try fixture.load(with: ["App/Info.plist": FixtureTree.plist(macro), "Share/Info.plist": FixtureTree.plist(share)])
        let findings = result.findings + result.sets.flatMap(Rules.check)
        #expect(findings.filter { $0.severity == .error }.isEmpty, "\(findings)")
        #expect(result.sets[0].app.buildVersion == "$(BUILD_STRING_INFOPLIST)")
        let format = findings.filter { $0.rule == "version.build-format" }
        #expect(format.count == 1 && format[0].severity == .warning, "\(findings)")
        #expect(format.first?.message.contains("BUILD_STRING_INFOPLIST is a macro of the Info.plist prefix header") == true, "\(format)")
        // A known part that differs is still an error: the macro cannot make '9.9' equal '1.0'.
        var drifted = share
        drifted["CFBundleShortVersionString"] = "9.9"
        let bad = try fixture.load(with: ["App/Info.plist": FixtureTree.plist(macro), "Share/Info.plist": FixtureTree.plist(drifted)])
        #expect(bad.sets.flatMap(Rules.check).filter { $0.severity == .error }.map(\.rule) == ["version.short-mismatch"])
    }

    // MARK: - Item 5: INFOPLIST_KEY_CFBundleVersion and CURRENT_PROJECT_VERSION

    /// 10ten-ja-reader's app target: GENERATE_INFOPLIST_FILE = YES, INFOPLIST_KEY_CFBundleVersion = 7 and
    /// CURRENT_PROJECT_VERSION = 96. Xcode's build system generates CFBundleVersion from CURRENT_PROJECT_VERSION and
    /// does not read INFOPLIST_KEY_CFBundleVersion (swift-build, InfoPlistProcessorTaskAction.defaultInfoPlistContent),
    /// over the Info.plist file's value: 96, the extension's, so no mismatch — where Lockstep used to say 7.
    @Test(arguments: [nil, "$(CURRENT_PROJECT_VERSION)", "7"]) func currentProjectVersionWinsOverInfoPlistKey(plistValue: String?) throws {
        let generated = ["GENERATE_INFOPLIST_FILE": "YES", "INFOPLIST_KEY_CFBundleVersion": "7", "CURRENT_PROJECT_VERSION": "96"]
        let fixture = Self.appAndShare(generated, share: ["CURRENT_PROJECT_VERSION": "96"])
        var app: [String: Any] = ["CFBundleShortVersionString": "$(MARKETING_VERSION)", "CFBundleIdentifier": "$(PRODUCT_BUNDLE_IDENTIFIER)"]
        if let plistValue { app["CFBundleVersion"] = plistValue }
        let result = try fixture.load(with: Self.files.merging(["App/Info.plist": FixtureTree.plist(app)]) { $1 })
        #expect(result.sets[0].app.buildVersion == "96")
        #expect(result.sets.flatMap(Rules.check).filter { $0.severity == .error }.isEmpty)
    }
}
