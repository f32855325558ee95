@testable import BundleKit
import Foundation
import LockstepTestSupport
import Testing

/// RULES.md `signing.profile` on built apps, with real CMS-signed profiles made by openssl from a throwaway key.
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
