@testable import BundleKit
@testable import CheckKit
import Foundation
import LockstepTestSupport
import Testing
@testable import XcodeKit

/// <doc:ReadingProjects> "What the checkout does not hold" and "Platforms": the constructs of real projects
/// that a fresh CI checkout cannot fully supply, and targets that are not iOS. Each holds the verdict Xcode and App
/// Store Connect give: no error for what they accept, an error for what they refuse.
@Suite struct UnknownValueTests {
    static let app = "com.apple.product-type.application"
    static let appex = "com.apple.product-type.app-extension"
    static let versions = FixtureTree.plist([
        "CFBundleIdentifier": "$(PRODUCT_BUNDLE_IDENTIFIER)", "CFBundleVersion": "$(CURRENT_PROJECT_VERSION)",
        "CFBundleShortVersionString": "$(MARKETING_VERSION)",
    ])
    static func extensionPlist(_ entries: [String: Any] = [:]) -> String {
        FixtureTree.plist([
            "CFBundleIdentifier": "$(PRODUCT_BUNDLE_IDENTIFIER)", "CFBundleVersion": "$(CURRENT_PROJECT_VERSION)",
            "CFBundleShortVersionString": "$(MARKETING_VERSION)", "CFBundleDisplayName": "Share",
            "NSExtension": ["NSExtensionPointIdentifier": "com.apple.share-services"],
        ].merging(entries) { $1 })
    }

    /// A checkout of `fixture` as `name.xcodeproj` with `files`, each target's Info.plist this suite's: `versions` for
    /// the app, `extensionPlist()` for an extension.
    static func checkout(_ fixture: ProjectFixture, name: String = "App", _ files: [String: String]) throws -> FixtureTree {
        var all = ["\(name).xcodeproj/project.pbxproj": fixture.pbxproj()]
        for target in fixture.targets {
            if let plist = target.settings["INFOPLIST_FILE"] { all[plist] = target.productType == app ? versions : extensionPlist() }
        }
        return try FixtureTree(all.merging(files) { $1 })
    }

    /// An app and a share extension, each on its own CocoaPods base xcconfig that `pod install` writes.
    static func cocoaPods(projectLevel: Bool) -> [String: String] {
        func pods(_ target: String) -> String { "Pods/Target Support Files/Pods-\(target)/Pods-\(target).release.xcconfig" }
        let fixture = ProjectFixture(
            projectSettings: ["CURRENT_PROJECT_VERSION": "42", "MARKETING_VERSION": "2.0"],
            projectXcconfig: projectLevel ? pods("App") : nil,
            targets: [
                .init(name: "App", productType: app, settings: ["INFOPLIST_FILE": "App/Info.plist", "PRODUCT_BUNDLE_IDENTIFIER": "com.example.app"],
                      xcconfig: projectLevel ? nil : pods("App"), embeds: [.init(target: "Share", spec: 13)]),
                .init(name: "Share", productType: appex, settings: ["INFOPLIST_FILE": "Share/Info.plist", "PRODUCT_BUNDLE_IDENTIFIER": "com.example.app.share"],
                      xcconfig: projectLevel ? nil : pods("Share")),
            ])
        return ["App.xcodeproj/project.pbxproj": fixture.pbxproj(), "App/Info.plist": versions, "Share/Info.plist": extensionPlist()]
    }

    @Test(arguments: [false, true]) func cocoaPodsBaseXcconfigMissingIsAWarning(projectLevel: Bool) throws {
        let tree = try FixtureTree(Self.cocoaPods(projectLevel: projectLevel))
        defer { tree.cleanUp() }
        let result = try XcodeProjectInput.load(tree.path + "/App.xcodeproj", configuration: "Release")
        #expect(result.sets[0].all.map(\.buildVersion) == ["42", "42"])
        let pods = tree.path + "/Pods/Target Support Files"
        let files = projectLevel ? ["\(pods)/Pods-App/Pods-App.release.xcconfig"]
            : ["\(pods)/Pods-App/Pods-App.release.xcconfig", "\(pods)/Pods-Share/Pods-Share.release.xcconfig"]
        #expect(result.findings == files.map { file in
            let share = file.contains("Pods-Share/")
            let owner = projectLevel ? "the project [Release]" : share ? "target 'Share' [Release]" : "target 'App' [Release]"
            return Finding(rule: "settings.unresolved", severity: .warning, bundle: share ? "App.app/PlugIns/Share.appex" : "App.app", path: file,
                           message: "Unable to open base configuration reference file '\(file)' of \(owner) (Xcode builds with this warning; `pod install` writes it): the settings it defines are unknown, and rules that depend on them are warnings.")
        })
        var check = Rules.check(result.sets[0])
        check += result.findings
        #expect(CheckResult(sets: result.sets, findings: check).exitStatus == .success)
    }

    /// The built `lockstep` on a CocoaPods checkout before `pod install`: warnings, exit 0 (1 with --strict).
    @Test func cocoaPodsCheckoutExitsZero() throws {
        let tree = try FixtureTree(Self.cocoaPods(projectLevel: false))
        defer { tree.cleanUp() }
        let check = try run("lockstep", ["check", tree.path + "/App.xcodeproj"])
        #expect(check.status == 0, "\(check)")
        let lines = check.stdout.split(separator: "\n").map(String.init)
        #expect(lines.filter { $0.contains(": warning: Unable to open base configuration reference file '") && $0.contains("[Debug, Release] (Xcode builds with this warning; `pod install` writes it)") }.count == 2)
        #expect(lines.last == "0 errors, 2 warnings in 2 bundles, 2 build configurations.")
        #expect(try run("lockstep", ["check", tree.path, "--strict"]).status == 1)
    }

    /// Flutter: the app and its widget both read FLUTTER_BUILD_NUMBER from Generated.xcconfig, which
    /// `flutter pub get` writes: the same unknown on both sides, so no mismatch.
    @Test func flutterGeneratedXcconfigMissingKeepsVersionsEqual() throws {
        let fixture = ProjectFixture(targets: [
            .init(name: "Runner", productType: Self.app, settings: ["INFOPLIST_FILE": "Runner/Info.plist", "PRODUCT_BUNDLE_IDENTIFIER": "io.example.app"],
                  xcconfig: "Flutter/Release.xcconfig", embeds: [.init(target: "Widget", spec: 13)]),
            .init(name: "Widget", productType: Self.appex, settings: ["INFOPLIST_FILE": "Widget/Info.plist", "PRODUCT_BUNDLE_IDENTIFIER": "io.example.app.widget"],
                  xcconfig: "Flutter/Release.xcconfig"),
        ])
        let plist = ["CFBundleVersion": "$(FLUTTER_BUILD_NUMBER)", "CFBundleShortVersionString": "$(FLUTTER_BUILD_NAME)"]
        let result = try fixture.load(with: [
            "ios/Flutter/Release.xcconfig": "#include \"Generated.xcconfig\"\n",
            "ios/Runner/Info.plist": FixtureTree.plist(plist.merging(["CFBundleIdentifier": "$(PRODUCT_BUNDLE_IDENTIFIER)"]) { $1 }),
            "ios/Widget/Info.plist": Self.extensionPlist(plist),
        ], name: "ios/Runner")
        let set = result.sets[0]
        #expect(set.all.map(\.buildVersion) == ["$(FLUTTER_BUILD_NUMBER)", "$(FLUTTER_BUILD_NUMBER)"])
        let findings = Rules.check(set) + result.findings
        #expect(!findings.contains { $0.severity == .error }, "\(findings)")
        #expect(!findings.contains { $0.rule.rawValue.hasSuffix("-mismatch") })
        #expect(findings.contains { $0.rule == "settings.unresolved" && $0.message.contains("`flutter pub get` writes it") })
    }

    /// LoopKit's layout: `MAIN_APP_BUNDLE_IDENTIFIER = com.$(DEVELOPMENT_TEAM).loopkit`, where each developer sets
    /// DEVELOPMENT_TEAM in a git-ignored `#include?` file. The ids stay `com.$(DEVELOPMENT_TEAM).loopkit…`, never
    /// `com..loopkit`: the prefix rule holds on the shared unknown, and the unknown is a warning.
    @Test func developmentTeamFromAMissingOptionalInclude() throws {
        let fixture = ProjectFixture(projectSettings: ["CURRENT_PROJECT_VERSION": "57", "MARKETING_VERSION": "3.4"], projectXcconfig: "Config/Base.xcconfig", targets: [
            .init(name: "Loop", productType: Self.app, settings: ["INFOPLIST_FILE": "Loop/Info.plist", "PRODUCT_BUNDLE_IDENTIFIER": "$(MAIN_APP_BUNDLE_IDENTIFIER)"],
                  embeds: [.init(target: "Widget", spec: 13)]),
            .init(name: "Widget", productType: Self.appex, settings: ["INFOPLIST_FILE": "Widget/Info.plist", "PRODUCT_BUNDLE_IDENTIFIER": "$(MAIN_APP_BUNDLE_IDENTIFIER).widget"]),
        ])
        let tree = try Self.checkout(fixture, name: "Loop", [
            "Config/Base.xcconfig": "DEVELOPMENT_TEAM =\nMAIN_APP_BUNDLE_IDENTIFIER = com.$(DEVELOPMENT_TEAM).loopkit\n#include? \"../LoopConfigOverride.xcconfig\"\n",
        ])
        defer { tree.cleanUp() }
        let result = try XcodeProjectInput.load(tree.path + "/Loop.xcodeproj", configuration: "Release")
        let set = result.sets[0]
        #expect(set.all.map(\.bundleIdentifier) == ["com.$(DEVELOPMENT_TEAM).loopkit", "com.$(DEVELOPMENT_TEAM).loopkit.widget"])
        #expect(set.app.unknowns["DEVELOPMENT_TEAM"] == "DEVELOPMENT_TEAM is set by each developer (Xcode's Signing & Capabilities, or a git-ignored xcconfig), so the checkout does not hold it.")
        let rules = Rules.check(set)
        #expect(rules.filter { $0.severity != .note } == [])
        #expect(result.findings == [])
        #expect(CheckResult(sets: result.sets, findings: result.findings + rules).exitStatus == .success)

        // Without the include, `DEVELOPMENT_TEAM = ""` in the pbxproj is still each developer's: unknown, not empty.
        var pbxproj = fixture
        pbxproj.projectSettings["DEVELOPMENT_TEAM"] = ""
        try tree.write(["Loop.xcodeproj/project.pbxproj": pbxproj.pbxproj(), "Config/Base.xcconfig": "MAIN_APP_BUNDLE_IDENTIFIER = com.$(DEVELOPMENT_TEAM).loopkit\n"])
        let alone = try XcodeProjectInput.load(tree.path + "/Loop.xcodeproj", configuration: "Release")
        #expect(alone.sets[0].app.bundleIdentifier == "com.$(DEVELOPMENT_TEAM).loopkit")
        #expect(!(alone.findings + Rules.check(alone.sets[0])).contains { $0.severity != .note })
        // A widget outside the unknown prefix is proven wrong whatever DEVELOPMENT_TEAM holds: still an error.
        pbxproj.targets[1].settings["PRODUCT_BUNDLE_IDENTIFIER"] = "org.example.widget"
        try tree.write(["Loop.xcodeproj/project.pbxproj": pbxproj.pbxproj()])
        let outside = Rules.check(try XcodeProjectInput.load(tree.path + "/Loop.xcodeproj", configuration: "Release").sets[0])
        #expect(outside.filter { $0.severity == .error }.map(\.rule) == ["bundle-id.prefix"])
    }

    /// An optional suffix from a missing `#include?` (`com.example.app$(BUNDLE_ID_SUFFIX)`): the extensions that carry
    /// it after the app's id nest; one that carries it at its own end may not, whatever the suffix is: a warning.
    @Test func bundleIdSuffixFromAMissingOptionalInclude() throws {
        let fixture = ProjectFixture(projectSettings: ["CURRENT_PROJECT_VERSION": "7", "MARKETING_VERSION": "1.0"], projectXcconfig: "Config/Shared.xcconfig", targets: [
            .init(name: "App", productType: Self.app, settings: ["INFOPLIST_FILE": "App/Info.plist", "PRODUCT_BUNDLE_IDENTIFIER": "com.example.app$(BUNDLE_ID_SUFFIX)"],
                  embeds: [.init(target: "Share", spec: 13), .init(target: "Widget", spec: 13)]),
            .init(name: "Share", productType: Self.appex, settings: ["INFOPLIST_FILE": "Share/Info.plist", "PRODUCT_BUNDLE_IDENTIFIER": "com.example.app$(BUNDLE_ID_SUFFIX).share"]),
            .init(name: "Widget", productType: Self.appex, settings: ["INFOPLIST_FILE": "Share/Info.plist", "PRODUCT_BUNDLE_IDENTIFIER": "com.example.app.widget$(BUNDLE_ID_SUFFIX)"]),
        ])
        let tree = try Self.checkout(fixture, ["Config/Shared.xcconfig": "#include? \"Local.xcconfig\"\n"])
        defer { tree.cleanUp() }
        let result = try XcodeProjectInput.load(tree.path + "/App.xcodeproj", configuration: "Release")
        let rules = Rules.check(result.sets[0]).filter { $0.severity != .note }
        #expect(rules.map(\.rule) == ["bundle-id.prefix"])
        #expect(rules.first?.severity == .warning)
        #expect(rules.first?.bundle == "App.app/PlugIns/Widget.appex")
        #expect(rules.first?.message.hasSuffix("Parent App Bundle Identifier: com.example.app$(BUNDLE_ID_SUFFIX) App extension bundle identifiers must have a prefix consisting of their containing application's bundle identifier followed by a '.'. The verdict depends on $(BUNDLE_ID_SUFFIX), which the checkout cannot supply. It would have come from '\(tree.path)/Config/Local.xcconfig', which \(tree.path)/Config/Shared.xcconfig includes with #include? but which the checkout does not hold.") == true)
        #expect(!result.findings.contains { $0.severity == .error })
    }

    /// Versions read from unknown settings: the same one on both sides is equal; different ones are a warning; known
    /// text that already differs is still the error it always is.
    @Test func versionsFromUnknownSettings() throws {
        func project(app: String, share: String) -> String {
            ProjectFixture(projectSettings: ["MARKETING_VERSION": "1.0"], projectXcconfig: "Config/Shared.xcconfig", targets: [
                .init(name: "App", productType: Self.app, settings: ["INFOPLIST_FILE": "App/Info.plist", "PRODUCT_BUNDLE_IDENTIFIER": "com.example.app", "CURRENT_PROJECT_VERSION": app],
                      embeds: [.init(target: "Share", spec: 13)]),
                .init(name: "Share", productType: Self.appex, settings: ["INFOPLIST_FILE": "Share/Info.plist", "PRODUCT_BUNDLE_IDENTIFIER": "com.example.app.share", "CURRENT_PROJECT_VERSION": share]),
            ]).pbxproj()
        }
        let tree = try FixtureTree([
            "App.xcodeproj/project.pbxproj": project(app: "$(BUILD_NUMBER)", share: "$(BUILD_NUMBER)"),
            "Config/Shared.xcconfig": "#include? \"Versions.local.xcconfig\"\n",
            "App/Info.plist": Self.versions, "Share/Info.plist": Self.extensionPlist(),
        ])
        defer { tree.cleanUp() }
        func mismatches() throws -> [Finding] {
            Rules.check(try XcodeProjectInput.load(tree.path + "/App.xcodeproj", configuration: "Release").sets[0]).filter { $0.rule.rawValue.hasSuffix("-mismatch") }
        }
        #expect(try mismatches() == [])

        try tree.write(["App.xcodeproj/project.pbxproj": project(app: "$(APP_BUILD)", share: "$(SHARE_BUILD)")])
        let different = try mismatches()
        #expect(different.map(\.rule) == ["version.build-mismatch"])
        #expect(different.first?.severity == .warning)
        #expect(different.first?.message.hasPrefix("CFBundleVersion of App.app/PlugIns/Share.appex is '$(SHARE_BUILD)' and of its containing app App.app '$(APP_BUILD)': whether they match depends on $(SHARE_BUILD), which the checkout cannot supply. It would have come from '\(tree.path)/Config/Versions.local.xcconfig'") == true)

        try tree.write(["App.xcodeproj/project.pbxproj": project(app: "1.$(PATCH)", share: "2.$(PATCH)")])
        let proven = try mismatches()
        #expect(proven.map(\.rule) == ["version.build-mismatch"])
        #expect(proven.first?.severity == .error)
    }

    /// A problem that starts with a relative path (the project given as `ios/Runner.xcodeproj`) keeps it as written.
    @Test func aSentenceThatStartsWithARelativePathIsNotCapitalized() {
        #expect(ProjectReading.sentence("ios/Flutter/Release.xcconfig:2: #include \"Generated.xcconfig\" names a file") == "ios/Flutter/Release.xcconfig:2: #include \"Generated.xcconfig\" names a file.")
        #expect(ProjectReading.sentence("the xcconfig 'a/b' cannot be read.") == "The xcconfig 'a/b' cannot be read.")
    }

    /// App Groups and a watch app's companion id built from an unknown: a warning where the unknown may make them
    /// match, an error where the known text already differs.
    @Test func groupsAndCompanionWithUnknownParts() {
        let unknowns = ["TEAM": "TEAM is set by each developer."]
        func record(_ name: String, role: BundleRole, id: String, groups: [String], companion: String? = nil, path: String) -> BundleRecord {
            BundleRecord(name: name, role: role, bundleIdentifier: id, shortVersion: "1.0", buildVersion: "1",
                         companionAppBundleIdentifier: companion, appGroups: groups, embedLocation: role == .host ? nil : role == .watch ? .watch : .plugIns,
                         bundlePath: path, source: SourceLocation(file: "p"), unknowns: unknowns)
        }
        let app = record("App", role: .host, id: "com.x.app", groups: ["group.$(TEAM).shared"], path: "App.app")
        let watch = record("Watch", role: .watch, id: "com.x.app.watch", groups: [], companion: "com.$(TEAM).app", path: "App.app/Watch/Watch.app")
        var maybe = record("Maybe", role: .extension, id: "com.x.app.maybe", groups: ["group.$(TEAM).shared", "group.$(OTHER)"], path: "App.app/PlugIns/Maybe.appex")
        maybe.unknowns["OTHER"] = "OTHER is unknown."
        let wrong = record("Wrong", role: .extension, id: "com.x.app.wrong", groups: ["group.org.other", "group.$(TEAM).other"], path: "App.app/PlugIns/Wrong.appex")
        func findings(_ bundle: BundleRecord) -> [Finding] {
            Rules.check(AppBundleSet(app: app, embedded: [bundle], origin: "x")).filter { $0.rule == "group.shared" || $0.rule == "watch.companion" }
                .filter { $0.severity != .note }
        }
        // 'com.$(TEAM).app' may be 'com.x.app'; 'group.$(OTHER)' may be 'group.$(TEAM).shared'.
        #expect(findings(watch).map(\.severity) == [.warning])
        #expect(findings(maybe).map(\.severity) == [.warning])
        // 'group.org.other' and 'group.$(TEAM).other' can be no 'group.$(TEAM).shared', whatever the team is.
        #expect(findings(wrong).map(\.severity) == [.error, .error])
    }

    /// A required `#include` of a file no tool writes: Xcode refuses to build, so it stays an error (exit 1).
    @Test func missingRequiredIncludeStaysAnError() throws {
        let fixture = ProjectFixture(projectSettings: ["CURRENT_PROJECT_VERSION": "1", "MARKETING_VERSION": "1.0"], projectXcconfig: "Config/Shared.xcconfig", targets: [
            .init(name: "App", productType: Self.app, settings: ["INFOPLIST_FILE": "App/Info.plist", "PRODUCT_BUNDLE_IDENTIFIER": "com.example.app"]),
        ])
        let tree = try Self.checkout(fixture, ["Config/Shared.xcconfig": "#include \"Signing.xcconfig\"\n"])
        defer { tree.cleanUp() }
        let result = try XcodeProjectInput.load(tree.path + "/App.xcodeproj", configuration: "Release")
        #expect(result.findings.map(\.severity) == [.error])
        #expect(result.findings.first?.message == "\(tree.path)/Config/Shared.xcconfig:1: #include \"Signing.xcconfig\" names a file that does not exist (Xcode: could not find included file), so the settings it defines are missing.")
        let check = try run("lockstep", ["check", tree.path + "/App.xcodeproj"])
        #expect(check.status == 1, "\(check)")
    }
}

@Suite struct PlatformRuleTests {
    /// A Mac app with a share extension whose id has two components after the app's, and a team-prefixed App Group:
    /// both ship on macOS. The same project built for iOS gets both errors.
    /// - Parameter sdk: the SDKROOT; `auto` takes the platform from SUPPORTED_PLATFORMS (`supported`).
    static func project(sdk: String, supported: String? = nil, catalyst: Bool = false) -> [String: String] {
        var app = ["INFOPLIST_FILE": "App/Info.plist", "PRODUCT_BUNDLE_IDENTIFIER": "com.example.app", "SDKROOT": sdk,
                   "CODE_SIGN_ENTITLEMENTS": "App/App.entitlements"]
        if catalyst { app["SUPPORTS_MACCATALYST"] = "YES" }
        if let supported { app["SUPPORTED_PLATFORMS"] = supported }
        let fixture = ProjectFixture(projectSettings: ["CURRENT_PROJECT_VERSION": "12", "MARKETING_VERSION": "1.1"], targets: [
            .init(name: "App", productType: UnknownValueTests.app, settings: app,
                  embeds: [.init(target: "ShareMac", spec: 13), .init(target: "Endpoint", spec: 16, dstPath: "$(SYSTEM_EXTENSIONS_FOLDER_PATH)")]),
            .init(name: "ShareMac", productType: UnknownValueTests.appex, settings: [
                "INFOPLIST_FILE": "ShareMac/Info.plist", "SDKROOT": sdk, "CODE_SIGN_ENTITLEMENTS": "ShareMac/ShareMac.entitlements",
                "SUPPORTED_PLATFORMS": supported ?? "",
                // `[sdk=macosx*]` holds for a macOS target only.
                "PRODUCT_BUNDLE_IDENTIFIER": "com.example.app.share.ios", "PRODUCT_BUNDLE_IDENTIFIER[sdk=macosx*]": "com.example.app.share.mac",
            ]),
            .init(name: "Endpoint", productType: "com.apple.product-type.system-extension", settings: [
                "INFOPLIST_FILE": "Endpoint/Info.plist", "SDKROOT": sdk, "PRODUCT_BUNDLE_IDENTIFIER": "com.example.endpoint",
            ]),
        ])
        let entitlements = FixtureTree.plist(["com.apple.security.application-groups": ["$(TeamIdentifierPrefix)com.example.shared"]])
        return [
            "App.xcodeproj/project.pbxproj": fixture.pbxproj(), "App/Info.plist": UnknownValueTests.versions,
            // NetNewsWire's keychain group: a signing-time value Xcode supplies to every build, nothing to report.
            "ShareMac/Info.plist": UnknownValueTests.extensionPlist(["CFBundleDisplayName": "$(SHARE_NAME)", "AppIdentifierPrefix": "$(AppIdentifierPrefix)"]),
            "Endpoint/Info.plist": UnknownValueTests.versions,
            "App/App.entitlements": entitlements, "ShareMac/ShareMac.entitlements": entitlements,
        ]
    }

    @Test(arguments: [("macosx", nil), ("auto", "macosx")]) func macOSShareExtensionAndTeamPrefixedGroupAreNoErrors(sdk: String, supported: String?) throws {
        let tree = try FixtureTree(Self.project(sdk: sdk, supported: supported))
        defer { tree.cleanUp() }
        let result = try XcodeProjectInput.load(tree.path + "/App.xcodeproj", configuration: "Release")
        let set = result.sets[0]
        // The system extension is not an app extension: not embedded, not checked.
        #expect(set.embedded.map(\.name) == ["ShareMac"])
        #expect(set.all.map(\.platform) == [.macOS, .macOS])
        #expect(set.embedded[0].appGroups == ["$(TeamIdentifierPrefix)com.example.shared"])
        #expect(set.embedded[0].bundleIdentifier == "com.example.app.share.mac")
        // No error: only the display name, left unresolved on purpose here, is a warning (a project's plist may be
        // completed at build time; rule `extension.display-name`).
        #expect(Rules.check(set).filter { $0.severity != .note }.map(\.rule) == ["extension.display-name"])
        #expect(Rules.check(set).allSatisfy { $0.severity != .error })
        // The report names the platform where the rules differ by it.
        #expect(set.embedded[0].source.detail == "target 'ShareMac' (macOS) [Release]")
        #expect(result.findings.filter { $0.rule != "privacy.manifest" }.map(\.message) == ["CFBundleDisplayName of target 'ShareMac' (macOS) [Release] is '$(SHARE_NAME)', but nothing defines SHARE_NAME, so Xcode builds it as ''."])
        // Merged across configurations, the platform stays.
        let all = try XcodeProjectInput.load(tree.path + "/App.xcodeproj")
        #expect(all.findings.filter { $0.rule != "privacy.manifest" }.map(\.message) == ["CFBundleDisplayName of target 'ShareMac' (macOS) [Debug, Release] is '$(SHARE_NAME)', but nothing defines SHARE_NAME, so Xcode builds it as ''."])
    }

    /// Regression guard: on iOS (and for an iOS app that also builds for Mac Catalyst) both rules still hold.
    @Test(arguments: [false, true]) func iOSTargetStillGetsBothErrors(catalyst: Bool) throws {
        let tree = try FixtureTree(Self.project(sdk: "iphoneos", catalyst: catalyst))
        defer { tree.cleanUp() }
        let set = try XcodeProjectInput.load(tree.path + "/App.xcodeproj", configuration: "Release").sets[0]
        let errors = Rules.check(set).filter { $0.severity == .error }
        #expect(errors.map(\.rule).sorted() == ["bundle-id.single-component", "group.shared", "group.shared"])
        #expect(errors.first { $0.rule == "group.shared" }?.message == "The App Group '$(TeamIdentifierPrefix)com.example.shared' claimed by App.app does not start with 'group.': on iOS an App Group identifier has the form group.<name>.")
        // An iOS app that also builds for Mac Catalyst is checked as the iOS build App Store Connect validates.
        #expect(set.app.platform == .iOS)
    }

    @Test func rulesSayWhichPlatformsTheyApplyTo() {
        #expect(Rules.platforms(of: "bundle-id.single-component") == [.iOS, .watchOS, .tvOS, .visionOS])
        #expect(Rules.platforms(of: "version.build-mismatch") == Set(Platform.allCases))
    }

    /// A built Mac app: `Contents/Info.plist`, extensions in `Contents/PlugIns`; a system extension in
    /// `Contents/Library/SystemExtensions` is no app extension, and a two-component extension id is a Mac's right.
    @Test func builtMacAppWithASystemExtension() throws {
        func plist(_ id: String, _ extra: [String: Any] = [:]) -> String {
            FixtureTree.plist(["CFBundleIdentifier": id, "CFBundleVersion": "12", "CFBundleShortVersionString": "1.1",
                               "LSMinimumSystemVersion": "13.0"].merging(extra) { $1 })
        }
        let tree = try FixtureTree([
            "Mac.app/Contents/Info.plist": plist("com.example.mac"),
            "Mac.app/Contents/PlugIns/Share.appex/Contents/Info.plist": plist("com.example.mac.share.ext", ["CFBundleDisplayName": "Share", "NSExtension": ["NSExtensionPointIdentifier": "com.apple.share-services"]]),
            "Mac.app/Contents/Library/SystemExtensions/com.other.filter.systemextension/Contents/Info.plist": plist("com.other.filter"),
        ])
        defer { tree.cleanUp() }
        let result = try CheckInput.check(tree.path + "/Mac.app")
        #expect(result.sets[0].all.map(\.bundlePath) == ["Mac.app", "Mac.app/Contents/PlugIns/Share.appex"])
        #expect(result.sets[0].all.map(\.platform) == [.macOS, .macOS])
        #expect(result.findings.filter { $0.severity != .note } == [])
    }

    /// A Mac app distributed outside the Mac App Store (NetNewsWire's Developer ID build, `MARKETING_VERSION = 6.0a2`):
    /// the version format is App Store Connect's rule, so a warning there; on iOS it stays an error.
    @Test func aPreReleaseVersionIsAWarningOnMacOnly() {
        func record(_ platform: Platform) -> BundleRecord {
            BundleRecord(name: "X", role: .host, bundleIdentifier: "com.example.x", shortVersion: "6.0a2", buildVersion: "6002",
                         bundlePath: "X.app", source: SourceLocation(file: "Info.plist"), platform: platform)
        }
        let mac = Rules.check(AppBundleSet(app: record(.macOS), embedded: [], origin: "x"))
        #expect(mac.map(\.rule) == ["version.short-format"])
        #expect(mac.first?.severity == .warning)
        #expect(Rules.check(AppBundleSet(app: record(.iOS), embedded: [], origin: "x")).map(\.severity) == [.error])
    }

    /// A built bundle's platform comes from its Info.plist.
    @Test func builtBundlePlatformFromInfoPlist() {
        var record = BundleRecord(name: "X", role: .host, bundlePath: "X.app", source: SourceLocation(file: "X.app/Info.plist"))
        PropertyListFile.apply(infoPlist: ["CFBundleSupportedPlatforms": ["MacOSX"]], path: "p", to: &record)
        #expect(record.platform == .macOS)
        PropertyListFile.apply(infoPlist: ["DTPlatformName": "watchos"], path: "p", to: &record)
        #expect(record.platform == .watchOS)
        PropertyListFile.apply(infoPlist: ["LSMinimumSystemVersion": "13.0"], path: "p", to: &record)
        #expect(record.platform == .macOS)
        PropertyListFile.apply(infoPlist: ["CFBundleSupportedPlatforms": ["iPhoneOS"]], path: "p", to: &record)
        #expect(record.platform == .iOS)
    }
}
