@testable import BundleKit
@testable import CheckKit
import Foundation
import LockstepTestSupport
import Testing
@testable import XcodeKit

/// rule `signing.profile` on built apps, with real CMS-signed profiles made by openssl from a throwaway key.
@Suite struct SigningProfileTests {
    /// `plist` signed as a CMS SignedData (DER), as Apple's profiles are.
    static func profile(team: String, entitlements: [String: Any], in dir: URL) throws -> Data {
        let plist = dir.appendingPathComponent("profile-\(UUID().uuidString).plist")
        try PropertyListSerialization.data(fromPropertyList: ["TeamIdentifier": [team], "Entitlements": entitlements], format: .xml, options: 0).write(to: plist)
        let key = dir.appendingPathComponent("key.pem").path, cert = dir.appendingPathComponent("cert.pem").path
        if !FileManager.default.fileExists(atPath: cert) {
            let made = try run("/usr/bin/openssl", ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-out", cert,
                                                    "-days", "2", "-subj", "/CN=Lockstep Test"])
            try #require(made.status == 0, "\(made)")
        }
        let out = plist.path + ".mobileprovision"
        let signed = try run("/usr/bin/openssl", ["cms", "-sign", "-binary", "-nodetach", "-outform", "DER", "-in", plist.path,
                                                  "-signer", cert, "-inkey", key, "-out", out])
        try #require(signed.status == 0, "\(signed)")
        return try Data(contentsOf: URL(fileURLWithPath: out))
    }

    static func xcent(_ entitlements: [String: Any]) throws -> Data {
        try PropertyListSerialization.data(fromPropertyList: entitlements, format: .xml, options: 0)
    }

    /// An app and a widget, each with signed entitlements (xcent) and a profile.
    static func check(widgetSigned: [String: Any], widgetAllowed: [String: Any], widgetTeam: String = "ABCDE12345",
                      damageWidgetProfile: Bool = false) throws -> [Finding] {
        let dir = TestSupport.temporaryDirectory("signing")
        defer { TestSupport.cleanUp(dir) }
        let app = dir.appendingPathComponent("X.app"), widget = app.appendingPathComponent("PlugIns/W.appex")
        try FileManager.default.createDirectory(at: widget, withIntermediateDirectories: true)
        for (folder, id) in [(app, "com.x"), (widget, "com.x.w")] {
            var plist: [String: Any] = ["CFBundleIdentifier": id, "CFBundleVersion": "1", "CFBundleShortVersionString": "1.0", "CFBundleDisplayName": "X"]
            if folder == widget { plist["NSExtension"] = ["NSExtensionPointIdentifier": "com.apple.widgetkit-extension"] }
            try PropertyListSerialization.data(fromPropertyList: plist, format: .binary, options: 0).write(to: folder.appendingPathComponent("Info.plist"))
        }
        let appEntitlements: [String: Any] = ["application-identifier": "ABCDE12345.com.x", "com.apple.security.application-groups": ["group.com.x"]]
        try Self.xcent(appEntitlements).write(to: app.appendingPathComponent("archived-expanded-entitlements.xcent"))
        try Self.profile(team: "ABCDE12345", entitlements: appEntitlements, in: dir).write(to: app.appendingPathComponent("embedded.mobileprovision"))
        try Self.xcent(widgetSigned).write(to: widget.appendingPathComponent("archived-expanded-entitlements.xcent"))
        var profile = try Self.profile(team: widgetTeam, entitlements: widgetAllowed, in: dir)
        if damageWidgetProfile { profile = profile.prefix(200) }
        try profile.write(to: widget.appendingPathComponent("embedded.mobileprovision"))
        return try CheckInput.check(app.path).findings.filter { $0.rule == "signing.profile" }
    }

    static var widgetEntitlements: [String: Any] { ["application-identifier": "ABCDE12345.com.x.w", "com.apple.security.application-groups": ["group.com.x"],
                                                    "keychain-access-groups": ["ABCDE12345.com.x.shared"], "aps-environment": "production"] }

    @Test func aProfileThatAllowsWhatTheBundleIsSignedWithPasses() throws {
        let allowed: [String: Any] = ["application-identifier": "ABCDE12345.com.x.*", "com.apple.security.application-groups": ["group.com.x", "group.com.y"],
                                      "keychain-access-groups": ["ABCDE12345.*"], "aps-environment": "production"]
        #expect(try Self.check(widgetSigned: Self.widgetEntitlements, widgetAllowed: allowed).isEmpty)
    }

    @Test func aGroupTheProfileDoesNotAllowIsITMS90164() throws {
        let allowed: [String: Any] = ["application-identifier": "ABCDE12345.com.x.w", "com.apple.security.application-groups": [String](),
                                      "keychain-access-groups": ["ABCDE12345.*"], "aps-environment": "development"]
        let findings = try Self.check(widgetSigned: Self.widgetEntitlements, widgetAllowed: allowed)
        #expect(findings.count == 2)
        #expect(findings.allSatisfy { $0.severity == .error && $0.bundle == "X.app/PlugIns/W.appex" })
        #expect(findings.first?.message.hasPrefix("Provisioning profile of X.app/PlugIns/W.appex doesn't match the entitlements file's value for the com.apple.security.application-groups entitlement. ITMS-90164:") == true)
        #expect(findings.contains { $0.message.contains("'production' for the key 'aps-environment'") })
    }

    @Test func anotherTeamAndADamagedProfileAreNamed() throws {
        let team = try Self.check(widgetSigned: Self.widgetEntitlements, widgetAllowed: Self.widgetEntitlements, widgetTeam: "ZZZZZ99999")
        #expect(team.map(\.message) == ["The provisioning profile of X.app/PlugIns/W.appex is of team ZZZZZ99999, and the app's of team ABCDE12345: every bundle of an app must be signed by the same team."])
        let damaged = try Self.check(widgetSigned: Self.widgetEntitlements, widgetAllowed: Self.widgetEntitlements, damageWidgetProfile: true)
        #expect(damaged.map(\.severity) == [.warning])
        // The DER reader, fuzzed: never a crash.
        var random = FuzzTests.Random(state: 0x5EED_0008)
        let dir = TestSupport.temporaryDirectory("der")
        defer { TestSupport.cleanUp(dir) }
        let seed = Array(try Self.profile(team: "ABCDE12345", entitlements: Self.widgetEntitlements, in: dir))
        #expect(ProvisioningProfile.content(seed) != nil)
        for _ in 0..<FuzzTests.iterations { _ = ProvisioningProfile.content(FuzzTests.mutate(seed, &random)) }
    }
}

/// rule `clip.prefix`, clip.parent and clip.size on a built app (`X.app/AppClips/C.app`), and an App Clip target
/// embedded by a project's "Embed App Clips" phase.
@Suite struct AppClipTests {
    static func check(clipID: String = "com.x.Clip", parents: [String] = ["ABCDE12345.com.x"], minimumOS: String = "16.0", size: Int = 1000,
                      version: String = "1") throws -> [Finding] {
        let dir = TestSupport.temporaryDirectory("clip")
        defer { TestSupport.cleanUp(dir) }
        let app = dir.appendingPathComponent("X.app"), clip = app.appendingPathComponent("AppClips/C.app")
        try FileManager.default.createDirectory(at: clip, withIntermediateDirectories: true)
        func plist(_ id: String, _ build: String) throws -> Data {
            try PropertyListSerialization.data(fromPropertyList: ["CFBundleIdentifier": id, "CFBundleVersion": build, "CFBundleShortVersionString": "1.0",
                                                                  "MinimumOSVersion": minimumOS], format: .binary, options: 0)
        }
        try plist("com.x", "1").write(to: app.appendingPathComponent("Info.plist"))
        try plist(clipID, version).write(to: clip.appendingPathComponent("Info.plist"))
        try SigningProfileTests.xcent(["application-identifier": "ABCDE12345.com.x"]).write(to: app.appendingPathComponent("archived-expanded-entitlements.xcent"))
        try SigningProfileTests.xcent(["application-identifier": "ABCDE12345.\(clipID)", "com.apple.developer.parent-application-identifiers": parents])
            .write(to: clip.appendingPathComponent("archived-expanded-entitlements.xcent"))
        _ = FileManager.default.createFile(atPath: clip.appendingPathComponent("Assets.car").path, contents: nil)
        let handle = try FileHandle(forWritingTo: clip.appendingPathComponent("Assets.car"))
        try handle.truncate(atOffset: UInt64(size))
        try handle.close()
        return try CheckInput.check(app.path).findings.filter { $0.severity != .note }
    }

    @Test func aGoodAppClipPasses() throws {
        #expect(try Self.check().isEmpty)
    }

    @Test func eachClipRuleNamesItsProblem() throws {
        #expect(try Self.check(clipID: "com.other.Clip").map(\.rule) == ["clip.prefix"])
        #expect(try Self.check(parents: ["ABCDE12345.com.x", "ABCDE12345.com.y"]).map(\.rule) == ["clip.parent"])
        #expect(try Self.check(parents: ["ABCDE12345.com.other"]).map(\.rule) == ["clip.parent"])
        let big = try Self.check(minimumOS: "16.0", size: 16_000_000)
        #expect(big.map(\.rule) == ["clip.size"])
        #expect(big.first?.message.hasPrefix("ITMS-90865: Thinned app clip size is too large - The main bundle of the C App Clip is 16 MB, which exceeds the maximum allowable size of 15 MB after app thinning.") == true)
        #expect(try Self.check(minimumOS: "17.0", size: 16_000_000).isEmpty)
        // A bundle of the set like any other: its versions are compared with the app's.
        #expect(try Self.check(version: "2").map(\.rule) == ["version.build-mismatch"])
    }

    @Test func aProjectsEmbedAppClipsPhaseMakesTheClipABundleOfTheSet() throws {
        let fixture = ProjectFixture(projectSettings: ["CURRENT_PROJECT_VERSION": "3", "MARKETING_VERSION": "1.0"], targets: [
            .init(name: "App", productType: "com.apple.product-type.application", settings: [
                "GENERATE_INFOPLIST_FILE": "YES", "PRODUCT_BUNDLE_IDENTIFIER": "com.x",
            ], embeds: [.init(target: "Clip", spec: 16, dstPath: "$(CONTENTS_FOLDER_PATH)/AppClips")]),
            .init(name: "Clip", productType: "com.apple.product-type.application.on-demand-install-capable", settings: [
                "GENERATE_INFOPLIST_FILE": "YES", "PRODUCT_BUNDLE_IDENTIFIER": "com.y.Clip", "CURRENT_PROJECT_VERSION": "2",
            ]),
        ])
        let tree = try FixtureTree(["App.xcodeproj/project.pbxproj": fixture.pbxproj()])
        defer { tree.cleanUp() }
        let result = try XcodeProjectInput.load(tree.path + "/App.xcodeproj", configuration: "Release")
        #expect(result.sets.first?.embedded.map(\.bundlePath) == ["App.app/AppClips/Clip.app"])
        let rules = result.sets.flatMap(Rules.check).filter { $0.severity == .error }.map(\.rule)
        #expect(rules == ["version.build-mismatch", "clip.prefix"])
    }

    /// rule `clip.parent` on a project: the clip's entitlements name the app, `$(AppIdentifierPrefix)` symbolic.
    @Test func aProjectsAppClipNamesItsParent() throws {
        func rules(_ parents: [String]) throws -> [RuleID] {
            let fixture = ProjectFixture(projectSettings: ["CURRENT_PROJECT_VERSION": "3", "MARKETING_VERSION": "1.0"], targets: [
                .init(name: "App", productType: "com.apple.product-type.application", settings: [
                    "GENERATE_INFOPLIST_FILE": "YES", "PRODUCT_BUNDLE_IDENTIFIER": "com.x",
                ], embeds: [.init(target: "Clip", spec: 16, dstPath: "$(CONTENTS_FOLDER_PATH)/AppClips")]),
                .init(name: "Clip", productType: "com.apple.product-type.application.on-demand-install-capable", settings: [
                    "GENERATE_INFOPLIST_FILE": "YES", "PRODUCT_BUNDLE_IDENTIFIER": "com.x.Clip", "CODE_SIGN_ENTITLEMENTS": "Clip/Clip.entitlements",
                ]),
            ])
            let tree = try FixtureTree(["App.xcodeproj/project.pbxproj": fixture.pbxproj(),
                                        "Clip/Clip.entitlements": FixtureTree.plist(["com.apple.developer.parent-application-identifiers": parents])])
            defer { tree.cleanUp() }
            return try XcodeProjectInput.load(tree.path + "/App.xcodeproj", configuration: "Release").sets.flatMap(Rules.check)
                .filter { $0.severity == .error }.map(\.rule)
        }
        #expect(try rules(["$(AppIdentifierPrefix)com.x"]).isEmpty)
        #expect(try rules(["$(AppIdentifierPrefix)com.other"]) == ["clip.parent"])
    }
}

/// rule `bundle-id.duplicate` extended to frameworks (ITMS-90685/90806), on a built app.
@Suite struct FrameworkIdentifierTests {
    @Test func theSameFrameworkIdentifierTwiceIsACollision() throws {
        let dir = TestSupport.temporaryDirectory("frameworks")
        defer { TestSupport.cleanUp(dir) }
        func plist(_ id: String, at relative: String, extra: [String: Any] = [:]) throws {
            let url = dir.appendingPathComponent(relative)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try PropertyListSerialization.data(fromPropertyList: ["CFBundleIdentifier": id, "CFBundleVersion": "1", "CFBundleShortVersionString": "1.0"]
                .merging(extra) { $1 }, format: .binary, options: 0).write(to: url)
        }
        try plist("com.x", at: "X.app/Info.plist")
        try plist("com.x.watchkitapp", at: "X.app/Watch/W.app/Info.plist", extra: ["WKCompanionAppBundleIdentifier": "com.x"])
        try plist("com.vendor.kit", at: "X.app/Frameworks/Kit.framework/Info.plist")
        try plist("com.x.shared", at: "X.app/Frameworks/Shared.framework/Info.plist")
        let clean = try CheckInput.check(dir.appendingPathComponent("X.app").path).findings.filter { $0.rule == "bundle-id.duplicate" }
        #expect(clean.isEmpty)
        try plist("com.vendor.kit", at: "X.app/Watch/W.app/Frameworks/Kit.framework/Info.plist")
        try plist("com.x", at: "X.app/Frameworks/Wrong.framework/Info.plist")
        let findings = try CheckInput.check(dir.appendingPathComponent("X.app").path).findings.filter { $0.rule == "bundle-id.duplicate" }
        #expect(findings.count == 2)
        #expect(findings.contains { $0.message.hasPrefix("ITMS-90806: CFBundleIdentifier collision - Each bundle must have a unique bundle identifier. The bundle identifier 'com.vendor.kit' is used in the bundles '[Kit.framework, Kit.framework]'.") })
        #expect(findings.contains { $0.message.hasPrefix("ITMS-90685: CFBundleIdentifier Collision. There is more than one bundle with the CFBundleIdentifier value 'com.x' under the iOS application 'X.app'.") })
    }
}
