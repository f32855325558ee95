@testable import BundleKit
@testable import CheckKit
import Foundation
import LockstepTestSupport
import Testing
@testable import XcodeKit

/// Shapes of real projects that round five of measuring `check` found read wrongly (<doc:ReadingProjects>), each in a
/// fixture of its own: what Xcode builds and App Store Connect accepts gives no error, and a real mismatch still does.
@Suite struct RealShapesRoundFiveTests {
    static func groups(_ ids: [String]) -> String {
        FixtureTree.plist(["com.apple.security.application-groups": ids])
    }

    static let widgetPlist = FixtureTree.plist([
        "CFBundleIdentifier": "$(PRODUCT_BUNDLE_IDENTIFIER)", "CFBundleVersion": "$(CURRENT_PROJECT_VERSION)",
        "CFBundleShortVersionString": "$(MARKETING_VERSION)", "CFBundleDisplayName": "Widget",
        "NSExtension": ["NSExtensionPointIdentifier": "com.apple.widgetkit-extension"],
    ])

    /// A multiplatform app (`SDKROOT = auto`) whose entitlements file is chosen by PLATFORM_NAME, as Provenance's
    /// `CODE_SIGN_ENTITLEMENTS = $(CODE_SIGN_ENTITLEMENTS_$(PLATFORM_NAME))` is. Xcode's PLATFORM_NAME is the build's
    /// platform, `iphoneos` for the iOS build: never `auto`, which named no file and lost the app's groups.
    static func platformNamed(widgetGroup: String) -> (ProjectFixture, [String: String]) {
        let fixture = ProjectFixture(projectSettings: [
            "CURRENT_PROJECT_VERSION": "3", "MARKETING_VERSION": "1.0",
            "APP_ENTITLEMENTS_iphoneos": "App/App-iOS.entitlements", "APP_ENTITLEMENTS_appletvos": "App/App-tvOS.entitlements",
        ], targets: [
            .app("App", identifier: "com.example.app", plist: nil, settings: [
                "SDKROOT": "auto", "SUPPORTED_PLATFORMS": "iphoneos iphonesimulator appletvos appletvsimulator",
                "CODE_SIGN_ENTITLEMENTS": "$(APP_ENTITLEMENTS_$(PLATFORM_NAME))",
            ], embeds: ["Widget"]),
            .appExtension("Widget", identifier: "com.example.app.widget", plist: "Widget/Info.plist",
                          settings: ["CODE_SIGN_ENTITLEMENTS": "Widget/Widget.entitlements"]),
        ])
        return (fixture, [
            "Widget/Info.plist": widgetPlist,
            "App/App-iOS.entitlements": groups(["group.com.example.app"]),
            "App/App-tvOS.entitlements": groups(["group.com.example.tv"]),
            "Widget/Widget.entitlements": groups([widgetGroup]),
        ])
    }

    @Test func platformNameIsTheBuildsPlatformNotAuto() throws {
        let (fixture, files) = Self.platformNamed(widgetGroup: "group.com.example.app")
        let result = try fixture.load(with: files)
        #expect(result.sets.map(\.app.appGroups) == [["group.com.example.app"]])
        #expect(result.findings.filter { $0.rule == "settings.unresolved" }.isEmpty, "\(result.findings)")
        #expect(ProjectConstructTests.errors(result).isEmpty, "\(ProjectConstructTests.errors(result))")
    }

    /// The same shape with the widget on another group: still the error it is.
    @Test func platformNamedEntitlementsStillCatchAGroupOnOneSide() throws {
        let (fixture, files) = Self.platformNamed(widgetGroup: "group.com.example.tv")
        let result = try fixture.load(with: files)
        #expect(ProjectConstructTests.errors(result).map(\.rule) == ["group.shared"])
    }

    /// Provenance's tvOS build of its multiplatform app signs with other entitlements than its iOS build, none with a
    /// group: that is each build's own choice, the same in every configuration, not `group.config-drift`. Drift within
    /// one build (Debug with the group, Release without) is still reported, naming each configuration once.
    @Test(arguments: [false, true]) func groupsThatDifferByPlatformAreNoConfigurationDrift(releaseDrops: Bool) throws {
        var app = ProjectFixture.Target.app("App", identifier: "com.example.app", plist: nil, settings: [
            "SDKROOT": "auto", "SUPPORTED_PLATFORMS": "iphoneos iphonesimulator appletvos appletvsimulator",
            "CODE_SIGN_ENTITLEMENTS": "$(APP_ENTITLEMENTS_$(PLATFORM_NAME))",
        ], embeds: ["Widget"])
        app.embeds.append(.init(target: "TopShelf", spec: 13, platformFilter: "tvos"))
        if releaseDrops { app.perConfiguration = ["Release": ["APP_ENTITLEMENTS_iphoneos": "App/None.entitlements"]] }
        let fixture = ProjectFixture(projectSettings: [
            "CURRENT_PROJECT_VERSION": "3", "MARKETING_VERSION": "1.0",
            "APP_ENTITLEMENTS_iphoneos": "App/App-iOS.entitlements", "APP_ENTITLEMENTS_appletvos": "App/None.entitlements",
        ], targets: [
            app,
            .appExtension("Widget", identifier: "com.example.app.widget", plist: "Widget/Info.plist",
                          settings: ["CODE_SIGN_ENTITLEMENTS": "Widget/Widget.entitlements"]),
            .appExtension("TopShelf", identifier: "com.example.app.topshelf", plist: "TopShelf/Info.plist", settings: ["SDKROOT": "appletvos"]),
        ])
        let result = try fixture.load(with: [
            "Widget/Info.plist": Self.widgetPlist,
            "TopShelf/Info.plist": FixtureTree.plist([
                "CFBundleIdentifier": "$(PRODUCT_BUNDLE_IDENTIFIER)", "CFBundleVersion": "$(CURRENT_PROJECT_VERSION)",
                "CFBundleShortVersionString": "$(MARKETING_VERSION)", "CFBundleDisplayName": "Top Shelf",
                "NSExtension": ["NSExtensionPointIdentifier": "com.apple.tv-top-shelf"],
            ]),
            "App/App-iOS.entitlements": Self.groups(["group.com.example.app"]),
            "App/None.entitlements": FixtureTree.plist([:]),
            "Widget/Widget.entitlements": Self.groups(["group.com.example.app"]),
        ], configuration: nil)
        #expect(result.sets.map(\.origin) == ["App.xcodeproj [Debug]", "App.xcodeproj (tvOS) [Debug]", "App.xcodeproj [Release]", "App.xcodeproj (tvOS) [Release]"])
        let drift = result.findings.filter { $0.rule == "group.config-drift" }
        #expect(drift.map(\.message) == (releaseDrops ? ["App.app claims the App Group 'group.com.example.app' in Debug but no App Group in Release: built that way it shares nothing with its app (a widget that works in development shows no data when shipped)."] : []))
    }

    /// Provenance picks its entitlements with `$(ENTITLEMENTS_$(DEVELOPER_ACCOUNT_PAID:default=NO))`, and the paid
    /// account's setting lives in `CodeSigning.xcconfig`, a `#include?` each developer writes. Without it the default
    /// is what this checkout builds, not what the file's owner builds: the app's groups are unknown, and a verdict on
    /// them is a warning. With nothing missing the default is proved, and the group on one side is the error it is.
    @Test(arguments: [false, true]) func aDefaultIsUnknownWhenAMissingIncludeMaySetTheName(includeMissing: Bool) throws {
        let fixture = ProjectFixture(projectXcconfig: "Config/Build.xcconfig", targets: [
            .app("App", identifier: "com.example.app", plist: nil, settings: ["CODE_SIGN_ENTITLEMENTS": "$(APP_ENTITLEMENTS)"], embeds: ["Widget"]),
            .appExtension("Widget", identifier: "com.example.app.widget", plist: "Widget/Info.plist",
                          settings: ["CODE_SIGN_ENTITLEMENTS": "Widget/Widget.entitlements"]),
        ])
        let result = try fixture.load(with: [
            "Config/Build.xcconfig": """
                CURRENT_PROJECT_VERSION = 3
                MARKETING_VERSION = 1.0
                \(includeMissing ? "#include? \"CodeSigning.xcconfig\"" : "")
                APP_ENTITLEMENTS_YES = App/Paid.entitlements
                APP_ENTITLEMENTS_NO = App/Free.entitlements
                APP_ENTITLEMENTS = $(APP_ENTITLEMENTS_$(DEVELOPER_ACCOUNT_PAID:default=NO))

                """,
            "Widget/Info.plist": Self.widgetPlist,
            "App/Paid.entitlements": Self.groups(["group.com.example.app"]),
            "App/Free.entitlements": FixtureTree.plist([:]),
            "Widget/Widget.entitlements": Self.groups(["group.com.example.app"]),
        ])
        let all = result.findings + result.sets.flatMap(Rules.check)
        let shared = all.filter { $0.rule == "group.shared" && $0.severity != .note }
        #expect(shared.map(\.severity) == (includeMissing ? [] : [.error]), "\(all)")
        #expect(ProjectConstructTests.errors(result).isEmpty == includeMissing, "\(ProjectConstructTests.errors(result))")
        // The warning points at the xcconfig that sets the path, a file a reader can open.
        let unknown = result.findings.filter { $0.rule == "settings.unresolved" && $0.message.hasPrefix("CODE_SIGN_ENTITLEMENTS") }
        #expect(unknown.map { PathText.lastComponent(of: $0.path) } == (includeMissing ? ["Build.xcconfig"] : []), "\(unknown)")
    }

    /// element-ios commits only `Riot.xcworkspace/xcshareddata`: `pod install` writes its list, from the project
    /// XcodeGen writes from `project.yml`. The refusal says what is missing and what to check instead.
    @Test func aWorkspaceWithoutItsListNamesWhatCanBeChecked() throws {
        let tree = try FixtureTree([
            "Riot.xcworkspace/xcshareddata/IDEWorkspaceChecks.plist": FixtureTree.plist([:]),
            "project.yml": "name: Riot\n",
            "Other/W.xcworkspace/xcshareddata/IDEWorkspaceChecks.plist": FixtureTree.plist([:]),
            "Other/App.xcodeproj/project.pbxproj": "{}",
            "Bare/W.xcworkspace/xcshareddata/IDEWorkspaceChecks.plist": FixtureTree.plist([:]),
        ])
        defer { tree.cleanUp() }
        let missing = "an Xcode workspace is not read itself, and the checkout holds no contents.xcworkspacedata for this one (a tool such as `pod install` writes it); "
        #expect(CheckInput.workspaceAdvice(tree.path + "/Riot.xcworkspace") == missing + "check what is here: `lockstep check \(tree.path)/project.yml`")
        #expect(CheckInput.workspaceAdvice(tree.path + "/Other/W.xcworkspace") == missing + "check what is here: `lockstep check \(tree.path)/Other/App.xcodeproj`")
        #expect(CheckInput.workspaceAdvice(tree.path + "/Bare/W.xcworkspace") == missing + "check each .xcodeproj it would list")
        let check = try run("lockstep", ["check", tree.path + "/Riot.xcworkspace"])
        #expect(check.status == 2 && check.stdout.isEmpty, "\(check)")
        #expect(check.stderr.contains("check what is here: `lockstep check \(tree.path)/project.yml`"), "\(check)")
    }

    /// Provenance Mini is a watch-only app: an iOS stub (watchapp2-container) whose Info.plist Xcode writes from the
    /// watch app, which sets its own versions. That is where they belong, not `settings.target-override` against a
    /// stub that "has 'none'". A widget in the watch app that sets its own still is one.
    @Test func aWatchOnlyAppsOwnVersionsAreNoOverride() throws {
        let fixture = ProjectFixture(targets: [
            .init(name: "Mini", productType: "com.apple.product-type.application.watchapp2-container", settings: [
                "PRODUCT_BUNDLE_IDENTIFIER": "com.example.mini",
            ], embeds: [.init(target: "Mini Watch App", spec: 16, dstPath: "$(CONTENTS_FOLDER_PATH)/Watch")]),
            .init(name: "Mini Watch App", productType: "com.apple.product-type.application", settings: [
                "GENERATE_INFOPLIST_FILE": "YES", "PRODUCT_BUNDLE_IDENTIFIER": "com.example.mini.watchkitapp", "SDKROOT": "watchos",
                "INFOPLIST_KEY_WKWatchOnly": "YES", "CURRENT_PROJECT_VERSION": "4", "MARKETING_VERSION": "1.0",
            ], embeds: [.init(target: "Complication", spec: 13)]),
            .appExtension("Complication", identifier: "com.example.mini.watchkitapp.complication", plist: "Complication/Info.plist",
                          settings: ["SDKROOT": "watchos", "CURRENT_PROJECT_VERSION": "4", "MARKETING_VERSION": "1.0"]),
        ])
        let result = try fixture.load(with: ["Complication/Info.plist": Self.widgetPlist])
        let overrides = result.findings.filter { $0.rule == "settings.target-override" }
        #expect(overrides.map(\.bundle) == ["Mini.app/Watch/Mini Watch App.app/PlugIns/Complication.appex",
                                            "Mini.app/Watch/Mini Watch App.app/PlugIns/Complication.appex"], "\(overrides)")
        #expect(ProjectConstructTests.errors(result).isEmpty, "\(ProjectConstructTests.errors(result))")
    }
}
