@testable import BundleKit
@testable import CheckKit
import Foundation
import Testing
@testable import XcodeKit

/// <doc:ReadingProjects> "Embedded" (issue 42): copy phases as Xcode 26 writes them (`dstSubfolder = PlugIns;`), and
/// embeds filtered to another platform's build of a multiplatform app, each checked as that platform.
@Suite struct EmbeddingRoundFourTests {
    static let appType = "com.apple.product-type.application"
    static let appexType = "com.apple.product-type.app-extension"
    static let versioned = ["CFBundleVersion": "$(CURRENT_PROJECT_VERSION)", "CFBundleShortVersionString": "$(MARKETING_VERSION)",
                            "CFBundleIdentifier": "$(PRODUCT_BUNDLE_IDENTIFIER)"]
    static func extensionPlist(_ point: String) -> String {
        var plist: [String: Any] = versioned
        plist["CFBundleDisplayName"] = "Extension"
        plist["NSExtension"] = ["NSExtensionPointIdentifier": point]
        return FixtureTree.plist(plist)
    }

    /// An app saved by Xcode 26 (objectVersion 90): a widget in `PlugIns`, a watch app and an App Clip through the
    /// `Product` folder; `widgetBuild` is the widget's own CURRENT_PROJECT_VERSION, when it sets one.
    static func xcode26(widgetBuild: String? = nil, watchBuild: String? = nil, clipBuild: String? = nil) -> ProjectFixture {
        func own(_ build: String?) -> [String: String] { build.map { ["CURRENT_PROJECT_VERSION": $0] } ?? [:] }
        return ProjectFixture(projectSettings: ["CURRENT_PROJECT_VERSION": "12", "MARKETING_VERSION": "3.1", "SDKROOT": "iphoneos"], targets: [
            .init(name: "App", productType: appType, settings: ["INFOPLIST_FILE": "App/Info.plist", "PRODUCT_BUNDLE_IDENTIFIER": "com.example.app"], embeds: [
                .init(target: "Widget", spec: 0, subfolder: "PlugIns"),
                .init(target: "Watch", spec: 0, dstPath: "$(CONTENTS_FOLDER_PATH)/Watch", subfolder: "Product"),
                .init(target: "Clip", spec: 0, dstPath: "$(CONTENTS_FOLDER_PATH)/AppClips", subfolder: "Product"),
            ]),
            .init(name: "Widget", productType: appexType, settings: ["INFOPLIST_FILE": "Widget/Info.plist",
                                                                     "PRODUCT_BUNDLE_IDENTIFIER": "com.example.app.widget"].merging(own(widgetBuild)) { $1 }),
            .init(name: "Watch", productType: "com.apple.product-type.application", settings: [
                "GENERATE_INFOPLIST_FILE": "YES", "PRODUCT_BUNDLE_IDENTIFIER": "com.example.app.watchkitapp", "SDKROOT": "watchos",
                "INFOPLIST_KEY_WKCompanionAppBundleIdentifier": "com.example.app",
            ].merging(own(watchBuild)) { $1 }),
            .init(name: "Clip", productType: "com.apple.product-type.application.on-demand-install-capable", settings: [
                "GENERATE_INFOPLIST_FILE": "YES", "PRODUCT_BUNDLE_IDENTIFIER": "com.example.app.Clip",
            ].merging(own(clipBuild)) { $1 }),
        ], objectVersion: 90)
    }

    static let xcode26Files = [
        "App/Info.plist": FixtureTree.plist(versioned),
        "Widget/Info.plist": extensionPlist("com.apple.widgetkit-extension"),
    ]

    static func errors(_ result: XcodeProjectInput.Result) -> [Finding] {
        (result.findings + result.sets.flatMap(Rules.check)).filter { $0.severity == .error }
    }

    /// Every bundle of the Xcode 26 project is embedded where the old spelling put it, and checked: nothing is
    /// reported as not embedded, and a drifted build number in any of them is ITMS-90473's error.
    @Test func xcode26SubfoldersEmbedEveryBundle() throws {
        let result = try Self.xcode26().load(with: Self.xcode26Files)
        #expect(result.sets.count == 1)
        #expect(result.sets[0].embedded.map(\.bundlePath) == ["App.app/PlugIns/Widget.appex", "App.app/Watch/Watch.app", "App.app/AppClips/Clip.app"])
        #expect(result.sets[0].embedded.map(\.embedLocation) == [.plugIns, .watch, .appClips])
        #expect(Self.errors(result).isEmpty, "\(Self.errors(result))")
        #expect(!result.findings.contains { $0.rule == "bundle.not-embedded" })

        for (fixture, path) in [(Self.xcode26(widgetBuild: "11"), "App.app/PlugIns/Widget.appex"),
                                (Self.xcode26(watchBuild: "11"), "App.app/Watch/Watch.app"),
                                (Self.xcode26(clipBuild: "11"), "App.app/AppClips/Clip.app")] {
            let errors = Self.errors(try fixture.load(with: Self.xcode26Files)).filter { $0.rule == "version.build-mismatch" }
            #expect(errors.map(\.bundle) == [path])
            #expect(errors.first?.message.contains("CFBundleVersion value '11'") == true)
        }
    }

    /// The names Xcode 26 writes, and the numbers before them, read as the same folders.
    @Test func copyPhaseFoldersReadBothSpellings() {
        #expect(CopyPhaseDestination.folder(spec: nil, subfolder: "PlugIns") == .plugIns)
        #expect(CopyPhaseDestination.folder(spec: "13", subfolder: nil) == .plugIns)
        #expect(CopyPhaseDestination.folder(spec: nil, subfolder: "Product") == .products)
        #expect(CopyPhaseDestination.folder(spec: "16", subfolder: nil) == .products)
        #expect(CopyPhaseDestination.folder(spec: nil, subfolder: "Frameworks") == .other)
        #expect(CopyPhaseDestination.location(folder: .products, destination: "$(CONTENTS_FOLDER_PATH)/AppClips") == .appClips)
        #expect(CopyPhaseDestination.location(folder: .products, destination: "$(EXTENSIONS_FOLDER_PATH)") == .extensions)
        #expect(CopyPhaseDestination.location(folder: .other, destination: "$(CONTENTS_FOLDER_PATH)/Watch") == nil)
        #expect(CopyPhaseDestination.location(folder: .plugIns, destination: "$(SYSTEM_EXTENSIONS_FOLDER_PATH)") == nil)
    }

    /// A multiplatform app (iOS and tvOS) whose top-shelf extension only its tvOS build embeds.
    /// - Parameter supported: the app's SUPPORTED_PLATFORMS.
    static func multiplatform(topShelfBuild: String, supported: String = "iphoneos iphonesimulator appletvos appletvsimulator",
                              filter: String = "tvos") -> ProjectFixture {
        ProjectFixture(projectSettings: ["CURRENT_PROJECT_VERSION": "40", "MARKETING_VERSION": "2.0"], targets: [
            .init(name: "App", productType: appType, settings: [
                "INFOPLIST_FILE": "App/Info.plist", "PRODUCT_BUNDLE_IDENTIFIER": "com.example.app", "SDKROOT": "auto",
                "SUPPORTED_PLATFORMS": supported, "SUPPORTS_MACCATALYST": "YES",
            ], embeds: [
                .init(target: "Share", spec: 13, platformFilters: ["ios"]),
                .init(target: "TopShelf", spec: 13, platformFilter: filter),
            ]),
            .init(name: "Share", productType: appexType, settings: ["INFOPLIST_FILE": "Share/Info.plist", "PRODUCT_BUNDLE_IDENTIFIER": "com.example.app.share",
                                                                    "SDKROOT": "iphoneos"]),
            .init(name: "TopShelf", productType: appexType, settings: [
                "INFOPLIST_FILE": "TopShelf/Info.plist", "PRODUCT_BUNDLE_IDENTIFIER": "com.example.app.topshelf",
                "SDKROOT": "appletvos", "CURRENT_PROJECT_VERSION": topShelfBuild,
            ]),
        ])
    }

    static let multiplatformFiles = [
        "App/Info.plist": FixtureTree.plist(versioned),
        "Share/Info.plist": extensionPlist("com.apple.share-services"),
        "TopShelf/Info.plist": extensionPlist("com.apple.tv-top-shelf"),
    ]

    /// The tvOS build is checked as tvOS: its top-shelf extension's drifted build is an error naming the tvOS app,
    /// and the iOS build, which does not embed it, has none.
    @Test func tvOSExtensionOfAMultiplatformAppIsChecked() throws {
        let good = try Self.multiplatform(topShelfBuild: "40").load(with: Self.multiplatformFiles)
        #expect(good.sets.map(\.origin) == ["App.xcodeproj [Release]", "App.xcodeproj (tvOS) [Release]"])
        #expect(good.sets.map { $0.embedded.map(\.bundlePath) } == [["App.app/PlugIns/Share.appex"], ["App.app/PlugIns/TopShelf.appex"]])
        #expect(good.sets[1].all.map(\.platform) == [.tvOS, .tvOS])
        #expect(Self.errors(good).isEmpty, "\(Self.errors(good))")

        let bad = try Self.multiplatform(topShelfBuild: "999").load(with: Self.multiplatformFiles)
        let errors = Self.errors(bad)
        #expect(errors.map(\.rule) == ["version.build-mismatch"])
        #expect(errors.first?.message == "The CFBundleVersion of an app extension ('999') must match that of its containing parent app ('40'). ITMS-90473: CFBundleVersion Mismatch - The CFBundleVersion value '999' of extension 'App.app/PlugIns/TopShelf.appex' does not match the CFBundleVersion value '40' of its containing tvOS application 'App.app'.")
    }

    /// `bump` sets the build of the bundle only the tvOS build embeds as well.
    @Test func bumpReachesTheTvOSBuild() throws {
        let tree = try FixtureTree(Self.multiplatformFiles.merging(["App.xcodeproj/project.pbxproj": Self.multiplatform(topShelfBuild: "999").pbxproj()]) { $1 })
        defer { tree.cleanUp() }
        _ = try XcodeProjectInput.bump(tree.path + "/App.xcodeproj", build: "41", version: nil)
        let result = try XcodeProjectInput.load(tree.path + "/App.xcodeproj", configuration: "Release")
        #expect(result.sets.map { $0.all.map(\.buildVersion) } == [["41", "41"], ["41", "41"]])
    }

    /// A filter naming a platform the app does not build for embeds into no build Xcode makes: nothing to check.
    @Test func aFilterToAPlatformTheAppDoesNotBuildEmbedsNothing() throws {
        let result = try Self.multiplatform(topShelfBuild: "999", supported: "iphoneos iphonesimulator").load(with: Self.multiplatformFiles)
        #expect(result.sets.count == 1)
        #expect(Self.errors(result).isEmpty, "\(Self.errors(result))")
    }

    /// Mac Catalyst: the app's SUPPORTS_MACCATALYST build embeds what is filtered to `maccatalyst`, checked as a Mac app.
    @Test func catalystFilteredEmbedIsCheckedAsMacOS() throws {
        let result = try Self.multiplatform(topShelfBuild: "999", supported: "iphoneos iphonesimulator", filter: "maccatalyst")
            .load(with: Self.multiplatformFiles)
        #expect(result.sets.map(\.origin) == ["App.xcodeproj [Release]", "App.xcodeproj (macOS) [Release]"])
        #expect(Self.errors(result).map(\.rule) == ["version.build-mismatch"])
        #expect(Self.errors(result).first?.message.contains("of its containing macOS application 'App.app'") == true)
    }

    /// XcodeGen writes `platformFilter: macOS` as `maccatalyst`: the dependency is in the app's Mac Catalyst build
    /// only, checked there when the app supports Mac Catalyst (it used to be dropped).
    @Test(arguments: [true, false]) func xcodeGenMacOSFilterIsTheCatalystBuild(catalyst: Bool) throws {
        let spec = """
        name: App
        settings:
          CURRENT_PROJECT_VERSION: "3"
          MARKETING_VERSION: "1.0"
        targets:
          App:
            type: application
            platform: iOS
            settings:
              GENERATE_INFOPLIST_FILE: YES
              PRODUCT_BUNDLE_IDENTIFIER: com.example.app
              SUPPORTS_MACCATALYST: \(catalyst ? "YES" : "NO")
            dependencies:
              - target: MacShare
                platformFilter: macOS
          MacShare:
            type: app-extension
            platform: iOS
            settings:
              INFOPLIST_FILE: MacShare/Info.plist
              PRODUCT_BUNDLE_IDENTIFIER: com.example.app.share
              CURRENT_PROJECT_VERSION: "999"
        """
        let tree = try FixtureTree(["project.yml": spec, "MacShare/Info.plist": Self.extensionPlist("com.apple.share-services")])
        defer { tree.cleanUp() }
        let result = try XcodeProjectInput.load(spec: tree.path + "/project.yml", configuration: "Release")
        #expect(result.sets.count == (catalyst ? 2 : 1))
        #expect(result.sets[0].embedded.isEmpty)
        #expect(Self.errors(result).map(\.rule) == (catalyst ? ["version.build-mismatch"] : []), "\(Self.errors(result))")
    }
}
