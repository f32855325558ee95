@testable import BundleKit
@testable import CheckKit
import Foundation
import LockstepTestSupport
import Testing
@testable import XcodeKit

/// `check` takes shortcuts for speed (templates of values read once, numbered names, strings made once per file,
/// Info.plist facts and defaults shared between targets, a container index). Each must give exactly what the
/// plain way gives: these tests run both ways on the same input.
@Suite struct ShortcutTests {
    static func assignments(_ pairs: [(String, String)]) -> [SettingAssignment] {
        pairs.enumerated().map { line, pair in
            SettingAssignment(key: pair.0, name: pair.0, conditions: [], value: pair.1,
                              source: SettingSource(file: "f", line: line + 1, owner: "f"))
        }
    }

    /// Values written every way the byte scanner knows: modifiers, nested names, `$(inherited)`, self-references,
    /// unclosed and lone `$`, braces, defaults, non-ASCII text, a cycle, a setting nothing defines.
    static let values: [(String, String)] = [
        ("NAME", "My App"), ("KIND", "widget"), ("ID_widget", "w"), ("EMPTY", ""), ("A", "$(B)"), ("B", "$(A)"),
        ("FLAGS", "-DONE"), ("FLAGS", "$(inherited) -DTWO"), ("FLAGS", "$(FLAGS) -DTHREE ${inherited}"),
        ("ID", "x.$(NAME:rfc1034identifier).${KIND:upper}.$KIND"), ("NESTED", "$(ID_$(KIND))"),
        ("DEFAULTED", "$(EMPTY:default=1.0) $(MISSING:default=x)"), ("UNRESOLVED", "v$(MISSING)-$(OTHER_MISSING)"),
        ("ODD", "$ $( ${ $(UNCLOSED $NAME$ $1 $$(NAME)"), ("UNICODE", "Zoë $(NAME:lower) 日本"),
        ("CYCLE", "$(A)"), ("SOLE", "$(NAME)"), ("SOLE_BRACE", "${KIND}"), ("TRAILING", "$(NAME)/"),
        ("MODIFIERS", "$(NAME:c99extidentifier:lower).$(KIND:suffix).$(UNICODE:base)"), ("COLON", "$(:lower)"),
    ]

    /// The first expansion of an assignment scans its value; the next one (another target's, here another
    /// `BuildSettings` over the same assignments) uses its template.
    @Test func valuesExpandedFromTemplatesMatchTheScannedOnes() {
        let assignments = Self.assignments(Self.values)
        let names = Set(Self.values.map(\.0))
        let scanned = BuildSettings(assignments: assignments)
        let first = names.sorted().map { scanned.value($0) }
        let templated = BuildSettings(assignments: assignments)
        let second = names.sorted().map { templated.value($0) }
        #expect(first.map(\.value) == second.map(\.value))
        #expect(first.map(\.unresolved) == second.map(\.unresolved))
        #expect(first[names.sorted().firstIndex(of: "FLAGS")!].value == "-DONE -DTWO -DTHREE -DONE -DTWO")
    }

    /// The 64 KiB cap holds on both paths, with the same assignment named.
    @Test func theCapHoldsOnTheTemplatePath() {
        let assignments = Self.assignments([("V", "1")] + Array(repeating: ("V", "$(inherited)$(inherited)"), count: 24))
        let scanned = BuildSettings(assignments: assignments)
        let templated = BuildSettings(assignments: assignments)
        #expect(scanned.value("V").value == "")
        #expect(templated.value("V").value == "")
        #expect(scanned.oversized.map { $0.source.line } == templated.oversized.map { $0.source.line })
        #expect(scanned.oversized.map { $0.source.line } == [18])
    }

    /// A literal at the end of a chain of references is its own value within the nesting bound, and empty past it,
    /// with or without the literal shortcut.
    @Test(arguments: [127, 128]) func aLiteralPastTheNestingBoundIsStillEmpty(links: Int) {
        let settings = BuildSettings(assignments: Self.assignments((0...links).map { i in
            ("S\(i)", i == links ? "end" : "$(S\(i + 1))")
        }))
        #expect(settings.value("S0").value == (links < 128 ? "end" : ""))
    }

    /// An Info.plist string read once for every target (`ExpandableText`) expands as the string itself does.
    @Test func expandableTextMatchesTheText() {
        let settingNames = SettingNames()
        let settings = BuildSettings(assignments: Self.assignments(Self.values), names: settingNames)
        for (_, text) in Self.values + [("", "$(ID)-$(NESTED)"), ("", "plain"), ("", "$(MISSING)")] {
            var viaText: Set<String> = [], viaTemplate: Set<String> = []
            let expected = settings.expand(text, unresolved: &viaText)
            #expect(settings.expand(ExpandableText(text, names: settingNames), unresolved: &viaTemplate) == expected)
            #expect(viaTemplate == viaText)
        }
    }

    /// The containing bundle found through the index of parent folders is the one the scan of every bundle finds.
    @Test func containersFromTheIndexMatchTheScan() {
        func record(_ path: String, id: String) -> BundleRecord {
            BundleRecord(name: (path as NSString).lastPathComponent, role: .extension, bundleIdentifier: id,
                         bundlePath: path, source: SourceLocation(file: path + "/Info.plist"))
        }
        let embedded = [
            record("X.app/PlugIns/A.appex", id: "x.a"), record("X.app/Watch/W.app", id: "x.w"),
            record("X.app/Watch/W.app/PlugIns/C.appex", id: "x.w.c"), record("X.app/Watch/W.app", id: "x.w2"),
            record("X.app/PlugIns/A.appex/PlugIns/D.appex", id: "x.a.d"), record("/abs/E.appex", id: "x.e"),
        ]
        let set = AppBundleSet(app: record("X.app", id: "x"), embedded: embedded, origin: "test")
        let index = Rules.ContainerIndex(set.embedded)
        let asciiPaths = set.embedded.map { ASCII.isOneBytePerCharacter($0.bundlePath) }
        for bundle in [set.app] + set.embedded {
            #expect(Rules.container(of: bundle, in: set, byPath: index) == Rules.container(of: bundle, in: set, asciiPaths: asciiPaths))
        }
        #expect(Rules.container(of: embedded[2], in: set, byPath: index).bundleIdentifier == "x.w")
    }

    /// Build settings sorted as written equal the last value of each key, first spelling, sorted.
    @Test func sortedSettingsMatchTheDictionaryOfLastValues() {
        let cases: [[(String, String)]] = [
            [("B", "1"), ("A", "2"), ("C", "3")],
            [("B", "1"), ("A", "2"), ("B", "3"), ("A", "4")],
            [("\u{E9}", "precomposed"), ("e\u{301}", "decomposed"), ("D", "d")],
        ]
        for members in cases {
            let dictionary = OpenStepDictionary(members.map { ($0.0, OpenStepValue.string($0.1)) })
            let sorted = dictionary.sortedLastEntries
            let expected = dictionary.lastValues.sorted { $0.key < $1.key }
            #expect(sorted.map { Array($0.key.utf8) } == expected.map { Array($0.key.utf8) })
            #expect(sorted.map(\.value) == expected.map(\.value))
        }
    }

    /// Strings made once per file are the strings the bytes decode to, when the table of them is full too, and for
    /// bytes that are not UTF-8.
    @Test func stringsMadeOncePerFileAreTheBytesAsRead() throws {
        var text = "{\n"
        var expected: [String: String] = [:]
        for index in 0..<3_000 {
            let key = "k\(index % 700)x\(index)", value = index % 3 == 0 ? "shared" : "v\(index % 50)"
            text += "\t\(key) = \(value);\n"
            expected[key] = value
        }
        var bytes = Array(text.utf8)
        bytes += Array("\tbad = \"".utf8) + [0xC3, 0x28, 0xFF] + Array("\";\n\tbad2 = \"".utf8) + [0xC3, 0x28, 0xFF] + Array("\";\n}\n".utf8)
        expected["bad"] = String(decoding: [0xC3, 0x28, 0xFF] as [UInt8], as: UTF8.self)
        expected["bad2"] = expected["bad"]
        let root = try OpenStepParser.parse(bytes).root
        #expect(root.entries.count == expected.count)
        for member in root.entries {
            #expect(member.value == .string(expected[member.key]!))
        }
    }

    /// What one resolver shares between targets and configurations (defaults, the project level, templates,
    /// numbered names, Info.plists) gives each target of a 200-target project what a resolver of its own gives.
    @Test func sharedResolutionsMatchResolvingEachTargetAlone() throws {
        let directory = TestSupport.temporaryDirectory("shortcut-resolution")
        defer { TestSupport.cleanUp(directory) }
        let path = try XcodeProjectInput.generateSampleProject(at: directory.path, targets: 200)
        let tree = try FixtureTree(HabitsFixture.files)
        defer { tree.cleanUp() }
        for projectPath in [path, tree.path + "/Habits.xcodeproj"] {
            let project = try XcodeProject(path: projectPath)
            let shared = TargetResolver(project: project)
            for configuration in ["Debug", "Release"] {
                for target in project.targets {
                    let together = shared.resolve(target, configuration: configuration)
                    let alone = TargetResolver(project: project).resolve(target, configuration: configuration)
                    #expect(Self.facts(together) == Self.facts(alone), "\(target.name) [\(configuration)]")
                }
            }
        }
    }

    /// Everything a resolution gives the rules and findings, as text.
    static func facts(_ resolved: ResolvedTarget) -> [String] {
        var facts = CheckedKey.allCases.map { key -> String in
            guard let value = resolved.values[key] else { return "\(key.key): none" }
            return "\(key.key): \(value.template) → \(value.value) \(value.unresolved.sorted()) \(value.source) \(value.literalInPlist)"
        }
        facts += [resolved.context, resolved.productName, "\(resolved.extensionPoint ?? "-")", "\(resolved.appGroups)",
                  "\(resolved.plistPath ?? "-")", "\(resolved.entitlementsPath ?? "-")", "\(resolved.hasExtensionDictionary)"]
        facts += resolved.problems.map { "\($0.file) \($0.message) \($0.severity)" }
        facts += resolved.settings.oversized.map(\.name)
        for name in ["EXECUTABLE_NAME", "WRAPPER_NAME", "PRODUCT_MODULE_NAME", "BUILT_PRODUCTS_DIR", "PRODUCT_BUNDLE_PACKAGE_TYPE"] {
            let value = resolved.settings.value(name)
            facts.append("\(name) = \(value.value) \(value.unresolved.sorted())")
        }
        return facts
    }
}
