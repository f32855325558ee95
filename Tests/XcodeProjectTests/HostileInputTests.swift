@testable import BundleKit
@testable import CheckKit
import Foundation
import Glibc
import LockstepTestSupport
import Testing
@testable import XcodeKit

/// Hostile and odd input (issue 20), generated here and run through the built `lockstep` with a watchdog: each case
/// must end with the right status well inside `Self.timeout` (a hang is killed and shows as status 137), and no run
/// may grow past `Self.maximumMemory` (the children's peak RSS, read with getrusage after they are reaped).
@Suite struct HostileInputTests {
    /// Generous for a shared, noisy machine; an exponential blow-up runs for minutes and is killed at this.
    static let timeout = 10.0
    static let maximumMemory = 500 << 20

    static func lockstep(_ arguments: [String], environment: [String: String] = [:]) throws -> ProcessResult {
        try run("lockstep", arguments, environment: environment, timeout: timeout)
    }

    /// A binary plist `{CFBundleIdentifier = x; Bomb = a0}` where each array a_i holds a_{i+1} twice, `depth` deep:
    /// a few hundred bytes that expand to 2^depth values.
    static func sharedSubtreePlist(depth: Int) -> [UInt8] {
        var objects: [[UInt8]] = []
        let references = 4 + depth + 1
        let referenceSize = references > 255 ? 2 : 1
        func refs(_ list: [Int]) -> [UInt8] {
            list.flatMap { referenceSize == 2 ? [UInt8($0 >> 8), UInt8($0 & 0xFF)] : [UInt8($0)] }
        }
        objects.append([0xD2] + refs([1, 3]) + refs([2, 4]))
        objects.append([0x5F, 0x10, 18] + Array("CFBundleIdentifier".utf8))
        objects.append([0x51] + Array("x".utf8))
        objects.append([0x54] + Array("Bomb".utf8))
        for level in 0..<depth { objects.append([0xA2] + refs([5 + level, 5 + level])) }
        objects.append([0xA0])
        var bytes = Array("bplist00".utf8)
        var offsets: [Int] = []
        for object in objects { offsets.append(bytes.count); bytes += object }
        let table = bytes.count
        let offsetSize = table > 255 ? 2 : 1
        for offset in offsets { bytes += offsetSize == 2 ? [UInt8(offset >> 8), UInt8(offset & 0xFF)] : [UInt8(offset)] }
        func be64(_ value: Int) -> [UInt8] { (0..<8).reversed().map { UInt8((value >> ($0 * 8)) & 0xFF) } }
        bytes += [0, 0, 0, 0, 0, 0, UInt8(offsetSize), UInt8(referenceSize)] + be64(objects.count) + be64(0) + be64(table)
        return bytes
    }

    /// A stored (uncompressed) zip of `files`, with its end record's entry count replaced by `count` when given.
    static func zip(_ files: [(String, [UInt8])], count: Int? = nil) -> [UInt8] {
        func le16(_ v: Int) -> [UInt8] { [UInt8(v & 0xFF), UInt8((v >> 8) & 0xFF)] }
        func le32(_ v: Int) -> [UInt8] { le16(v & 0xFFFF) + le16(v >> 16) }
        func crc32(_ bytes: [UInt8]) -> Int {
            var crc: UInt32 = 0xFFFF_FFFF
            for byte in bytes {
                crc ^= UInt32(byte)
                for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
            }
            return Int(crc ^ 0xFFFF_FFFF)
        }
        var out: [UInt8] = [], central: [UInt8] = []
        for (name, data) in files {
            let offset = out.count, crc = crc32(data), nameBytes = Array(name.utf8)
            out += le32(0x0403_4B50) + le16(20) + le16(0) + le16(0) + le32(0) + le32(crc) + le32(data.count) + le32(data.count)
                + le16(nameBytes.count) + le16(0) + nameBytes + data
            central += le32(0x0201_4B50) + le16(20) + le16(20) + le16(0) + le16(0) + le32(0) + le32(crc) + le32(data.count)
                + le32(data.count) + le16(nameBytes.count) + le16(0) + le16(0) + le16(0) + le16(0) + le32(0) + le32(offset) + nameBytes
        }
        let directoryOffset = out.count
        out += central
        let entries = count ?? files.count
        out += le32(0x0605_4B50) + le16(0) + le16(0) + le16(entries) + le16(entries) + le32(central.count) + le32(directoryOffset) + le16(0)
        return out
    }

    static func infoPlist(_ entries: [String: Any]) throws -> [UInt8] {
        Array(try PropertyListSerialization.data(fromPropertyList: entries, format: .binary, options: 0))
    }

    @Test func sharedSubtreesAreRefusedAtOnceEverywhere() throws {
        let tree = try FixtureTree([:])
        defer { tree.cleanUp() }
        let bomb = Self.sharedSubtreePlist(depth: 30)
        #expect(bomb.count < 1024)
        try FileManager.default.createDirectory(atPath: tree.path + "/X.app", withIntermediateDirectories: true)
        try Data(bomb).write(to: URL(fileURLWithPath: tree.path + "/X.app/Info.plist"))
        let app = try Self.lockstep(["check", tree.path + "/X.app"])
        #expect(app.status == 2, "\(app)")
        #expect(app.stderr.contains("shares its objects"), "\(app)")

        // As a project.pbxproj stored as a binary plist.
        try FileManager.default.createDirectory(atPath: tree.path + "/P/App.xcodeproj", withIntermediateDirectories: true)
        try Data(bomb).write(to: URL(fileURLWithPath: tree.path + "/P/App.xcodeproj/project.pbxproj"))
        let project = try Self.lockstep(["check", tree.path + "/P"])
        #expect(project.status == 2 && project.stderr.contains("shares its objects"), "\(project)")

        try Data(Self.zip([("Payload/X.app/Info.plist", bomb)])).write(to: URL(fileURLWithPath: tree.path + "/X.ipa"))
        let ipa = try Self.lockstep(["check", tree.path + "/X.ipa"])
        #expect(ipa.status == 2, "\(ipa)")

        // As a defaults suite: read refuses it, write leaves it byte for byte.
        let groups = tree.path + "/groups"
        let write = try Self.lockstep(["defaults", "--as", "com.example.habits", "write", "group.com.example.habits", "k", "v"],
                                      environment: ["LOCKSTEP_GROUPS": groups])
        #expect(write.status == 0, "\(write)")
        let suite = groups + "/phone/AppGroup/group.com.example.habits/Library/Preferences/group.com.example.habits.plist"
        try Data(bomb).write(to: URL(fileURLWithPath: suite))
        for arguments in [["read", "group.com.example.habits"], ["write", "group.com.example.habits", "k2", "v2"]] {
            let result = try Self.lockstep(["defaults", "--as", "com.example.habits"] + arguments, environment: ["LOCKSTEP_GROUPS": groups])
            #expect(result.status == 2, "\(result)")
        }
        #expect(try Array(Data(contentsOf: URL(fileURLWithPath: suite))) == bomb)
    }

    /// `bplist` means binary only: a damaged one is unreadable (2), not an OpenStep text with no versions (1), and
    /// `defaults write` never overwrites it.
    /// XcodeGen specs (issue 19): aliases of aliases, and setting groups that list the same groups level after
    /// level, end at once — the first refused with its line and column, the second read in linear time.
    @Test func hostileXcodeGenSpecsEndAtOnce() throws {
        var laughs = "name: Bomb\nl0: &l0 [x, x, x, x, x, x, x, x, x, x]\n"
        for level in 1...9 { laughs += "l\(level): &l\(level) [" + Array(repeating: "*l\(level - 1)", count: 10).joined(separator: ", ") + "]\n" }
        var groups = "name: Groups\nsettingGroups:\n"
        for level in 0..<40 { groups += "  g\(level): {groups: [g\(level + 1), g\(level + 1)], S\(level): x}\n" }
        groups += "targets:\n  App: {type: application, platform: iOS, settings: {groups: [g0], base: {PRODUCT_BUNDLE_IDENTIFIER: com.example.app, GENERATE_INFOPLIST_FILE: YES, MARKETING_VERSION: \"1.0\", CURRENT_PROJECT_VERSION: \"1\"}}}\n"
        let tree = try FixtureTree(["laughs/project.yml": laughs, "groups/project.yml": groups])
        defer { tree.cleanUp() }
        let bomb = try Self.lockstep(["check", tree.path + "/laughs/project.yml"])
        #expect(bomb.status == 2, "\(bomb)")
        #expect(bomb.stderr.contains("laughs/project.yml' cannot be read: line 7, column 48: the document, its aliases expanded, has more than 1000000 nodes"), "\(bomb.stderr)")
        let deep = try Self.lockstep(["check", tree.path + "/groups/project.yml"])
        #expect(deep.status == 0, "\(deep)")
    }

    @Test func aDamagedBinaryPlistIsUnreadableAndNeverOverwritten() throws {
        let tree = try FixtureTree(["X.app/Info.plist": "bplist00{CFBundleIdentifier=x;}"])
        defer { tree.cleanUp() }
        let check = try Self.lockstep(["check", tree.path + "/X.app"])
        #expect(check.status == 2, "\(check)")
        let groups = tree.path + "/groups"
        _ = try Self.lockstep(["defaults", "--as", "com.example.habits", "write", "group.com.example.habits", "k", "v"], environment: ["LOCKSTEP_GROUPS": groups])
        let suite = groups + "/phone/AppGroup/group.com.example.habits/Library/Preferences/group.com.example.habits.plist"
        let damaged = Array("bplist00{k=v;}".utf8)
        try Data(damaged).write(to: URL(fileURLWithPath: suite))
        let read = try Self.lockstep(["defaults", "--as", "com.example.habits", "read", "group.com.example.habits"], environment: ["LOCKSTEP_GROUPS": groups])
        #expect(read.status == 2 && read.stdout.isEmpty, "\(read)")
        let write = try Self.lockstep(["defaults", "--as", "com.example.habits", "write", "group.com.example.habits", "k", "w"], environment: ["LOCKSTEP_GROUPS": groups])
        #expect(write.status == 2, "\(write)")
        #expect(try Array(Data(contentsOf: URL(fileURLWithPath: suite))) == damaged)
    }

    @Test func anIncludeDiamondIsLinear() throws {
        var files = ["App.xcodeproj/project.pbxproj": ProjectFixture(projectXcconfig: "Config/c0.xcconfig", targets: [
            .init(name: "App", productType: "com.apple.product-type.application", settings: [
                "GENERATE_INFOPLIST_FILE": "YES", "PRODUCT_BUNDLE_IDENTIFIER": "com.example.app",
                "CURRENT_PROJECT_VERSION": "1", "MARKETING_VERSION": "1.0",
            ]),
        ]).pbxproj()]
        for level in 0..<40 {
            files["Config/c\(level).xcconfig"] = "#include \"c\(level + 1).xcconfig\"\n#include \"c\(level + 1).xcconfig\"\nS\(level) = $(inherited) a\n"
        }
        files["Config/c40.xcconfig"] = "LAST = 1\n"
        let tree = try FixtureTree(files)
        defer { tree.cleanUp() }
        let result = try Self.lockstep(["check", tree.path])
        #expect(result.status == 1, "\(result)")
        #expect(result.stdout.contains("would make its includes expand to more than 100000 settings"), "\(result)")
    }

    @Test func aFIFOWhereAFileBelongsEndsAtOnce() throws {
        let tree = try FixtureTree(["App.xcodeproj/project.pbxproj": ProjectFixture(targets: [
            .init(name: "App", productType: "com.apple.product-type.application", settings: [
                "INFOPLIST_FILE": "App/Info.plist", "PRODUCT_BUNDLE_IDENTIFIER": "com.example.app",
            ], xcconfig: "App.xcconfig"),
        ]).pbxproj()])
        defer { tree.cleanUp() }
        try FileManager.default.createDirectory(atPath: tree.path + "/App", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: tree.path + "/Y.app", withIntermediateDirectories: true)
        for fifo in ["/App/Info.plist", "/App.xcconfig", "/Y.app/Info.plist"] { #expect(mkfifo(tree.path + fifo, 0o600) == 0) }
        let project = try Self.lockstep(["check", tree.path])
        #expect(project.status == 1, "\(project)")
        #expect(project.stdout.contains("named pipe (FIFO)"), "\(project)")
        let app = try Self.lockstep(["check", tree.path + "/Y.app"])
        #expect(app.status == 2 && app.stderr.contains("named pipe (FIFO)"), "\(app)")
    }

    @Test func aTargetListedAHundredThousandTimesIsOneTarget() throws {
        let text = ProjectFixture(targets: [
            .init(name: "App", productType: "com.apple.product-type.application", settings: [
                "GENERATE_INFOPLIST_FILE": "YES", "PRODUCT_BUNDLE_IDENTIFIER": "com.example.app",
                "CURRENT_PROJECT_VERSION": "1", "MARKETING_VERSION": "1.0",
            ]),
        ]).pbxproj()
        let line = try #require(text.split(separator: "\n").first { $0.contains("/* App */,") && !$0.contains("=") })
        let repeated = text.replacingOccurrences(of: String(line), with: Array(repeating: String(line), count: 100_000).joined(separator: "\n"))
        let tree = try FixtureTree(["App.xcodeproj/project.pbxproj": repeated])
        defer { tree.cleanUp() }
        let result = try Self.lockstep(["check", tree.path, "--format", "json"])
        #expect(result.status == 0, "\(result)")
        #expect(try XcodeProject(path: tree.path + "/App.xcodeproj").targets.count == 1)
    }

    /// A lowered entry count in the end record hid a mismatching extension: "0 errors in 1 bundle", exit 0.
    @Test func aZipWhoseEndRecordDisagreesIsRefused() throws {
        let app = try Self.infoPlist(["CFBundleIdentifier": "com.x", "CFBundleVersion": "2", "CFBundleShortVersionString": "1.0"])
        let widget = try Self.infoPlist(["CFBundleIdentifier": "com.x.w", "CFBundleVersion": "1", "CFBundleShortVersionString": "1.0",
                                         "NSExtension": ["NSExtensionPointIdentifier": "com.apple.widgetkit-extension"]])
        let files = [("Payload/X.app/Info.plist", app), ("Payload/X.app/PlugIns/W.appex/Info.plist", widget)]
        let tree = try FixtureTree([:])
        defer { tree.cleanUp() }
        try Data(Self.zip(files)).write(to: URL(fileURLWithPath: tree.path + "/good.ipa"))
        try Data(Self.zip(files, count: 1)).write(to: URL(fileURLWithPath: tree.path + "/lowered.ipa"))
        let good = try Self.lockstep(["check", tree.path + "/good.ipa"])
        #expect(good.status == 1 && good.stdout.contains("version.build-mismatch"), "\(good)")
        let lowered = try Self.lockstep(["check", tree.path + "/lowered.ipa"])
        #expect(lowered.status == 2, "\(lowered)")
        #expect(lowered.stderr.contains("holds more than the 1 records its end record counts"), "\(lowered)")
    }

    @Test func damagedProjectTextAndControlBytes() throws {
        let tree = try FixtureTree([
            "A/A.xcodeproj/project.pbxproj": "{ archiveVersion = 1; objects = {}; rootObject = X; } /* never closed",
            "B/B.xcodeproj/project.pbxproj": "{ archiveVersion = 1; objects = {}; rootObject = X; \u{1B}[31m }",
        ])
        defer { tree.cleanUp() }
        let unclosed = try Self.lockstep(["check", tree.path + "/A"])
        #expect(unclosed.status == 2 && unclosed.stderr.contains("is never closed"), "\(unclosed)")
        let control = try Self.lockstep(["check", tree.path + "/B"])
        #expect(control.status == 2, "\(control)")
        #expect(!control.stderr.contains("\u{1B}"), "\(control)")
    }

    /// Apple compares stored strings by bytes: é as one scalar and as e + U+0301 differ (Swift's == says equal).
    @Test func versionsAreComparedAsStored() {
        #expect("1.0é" == "1.0e\u{301}")
        #expect(!VersionParity.stored("1.0é", "1.0e\u{301}"))
        let app = BundleRecord(name: "A", role: .host, bundleIdentifier: "com.a", shortVersion: "1.0é", buildVersion: "1",
                               bundlePath: "A.app", source: SourceLocation(file: "m"))
        var widget = app
        widget.role = .widget
        widget.bundleIdentifier = "com.a.w"
        widget.shortVersion = "1.0e\u{301}"
        widget.embedLocation = .plugIns
        widget.bundlePath = "A.app/PlugIns/W.appex"
        let findings = Rules.check(AppBundleSet(app: app, embedded: [widget], origin: "test"))
        #expect(findings.contains { $0.rule == "version.short-mismatch" })
    }

    /// Runs last in this suite's file order only by name; the bound holds for every child reaped so far.
    @Test func childrenStayWithinTheMemoryBound() throws {
        _ = try Self.lockstep(["check", "/nonexistent.app"])
        var usage = rusage()
        getrusage(__rusage_who_t(RUSAGE_CHILDREN.rawValue), &usage)
        #expect(usage.ru_maxrss * 1024 < Self.maximumMemory, "peak child RSS \(usage.ru_maxrss) KB")
    }
}
