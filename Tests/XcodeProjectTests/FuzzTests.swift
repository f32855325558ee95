@testable import BundleKit
@testable import CheckKit
import Foundation
import LockstepSystem
import LockstepTestSupport
import Testing
@testable import XcodeGenKit
@testable import XcodeKit

/// A seeded, deterministic mutation fuzz of every reader `check` runs on files from a pull request (issue 20): each
/// mutant of a valid input must come back — a value or an error — without a crash; a hang would stop the run.
/// The same seed gives the same mutants on every machine, so a failure reproduces.
@Suite struct FuzzTests {
    static let iterations = 600

    /// xorshift64*: small, fast and the same everywhere.
    struct Random {
        var state: UInt64
        mutating func next() -> UInt64 {
            state ^= state >> 12; state ^= state << 25; state ^= state >> 27
            return state &* 0x2545_F491_4F6C_DD1D
        }
        mutating func below(_ bound: Int) -> Int { bound <= 1 ? 0 : Int(next() % UInt64(bound)) }
    }

    /// One mutant of `seed`: bytes flipped, set to a boundary value, inserted, deleted, repeated or cut.
    static func mutate(_ seed: [UInt8], _ random: inout Random) -> [UInt8] {
        var bytes = seed
        for _ in 0...random.below(4) {
            let position = random.below(bytes.count + 1)
            switch random.below(7) {
            case 0 where !bytes.isEmpty: bytes[min(position, bytes.count - 1)] ^= UInt8(1 << random.below(8))
            case 1 where !bytes.isEmpty: bytes[min(position, bytes.count - 1)] = [0, 0xFF, 0x7F, 0x80, 0x0F, 0xF0][random.below(6)]
            case 2: bytes.insert(UInt8(truncatingIfNeeded: random.next()), at: position)
            case 3 where position < bytes.count: bytes.removeSubrange(position..<min(bytes.count, position + 1 + random.below(16)))
            case 4 where position < bytes.count:
                let end = min(bytes.count, position + 1 + random.below(64))
                bytes.insert(contentsOf: bytes[position..<end], at: end)
            case 5: bytes = Array(bytes.prefix(position))
            default: bytes.insert(contentsOf: Array("{}();=\"/*#$()<>&".utf8).shuffled(using: &random), at: position)
            }
        }
        return bytes
    }

    static func fuzz(_ seeds: [[UInt8]], seed: UInt64, _ read: ([UInt8]) -> Void) {
        var random = Random(state: seed)
        for index in 0..<iterations { read(mutate(seeds[index % seeds.count], &random)) }
    }

    @Test func propertyListReaders() throws {
        let plist: [String: Any] = ["CFBundleIdentifier": "com.example.app", "CFBundleVersion": "12", "Groups": ["group.a", "group.b"],
                                    "NSExtension": ["NSExtensionPointIdentifier": "com.apple.widgetkit-extension"], "Number": 7, "Data": Data([1, 2])]
        let seeds = [Array(try PropertyListSerialization.data(fromPropertyList: plist, format: .binary, options: 0)),
                     Array(try PropertyListSerialization.data(fromPropertyList: plist, format: .xml, options: 0)),
                     Array(#"{ CFBundleIdentifier = com.example.app; CFBundleVersion = "12"; Groups = ("group.a", 'b'); Data = <0001ff>; }"#.utf8)]
        Self.fuzz(seeds, seed: 0x5EED_0001) { bytes in
            if bytes.starts(with: Array("bplist".utf8)) { _ = BinaryPropertyList.problem(bytes) }
            _ = try? PropertyListFile.dictionary(bytes, path: "fuzz.plist")
        }
    }

    /// A workspace's list of projects: any text ends, with no crash (the tag scanner consumes a character a step).
    @Test func workspaceReader() {
        let text = """
            <?xml version="1.0" encoding="UTF-8"?>
            <Workspace version = "1.0">
               <!-- a comment -->
               <Group location = "container:Sub" name = "it's &amp; &#39;">
                  <FileRef location = "group:A.xcodeproj"></FileRef>
                  <FileRef location = 'group:B>C.xcodeproj'/>
               </Group>
               <FileRef location = "self:"></FileRef>
            </Workspace>
            """
        Self.fuzz([Array(text.utf8)], seed: 0x5EED_0004) { bytes in
            _ = XcodeWorkspace.projects(listedIn: String(decoding: bytes, as: UTF8.self), workspace: "W.xcworkspace")
        }
    }

    @Test func projectReader() throws {
        let text = ProjectFixture(projectXcconfig: "Config/Base.xcconfig", targets: [
            .init(name: "App", productType: "com.apple.product-type.application", settings: ["PRODUCT_BUNDLE_IDENTIFIER": "com.example.app"],
                  embeds: [.init(target: "Widget", spec: 13)], dependencies: ["Widget"]),
            .init(name: "Widget", productType: "com.apple.product-type.app-extension", settings: ["INFOPLIST_FILE": "W/Info.plist"]),
        ]).pbxproj()
        let tree = try FixtureTree(["App.xcodeproj/project.pbxproj": text])
        defer { tree.cleanUp() }
        Self.fuzz([Array(text.utf8)], seed: 0x5EED_0002) { bytes in
            _ = try? OpenStepParser.parse(bytes)
        }
        // Through the whole project reading, a few dozen times (each writes the file).
        var random = Random(state: 0x5EED_0003)
        for _ in 0..<40 {
            try? Data(Self.mutate(Array(text.utf8), &random)).write(to: URL(fileURLWithPath: tree.path + "/App.xcodeproj/project.pbxproj"))
            _ = try? XcodeProjectInput.load(tree.path + "/App.xcodeproj")
        }
    }

    @Test func xcconfigAndPreprocessorReaders() throws {
        let xcconfig = "#include \"Other.xcconfig\"\n#include? \"Local.xcconfig\"\nA = $(inherited) x // c\nB[config=Release][sdk=iphoneos*] = ${A:lower}\nC = $(A_$(B):default=z);\n"
        let tree = try FixtureTree(["Base.xcconfig": xcconfig, "Other.xcconfig": "#include \"Base.xcconfig\"\nA = 1\n"])
        defer { tree.cleanUp() }
        var random = Random(state: 0x5EED_0004)
        for _ in 0..<150 {
            try Data(Self.mutate(Array(xcconfig.utf8), &random)).write(to: URL(fileURLWithPath: tree.path + "/Base.xcconfig"))
            let flat = XcconfigReader().flatten(tree.path + "/Base.xcconfig")
            let settings = BuildSettings(assignments: flat.assignments)
            for name in ["A", "B", "C"] { _ = settings.value(name) }
        }
        let plist = "#define V 1.2\n#if defined(V) && (2 * 3 > 5 || !X)\n<string>V</string>\n#elif 0\n#else\n#endif\n#include \"h.h\"\n"
        Self.fuzz([Array(plist.utf8)], seed: 0x5EED_0005) { bytes in
            var preprocessor = InfoPlistPreprocessor(definitions: "A=1 B", flags: "-DC=2 -U A")
            preprocessor.read = { _ in "#define H 1\n#include \"h.h\"\n" }
            _ = try? preprocessor.process(String(decoding: bytes, as: UTF8.self), file: "/fuzz/Info.plist")
        }
    }

    /// The YAML reader and the spec reading of `check` on XcodeGen specs (issue 19).
    @Test func xcodeGenSpecReader() throws {
        let spec = """
        name: App # c
        include: [{path: inc.yml, relativePaths: true}]
        settingGroups: {v: &v {MARKETING_VERSION: "1.0", CURRENT_PROJECT_VERSION: 3}}
        targetTemplates:
          Ext: {type: app-extension, platform: iOS, settings: {groups: [v], configs: {release: {A: 'x''y'}}}}
        targets:
          App:
            type: application
            platform: [iOS]
            settings:
              <<: *v
              PRODUCT_BUNDLE_IDENTIFIER: "com.example.${target_name}\\u00e9"
            info: {path: App/Info.plist, properties: {CFBundleVersion: $(CURRENT_PROJECT_VERSION)}}
            dependencies:
              - target: Widget
                embed: true
          Widget:
            templates: [Ext]
            info:
              path: W/Info.plist
              properties:
                NSExtension: >
                  folded
                  text
                L: |-
                  a
                   b
        """
        let tree = try FixtureTree(["project.yml": spec, "inc.yml": "options: {bundleIdPrefix: com.example}\n"])
        defer { tree.cleanUp() }
        Self.fuzz([Array(spec.utf8)], seed: 0x5EED_0009) { bytes in
            _ = try? YAML.parse(bytes, path: "fuzz.yml")
        }
        var random = Random(state: 0x5EED_000A)
        for _ in 0..<60 {
            try? Data(Self.mutate(Array(spec.utf8), &random)).write(to: URL(fileURLWithPath: tree.path + "/project.yml"))
            _ = try? XcodeProjectInput.load(spec: tree.path + "/project.yml", environment: [:])
        }
    }

    @Test func zipReader() throws {
        let app = Array(try PropertyListSerialization.data(fromPropertyList: ["CFBundleIdentifier": "com.x", "CFBundleVersion": "1"], format: .binary, options: 0))
        let zip = HostileInputTests.zip([("Payload/X.app/Info.plist", app), ("Payload/X.app/PlugIns/W.appex/Info.plist", app)])
        let tree = try FixtureTree([:])
        defer { tree.cleanUp() }
        let path = tree.path + "/fuzz.ipa"
        var random = Random(state: 0x5EED_0006)
        for _ in 0..<200 {
            try Data(Self.mutate(zip, &random)).write(to: URL(fileURLWithPath: path))
            guard let archive = try? ZipArchive(path: path) else { continue }
            for name in ["Payload/X.app/Info.plist", "Payload/X.app/PlugIns/W.appex/Info.plist"] { _ = try? archive.read(name) }
        }
    }
}

extension Array {
    /// A deterministic shuffle with the fuzz's own generator.
    fileprivate func shuffled(using random: inout FuzzTests.Random) -> [Element] {
        var result = self
        for index in result.indices.dropLast() { result.swapAt(index, index + random.below(result.count - index)) }
        return result
    }
}
