@testable import BundleKit
@testable import CheckKit
import Foundation
import LockstepTestSupport
import Testing
@testable import XcodeKit

/// What `TargetResolver` reads once and shares across targets and configurations (the project level, the
/// defaults, xcconfig files, Info.plists, paths) must never carry one target's or configuration's value into
/// another's.
@Suite struct ResolverCacheTests {
    /// An Info.plist that takes every checked value, and its executable's name, from settings.
    static var plistKeys: [String: Any] {
        ["CFBundleIdentifier": "$(PRODUCT_BUNDLE_IDENTIFIER)", "CFBundleVersion": "$(CURRENT_PROJECT_VERSION)",
         "CFBundleShortVersionString": "$(MARKETING_VERSION)", "CFBundleExecutable": "$(EXECUTABLE_NAME)",
         "CFBundlePackageType": "$(PRODUCT_BUNDLE_PACKAGE_TYPE)"]
    }
    static let plist = FixtureTree.plist(plistKeys)

    /// Two targets on one xcconfig whose conditional settings differ by SDK and configuration, one Info.plist.
    static func sharedXcconfigProject() throws -> FixtureTree {
        let fixture = ProjectFixture(projectSettings: ["CURRENT_PROJECT_VERSION": "42", "MARKETING_VERSION": "1.4.0"], targets: [
            .init(name: "App", productType: "com.apple.product-type.application", settings: [
                "INFOPLIST_FILE": "Shared/Info.plist", "SDKROOT": "iphoneos",
            ], xcconfig: "Config/Shared.xcconfig", embeds: [.init(target: "Watch", spec: 16, dstPath: "$(CONTENTS_FOLDER_PATH)/Watch")]),
            .init(name: "Watch", productType: "com.apple.product-type.application.watchapp2", settings: [
                "INFOPLIST_FILE": "Shared/Info.plist", "SDKROOT": "watchos", "CURRENT_PROJECT_VERSION": "7",
            ], xcconfig: "Config/Shared.xcconfig"),
        ])
        return try FixtureTree([
            "App.xcodeproj/project.pbxproj": fixture.pbxproj(),
            "Config/Shared.xcconfig": """
            PRODUCT_BUNDLE_IDENTIFIER = com.example.app$(ID_SUFFIX)$(CONFIG_SUFFIX)
            ID_SUFFIX[sdk=iphoneos*] =
            ID_SUFFIX[sdk=watchos*] = .watchkitapp
            CONFIG_SUFFIX[config=Debug] = .debug
            """,
            "Shared/Info.plist": plist,
        ])
    }

    @Test func targetsSharingAnXcconfigKeepTheirOwnConditionalValues() throws {
        let tree = try Self.sharedXcconfigProject()
        defer { tree.cleanUp() }
        let project = try XcodeProject(path: tree.path + "/App.xcodeproj")
        let resolver = TargetResolver(project: project)
        let app = try #require(project.targets.first { $0.name == "App" })
        let watch = try #require(project.targets.first { $0.name == "Watch" })
        // The watch app first, so whatever it caches is in place when the app is resolved.
        let order = [(watch, "Release"), (app, "Release"), (watch, "Debug"), (app, "Debug")]
        let resolved = order.map { resolver.resolve($0.0, configuration: $0.1) }
        func value(_ index: Int, _ key: String) -> String? { resolved[index].values[key]?.value }
        #expect(value(0, "CFBundleIdentifier") == "com.example.app.watchkitapp")
        #expect(value(1, "CFBundleIdentifier") == "com.example.app")
        #expect(value(2, "CFBundleIdentifier") == "com.example.app.watchkitapp.debug")
        #expect(value(3, "CFBundleIdentifier") == "com.example.app.debug")
        // The watch app's own build number stays its own; the app inherits the project's.
        #expect(value(0, "CFBundleVersion") == "7")
        #expect(value(1, "CFBundleVersion") == "42")
        #expect(value(3, "CFBundleVersion") == "42")
        // Xcode's defaults are per target: its name and what its product type builds.
        #expect(resolved[0].settings.value("EXECUTABLE_NAME").value == "Watch")
        #expect(resolved[1].settings.value("EXECUTABLE_NAME").value == "App")
        #expect(value(1, "CFBundlePackageType") == "APPL")
        #expect(resolved[0].settings.value("CONFIGURATION").value == "Release")
        #expect(resolved[2].settings.value("CONFIGURATION").value == "Debug")
        // The same answers as a resolver that saw each target alone.
        for (index, (target, configuration)) in order.enumerated() {
            let alone = TargetResolver(project: project).resolve(target, configuration: configuration)
            #expect(alone.values.mapValues(\.value) == resolved[index].values.mapValues(\.value))
            #expect(alone.settings.value("WRAPPER_NAME").value == resolved[index].settings.value("WRAPPER_NAME").value)
        }
    }

    @Test func aTargetOverrideIsNotLeakedToItsSiblings() throws {
        var targets: [ProjectFixture.Target] = [
            .app("App", identifier: "com.example.app", plist: "Shared/Info.plist", embeds: (1...3).map { "Ext\($0)" }),
        ]
        for index in 1...3 {
            let override = index == 2 ? ["CURRENT_PROJECT_VERSION": "$(inherited).1", "PRODUCT_NAME": "Second"] : [:]
            targets.append(.appExtension("Ext\(index)", identifier: "com.example.app.ext\(index)", plist: "Shared/Info.plist", settings: override))
        }
        let fixture = ProjectFixture(projectSettings: ["CURRENT_PROJECT_VERSION": "42", "MARKETING_VERSION": "1.4.0"], targets: targets)
        let tree = try FixtureTree(["App.xcodeproj/project.pbxproj": fixture.pbxproj(), "Shared/Info.plist": Self.plist])
        defer { tree.cleanUp() }
        let result = try XcodeProjectInput.load(tree.path + "/App.xcodeproj", configuration: "Release")
        let bundles = result.sets[0].embedded
        #expect(bundles.map(\.buildVersion) == ["42", "42.1", "42"])
        #expect(bundles.map(\.bundlePath) == ["App.app/PlugIns/Ext1.appex", "App.app/PlugIns/Second.appex", "App.app/PlugIns/Ext3.appex"])
        #expect(bundles.map(\.packageType) == ["XPC!", "XPC!", "XPC!"])
        #expect(result.sets[0].app.packageType == "APPL")
        // Only the overriding target's mismatch is reported.
        let mismatches = try CheckInput.check(tree.path + "/App.xcodeproj", configuration: "Release").findings
            .filter { $0.rule == "version.build-mismatch" }
        #expect(mismatches.map(\.bundle) == ["App.app/PlugIns/Second.appex"])
    }

    @Test func sharedInfoPlistIsExpandedPerTarget() throws {
        let fixture = ProjectFixture(projectSettings: ["CURRENT_PROJECT_VERSION": "3", "MARKETING_VERSION": "2.0"], targets: [
            .app("App", identifier: "com.example.app", plist: "Shared/Info.plist", embeds: ["Ext"]),
            .appExtension("Ext", identifier: "com.example.app.ext", plist: "./Shared/../Shared/Info.plist", settings: ["MARKETING_VERSION": "2.1"]),
        ])
        let tree = try FixtureTree(["App.xcodeproj/project.pbxproj": fixture.pbxproj(), "Shared/Info.plist": Self.plist])
        defer { tree.cleanUp() }
        let set = try XcodeProjectInput.load(tree.path + "/App.xcodeproj", configuration: "Debug").sets[0]
        #expect(set.app.bundleIdentifier == "com.example.app")
        #expect(set.app.shortVersion == "2.0")
        #expect(set.embedded.map(\.bundleIdentifier) == ["com.example.app.ext"])
        #expect(set.embedded.map(\.shortVersion) == ["2.1"])
    }

    /// The byte-level scanners give the answers the Character-level ones gave, non-ASCII text included.
    @Test func byteScannersMatchUnicodeText() {
        #expect(BuildSettings.references(in: "$(A_1)-${B}.$C $(") == ["A_1", "B", "C"])
        #expect(BuildSettings.references(in: "$(Ünï) $(X)") == ["Ünï", "X"])
        #expect(BuildSettings.soleReference("  $(CURRENT_PROJECT_VERSION)\t") == "CURRENT_PROJECT_VERSION")
        #expect(BuildSettings.soleReference("${V}") == "V")
        #expect(BuildSettings.soleReference("$V") == "V")
        #expect(BuildSettings.soleReference("$(V).1") == nil)
        #expect(BuildSettings.soleReference("$()") == nil)
        #expect(BuildSettings.soleReference("\u{00A0}$(Vé)") == "Vé")
        #expect(XcconfigReader.splitKey("NAME[sdk=iphoneos*]")?.name == "NAME")
        #expect(XcconfigReader.splitKey("NÄME")?.name == "NÄME")
        #expect(XcconfigReader.splitKey("NA-ME") == nil)
        #expect(ASCII.replacing("[Release]", with: "[x]", in: "a [Release] b [Release]") == "a [x] b [x]")
        #expect(ASCII.replacing("[Release]", with: "[x]", in: "é [Release]") == "é [x]")
        #expect(ASCII.contains("$(inherited)", in: "$(inherited) -x"))
        #expect(!ASCII.contains("$(inherited)", in: "$(inherit"))
        #expect(ASCII.isASCII("abcdefghijklmnop") && !ASCII.isASCII("abcdefghijklmnoé"))
        #expect(Rules.numericParts("1.22.3") == 3)
        #expect(Rules.numericParts("1..2") == nil)
        #expect(Rules.numericParts("") == nil)
        #expect(Rules.numericParts("1.2\r\n") == nil)
        #expect(Rules.numericParts("١.2") == nil)
        #expect(ASCII.isOneBytePerCharacter("a.b") && !ASCII.isOneBytePerCharacter("a\r\nb"))
        let settings = BuildSettings(assignments: [("NAME", "Été"), ("ID", "x.$(NAME:rfc1034identifier)")].map {
            SettingAssignment(key: $0.0, name: $0.0, conditions: [], value: $0.1, source: SettingSource(file: "f", line: 1, owner: "f"))
        })
        var unresolved: Set<String> = []
        #expect(settings.expand("«$(NAME)» $(ID) $Ünknown", unresolved: &unresolved) == "«Été» x.-t- $Ünknown")
        #expect(unresolved.isEmpty)
    }
}
