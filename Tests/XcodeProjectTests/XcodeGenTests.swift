@testable import BundleKit
@testable import CheckKit
import Foundation
import LockstepTestSupport
import Testing
@testable import XcodeGenKit

/// `check` and `bump` on XcodeGen specs (issue 19): the YAML reader, the spec read as the project XcodeGen
/// generates, and — for specs whose generated project is written beside them by hand, the way XcodeGen 2.x writes
/// it — the same bundles and findings from the spec as from that project.
@Suite struct XcodeGenTests {
    // MARK: - YAML

    static func yaml(_ text: String) throws -> YAMLNode { try YAML.parse(Array(text.utf8), path: "spec.yml") }

    /// The node as plain Swift values, for comparing.
    static func plain(_ node: YAMLNode) -> Any {
        switch node.kind {
        case .scalar(let text, _): return text
        case .sequence(let items): return items.map(plain)
        case .mapping(let pairs): return pairs.map { [$0.key: plain($0.value)] }
        }
    }

    @Test func blockAndFlowCollectionsScalarsAndComments() throws {
        let node = try Self.yaml("""
        # a comment
        name: Habits   # trailing comment
        list:
        - a
        - "b c"
        - 'it''s'
        nested:
          - target: Widget
            embed: false
          - [x, "y", {k: v}]
        flow: {a: 1, b: [2, 3]}
        url: http://example.com/a#b
        multi: first
          second

          third
        quoted: "tab\\there \\u00e9 \\
          joined"
        literal: |
          line 1
            indented
          line 3
        folded: >-
          one
          two

          three
        keep: |+
          text

        empty:
        last: end
        """)
        #expect(node["name"]?.string == "Habits")
        #expect(node["list"]?.sequence?.map(\.string) == ["a", "b c", "it's"])
        #expect(node["nested"]?.sequence?[0]["target"]?.string == "Widget")
        #expect(node["nested"]?.sequence?[0]["embed"]?.string == "false")
        #expect(node["nested"]?.sequence?[1].sequence?[2]["k"]?.string == "v")
        #expect(node["flow"]?["b"]?.sequence?.map(\.string) == ["2", "3"])
        #expect(node["url"]?.string == "http://example.com/a#b")
        #expect(node["multi"]?.string == "first second\nthird")
        #expect(node["quoted"]?.string == "tab\there é joined")
        #expect(node["literal"]?.string == "line 1\n  indented\nline 3\n")
        #expect(node["folded"]?.string == "one two\nthree")
        #expect(node["keep"]?.string == "text\n\n")
        #expect(node["empty"]?.string == "")
        #expect(node["last"]?.string == "end")
        #expect(node["last"]?.mark.line == 32)
    }

    @Test func anchorsAliasesAndMergeKeys() throws {
        let node = try Self.yaml("""
        base: &base
          A: 1
          B: 2
        other: &other {B: 3, C: 4}
        merged:
          <<: [*base, *other]
          A: own
        list: &list [x, y]
        again: *list
        """)
        let merged = node["merged"]!
        #expect(merged["A"]?.string == "own")
        #expect(merged["B"]?.string == "2")  // the first mapping listed wins, as in Yams
        #expect(merged["C"]?.string == "4")
        #expect(node["again"]?.sequence?.map(\.string) == ["x", "y"])
    }

    /// Bad YAML is one sentence with the file, line and column, never a crash or a silent misread.
    @Test(arguments: [
        ("a: 1\n\tb: 2\n", "line 2, column 1: a tab indents this line"),
        ("a: \"open\nb: 2\n", "line 1, column 4: the quoted scalar that starts here is never closed"),
        ("a: !!str x\n", "line 1, column 4: tags (!…) are not used"),
        ("a:\n  b: 1\n c: 2\n", "line 3, column 2: this line is indented more than the mapping it is in (line 1)"),
        ("a: *nowhere\n", "line 1, column 4: the alias *nowhere names no anchor"),
        ("a: [1, 2\n", "line 1, column 4: the flow collection that starts here is never closed"),
        ("? complex\n: value\n", "line 1, column 1: complex mapping keys"),
        ("a: b: c\n", "line 1, column 5: a mapping value cannot itself be 'key: value'"),
        ("a: 1\n---\nb: 2\n", "line 2, column 1: a second document"),
        ("a: \"\\q\"\n", "line 1, column 6: '\\q' is not a YAML escape"),
        ("- a\nb: 1\n", "line 2, column 1: unexpected text after the document"),
    ])
    func badYAMLNamesLineAndColumn(_ text: String, _ expected: String) {
        #expect {
            try Self.yaml(text)
        } throws: { error in
            let description = "\(error)"
            return (error as? BundleError)?.code == .invalidSpec && description.contains(expected)
        }
    }

    /// Aliases of aliases (the "billion laughs") and deep nesting are refused, quickly.
    @Test func hostileYAMLIsRefused() {
        var laughs = "a: &a [x, x, x, x, x, x, x, x, x, x]\n"
        for level in 1...9 { laughs += "\(Character(Unicode.Scalar(97 + level)!)): &\(Character(Unicode.Scalar(97 + level)!)) [" + Array(repeating: "*\(Character(Unicode.Scalar(96 + level)!))", count: 10).joined(separator: ", ") + "]\n" }
        #expect(throws: BundleError.self) { try Self.yaml(laughs) }
        #expect(throws: BundleError.self) { try Self.yaml(String(repeating: "[", count: 5000)) }
        #expect(throws: BundleError.self) { try Self.yaml((0..<300).map { String(repeating: "  ", count: $0) + "k:" }.joined(separator: "\n")) }
    }

    /// Unquoted scalars are typed as XcodeGen's YAML reader (Yams) types them, and written into build settings
    /// as XcodeGen writes them.
    @Test(arguments: [("1.10", "1.1"), ("42", "42"), ("012", "10"), ("08", "8.0"), ("0x1F", "31"), ("1_000", "1000"),
                      ("YES", "YES"), ("no", "NO"), ("on", "YES"), ("1.4.0", "1.4.0"), ("16.0", "16.0"), ("iphoneos", "iphoneos")])
    func scalarsAreTypedAsYamsTypesThem(_ text: String, _ setting: String) {
        #expect(YAMLScalar.resolve(text).settingText == setting)
    }

    // MARK: - spec and generated project: the same verdict

    /// The bundles (id, versions, where embedded) and the findings (rule, severity, bundle) of a check, in order.
    static func summary(_ result: XcodeProjectInput.Result) -> [String] {
        var lines: [String] = []
        for set in result.sets {
            for bundle in [set.app] + set.embedded {
                lines.append("\(bundle.bundlePath) \(bundle.bundleIdentifier ?? "-") \(bundle.shortVersion ?? "-")/\(bundle.buildVersion ?? "-") \(bundle.embedLocation?.rawValue ?? "app") groups=\(bundle.appGroups)")
            }
        }
        let findings = (result.findings + result.sets.flatMap(Rules.check)).filter { !$0.rule.rawValue.hasPrefix("spec.") }
        lines += Set(findings.map { "\($0.severity.rawValue) \($0.rule) \($0.bundle)" }).sorted()
        return lines
    }

    static func plist(_ entries: [String: Any]) -> String { FixtureTree.plist(entries) }

    /// XcodeGen's default Info.plist for an app (`InfoPlistGenerator`), with `properties` over it.
    static func generated(_ properties: [String: Any], packageType: String = "APPL") -> String {
        var entries: [String: Any] = [
            "CFBundleIdentifier": "$(PRODUCT_BUNDLE_IDENTIFIER)", "CFBundleInfoDictionaryVersion": "6.0",
            "CFBundleName": "$(PRODUCT_NAME)", "CFBundleDevelopmentRegion": "$(DEVELOPMENT_LANGUAGE)",
            "CFBundleShortVersionString": "1.0", "CFBundleVersion": "1", "CFBundleExecutable": "$(EXECUTABLE_NAME)",
            "CFBundlePackageType": packageType,
        ]
        entries.merge(properties) { $1 }
        return plist(entries)
    }

    static var versionKeys: [String: Any] { ["CFBundleShortVersionString": "$(MARKETING_VERSION)", "CFBundleVersion": "$(CURRENT_PROJECT_VERSION)"] }
    static var widgetKeys: [String: Any] {
        versionKeys.merging(["CFBundleDisplayName": "Habits",
                             "NSExtension": ["NSExtensionPointIdentifier": "com.apple.widgetkit-extension"]]) { $1 }
    }

    /// Checks the spec and the hand-generated project in one tree, and expects the same summary.
    static func expectSameVerdict(spec: [String: String], project: ProjectFixture, generatedFiles: [String: String],
                                  environment: [String: String] = [:], sourceLocation: Testing.SourceLocation = #_sourceLocation) throws -> (spec: XcodeProjectInput.Result, project: XcodeProjectInput.Result) {
        let specTree = try FixtureTree(spec)
        defer { specTree.cleanUp() }
        let projectTree = try FixtureTree(spec.merging(generatedFiles) { $1 }.merging(["Habits.xcodeproj/project.pbxproj": project.pbxproj()]) { $1 })
        defer { projectTree.cleanUp() }
        let fromSpec = try XcodeProjectInput.load(spec: specTree.path + "/project.yml", environment: environment)
        let fromProject = try XcodeProjectInput.load(projectTree.path + "/Habits.xcodeproj")
        #expect(Self.summary(fromSpec) == Self.summary(fromProject), sourceLocation: sourceLocation)
        #expect(fromSpec.configurations == fromProject.configurations, sourceLocation: sourceLocation)
        return (fromSpec, fromProject)
    }

    /// The smallest real spec: an app and its widget, versions at project level, `info:` and `entitlements:`.
    @Test func smallSpecMatchesItsGeneratedProject() throws {
        let spec = """
        name: Habits
        options:
          bundleIdPrefix: com.example
          deploymentTarget:
            iOS: 17.0
        settings:
          MARKETING_VERSION: "1.4.0"
          CURRENT_PROJECT_VERSION: 42
        targets:
          Habits:
            type: application
            platform: iOS
            info:
              path: App/Info.plist
              properties:
                CFBundleShortVersionString: $(MARKETING_VERSION)
                CFBundleVersion: $(CURRENT_PROJECT_VERSION)
            entitlements:
              path: App/App.entitlements
              properties:
                com.apple.security.application-groups: [group.com.example.habits]
            dependencies:
              - target: HabitsWidget
          HabitsWidget:
            type: app-extension
            platform: iOS
            settings:
              PRODUCT_BUNDLE_IDENTIFIER: com.example.Habits.widget
            info:
              path: Widget/Info.plist
              properties:
                CFBundleShortVersionString: $(MARKETING_VERSION)
                CFBundleVersion: $(CURRENT_PROJECT_VERSION)
                CFBundleDisplayName: Habits
                NSExtension:
                  NSExtensionPointIdentifier: com.apple.widgetkit-extension
            entitlements:
              path: Widget/Widget.entitlements
              properties:
                com.apple.security.application-groups: [group.com.example.habits]
        """
        let project = ProjectFixture(projectSettings: [
            "SDKROOT": "iphoneos", "PRODUCT_NAME": "$(TARGET_NAME)", "IPHONEOS_DEPLOYMENT_TARGET": "17.0",
            "MARKETING_VERSION": "1.4.0", "CURRENT_PROJECT_VERSION": "42",
        ], targets: [
            .init(name: "Habits", productType: "com.apple.product-type.application", settings: [
                "SDKROOT": "iphoneos", "TARGETED_DEVICE_FAMILY": "1,2", "CODE_SIGN_ENTITLEMENTS": "App/App.entitlements",
                "INFOPLIST_FILE": "App/Info.plist", "PRODUCT_BUNDLE_IDENTIFIER": "com.example.Habits",
            ], embeds: [.init(target: "HabitsWidget", spec: 13)], dependencies: ["HabitsWidget"]),
            .init(name: "HabitsWidget", productType: "com.apple.product-type.app-extension", settings: [
                "SDKROOT": "iphoneos", "TARGETED_DEVICE_FAMILY": "1,2", "CODE_SIGN_ENTITLEMENTS": "Widget/Widget.entitlements",
                "INFOPLIST_FILE": "Widget/Info.plist", "PRODUCT_BUNDLE_IDENTIFIER": "com.example.Habits.widget",
            ]),
        ])
        let groups = Self.plist(["com.apple.security.application-groups": ["group.com.example.habits"]])
        let (fromSpec, _) = try Self.expectSameVerdict(spec: ["project.yml": spec], project: project, generatedFiles: [
            "App/Info.plist": Self.generated(Self.versionKeys), "App/App.entitlements": groups,
            "Widget/Info.plist": Self.generated(Self.widgetKeys, packageType: "XPC!"), "Widget/Widget.entitlements": groups,
        ])
        #expect(fromSpec.sets.first?.embedded.first?.buildVersion == "42")
        #expect(fromSpec.findings.filter { $0.severity == .error }.isEmpty)
    }

    /// `include:` with `relativePaths`, a target template with `${target_name}`, setting groups, a `configs:`
    /// variant that only Release matches, and `${ENV}`: the widget's Release version drifts, and only there.
    @Test func includesTemplatesGroupsAndConfigVariants() throws {
        let spec = """
        name: Habits
        include:
          - path: Widgets/widgets.yml
        settingGroups:
          versions:
            MARKETING_VERSION: "2.0.1"
            CURRENT_PROJECT_VERSION: ${BUILD_NUMBER}
        targets:
          Habits:
            type: application
            platform: iOS
            settings:
              groups: [versions]
              base:
                PRODUCT_BUNDLE_IDENTIFIER: com.example.habits
            info:
              path: App/Info.plist
              properties:
                CFBundleShortVersionString: $(MARKETING_VERSION)
                CFBundleVersion: $(CURRENT_PROJECT_VERSION)
            dependencies:
              - target: HabitsWidget
        """
        let widgets = """
        targetTemplates:
          Extension:
            type: app-extension
            platform: iOS
            settings:
              groups: [versions]
              base:
                PRODUCT_BUNDLE_IDENTIFIER: com.example.habits.${target_name}
              configs:
                release:
                  MARKETING_VERSION: "2.0.2"
            info:
              path: ${target_name}/Info.plist
              properties:
                CFBundleShortVersionString: $(MARKETING_VERSION)
                CFBundleVersion: $(CURRENT_PROJECT_VERSION)
                CFBundleDisplayName: Habits
                NSExtension:
                  NSExtensionPointIdentifier: com.apple.widgetkit-extension
        targets:
          HabitsWidget:
            templates: [Extension]
        """
        let common = ["MARKETING_VERSION": "2.0.1", "CURRENT_PROJECT_VERSION": "77", "SDKROOT": "iphoneos", "TARGETED_DEVICE_FAMILY": "1,2"]
        let project = ProjectFixture(projectSettings: ["SDKROOT": "iphoneos", "PRODUCT_NAME": "$(TARGET_NAME)"], targets: [
            .init(name: "Habits", productType: "com.apple.product-type.application", settings: common.merging([
                "INFOPLIST_FILE": "App/Info.plist", "PRODUCT_BUNDLE_IDENTIFIER": "com.example.habits"]) { $1 },
                  embeds: [.init(target: "HabitsWidget", spec: 13)], dependencies: ["HabitsWidget"]),
            .init(name: "HabitsWidget", productType: "com.apple.product-type.app-extension", settings: common.merging([
                "INFOPLIST_FILE": "Widgets/HabitsWidget/Info.plist", "PRODUCT_BUNDLE_IDENTIFIER": "com.example.habits.HabitsWidget"]) { $1 },
                  perConfiguration: ["Release": ["MARKETING_VERSION": "2.0.2"]]),
        ])
        let (fromSpec, _) = try Self.expectSameVerdict(spec: ["project.yml": spec, "Widgets/widgets.yml": widgets], project: project, generatedFiles: [
            "App/Info.plist": Self.generated(Self.versionKeys),
            "Widgets/HabitsWidget/Info.plist": Self.generated(Self.widgetKeys, packageType: "XPC!"),
        ], environment: ["BUILD_NUMBER": "77"])
        let errors = fromSpec.findings.filter { $0.severity == .error } + fromSpec.sets.flatMap(Rules.check).filter { $0.severity == .error }
        #expect(Set(errors.map(\.rule)) == ["version.short-mismatch"], "\(errors)")
        #expect(fromSpec.sets.map { $0.embedded.first?.shortVersion } == ["2.0.1", "2.0.2"])
        // The widget's version is named where the spec writes it: the included file and its line.
        let widget = try #require(fromSpec.sets[1].embedded.first)
        #expect(widget.valueSources["CFBundleShortVersionString"]?.description.contains("widgets.yml") == true, "\(widget.valueSources)")
    }

    /// A watch app, an App Clip, an ExtensionKit extension, a generated Info.plist (`GENERATE_INFOPLIST_FILE`),
    /// `embed: false`, and a watch app that only `supportedDestinations` makes a watch app.
    @Test func watchClipExtensionKitAndWhatXcodeGenDoesNotEmbed() throws {
        let generatedPlist = "GENERATE_INFOPLIST_FILE: YES"
        let spec = """
        name: Habits
        settings:
          MARKETING_VERSION: "3.0"
          CURRENT_PROJECT_VERSION: "7"
        targets:
          Habits:
            type: application
            platform: iOS
            settings:
              \(generatedPlist)
              PRODUCT_BUNDLE_IDENTIFIER: com.example.habits
            dependencies:
              - target: HabitsWatch
              - target: HabitsClip
              - target: HabitsIntents
              - target: HabitsShare
                embed: false
              - target: HabitsWatchAuto
          HabitsWatch:
            type: application
            platform: watchOS
            settings:
              \(generatedPlist)
              PRODUCT_BUNDLE_IDENTIFIER: com.example.habits.watchkitapp
              INFOPLIST_KEY_WKCompanionAppBundleIdentifier: com.example.habits
          HabitsClip:
            type: application.on-demand-install-capable
            platform: iOS
            settings:
              \(generatedPlist)
              PRODUCT_BUNDLE_IDENTIFIER: com.example.habits.Clip
          HabitsIntents:
            type: extensionkit-extension
            platform: iOS
            settings:
              \(generatedPlist)
              PRODUCT_BUNDLE_IDENTIFIER: com.example.habits.intents
              INFOPLIST_KEY_CFBundleDisplayName: Habits
          HabitsShare:
            type: app-extension
            platform: iOS
            settings:
              \(generatedPlist)
              PRODUCT_BUNDLE_IDENTIFIER: com.example.habits.share
          HabitsWatchAuto:
            type: application
            supportedDestinations: [watchOS]
            settings:
              \(generatedPlist)
              PRODUCT_BUNDLE_IDENTIFIER: com.example.habits.auto
        """
        func target(_ name: String, _ type: String, _ platform: [String: String], _ settings: [String: String], embeds: [ProjectFixture.Embed] = [], dependencies: [String] = []) -> ProjectFixture.Target {
            .init(name: name, productType: "com.apple.product-type.\(type)", settings: platform.merging(settings) { $1 }.merging(["GENERATE_INFOPLIST_FILE": "YES"]) { $1 },
                  embeds: embeds, dependencies: dependencies)
        }
        let iOS = ["SDKROOT": "iphoneos", "TARGETED_DEVICE_FAMILY": "1,2"]
        let project = ProjectFixture(projectSettings: ["PRODUCT_NAME": "$(TARGET_NAME)", "MARKETING_VERSION": "3.0", "CURRENT_PROJECT_VERSION": "7"], targets: [
            target("Habits", "application", iOS, ["PRODUCT_BUNDLE_IDENTIFIER": "com.example.habits"], embeds: [
                .init(target: "HabitsWatch", spec: 16, dstPath: "$(CONTENTS_FOLDER_PATH)/Watch"),
                .init(target: "HabitsClip", spec: 16, dstPath: "$(CONTENTS_FOLDER_PATH)/AppClips"),
                .init(target: "HabitsIntents", spec: 16, dstPath: "$(EXTENSIONS_FOLDER_PATH)"),
            ], dependencies: ["HabitsWatch", "HabitsClip", "HabitsIntents", "HabitsShare", "HabitsWatchAuto"]),
            target("HabitsWatch", "application", ["SDKROOT": "watchos", "SKIP_INSTALL": "YES", "TARGETED_DEVICE_FAMILY": "4"], [
                "PRODUCT_BUNDLE_IDENTIFIER": "com.example.habits.watchkitapp", "INFOPLIST_KEY_WKCompanionAppBundleIdentifier": "com.example.habits"]),
            target("HabitsClip", "application.on-demand-install-capable", iOS, ["PRODUCT_BUNDLE_IDENTIFIER": "com.example.habits.Clip"]),
            target("HabitsIntents", "extensionkit-extension", iOS, ["PRODUCT_BUNDLE_IDENTIFIER": "com.example.habits.intents", "INFOPLIST_KEY_CFBundleDisplayName": "Habits"]),
            target("HabitsShare", "app-extension", iOS, ["PRODUCT_BUNDLE_IDENTIFIER": "com.example.habits.share"]),
            target("HabitsWatchAuto", "application", ["SDKROOT": "auto", "SUPPORTED_PLATFORMS": "watchos watchsimulator", "TARGETED_DEVICE_FAMILY": "4"], [
                "PRODUCT_BUNDLE_IDENTIFIER": "com.example.habits.auto"]),
        ])
        let (fromSpec, _) = try Self.expectSameVerdict(spec: ["project.yml": spec], project: project, generatedFiles: [:])
        let habits = try #require(fromSpec.sets.first { $0.app.bundleIdentifier == "com.example.habits" })
        #expect(habits.embedded.map { "\($0.bundleIdentifier ?? "") \($0.embedLocation?.rawValue ?? "")" }.sorted() == [
            "com.example.habits.Clip AppClips", "com.example.habits.intents Extensions", "com.example.habits.watchkitapp Watch",
        ])
        #expect(fromSpec.findings.filter { $0.rule.rawValue.hasPrefix("spec.") }.map { "\($0.rule) \($0.bundle)" } == [
            "spec.watch-not-embedded HabitsWatchAuto", "spec.embed-false HabitsShare",
        ])
    }

    /// XcodeGen writes `1.0` and `1` into an `info:` plist that does not set the versions: an extension then
    /// disagrees with an app that uses the project's versions, which `check` reports as App Store Connect would.
    @Test func xcodeGenDefaultVersionsInAnExtensionAreCaught() throws {
        let tree = try FixtureTree(["project.yml": """
        name: Habits
        settings: {MARKETING_VERSION: "1.4.0", CURRENT_PROJECT_VERSION: "42"}
        targets:
          Habits:
            type: application
            platform: iOS
            settings: {PRODUCT_BUNDLE_IDENTIFIER: com.example.habits}
            info: {path: App/Info.plist, properties: {CFBundleShortVersionString: $(MARKETING_VERSION), CFBundleVersion: $(CURRENT_PROJECT_VERSION)}}
            dependencies: [{target: HabitsWidget}]
          HabitsWidget:
            type: app-extension
            platform: iOS
            settings: {PRODUCT_BUNDLE_IDENTIFIER: com.example.habits.widget}
            info:
              path: Widget/Info.plist
              properties: {NSExtension: {NSExtensionPointIdentifier: com.apple.widgetkit-extension}}
        """])
        defer { tree.cleanUp() }
        let result = try CheckInput.check(tree.path + "/project.yml", configuration: "Release")
        let errors = result.findings.filter { $0.severity == .error }
        #expect(Set(errors.map(\.rule)) == ["version.build-mismatch", "version.short-mismatch"])
        #expect(errors.allSatisfy { $0.path.hasSuffix("project.yml") }, "\(errors.map(\.path))")
        // bump cannot set a value the spec does not write, and says where to write it; nothing changes.
        let before = try tree.read("project.yml")
        #expect(throws: BundleError.self) { try Bump.apply(.nextBuild, to: tree.path + "/project.yml") }
        #expect(try tree.read("project.yml") == before)
    }

    /// rule `spec.version-number`: what YAML makes of an unquoted version, in a setting and in a plist.
    @Test func unquotedVersionsAreNamed() throws {
        let tree = try FixtureTree(["project.yml": """
        name: Habits
        settings: {MARKETING_VERSION: 1.10, CURRENT_PROJECT_VERSION: 42}
        targets:
          Habits:
            type: application
            platform: iOS
            settings: {PRODUCT_BUNDLE_IDENTIFIER: com.example.habits}
            info: {path: App/Info.plist, properties: {CFBundleShortVersionString: "$(MARKETING_VERSION)", CFBundleVersion: 42}}
        """])
        defer { tree.cleanUp() }
        let result = try CheckInput.check(tree.path + "/project.yml", configuration: "Release")
        let spec = result.findings.filter { $0.rule == "spec.version-number" }
        #expect(spec.map(\.message) == [
            "MARKETING_VERSION is written 1.10 (line 2), which YAML reads as a number, so XcodeGen writes '1.1'. Quote it: MARKETING_VERSION: \"1.10\".",
            "CFBundleVersion of target 'Habits' is written 42 (line 8), which YAML reads as a number, so XcodeGen writes a number into the Info.plist, where App Store Connect requires a string. Quote it: CFBundleVersion: \"42\".",
        ])
        // CURRENT_PROJECT_VERSION: 42 becomes '42' as written: nothing to say. The app's version is what XcodeGen writes.
        #expect(result.sets.first?.app.shortVersion == "1.1")
        #expect(result.findings.contains { $0.rule == "version.missing" })
    }

    // MARK: - bump

    /// `bump` edits the spec's text in place: only the values, in their own quoting, and every target that
    /// overrides the version.
    @Test func bumpEditsTheSpecInPlace() throws {
        let spec = """
        name: Habits   # the app
        settings:
          base:
            MARKETING_VERSION: '1.4.0'
            CURRENT_PROJECT_VERSION: 42
        targets:
          Habits:
            type: application
            platform: iOS
            settings: {PRODUCT_BUNDLE_IDENTIFIER: com.example.habits}
            info:
              path: App/Info.plist
              properties:
                CFBundleShortVersionString: $(MARKETING_VERSION)
                CFBundleVersion: $(CURRENT_PROJECT_VERSION)
            dependencies:
              - target: HabitsWidget
          HabitsWidget:
            type: app-extension
            platform: iOS
            settings:
              PRODUCT_BUNDLE_IDENTIFIER: com.example.habits.widget
              MARKETING_VERSION: "1.4.0"
            info:
              path: Widget/Info.plist
              properties:
                CFBundleShortVersionString: $(MARKETING_VERSION)
                CFBundleVersion: "42"
                CFBundleDisplayName: Habits
                NSExtension: {NSExtensionPointIdentifier: com.apple.widgetkit-extension}
        """
        let tree = try FixtureTree(["project.yml": spec])
        defer { tree.cleanUp() }
        let path = tree.path + "/project.yml"
        #expect(try Bump.apply(.nextBuild, to: path) == [path])
        #expect(try tree.read("project.yml") == spec.replacingOccurrences(of: "CURRENT_PROJECT_VERSION: 42", with: "CURRENT_PROJECT_VERSION: 43")
            .replacingOccurrences(of: "CFBundleVersion: \"42\"", with: "CFBundleVersion: \"43\""))
        _ = try Bump.apply(.version("2.10"), to: path)
        let text = try tree.read("project.yml")
        #expect(text.contains("MARKETING_VERSION: '2.10'") && text.contains("MARKETING_VERSION: \"2.10\""), "\(text)")
        let result = try CheckInput.check(path)
        #expect(result.findings.filter { $0.severity == .error }.isEmpty)
        #expect(result.sets.allSatisfy { $0.embedded.first?.shortVersion == "2.10" && $0.embedded.first?.buildVersion == "43" })
        // A plain value YAML would read as another number is written quoted.
        #expect(YAMLScalar.written("2.10", replacing: Array("1.4".utf8)) == "\"2.10\"")
        #expect(YAMLScalar.written("43", replacing: Array("42".utf8)) == "43")
    }

    // MARK: - the command line

    @Test func checkCommandReadsASpecAndRefusesBadYAML() throws {
        let tree = try FixtureTree([
            "good/project.yml": "name: Solo\ntargets:\n  Solo:\n    type: application\n    platform: iOS\n    settings: {PRODUCT_BUNDLE_IDENTIFIER: com.example.solo, GENERATE_INFOPLIST_FILE: YES, MARKETING_VERSION: \"1.0\", CURRENT_PROJECT_VERSION: \"1\"}\n",
            "bad/project.yml": "name: Solo\ntargets:\n  Solo:\n    type: application\n\tplatform: iOS\n",
            "unknown/project.yml": "name: Solo\ntargets:\n  Solo:\n    type: application.phone\n    platform: iOS\n",
            "local/project.yml": "name: Solo\ninclude: [local.yml]\ntargets: {}\n",
        ])
        defer { tree.cleanUp() }
        let good = try run("lockstep", ["check", "good"], currentDirectory: tree.path)
        #expect(good.status == 0, "\(good)")
        let bad = try run("lockstep", ["check", "bad/project.yml"], currentDirectory: tree.path)
        #expect(bad.status == 2)
        #expect(bad.stderr.contains("The XcodeGen spec 'bad/project.yml' cannot be read: line 5, column 1: a tab indents this line"), "\(bad.stderr)")
        let unknown = try run("lockstep", ["check", "unknown"], currentDirectory: tree.path)
        #expect(unknown.status == 2)
        #expect(unknown.stderr.contains("type 'application.phone', which XcodeGen does not know"), "\(unknown.stderr)")
        // A git-ignored include (local signing settings) that the checkout lacks: what to do, in one sentence.
        let local = try run("lockstep", ["check", "local"], currentDirectory: tree.path)
        #expect(local.status == 2 && local.stderr.contains("it includes 'local.yml' ('local/local.yml'), which does not exist; XcodeGen refuses that too, so create it (an empty file will do)"), "\(local.stderr)")
        try tree.write(["local/local.yml": ""])
        #expect(try run("lockstep", ["check", "local"], currentDirectory: tree.path).status == 0)
    }
}
