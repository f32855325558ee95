@testable import BundleKit
import Foundation
import LockstepTestSupport
import Testing

/// RULES.md `privacy.manifest` and `privacy.manifest-invalid` on built apps: Mach-O executables written here with
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
        try CheckInput.check(dir.appendingPathComponent("X.app").path).findings.filter { $0.rule.hasPrefix("privacy.") }
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
}
