import BundleKit
import CheckKit
import Foundation
import LockstepTestSupport
import Testing

/// Built bundles on disk, in an `.xcarchive` and in an `.ipa`, and the bad inputs `check` must refuse. Each test has a
/// fresh folder of its own, `dir`, removed when it ends.
@Suite final class InputTests {
    let dir = TestSupport.temporaryDirectory()

    deinit { TestSupport.cleanUp(dir) }

    /// `files` written under `dir`, and what `check` finds in its X.app.
    func checkApp(_ files: [(String, [UInt8])]) throws -> CheckResult {
        try Fixtures.write(files, under: dir)
        return try CheckInput.check(dir.appendingPathComponent("X.app").path)
    }

    /// A mismatched widget build, an unknown extension point in ExtensionKit, and a watch with the wrong companion.
    static let broken = Fixtures.builtApp { plists in
        plists["X.app/PlugIns/Widget.appex"]?["CFBundleVersion"] = "1"
        plists["X.app/Extensions/Intents.appex"]?["EXAppExtensionAttributes"] = ["EXExtensionPointIdentifier": "com.example.custom"]
        plists["X.app/Watch/W.app"]?["WKCompanionAppBundleIdentifier"] = "com.x.other"
    }

    static func summary(_ result: CheckResult) -> [String] {
        result.findings.map { "\($0.rule) \($0.severity.rawValue) \($0.bundle)" }
    }

    static let expectedBroken = [
        "version.build-mismatch error X.app/PlugIns/Widget.appex",
        "extension.point warning X.app/Extensions/Intents.appex",
        "watch.companion error X.app/Watch/W.app",
    ]

    @Test func builtAppFolder() throws {
        let clean = try checkApp(Fixtures.builtApp())
        #expect(clean.findings == [])
        #expect(clean.sets.count == 1)
        let set = try #require(clean.sets.first)
        #expect(set.all.map(\.bundlePath) == ["X.app", "X.app/PlugIns/Widget.appex", "X.app/Extensions/Intents.appex", "X.app/Watch/W.app"])
        #expect(set.all.map(\.role) == [.host, .widget, .intent, .watch])
        #expect(set.app.buildVersion == "289")  // read from a binary plist
        #expect(set.embedded[0].appGroups == ["group.com.x.habits"])  // from archived-expanded-entitlements.xcent

        let brokenDir = dir.appendingPathComponent("broken")
        try Fixtures.write(Self.broken, under: brokenDir)
        // A folder of built bundles: every .app in it.
        let result = try CheckInput.check(brokenDir.path)
        #expect(Self.summary(result) == Self.expectedBroken)
        #expect(result.findings[0].path == brokenDir.path + "/X.app/PlugIns/Widget.appex/Info.plist")
        #expect(result.exitStatus == .failure)
    }

    @Test func builtAppWithoutEntitlementsFileSaysGroupsWereNotChecked() throws {
        let result = try checkApp(Fixtures.builtApp().filter { !$0.0.hasSuffix(".xcent") || $0.0.hasPrefix("X.app/archived") })
        #expect(result.findings.map(\.severity) == [.note, .note, .note])
        #expect(result.findings.allSatisfy { $0.rule == "group.shared" })
        #expect(result.exitStatus == .success)
    }

    @Test func entitlementsFromTheCodeSignature() throws {
        var files = Fixtures.builtApp { plists in
            plists["X.app"]?["CFBundleExecutable"] = "X"
            plists["X.app/PlugIns/Widget.appex"]?["CFBundleExecutable"] = "Widget"
            plists["X.app/Watch/W.app"]?["CFBundleExecutable"] = "W"
        }.filter { !$0.0.hasSuffix(".xcent") }
        files.append(("X.app/X", Fixtures.signedExecutable(entitlements: Fixtures.entitlements(["group.com.x.habits"]))))
        // A universal binary whose group the app does not claim.
        files.append(("X.app/PlugIns/Widget.appex/Widget", Fixtures.signedExecutable(entitlements: Fixtures.entitlements(["group.com.x.other"]), universal: true)))
        files.append(("X.app/Watch/W.app/W", Array("#!/bin/sh\n".utf8)))  // not a Mach-O: groups unknown
        let result = try checkApp(files)
        #expect(Self.summary(result) == [
            "group.shared error X.app/PlugIns/Widget.appex",
            "group.shared note X.app/Extensions/Intents.appex",
            "group.shared note X.app/Watch/W.app",
        ])
        #expect(result.findings[0].path == dir.path + "/X.app/PlugIns/Widget.appex/Widget")
        #expect(result.sets.first?.app.appGroups == ["group.com.x.habits"])
    }

    @Test func aWatchAppsOwnWidgetIsPrefixedWithTheWatchAppsIdentifier() throws {
        let widget: [String: Any] = ["CFBundleDisplayName": "Habits", "NSExtension": ["NSExtensionPointIdentifier": "com.apple.widgetkit-extension"]]
        var files = Fixtures.builtApp()
        files.append(("X.app/Watch/W.app/PlugIns/Complication.appex/Info.plist",
                      Fixtures.plistBytes(Fixtures.infoPlist("com.x.habits.watchkitapp.complication", extra: widget), binary: true)))
        files.append(("X.app/Watch/W.app/PlugIns/Bad.appex/Info.plist",
                      Fixtures.plistBytes(Fixtures.infoPlist("com.x.habits.bad", build: "3", extra: widget), binary: false)))
        let result = try checkApp(files)
        #expect(result.sets.first?.embedded.map(\.bundlePath).last == "X.app/Watch/W.app/PlugIns/Complication.appex")
        // Complication: prefixed with the watch app's id, and (no entitlements) groups unknown. Bad: neither.
        #expect(Self.summary(result) == [
            "version.build-mismatch error X.app/Watch/W.app/PlugIns/Bad.appex",
            "bundle-id.prefix error X.app/Watch/W.app/PlugIns/Bad.appex",
            "group.shared note X.app/Watch/W.app/PlugIns/Bad.appex",
            "group.shared note X.app/Watch/W.app/PlugIns/Complication.appex",
        ])
    }

    @Test func xcarchive() throws {
        let archive = dir.appendingPathComponent("X.xcarchive")
        try Fixtures.write(Self.broken, under: archive.appendingPathComponent("Products/Applications"))
        #expect(Self.summary(try CheckInput.check(archive.path)) == Self.expectedBroken)
    }

    @Test func ipaWithStoredAndDeflatedEntries() throws {
        let files = Self.broken.map { ("Payload/" + $0.0, $0.1) }
        let ipa = dir.appendingPathComponent("X.ipa")
        // Plists deflated, entitlements stored: both methods in one archive.
        try Data(Fixtures.zip(files, deflate: { $0.hasSuffix("Info.plist") })).write(to: ipa)
        let result = try CheckInput.check(ipa.path)
        #expect(Self.summary(result) == Self.expectedBroken)
        #expect(result.findings[0].path == ipa.path + ":Payload/X.app/PlugIns/Widget.appex/Info.plist")
        #expect(result.sets.first?.embedded.first?.appGroups == ["group.com.x.habits"])
    }

    @Test func badInputsAreOneSentenceNamingTheFile() throws {
        func error(_ path: String) -> BundleError? {
            #expect(throws: BundleError.self) { try CheckInput.check(path) }
        }
        let missing = dir.appendingPathComponent("missing.json").path
        #expect(error(missing)?.description == "Cannot read '\(missing)': no such file or folder.")

        // Not a plist.
        let garbage = dir.appendingPathComponent("garbage")
        try Fixtures.write(Fixtures.builtApp(), under: garbage)
        try Data("not a plist at all".utf8).write(to: garbage.appendingPathComponent("X.app/PlugIns/Widget.appex/Info.plist"))
        let plistPath = garbage.path + "/X.app/PlugIns/Widget.appex/Info.plist"
        #expect(error(garbage.appendingPathComponent("X.app").path)?.description
            == "'\(plistPath)' is not a readable property list: it is not an XML, binary or OpenStep property list, or it is truncated.")

        // A truncated binary plist.
        let truncated = dir.appendingPathComponent("truncated")
        try Fixtures.write(Fixtures.builtApp(), under: truncated)
        let binary = Fixtures.plistBytes(Fixtures.infoPlist("com.x.habits"), binary: true)
        try Data(binary.dropLast(12)).write(to: truncated.appendingPathComponent("X.app/Info.plist"))
        #expect(error(truncated.appendingPathComponent("X.app").path)?.code == .notAPropertyList)

        // A manifest with an unknown version.
        let future = dir.appendingPathComponent("future.json").path
        try #"{"manifestVersion": 9, "app": {}}"#.write(toFile: future, atomically: true, encoding: .utf8)
        #expect(error(future)?.description == "The manifest '\(future)' has manifestVersion 9, which this Lockstep does not know (it reads 1).")

        // A zip that is not an ipa.
        let notIPA = dir.appendingPathComponent("notes.zip").path
        try Data(Fixtures.zip([("README.txt", Array("hello".utf8))])).write(to: URL(fileURLWithPath: notIPA))
        #expect(error(notIPA)?.description == "'\(notIPA)' is not an .ipa: it has no Payload/X.app.")

        // A damaged zip: the central directory points past the end of the file.
        var damaged = Fixtures.zip(Self.broken.map { ("Payload/" + $0.0, $0.1) })
        damaged[damaged.count - 6] = 0xFF
        damaged[damaged.count - 5] = 0xFF
        let damagedPath = dir.appendingPathComponent("damaged.ipa").path
        try Data(damaged).write(to: URL(fileURLWithPath: damagedPath))
        #expect(error(damagedPath)?.description == "'\(damagedPath)' is not an .ipa: its end-of-central-directory record does not match its central directory.")

        // A zip bomb: the entry inflates to far more than its recorded size.
        let bomb = [UInt8](repeating: 0x41, count: 2 << 20)
        let bombPath = dir.appendingPathComponent("bomb.ipa").path
        try Data(Fixtures.zip([("Payload/X.app/Info.plist", bomb)], lie: ["Payload/X.app/Info.plist": 100])).write(to: URL(fileURLWithPath: bombPath))
        #expect(error(bombPath)?.description == "'\(bombPath)' is not an .ipa: the entry 'Payload/X.app/Info.plist' is corrupt or larger than its recorded size.")

        // An empty folder.
        let empty = dir.appendingPathComponent("empty")
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
        #expect(error(empty.path)?.code == .unsupportedInput)
    }
}
