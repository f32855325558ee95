@testable import BundleKit
@testable import CheckKit
import Foundation
import LockstepTestSupport
import Testing
@testable import XcodeKit

/// rule `privacy.manifest` and `privacy.manifest-invalid` on built apps: Mach-O executables written here with
/// chosen imports, in the symbol table and in chained fixups.
@Suite struct PrivacyManifestTests {
    static func le32(_ v: Int) -> [UInt8] { (0..<4).map { UInt8((v >> ($0 * 8)) & 0xFF) } }
    static func le64(_ v: Int) -> [UInt8] { (0..<8).map { UInt8((v >> ($0 * 8)) & 0xFF) } }

    /// A 64-bit arm64 executable importing `undefined` through LC_SYMTAB and `chained` through LC_DYLD_CHAINED_FIXUPS.
    static func machO(undefined: [String] = [], chained: [String] = []) -> [UInt8] {
        let headerSize = 32, commandsSize = 24 + 16
        let symbolsOffset = headerSize + commandsSize
        var strings: [UInt8] = [0]
        var symbols: [UInt8] = []
        for name in undefined {
            symbols += le32(strings.count) + [0x01, 0] + [0, 0] + le64(0)  // N_UNDF | N_EXT
            strings += Array(name.utf8) + [0]
        }
        let stringsOffset = symbolsOffset + symbols.count
        let fixupsOffset = stringsOffset + strings.count
        var names: [UInt8] = []
        var imports: [UInt8] = []
        for name in chained {
            imports += le32(1 | (names.count << 9))
            names += Array(name.utf8) + [0]
        }
        let fixups = le32(0) + le32(28) + le32(28) + le32(28 + imports.count) + le32(chained.count) + le32(1) + le32(0) + imports + names
        var bytes = le32(0xFEED_FACF) + le32(0x0100_000C) + le32(0) + le32(2) + le32(2) + le32(commandsSize) + le32(0) + le32(0)
        bytes += le32(0x2) + le32(24) + le32(symbolsOffset) + le32(undefined.count) + le32(stringsOffset) + le32(strings.count)
        bytes += le32(0x8000_0034) + le32(16) + le32(fixupsOffset) + le32(fixups.count)
        return bytes + symbols + strings + fixups
    }

    /// `thin` wrapped as the only architecture of a universal file.
    static func fat(_ thin: [UInt8]) -> [UInt8] {
        func be32(_ v: Int) -> [UInt8] { (0..<4).reversed().map { UInt8((v >> ($0 * 8)) & 0xFF) } }
        return be32(0xCAFE_BABE) + be32(1) + be32(0x0100_000C) + be32(0) + be32(4096) + be32(thin.count) + be32(14)
            + [UInt8](repeating: 0, count: 4096 - 28) + thin
    }

    static func manifest(_ entries: [(String, [String])]) throws -> Data {
        try PropertyListSerialization.data(fromPropertyList: [
            "NSPrivacyTracking": false,
            "NSPrivacyAccessedAPITypes": entries.map { ["NSPrivacyAccessedAPIType": $0.0, "NSPrivacyAccessedAPITypeReasons": $0.1] },
        ] as [String: Any], format: .xml, options: 0)
    }

    /// An app whose widget reads its App Group's UserDefaults, with the privacy manifests given.
    static func app(appManifest: Data?, widgetManifest: Data?, widgetBinary: [UInt8] = machO(undefined: ["_OBJC_CLASS_$_NSUserDefaults", "_objc_msgSend"])) throws -> URL {
        let dir = TestSupport.temporaryDirectory("privacy")
        let app = dir.appendingPathComponent("X.app"), widget = app.appendingPathComponent("PlugIns/W.appex")
        try FileManager.default.createDirectory(at: widget, withIntermediateDirectories: true)
        func plist(_ id: String, _ executable: String, extra: [String: Any] = [:]) throws -> Data {
            try PropertyListSerialization.data(fromPropertyList: ["CFBundleIdentifier": id, "CFBundleVersion": "1", "CFBundleShortVersionString": "1.0",
                                                                  "CFBundleExecutable": executable].merging(extra) { $1 }, format: .binary, options: 0)
        }
        try plist("com.x", "X").write(to: app.appendingPathComponent("Info.plist"))
        try Data(machO(chained: ["_mach_absolute_time", "_objc_msgSend"])).write(to: app.appendingPathComponent("X"))
        try plist("com.x.w", "W", extra: ["NSExtension": ["NSExtensionPointIdentifier": "com.apple.widgetkit-extension"]])
            .write(to: widget.appendingPathComponent("Info.plist"))
        try Data(widgetBinary).write(to: widget.appendingPathComponent("W"))
        try appManifest?.write(to: app.appendingPathComponent("PrivacyInfo.xcprivacy"))
        try widgetManifest?.write(to: widget.appendingPathComponent("PrivacyInfo.xcprivacy"))
        return dir
    }

    static func privacy(_ dir: URL) throws -> [Finding] {
        try CheckInput.check(dir.appendingPathComponent("X.app").path).findings.filter { $0.rule.rawValue.hasPrefix("privacy.") }
    }

    @Test func importsAreReadFromTheSymbolTableChainedFixupsAndUniversalFiles() {
        #expect(MachO.importedSymbols(in: Self.machO(undefined: ["_stat$INODE64"], chained: ["_OBJC_CLASS_$_NSUserDefaults"]))
                == ["_stat$INODE64", "_OBJC_CLASS_$_NSUserDefaults"])
        #expect(MachO.importedSymbols(in: Self.fat(Self.machO(chained: ["_statfs"]))) == ["_statfs"])
        #expect(MachO.importedSymbols(in: Array("not a binary".utf8)) == nil)
        #expect(PrivacyManifest.categories(usedBy: ["_stat$INODE64", "_OBJC_CLASS_$_NSUserDefaults", "_printf"]).keys.sorted()
                == ["NSPrivacyAccessedAPICategoryFileTimestamp", "NSPrivacyAccessedAPICategoryUserDefaults"])
    }

    @Test func aWidgetThatDeclaresWhatItUsesPasses() throws {
        let dir = try Self.app(appManifest: try Self.manifest([("NSPrivacyAccessedAPICategorySystemBootTime", ["35F9.1"])]),
                               widgetManifest: try Self.manifest([("NSPrivacyAccessedAPICategoryUserDefaults", ["1C8F.1"])]))
        defer { TestSupport.cleanUp(dir) }
        #expect(try Self.privacy(dir).isEmpty)
    }

    @Test func undeclaredUseIsITMS91053NamingTheExtensionExecutable() throws {
        let dir = try Self.app(appManifest: nil, widgetManifest: nil)
        defer { TestSupport.cleanUp(dir) }
        let findings = try Self.privacy(dir)
        #expect(findings.map(\.rule) == ["privacy.manifest", "privacy.manifest"])
        #expect(findings.allSatisfy { $0.severity == .error })
        let widget = try #require(findings.first { $0.bundle == "X.app/PlugIns/W.appex" })
        #expect(widget.message.hasPrefix("ITMS-91053: Missing API declaration - Your app's code in the \"PlugIns/W.appex/W\" file references one or more APIs that require reasons, including the following API categories: NSPrivacyAccessedAPICategoryUserDefaults."))
        #expect(findings.contains { $0.bundle == "X.app" && $0.message.contains("\"X\" file") && $0.message.contains("SystemBootTime") })
        // Through the command line: exit 1, the rule named.
        let result = try run("lockstep", ["check", dir.appendingPathComponent("X.app").path])
        #expect(result.status == 1 && result.stdout.contains("[privacy.manifest]"), "\(result)")
    }

    @Test func declaredOnlyByTheAppIsAWarning() throws {
        let dir = try Self.app(appManifest: try Self.manifest([("NSPrivacyAccessedAPICategoryUserDefaults", ["CA92.1"]),
                                                               ("NSPrivacyAccessedAPICategorySystemBootTime", ["35F9.1"])]),
                               widgetManifest: nil)
        defer { TestSupport.cleanUp(dir) }
        let findings = try Self.privacy(dir)
        #expect(findings.map(\.severity) == [.warning])
        #expect(findings.first?.message.contains("Only the app's privacy manifest declares them") == true)
    }

    @Test func anInvalidManifestIsNamed() throws {
        let dir = try Self.app(appManifest: try Self.manifest([("NSPrivacyAccessedAPICategorySystemBootTime", ["35F9.1"])]),
                               widgetManifest: try Self.manifest([("NSPrivacyAccessedAPICategoryUserDefaults", ["XXXX.1"]), ("NSPrivacyAccessedAPICategoryMagic", ["1"])]))
        defer { TestSupport.cleanUp(dir) }
        let findings = try Self.privacy(dir)
        let invalid = try #require(findings.first { $0.rule == "privacy.manifest-invalid" })
        #expect(invalid.message.contains("'XXXX.1' is not an approved reason for NSPrivacyAccessedAPICategoryUserDefaults"))
        #expect(invalid.message.contains("'NSPrivacyAccessedAPICategoryMagic' is not a required-reason API category"))
        // The category is declared, with a reason App Store Connect refuses: the invalid manifest is the one error.
        #expect(findings.filter { $0.bundle == "X.app/PlugIns/W.appex" }.map(\.rule) == ["privacy.manifest-invalid"])
    }

    /// A truncated or damaged executable tells nothing, and costs no more than its size: no finding, no crash.
    @Test func aDamagedExecutableIsSkipped() throws {
        let dir = try Self.app(appManifest: nil, widgetManifest: nil, widgetBinary: Array(Self.machO(undefined: ["_OBJC_CLASS_$_NSUserDefaults"]).prefix(40)))
        defer { TestSupport.cleanUp(dir) }
        #expect(try Self.privacy(dir).allSatisfy { $0.bundle == "X.app" })
        var random = FuzzTests.Random(state: 0x5EED_0007)
        let seed = Self.fat(Self.machO(undefined: ["_stat", "_statfs"], chained: ["_OBJC_CLASS_$_NSUserDefaults"]))
        for _ in 0..<FuzzTests.iterations { _ = MachO.importedSymbols(in: FuzzTests.mutate(seed, &random)) }
    }

    /// An executable that says only the minimum OS it was built for (LC_BUILD_VERSION, iOS).
    static func machO(minimumOS major: Int, _ minor: Int) -> [UInt8] {
        le32(0xFEED_FACF) + le32(0x0100_000C) + le32(0) + le32(2) + le32(1) + le32(24) + le32(0) + le32(0)
            + le32(0x32) + le32(24) + le32(2) + le32(major << 16 | minor << 8) + le32(major << 16) + le32(0)
    }

    /// <doc:Rules> "The App Store's other embedded-bundle rules" on a built app: one good extension, then each rule broken once.
    @Test func theOtherEmbeddedBundleRules() throws {
        #expect(MachO.minimumOS(in: Self.machO(minimumOS: 16, 4)) == "16.4")
        #expect(Rules.compareVersions("16.4", "16.10") < 0 && Rules.compareVersions("9", "9.0") == 0)
        func check(_ edit: (URL, URL) throws -> Void) throws -> [Finding] {
            let dir = try Self.app(appManifest: nil, widgetManifest: nil, widgetBinary: Self.machO(minimumOS: 15, 0))
            defer { TestSupport.cleanUp(dir) }
            let app = dir.appendingPathComponent("X.app"), widget = app.appendingPathComponent("PlugIns/W.appex")
            try Data(Self.machO(minimumOS: 15, 0)).write(to: app.appendingPathComponent("X"))
            func plist(_ url: URL, _ change: (inout [String: Any]) -> Void) throws {
                var dictionary = try PropertyListSerialization.propertyList(from: Data(contentsOf: url.appendingPathComponent("Info.plist")), format: nil) as! [String: Any]
                change(&dictionary)
                try PropertyListSerialization.data(fromPropertyList: dictionary, format: .xml, options: 0).write(to: url.appendingPathComponent("Info.plist"))
            }
            try plist(app) { $0["MinimumOSVersion"] = "15.0" }
            try plist(widget) {
                $0["MinimumOSVersion"] = "15.0"
                $0["CFBundleDisplayName"] = "Widget"
                $0["NSExtension"] = ["NSExtensionPointIdentifier": "com.apple.share-services",
                                     "NSExtensionAttributes": ["NSExtensionActivationRule": ["NSExtensionActivationSupportsText": true,
                                                                                            "NSExtensionActivationSupportsImageWithMaxCount": 3]]]
            }
            try edit(app, widget)
            return try CheckInput.check(app.path).findings.filter { !$0.rule.rawValue.hasPrefix("privacy.") && $0.rule != "group.shared" }
        }
        #expect(try check { _, _ in }.isEmpty)
        func edited(_ widget: URL, _ change: (inout [String: Any]) -> Void) throws {
            var dictionary = try PropertyListSerialization.propertyList(from: Data(contentsOf: widget.appendingPathComponent("Info.plist")), format: nil) as! [String: Any]
            change(&dictionary)
            try PropertyListSerialization.data(fromPropertyList: dictionary, format: .xml, options: 0).write(to: widget.appendingPathComponent("Info.plist"))
        }
        let nested = try check { _, widget in
            try FileManager.default.createDirectory(at: widget.appendingPathComponent("Frameworks/Kit.framework"), withIntermediateDirectories: true)
        }
        #expect(nested.map(\.rule) == ["bundle.nested"])
        #expect(nested.first?.message.hasPrefix("Asset validation failed (90206) Invalid Bundle. The bundle at 'X.app/PlugIns/W.appex' contains disallowed file 'Frameworks'.") == true)
        let belowBinary = try check { _, widget in try Data(Self.machO(minimumOS: 16, 0)).write(to: widget.appendingPathComponent("W")) }
        #expect(belowBinary.map(\.rule) == ["os.plist-vs-binary"])
        let floor = try check { _, widget in try edited(widget) { $0["MinimumOSVersion"] = "17.0" } }
        #expect(floor.map(\.rule) == ["os.extension-floor"] && floor.first?.severity == .warning)
        let truePredicate = try check { _, widget in
            try edited(widget) { $0["NSExtension"] = ["NSExtensionPointIdentifier": "com.apple.share-services", "NSExtensionAttributes": ["NSExtensionActivationRule": "TRUEPREDICATE"]] }
        }
        #expect(truePredicate.map(\.rule) == ["extension.activation-rule"])
        let types = try check { _, widget in
            try edited(widget) {
                $0["NSExtension"] = ["NSExtensionPointIdentifier": "com.apple.share-services",
                                     "NSExtensionAttributes": ["NSExtensionActivationRule": ["NSExtensionActivationSupportsText": "YES"]]]
            }
        }
        #expect(types.map(\.message) == ["ITMS-90361: Invalid info.plist value type. The value type for the key 'NSExtensionActivationSupportsText' in bundle X.app/PlugIns/W.appex is not boolean."])
        let unnamed = try check { _, widget in try edited(widget) { $0["CFBundleDisplayName"] = "" } }
        #expect(unnamed.map(\.rule) == ["extension.display-name"])
    }
}
