@testable import BundleKit
import Foundation
import LockstepTestSupport
import Testing
@testable import XcodeGenKit
@testable import XcodeKit

/// The hostile-3 reader cases (issue 27 item 4), each from what the case does, not its file: YAML as Yams and
/// libyaml read it, bounded spec merges, and the binary readers (Mach-O, profiles, zip).
@Suite struct HostileReaderTests {
    static func yaml(_ text: String) throws -> YAMLNode { try YAML.parse(Array(text.utf8), path: "spec.yml") }

    static func spec(_ text: String) throws -> XcodeProject {
        let tree = try FixtureTree(["project.yml": text])
        defer { tree.cleanUp() }
        return try XcodeGenSpec.load(tree.path + "/project.yml", environment: [:]).project
    }

    static func releaseKeys(_ target: XcodeProject.Target) -> [String] {
        (target.configurations.first { $0.name == "Release" }?.settings ?? []).map(\.name)
    }

    // MARK: - Hangs and memory

    /// Groups that each list the next two double at every level; the settings a target gets are one per key.
    @Test func settingGroupsThatListEachOtherStayBounded() throws {
        var text = "name: P\nsettingGroups:\n"
        for level in 0..<40 { text += "  g\(level): {groups: [g\(level + 1), g\(level + 2)], base: {K\(level): v\(level)}}\n" }
        text += "  g40: {base: {K40: last}}\n  g41: {base: {K41: last}}\n"
        text += "targets:\n  App: {type: application, platform: iOS, settings: {groups: [g0]}}\n"
        let project = try Self.spec(text)
        let keys = Self.releaseKeys(project.targets[0]).filter { $0.hasPrefix("K") }
        #expect(keys.count == 42 && Set(keys).count == 42)
    }

    /// Many top-level keys merged onto an include: every key kept, the including file's value winning.
    @Test func manyTopLevelKeysMergeLinearly() throws {
        var base = YAMLNode(kind: .mapping([]), mark: YAMLMark(file: "b", line: 1, column: 1, range: 0..<0))
        var top = base
        base.kind = .mapping((0..<20_000).map { ("k\($0)", YAMLNode(kind: .scalar("base", plain: true), mark: base.mark)) })
        top.kind = .mapping((10_000..<30_000).map { ("k\($0)", YAMLNode(kind: .scalar("top", plain: true), mark: top.mark)) })
        let merged = try #require(SpecNode.merge(top, onto: base).pairs)
        #expect(merged.count == 30_000)
        #expect(merged.first?.value.string == "base" && merged.last?.value.string == "top")
        #expect(Set(merged.map(\.key)).count == 30_000)
        #expect(merged.first { $0.key == "k15000" }?.value.string == "top")
    }

    /// A long chain of templates, each listing the next two, named by many targets: each target gets every
    /// template's settings once.
    @Test func chainedTemplatesForManyTargets() throws {
        var text = "name: P\ntargetTemplates:\n"
        for level in 0..<300 { text += "  t\(level): {templates: [t\(level + 1), t\(level + 2)], settings: {S\(level): x}}\n" }
        text += "  t300: {type: application, platform: iOS}\n  t301: {settings: {LAST: y}}\ntargets:\n"
        for target in 0..<20 { text += "  T\(target): {templates: [t0]}\n" }
        let project = try Self.spec(text)
        #expect(project.targets.count == 20)
        for target in project.targets {
            let keys = Self.releaseKeys(target)
            #expect(keys.contains("S0") && keys.contains("S299") && keys.contains("LAST"))
        }
    }

    /// A 1 MB xcconfig line is one assignment, read whole.
    @Test func aHugeXcconfigLineIsRead() throws {
        let tree = try FixtureTree(["a.xcconfig": "MARKETING_VERSION = 1.0\nX = " + String(repeating: "a", count: 1 << 20) + " // note\n"])
        defer { tree.cleanUp() }
        let flat = XcconfigReader().flatten(tree.path + "/a.xcconfig")
        #expect(flat.assignments.map(\.name) == ["MARKETING_VERSION", "X"])
        #expect(flat.assignments[1].value.utf8.count == 1 << 20)
    }

    // MARK: - Misreads vs the oracle

    /// `//` always starts an xcconfig comment (Xcode's documented rule): `1.0://rc1` is `1.0:`.
    @Test func doubleSlashAlwaysStartsAComment() throws {
        let tree = try FixtureTree(["a.xcconfig": "MARKETING_VERSION = 1.0://rc1\nURL = https:/$()/example.com\n"])
        defer { tree.cleanUp() }
        let flat = XcconfigReader().flatten(tree.path + "/a.xcconfig")
        #expect(flat.assignments.map(\.value) == ["1.0:", "https:/$()/example.com"])
        #expect(XcconfigReader.assignmentParts("A = x//y")?.value == "x")
    }

    /// Folded scalars keep their leading empty lines (PyYAML, libyaml).
    @Test func foldedScalarKeepsLeadingEmptyLines() throws {
        #expect(try Self.yaml("v: >\n\n  1.0\n")["v"]?.string == "\n1.0\n")
        #expect(try Self.yaml("v: >\n  a\n  b\n\n  c\n")["v"]?.string == "a b\nc\n")
        #expect(try Self.yaml("v: >-\n\n\n  x\n   y\n  z\n")["v"]?.string == "\n\nx\n y\nz")
    }

    /// Base-60 numbers, null and timestamps, as Yams 5.0.1 constructs them.
    @Test(arguments: [("1:0", "60"), ("1:20", "80"), ("-1:30", "-90"), ("1:20.5", "80.5"), ("~", "<null>"), ("null", "<null>"),
                      ("NULL", "<null>"), ("2024-01-01", "2024-01-01 00:00:00 +0000"), ("2001-12-14t21:59:43.10-05:00", "2001-12-15 02:59:43 +0000"),
                      ("nullable", "nullable"), ("1:60", "1:60"),
                      // Past Int.max in base 60: text, not a crash.
                      ("153722867280912930:59", "153722867280912930:59")])
    func yaml11Scalars(_ text: String, _ setting: String) {
        #expect(YAMLScalar.resolve(text).settingText == setting)
    }

    /// Work that never grows the output is bounded too: a thousand references to a thousand references to a macro
    /// that expands to nothing is a million expansions per use.
    @Test func macrosThatExpandToNothingStayBounded() throws {
        let fanOut = Array(repeating: "M2", count: 1_000).joined(separator: " ")
        let inner = Array(repeating: "M3", count: 1_000).joined(separator: " ")
        var preprocessor = InfoPlistPreprocessor()
        let text = "#define M3\n#define M2 \(inner)\n#define M1 \(fanOut)\n<string>M1 M1 M1 M1 M1</string>\n"
        #expect(throws: InfoPlistPreprocessor.Failure.self) { try preprocessor.process(text, file: "Info.plist") }
    }

    /// A deep nest of conditionals is read in linear time (each level knows whether its parents are taken).
    @Test func deeplyNestedConditionals() throws {
        let depth = 20_000
        var preprocessor = InfoPlistPreprocessor()
        let text = String(repeating: "#if 1\n", count: depth) + "<string>1.0</string>\n" + String(repeating: "#endif\n", count: depth)
        #expect(try preprocessor.process(text, file: "Info.plist") == "<string>1.0</string>\n")
    }

    /// Includes that form diamonds across folders, in files with no settings, are read a bounded number of times:
    /// each layer doubles the paths to the next (where a file's includes are searched depends on who included it).
    @Test func includeDiamondsAcrossFoldersStayBounded() throws {
        let root = TestSupport.temporaryDirectory("diamonds")
        defer { TestSupport.cleanUp(root) }
        let layers = 24
        for layer in 0..<layers {
            for side in ["a", "b"] {
                let folder = root.appendingPathComponent("L\(layer)\(side)")
                try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
                let text = layer + 1 < layers ? "#include \"../L\(layer + 1)a/x.xcconfig\"\n#include \"../L\(layer + 1)b/x.xcconfig\"\n" : "// the last layer\n"
                try text.write(to: folder.appendingPathComponent("x.xcconfig"), atomically: true, encoding: .utf8)
            }
        }
        let flattened = XcconfigReader(sourceRoot: root.path).flatten(root.appendingPathComponent("L0a/x.xcconfig").path)
        #expect(flattened.truncated)
        #expect(flattened.problems.contains { $0.message.contains("more than \(XcconfigReader.maximumWalks) xcconfig files") })
    }

    // MARK: - Refuses what libyaml refuses, reads what it reads

    @Test(arguments: [("v: %1.0\n", "line 1, column 4: a plain scalar cannot start with '%'"),
                      ("v: ? 1.0\n", "line 1, column 4: complex mapping keys"),
                      ("name: P\u{0}\n", "line 1, column 8: the control character U+0000"),
                      ("a: [x, %y]\n", "line 1, column 8: a plain scalar cannot start with '%'")])
    func refusedLikeLibyaml(_ text: String, _ expected: String) {
        #expect {
            try Self.yaml(text)
        } throws: { error in
            (error as? BundleError)?.code == .invalidSpec && "\(error)".contains(expected)
        }
    }

    /// U+2028, U+2029 and U+0085 end a line (YAML 1.1, libyaml).
    @Test func unicodeLineBreaks() throws {
        #expect(try Self.yaml("a: 1\u{2028}b: 2\u{2029}c: 3\u{85}d: 4\u{2028}")["d"]?.string == "4")
        #expect(try Self.yaml("a: 1\u{2028}")["a"]?.string == "1")
    }

    // MARK: - Binaries

    func be32(_ value: Int) -> [UInt8] { (0..<4).reversed().map { UInt8((value >> ($0 * 8)) & 0xFF) } }
    func be64(_ value: Int) -> [UInt8] { be32(value >> 32) + be32(value & 0xFFFF_FFFF) }

    /// A universal file with a 64-bit header (fat_arch_64): its slice's minimum OS is read, as from a 32-bit one.
    @Test func fat64MinimumOS() throws {
        let thin = PrivacyManifestTests.machO(minimumOS: 15, 0)
        let fat64 = be32(0xCAFE_BABF) + be32(1) + be32(0x0100_000C) + be32(0) + be64(4096) + be64(thin.count) + be32(14) + be32(0)
        let bytes = fat64 + [UInt8](repeating: 0, count: 4096 - fat64.count) + thin
        #expect(MachO.minimumOS(in: bytes) == "15.0")
        #expect(MachO.minimumOS(in: PrivacyManifestTests.fat(thin)) == "15.0")
        // A slice that points outside the file is nothing, not a crash.
        #expect(MachO.minimumOS(in: Array(bytes.prefix(4096 + 8))) == nil)
    }

    /// A profile written with BER's indefinite lengths and a constructed OCTET STRING (openssl cms -stream).
    @Test func berIndefiniteLengthProfile() throws {
        let content = Array("<plist><dict/></plist>".utf8)
        func tlv(_ tag: UInt8, _ body: [UInt8]) -> [UInt8] { [tag, UInt8(body.count)] + body }
        func indefinite(_ tag: UInt8, _ body: [UInt8]) -> [UInt8] { [tag, 0x80] + body + [0, 0] }
        let oid: [UInt8] = [0x06, 0x03, 0x2A, 0x86, 0x48]
        let octets = indefinite(0x24, tlv(0x04, Array(content[..<10])) + tlv(0x04, Array(content[10...])))
        let encap = indefinite(0x30, oid + indefinite(0xA0, octets))
        let signed = indefinite(0x30, tlv(0x02, [1]) + indefinite(0x31, []) + encap + tlv(0x31, []))
        let der = indefinite(0x30, oid + indefinite(0xA0, signed))
        #expect(ProvisioningProfile.content(der) == content)
        // The same in DER (definite lengths, a primitive OCTET STRING) reads the same.
        let definite = tlv(0x30, oid + tlv(0xA0, tlv(0x30, tlv(0x02, [1]) + tlv(0x31, []) + tlv(0x30, oid + tlv(0xA0, tlv(0x04, content))))))
        #expect(ProvisioningProfile.content(definite) == content)
        // An end-of-contents that never comes is nothing.
        #expect(ProvisioningProfile.content(Array(der.dropLast(2))) == nil)
    }

    /// A zip with bytes before it (a self-extracting stub): read as unzip and zipfile read it.
    @Test func zipWithAPrependedStub() throws {
        let data = Array("hello".utf8)
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in data {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        crc ^= 0xFFFF_FFFF
        func le16(_ v: Int) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8 & 0xFF)] }
        func le32(_ v: UInt32) -> [UInt8] { (0..<4).map { UInt8((v >> ($0 * 8)) & 0xFF) } }
        let name = Array("a.txt".utf8)
        let local = le32(0x0403_4B50) + le16(20) + le16(0) + le16(0) + le16(0) + le16(0) + le32(crc) + le32(5) + le32(5)
            + le16(name.count) + le16(0) + name + data
        let central = le32(0x0201_4B50) + le16(20) + le16(20) + le16(0) + le16(0) + le16(0) + le16(0) + le32(crc) + le32(5) + le32(5)
            + le16(name.count) + le16(0) + le16(0) + le16(0) + le16(0) + le32(0) + le32(0) + name
        let end = le32(0x0605_4B50) + le16(0) + le16(0) + le16(1) + le16(1) + le32(UInt32(central.count)) + le32(UInt32(local.count)) + le16(0)
        let stub = Array("#!/bin/sh\nexit 0\n".utf8)
        let url = TestSupport.temporaryDirectory("zip").appendingPathComponent("stub.ipa")
        defer { TestSupport.cleanUp(url.deletingLastPathComponent()) }
        try Data(stub + local + central + end).write(to: url)
        #expect(try ZipArchive(path: url.path).read("a.txt") == data)
        // An end record whose directory would end after the record itself is still refused.
        try Data(local + central + end).write(to: url)
        #expect(try ZipArchive(path: url.path).read("a.txt") == data)
        var lying = end
        lying.replaceSubrange(16..<20, with: le32(UInt32(local.count + 40)))
        try Data(local + central + lying).write(to: url)
        #expect(throws: BundleError.self) { try ZipArchive(path: url.path) }
    }
}
