@testable import BundleKit
@testable import CheckKit
import Foundation
import LockstepTestSupport
import Testing
@testable import XcodeKit

/// Issue 27: where Xcode finds an xcconfig's `#include`, a generated Info.plist prefix header, and the C
/// preprocessor's reading of an Info.plist, each from what real projects and the oracles (clang, GCC) do.
@Suite struct ReaderRoundThreeTests {
    static let plist = ProjectConstructTests.versioned
    static var widgetPlist: [String: Any] { ProjectConstructTests.widgetPlist }

    static func errors(_ result: XcodeProjectInput.Result) -> [Finding] { ProjectConstructTests.errors(result) }

    /// An app and a widget whose versions come only from xcconfigs (none at project level).
    static func xcconfigProject(app: String, widget: String) -> ProjectFixture {
        ProjectFixture(targets: [
            .init(name: "App", productType: "com.apple.product-type.application", settings: [
                "INFOPLIST_FILE": "App/Info.plist", "PRODUCT_BUNDLE_IDENTIFIER": "com.example.app",
            ], xcconfig: app, embeds: [.init(target: "Widget", spec: 13)]),
            .init(name: "Widget", productType: "com.apple.product-type.app-extension", settings: [
                "INFOPLIST_FILE": "Widget/Info.plist", "PRODUCT_BUNDLE_IDENTIFIER": "com.example.app.widget",
            ], xcconfig: widget),
        ])
    }

    // MARK: - #include search

    /// A target folder's `Common.xcconfig` includes `Config/AppVersion.xcconfig`, a path relative to the project
    /// folder (as Element and Tchap do): Xcode finds it there after looking beside the includer and its includer.
    @Test func includeRelativeToTheProjectFolderIsFound() throws {
        let fixture = Self.xcconfigProject(app: "App/Release.xcconfig", widget: "Widget/Release.xcconfig")
        var files: [String: String] = [
            "Config/AppVersion.xcconfig": "MARKETING_VERSION = 2.4\nCURRENT_PROJECT_VERSION = 31\n",
            "App/Common.xcconfig": "#include \"Config/AppVersion.xcconfig\"\n",
            "App/Release.xcconfig": "#include \"Common.xcconfig\"\n",
            "Widget/Common.xcconfig": "#include \"Config/AppVersion.xcconfig\"\n",
            "Widget/Release.xcconfig": "#include \"Common.xcconfig\"\n",
            "App/Info.plist": FixtureTree.plist(Self.plist),
            "Widget/Info.plist": FixtureTree.plist(Self.widgetPlist),
        ]
        let result = try fixture.load(with: files)
        #expect(Self.errors(result).isEmpty, "\(Self.errors(result).map(\.message))")
        #expect(result.sets[0].app.shortVersion == "2.4")
        #expect(result.sets[0].app.buildVersion == "31")

        // A mismatch planted in a file found this way is caught.
        files["Widget/Common.xcconfig"] = "#include \"Config/AppVersion.xcconfig\"\nCURRENT_PROJECT_VERSION = 30\n"
        #expect(Self.errors(try fixture.load(with: files)).map(\.rule) == ["version.build-mismatch"])
    }

    /// The order: beside the including file first, then beside the file that included it, then the project folder.
    @Test func includeSearchOrder() throws {
        let tree = try FixtureTree([
            "Outer/Top.xcconfig": "#include \"../Shared/Inner.xcconfig\"\n",
            "Shared/Inner.xcconfig": "#include \"Near.xcconfig\"\n#include \"Middle.xcconfig\"\n#include \"Far.xcconfig\"\n#include? \"Nowhere.xcconfig\"\n",
            // Near is beside Inner, beside Top and at the root: the one beside Inner wins.
            "Shared/Near.xcconfig": "NEAR = inner\n",
            "Outer/Near.xcconfig": "NEAR = top\n",
            "Near.xcconfig": "NEAR = root\n",
            // Middle is beside Top and at the root: Top's folder wins.
            "Outer/Middle.xcconfig": "MIDDLE = top\n",
            "Middle.xcconfig": "MIDDLE = root\n",
            "Far.xcconfig": "FAR = root\n",
        ])
        defer { tree.cleanUp() }
        let flat = XcconfigReader(sourceRoot: tree.path).flatten(tree.path + "/Outer/Top.xcconfig")
        let values = Dictionary(flat.assignments.map { ($0.name, $0.value) }) { $1 }
        #expect(values == ["NEAR": "inner", "MIDDLE": "top", "FAR": "root"])
        #expect(flat.problems.isEmpty, "\(flat.problems.map(\.message))")
        #expect(flat.missingIncludes.map(\.optional) == [true])
        // Without the project folder, Far is not found: an error naming it.
        let alone = XcconfigReader().flatten(tree.path + "/Outer/Top.xcconfig")
        #expect(alone.problems.count == 1 && alone.problems[0].message.contains("#include \"Far.xcconfig\""))
    }

    // MARK: - A generated prefix header

    /// WooCommerce's INFOPLIST_PREFIX_HEADER is written by a build phase into a git-ignored `DerivedSources/`: the
    /// checkout has no such file. Its macros are unknown (a warning), and the rest of the plist is read, its
    /// `$(MARKETING_VERSION)` and `$(CURRENT_PROJECT_VERSION)` included.
    @Test func generatedPrefixHeaderIsUnknownNotAnError() throws {
        let fixture = ProjectConstructTests.appAndWidget(app: [
            "INFOPLIST_PREPROCESS": "YES", "INFOPLIST_PREFIX_HEADER": "DerivedSources/InfoPlist.h",
        ])
        let app = """
        <?xml version="1.0" encoding="UTF-8"?>
        <plist version="1.0">
        <dict>
        \t<key>CFBundleIdentifier</key><string>$(PRODUCT_BUNDLE_IDENTIFIER)</string>
        \t<key>CFBundleShortVersionString</key><string>$(MARKETING_VERSION)</string>
        \t<key>CFBundleVersion</key><string>$(CURRENT_PROJECT_VERSION)</string>
        \t<key>CFBundleURLSchemes</key><array><string>AUTH_SCHEME</string></array>
        </dict>
        </plist>
        """
        var files: [String: String] = [
            ".gitignore": "DerivedSources/\n",
            "App/Info.plist": app,
            "Widget/Info.plist": FixtureTree.plist(Self.widgetPlist),
        ]
        let result = try fixture.load(with: files)
        #expect(Self.errors(result).isEmpty, "\(Self.errors(result).map(\.message))")
        #expect(result.sets[0].app.shortVersion == "3.1")
        #expect(result.sets[0].app.buildVersion == "12")
        let warnings = result.findings.filter { $0.severity == .warning && $0.message.contains("DerivedSources/InfoPlist.h") }
        #expect(warnings.count == 1 && warnings[0].message.contains("unknown"), "\(result.findings.map(\.message))")

        // Still compared: a widget whose version differs is caught.
        files["Widget/Info.plist"] = FixtureTree.plist(Self.widgetPlist.merging(["CFBundleVersion": "11"]) { $1 })
        #expect(Self.errors(try fixture.load(with: files)).map(\.rule) == ["version.build-mismatch"])
    }

    // MARK: - The preprocessor, as clang -traditional-cpp and GCC -traditional read it

    static func preprocess(_ text: String, _ definitions: String = "") throws -> String {
        var preprocessor = InfoPlistPreprocessor(definitions: definitions)
        preprocessor.read = { _ in nil }
        return try preprocessor.process(text, file: "/p/Info.plist")
    }

    /// `#define A B`, `#define B 3`, `#if A > 2`: the macro is expanded through the chain (it used to count as 0).
    @Test func chainedMacroInIf() throws {
        #expect(try Self.preprocess("#define A B\n#define B 3\n#if A > 2\nyes\n#else\nno\n#endif\n") == "yes\n")
        #expect(try Self.preprocess("#define A B\n#if A\nyes\n#else\nno\n#endif\n") == "no\n")  // B is undefined: 0
    }

    /// Bitwise operators, shifts, the conditional operator and character constants in `#if`.
    @Test func bitwiseConditionalAndCharactersInIf() throws {
        let cases: [(String, Bool)] = [
            ("(FLAGS & 4)", true), ("FLAGS & 1", false), ("(FLAGS | 1) == 7", true), ("(FLAGS ^ 6) == 0", true),
            ("(1 << 3) == 8 && (FLAGS >> 1) == 3", true), ("FLAGS > 5 ? 1 : 0", true), ("FLAGS > 9 ? 1 : 0", false),
            ("'a' == 97", true), ("'\\n' == 10 && '\\x41' == 65 && '\\101' == 65", true), ("1 | 2 == 2", true),
        ]
        for (condition, holds) in cases {
            #expect(try Self.preprocess("#if \(condition)\nyes\n#endif\n", "FLAGS=6") == (holds ? "yes\n" : ""), "\(condition)")
        }
    }

    /// Neither "…" nor '…' is expanded, nor the rest of a line after an unclosed apostrophe.
    @Test func noExpansionInsideQuotes() throws {
        #expect(try Self.preprocess("<string>'V'</string>\n<string>\"V\"</string>\n<string>V</string>\n", "V=2.0")
            == "<string>'V'</string>\n<string>\"V\"</string>\n<string>2.0</string>\n")
        #expect(try Self.preprocess("<string>V it's V</string>\n", "V=2.0") == "<string>2.0 it's V</string>\n")
    }

    /// A backslash at the end of a line continues it, in a `#define` and in the text.
    @Test func backslashContinuation() throws {
        #expect(try Self.preprocess("#define V 1.\\\n0\n<string>V</string>\n") == "<string>1.0</string>\n")
        // Lines are still numbered as written.
        #expect(throws: InfoPlistPreprocessor.Failure.invalid("/p/Info.plist:3: #endif without #if")) {
            try Self.preprocess("a \\\nb\n#endif\n")
        }
    }

    /// `/* … */` is removed (no `-C`); `//` is not a comment in traditional mode, so a URL stays whole.
    @Test func commentsStripped() throws {
        #expect(try Self.preprocess("<string>1.0/* release */</string>\n<string>https://example.com/a</string>\n")
            == "<string>1.0</string>\n<string>https://example.com/a</string>\n")
        #expect(try Self.preprocess("a/* one\ntwo */b\n#define V 3 /* three */\nV\n") == "a\nb\n3\n")
    }

    /// `#define V V V`: a macro is not expanded again inside its own expansion (clang gives `V V`, at once).
    @Test func selfReferenceIsNotReexpanded() throws {
        #expect(try Self.preprocess("#define V V V\nV\n") == "V V\n")
        #expect(try Self.preprocess("#define A B A\n#define B A B\nA\n") == "A B A\n")
    }

    /// A chain that doubles at each level stops as soon as the output passes the cap, not after a whole line.
    @Test func exponentialExpansionStopsAtTheCap() throws {
        var header = "#define A0 x\n"
        for level in 1...40 { header += "#define A\(level) A\(level - 1) A\(level - 1)\n" }
        #expect(throws: InfoPlistPreprocessor.Failure.invalid("/p/Info.plist:42: the preprocessed Info.plist grows past \(InfoPlistPreprocessor.maximumOutput) bytes")) {
            try Self.preprocess(header + "A40\n")
        }
    }

    // MARK: - Accepts what the oracles read, refuses what they refuse

    /// `key;` in a project.pbxproj is `key = key;` (Apple's old-style parser and openstep_plist read it so).
    @Test func pbxprojKeyShorthand() throws {
        let document = try OpenStepParser.parse(Array("{ a = 1; legacyNote; b = (x); }".utf8))
        #expect(document.root["legacyNote"]?.string == "legacyNote")
        #expect(document.root["a"]?.string == "1")
        #expect(throws: (any Error).self) { try OpenStepParser.parse(Array("{ a = 1; = b; }".utf8)) }
    }

    /// A binary plist whose root is not a dictionary is exit 2 saying so; one whose dictionary has a key that is
    /// not a string says that instead (it used to say "its root is not a dictionary").
    @Test func binaryPlistRootAndKeyMessages() throws {
        let array = try PropertyListSerialization.data(fromPropertyList: [1, 2], format: .binary, options: 0)
        let rootError = #expect(throws: BundleError.self) { try PropertyListFile.dictionary(Array(array), path: "A.plist") }
        #expect(rootError?.detail == "its root is not a dictionary")
        // bplist00: { 5: "a" } — a dictionary (D1) whose key is the integer 5 (10 05), its value the string "a" (51 61).
        var bytes = Array("bplist00".utf8) + [0xD1, 0x01, 0x02, 0x10, 0x05, 0x51, 0x61] + [0x08, 0x0B, 0x0D]
        bytes += [0, 0, 0, 0, 0, 0, 1, 1] + [0, 0, 0, 0, 0, 0, 0, 3] + [0, 0, 0, 0, 0, 0, 0, 0] + [0, 0, 0, 0, 0, 0, 0, 15]
        let keyError = #expect(throws: BundleError.self) { try PropertyListFile.dictionary(bytes, path: "B.plist") }
        #expect(keyError?.detail.contains("a key of its root dictionary is not a string") == true, "\(String(describing: keyError))")
        #expect(keyError?.exitStatus == .invalidInput)
    }

    // MARK: - Lines

    /// The line of `needle`'s last occurrence in `text`, 1-based.
    static func line(of needle: String, in text: String) -> Int? {
        let lines = text.components(separatedBy: "\n")
        return lines.lastIndex { $0.contains(needle) }.map { $0 + 1 }
    }

    static func mismatch(_ result: XcodeProjectInput.Result) throws -> Finding {
        try #require(errors(result).first { $0.rule == "version.build-mismatch" })
    }

    /// A mismatch found in an xcconfig points at the assignment's line and column.
    @Test func xcconfigAssignmentLine() throws {
        let fixture = Self.xcconfigProject(app: "App/Release.xcconfig", widget: "Widget/Release.xcconfig")
        let finding = try Self.mismatch(try fixture.load(with: [
            "Config/AppVersion.xcconfig": "MARKETING_VERSION = 2.4\nCURRENT_PROJECT_VERSION = 31\n",
            "App/Release.xcconfig": "#include \"Config/AppVersion.xcconfig\"\n",
            "Widget/Release.xcconfig": "#include \"Config/AppVersion.xcconfig\"\n// the widget's own\n  CURRENT_PROJECT_VERSION = 30\n",
            "App/Info.plist": FixtureTree.plist(Self.plist),
            "Widget/Info.plist": FixtureTree.plist(Self.widgetPlist),
        ]))
        #expect(finding.path.hasSuffix("Widget/Release.xcconfig"))
        #expect(finding.line == 3 && finding.column == 3, "\(finding)")
    }

    /// A mismatch set in project.pbxproj points at the setting's line there.
    @Test func pbxprojSettingLine() throws {
        let text = ProjectConstructTests.appAndWidget(widget: ["CURRENT_PROJECT_VERSION": "11"]).pbxproj()
        let finding = try Self.mismatch(try FixtureTree.loadProject([
            "App.xcodeproj/project.pbxproj": text,
            "App/Info.plist": FixtureTree.plist(Self.plist),
            "Widget/Info.plist": FixtureTree.plist(Self.widgetPlist),
        ]))
        #expect(finding.path.hasSuffix("project.pbxproj"))
        let line = try #require(finding.line, "\(finding)")
        let written = text.components(separatedBy: "\n")[line - 1]
        #expect(written.contains("CURRENT_PROJECT_VERSION = 11;"), "\(written)")
        #expect(finding.column == written.prefix { $0 == "\t" }.count + 1)
    }

    /// A value written in the Info.plist itself points at its `<key>` line.
    @Test func plistKeyLine() throws {
        let widget = FixtureTree.plist(Self.widgetPlist.merging(["CFBundleVersion": "11"]) { $1 })
        let finding = try Self.mismatch(try ProjectConstructTests.appAndWidget().load(with: [
            "App/Info.plist": FixtureTree.plist(Self.plist),
            "Widget/Info.plist": widget,
        ]))
        #expect(finding.path.hasSuffix("Widget/Info.plist"))
        #expect(finding.line == Self.line(of: "<key>CFBundleVersion</key>", in: widget), "\(finding)")
    }

    /// In an XcodeGen spec: the line and column of the key that sets the value.
    @Test func specKeyLine() throws {
        let spec = """
        name: App
        settings:
          CURRENT_PROJECT_VERSION: "12"
          MARKETING_VERSION: "3.1"
        targets:
          App:
            type: application
            platform: iOS
            info: {path: App/Info.plist, properties: {CFBundleVersion: $(CURRENT_PROJECT_VERSION), CFBundleShortVersionString: $(MARKETING_VERSION)}}
            settings: {PRODUCT_BUNDLE_IDENTIFIER: com.example.app}
            dependencies: [{target: Widget}]
          Widget:
            type: app-extension
            platform: iOS
            info: {path: Widget/Info.plist, properties: {CFBundleVersion: $(CURRENT_PROJECT_VERSION), CFBundleShortVersionString: $(MARKETING_VERSION), NSExtension: {NSExtensionPointIdentifier: com.apple.widgetkit-extension}}}
            settings:
              PRODUCT_BUNDLE_IDENTIFIER: com.example.app.widget
              CURRENT_PROJECT_VERSION: "11"

        """
        let tree = try FixtureTree(["project.yml": spec])
        defer { tree.cleanUp() }
        let finding = try Self.mismatch(try XcodeProjectInput.load(spec: tree.path + "/project.yml"))
        #expect(finding.path.hasSuffix("project.yml"))
        #expect(finding.line == 18 && finding.column == 32, "\(finding)")
    }
}
