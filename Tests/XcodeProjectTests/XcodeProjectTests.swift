@testable import BundleKit
@testable import CheckKit
import Foundation
import LockstepTestSupport
import Testing
@testable import XcodeKit

@Suite struct OpenStepParserTests {
    @Test func readsWhatRealPbxprojFilesContain() throws {
        let text = """
            // !$*UTF8*$!
            {
            \t/* a comment */ archiveVersion = 1; // a line comment
            \tquoted = "a \\"b\\" \\\\ c\\nd\\t\\U00e9\\101";
            \tunicode = "Zoë — 日本";
            \tpath = ../Some/Path-1.2_x.swift;
            \tvariable = "$(SRCROOT)/x";
            \tdata = <0fA1 ff>;
            \tlist = (a, "b c", (nested), );
            \tempty = "";
            \tsingle = 'single';
            }
            """
        let document = try OpenStepParser.parse(Array(text.utf8))
        #expect(document.root["archiveVersion"] == .string("1"))
        #expect(document.root["quoted"] == .string("a \"b\" \\ c\nd\té" + "A"))
        #expect(document.root["unicode"] == .string("Zoë — 日本"))
        #expect(document.root["path"] == .string("../Some/Path-1.2_x.swift"))
        #expect(document.root["variable"] == .string("$(SRCROOT)/x"))
        #expect(document.root["data"] == .data([0x0f, 0xa1, 0xff]))
        #expect(document.root["list"] == .array([.string("a"), .string("b c"), .array([.string("nested")])]))
        #expect(document.root["empty"] == .string(""))
        #expect(document.root["single"] == .string("single"))
    }

    @Test func truncatedInputFailsWithALine() {
        let text = "// !$*UTF8*$!\n{\n\tobjects = {\n\t\tA = {isa = PBXProject; name = \"unterminated"
        #expect(throws: OpenStepParser.Failure.self) { try OpenStepParser.parse(Array(text.utf8)) }
        do {
            _ = try OpenStepParser.parse(Array(text.utf8))
        } catch {
            #expect(error.message.contains("truncated"))
            #expect(error.message.contains("line 4"))
        }
    }
}

@Suite struct XcodeProjectReadingTests {
    func habits() throws -> FixtureTree { try FixtureTree(HabitsFixture.files) }

    @Test func resolvesEveryBundleOfTheReleaseConfiguration() throws {
        let tree = try habits()
        defer { tree.cleanUp() }
        let result = try XcodeProjectInput.load(tree.path + "/Habits.xcodeproj", configuration: "Release")
        #expect(result.configurations == ["Release"])
        try #require(result.sets.count == 1)
        let set = result.sets[0]
        #expect(set.origin == "Habits.xcodeproj [Release]")

        let app = set.app
        #expect(app.role == .host)
        #expect(app.bundlePath == "Habits.app")
        #expect(app.bundleIdentifier == "com.example.habits")
        #expect(app.buildVersion == "289")  // project pbxproj beats the project xcconfig
        #expect(app.shortVersion == "2.1")  // the last definition in Base.xcconfig wins
        #expect(app.packageType == "APPL")
        #expect(app.appGroups == ["group.com.example.habits"])
        #expect(app.valueSources["com.apple.security.application-groups"] == SourceLocation(file: tree.path + "/Habits/Habits.entitlements", detail: "com.apple.security.application-groups"))
        #expect(app.valueSources["CFBundleVersion"] == SourceLocation(file: tree.path + "/Habits.xcodeproj/project.pbxproj", detail: "CURRENT_PROJECT_VERSION in the project [Release]"))
        #expect(app.valueSources["CFBundleShortVersionString"] == SourceLocation(file: tree.path + "/Config/Base.xcconfig", detail: "MARKETING_VERSION, line 4"))

        let byName = Dictionary(uniqueKeysWithValues: set.embedded.map { ($0.name, $0) })
        #expect(Set(byName.keys) == ["HabitsWidget", "HabitsWatch", "HabitsWatchWidget", "HabitsIntents", "HabitsClip"])
        #expect(byName["HabitsClip"]?.bundlePath == "Habits.app/AppClips/HabitsClip.app")

        let widget = try #require(byName["HabitsWidget"])
        #expect(widget.role == .widget)
        #expect(widget.bundlePath == "Habits.app/PlugIns/HabitsWidget.appex")
        #expect(widget.embedLocation == .plugIns)
        #expect(widget.bundleIdentifier == "com.example.habits.widget")
        #expect(widget.buildVersion == "1")
        #expect(widget.shortVersion == "2.1")
        #expect(widget.extensionPoint == "com.apple.widgetkit-extension")
        #expect(widget.hasExtensionDictionary)
        #expect(widget.packageType == "XPC!")
        #expect(widget.valueSources["CFBundleVersion"] == SourceLocation(file: tree.path + "/Habits.xcodeproj/project.pbxproj", detail: "CURRENT_PROJECT_VERSION in target 'HabitsWidget' [Release]"))

        let watch = try #require(byName["HabitsWatch"])
        #expect(watch.role == .watch)
        #expect(watch.bundlePath == "Habits.app/Watch/HabitsWatch.app")  // PRODUCT_NAME[sdk=watchos*]
        #expect(watch.bundleIdentifier == "com.example.habits.watchkitapp")
        #expect(watch.companionAppBundleIdentifier == "com.example.habits")
        #expect(watch.buildVersion == "289")  // generated Info.plist: CURRENT_PROJECT_VERSION
        #expect(watch.shortVersion == "2.1")

        let watchWidget = try #require(byName["HabitsWatchWidget"])
        #expect(watchWidget.bundlePath == "Habits.app/Watch/HabitsWatch.app/PlugIns/HabitsWatchWidget.appex")
        #expect(watchWidget.role == .widget)
        #expect(watchWidget.bundleIdentifier == "com.example.habits.watchkitapp.widget")
        #expect(watchWidget.buildVersion == "289")

        let intents = try #require(byName["HabitsIntents"])
        #expect(intents.role == .intent)
        #expect(intents.bundlePath == "Habits.app/Extensions/HabitsIntents.appex")
        #expect(intents.extensionPoint == "com.apple.appintents-extension")
        #expect(intents.appGroups == ["group.com.example.habits"])

        let pbxproj = tree.path + "/Habits.xcodeproj/project.pbxproj"
        // Every target that claims the group and copies no privacy manifest: a warning (ProjectConstructTests).
        #expect(result.findings.filter { $0.rule == "privacy.manifest" }.map(\.bundle).sorted()
                == ["Habits.app", "Habits.app/Extensions/HabitsIntents.appex", "Habits.app/PlugIns/HabitsWidget.appex"])
        #expect(result.findings.filter { $0.rule != "privacy.manifest" } == [
            Finding(rule: "settings.unresolved", severity: .warning, bundle: "Habits.app/PlugIns/HabitsWidget.appex",
                    path: tree.path + "/HabitsWidget/Info.plist",
                    message: "CFBundleDisplayName of target 'HabitsWidget' [Release] is '$(WIDGET_DISPLAY_NAME)', which uses WIDGET_DISPLAY_NAME, a setting the checkout cannot supply. It would have come from '\(tree.path)/Config/Local.xcconfig', which \(tree.path)/Config/Base.xcconfig includes with #include? but which the checkout does not hold."),
            Finding(rule: "settings.target-override", severity: .warning, bundle: "Habits.app/PlugIns/HabitsWidget.appex", path: pbxproj,
                    message: "target 'HabitsWidget' [Release] sets CURRENT_PROJECT_VERSION = 1 itself (\(pbxproj), CURRENT_PROJECT_VERSION in target 'HabitsWidget' [Release]) instead of inheriting the project's, and its CFBundleVersion uses it (the containing app 'Habits' has '289'): the root cause of most CFBundleVersion mismatches. Remove the target's setting so it inherits.",
                    line: 364, column: 5),  // the widget's Release `CURRENT_PROJECT_VERSION = 1;` in the fixture's pbxproj
        ])
    }

    @Test func everyConfigurationByDefaultWithConditionalSettings() throws {
        let tree = try habits()
        defer { tree.cleanUp() }
        let result = try XcodeProjectInput.load(tree.path + "/Habits.xcodeproj")
        #expect(result.sets.map(\.origin) == ["Habits.xcodeproj [Debug]", "Habits.xcodeproj [Release]"])
        // APP_NAME_SUFFIX[config=Debug] = .debug
        #expect(result.sets[0].app.bundleIdentifier == "com.example.habits.debug")
        #expect(result.sets[0].embedded.first { $0.name == "HabitsWidget" }?.bundleIdentifier == "com.example.habits.debug.widget")
        #expect(result.sets[1].app.bundleIdentifier == "com.example.habits")
        // What Debug and Release share is one finding naming both.
        let overrides = result.findings.filter { $0.rule == "settings.target-override" }
        #expect(overrides.count == 1)
        #expect(overrides.first?.message.hasPrefix("target 'HabitsWidget' [Debug, Release] sets CURRENT_PROJECT_VERSION = 1 itself (\(tree.path)/Habits.xcodeproj/project.pbxproj, CURRENT_PROJECT_VERSION in target 'HabitsWidget' [Debug, Release])") == true)
    }

    @Test func unknownConfigurationNamesTheKnownOnes() throws {
        let tree = try habits()
        defer { tree.cleanUp() }
        #expect(throws: BundleError(.unknownConfiguration, path: tree.path + "/Habits.xcodeproj", detail: "'Beta'; its configurations are Debug, Release")) {
            try XcodeProjectInput.load(tree.path + "/Habits.xcodeproj", configuration: "Beta")
        }
        let error = BundleError(.unknownConfiguration, path: "A.xcodeproj", detail: "'Beta'; its configurations are Debug, Release")
        #expect(error.description == "The Xcode project 'A.xcodeproj' has no build configuration 'Beta'; its configurations are Debug, Release.")
    }

    @Test func xcconfigChainsInheritAndBuildOnEarlierLines() throws {
        let tree = try habits()
        defer { tree.cleanUp() }
        let project = try XcodeProject(path: tree.path + "/Habits.xcodeproj")
        let resolver = TargetResolver(project: project)
        let app = try #require(project.targets.first { $0.name == "Habits" })
        let widget = try #require(project.targets.first { $0.name == "HabitsWidget" })
        #expect(resolver.resolve(app, configuration: "Release").settings.value("OTHER_SWIFT_FLAGS").value == "-DSHARED -DBASE -DMORE")
        #expect(resolver.resolve(widget, configuration: "Release").settings.value("OTHER_SWIFT_FLAGS").value == "-DSHARED -DBASE -DMORE -DWIDGET")
        let settings = resolver.resolve(app, configuration: "Debug").settings
        #expect(settings.value("PRODUCT_MODULE_NAME").value == "Habits")
        #expect(settings.value("EXECUTABLE_NAME").value == "Habits")
        #expect(settings.value("DEVELOPMENT_TEAM").value == "ABCDE12345")  // [sdk=iphoneos*]
        #expect(settings.value("SRCROOT").value == tree.path)
    }

    @Test func expansionForms() {
        let settings = BuildSettings(assignments: [
            ("NAME", "My App"), ("KIND", "widget"), ("ID_widget", "w"), ("EMPTY", ""), ("A", "$(B)"), ("B", "$(A)"),
        ].map { SettingAssignment(key: $0.0, name: $0.0, conditions: [], value: $0.1, source: SettingSource(file: "f", line: 1, owner: "f")) })
        var unresolved: Set<String> = []
        #expect(settings.expand("$(NAME:rfc1034identifier).${KIND:upper}.$KIND", unresolved: &unresolved) == "My-App.WIDGET.widget")
        #expect(settings.expand("$(NAME:c99extidentifier:lower)", unresolved: &unresolved) == "my_app")
        #expect(settings.expand("$(ID_$(KIND))", unresolved: &unresolved) == "w")
        #expect(settings.expand("$(EMPTY:default=1.0) $(MISSING:default=x)", unresolved: &unresolved) == "1.0 x")
        #expect(unresolved.isEmpty)
        #expect(settings.expand("v$(MISSING)", unresolved: &unresolved) == "v")
        #expect(unresolved == ["MISSING"])
        #expect(settings.expand("$(A)", unresolved: &unresolved) == "")  // a cycle ends, empty, no crash
        #expect(settings.expand("$(TeamIdentifierPrefix)x", keepSymbolic: true, unresolved: &unresolved) == "$(TeamIdentifierPrefix)x")
    }

    /// The fuzz loop's hang (docs-proof.md): each `$(inherited)$(inherited)` line doubles the value. Each definition
    /// is expanded once (so 200 lines finish at once), and a value past `BuildSettings.maximumLength` is reported,
    /// not built.
    @Test(arguments: [10, 24, 200, 2000]) func doublingInheritedLinesAreExpandedOnceAndCapped(lines: Int) throws {
        let fixture = ProjectFixture(projectXcconfig: "Config/Project.xcconfig", targets: [
            .init(name: "App", productType: "com.apple.product-type.application", settings: [
                "INFOPLIST_FILE": "App/Info.plist", "PRODUCT_BUNDLE_IDENTIFIER": "com.example.app",
            ]),
        ])
        let xcconfig = "CURRENT_PROJECT_VERSION = 1\nMARKETING_VERSION = 1\n"
            + String(repeating: "MARKETING_VERSION = $(inherited)$(inherited)\n", count: lines)
        let tree = try FixtureTree([
            "App.xcodeproj/project.pbxproj": fixture.pbxproj(),
            "Config/Project.xcconfig": xcconfig,
            "App/Info.plist": FixtureTree.plist(["CFBundleVersion": "$(CURRENT_PROJECT_VERSION)", "CFBundleShortVersionString": "$(MARKETING_VERSION)", "CFBundleIdentifier": "$(PRODUCT_BUNDLE_IDENTIFIER)"]),
        ])
        defer { tree.cleanUp() }
        let result = try XcodeProjectInput.load(tree.path + "/App.xcodeproj", configuration: "Release")
        let findings = result.findings.filter { $0.rule == "settings.unresolved" }
        #expect(result.sets[0].app.buildVersion == "1")
        guard lines > 16 else {
            #expect(result.sets[0].app.shortVersion == String(repeating: "1", count: 1 << lines))
            #expect(findings.isEmpty)
            return
        }
        // 2^17 bytes at line 2 + 17 is the first value past 64 KiB; every line above it builds on its "".
        #expect(result.sets[0].app.shortVersion == "")
        let file = tree.path + "/Config/Project.xcconfig"
        #expect(findings.map(\.message) == ["MARKETING_VERSION of target 'App' [Release] (\(file), MARKETING_VERSION, line 19) expands to more than 65536 bytes (each definition that uses $(inherited) twice doubles it), so Lockstep treats it as empty."])
        #expect(findings.allSatisfy { $0.severity == .error && $0.path == file })
    }

    /// A chain of references between different settings deeper than any project's ends empty instead of
    /// overflowing the stack.
    @Test func aVeryDeepChainOfReferencesEndsEmpty() {
        let settings = BuildSettings(assignments: (0..<20_000).map { i in
            SettingAssignment(key: "S\(i)", name: "S\(i)", conditions: [], value: i == 19_999 ? "end" : "$(S\(i + 1))",
                              source: SettingSource(file: "f", line: i + 1, owner: "f"))
        })
        #expect(settings.value("S19990").value == "end")
        #expect(settings.value("S0").value == "")
    }

    /// <doc:ReadingProjects> "What the checkout does not hold": a setting a missing `#include?` may define is unknown, not
    /// empty. Two versions read from the same unknown are equal; the app's format is a warning naming the file.
    @Test func aSettingAMissingOptionalIncludeMayDefineIsUnknown() throws {
        let fixture = ProjectFixture(projectXcconfig: "Config/Project.xcconfig", targets: [
            .init(name: "App", productType: "com.apple.product-type.application", settings: [
                "INFOPLIST_FILE": "App/Info.plist", "PRODUCT_BUNDLE_IDENTIFIER": "com.example.app",
            ], embeds: [.init(target: "Share", spec: 13)]),
            .init(name: "Share", productType: "com.apple.product-type.app-extension", settings: [
                "INFOPLIST_FILE": "Share/Info.plist", "PRODUCT_BUNDLE_IDENTIFIER": "com.example.app.share",
            ]),
        ])
        let plist = FixtureTree.plist(["CFBundleVersion": "$(CURRENT_PROJECT_VERSION)", "CFBundleShortVersionString": "$(MARKETING_VERSION)", "CFBundleIdentifier": "$(PRODUCT_BUNDLE_IDENTIFIER)"])
        let tree = try FixtureTree([
            "App.xcodeproj/project.pbxproj": fixture.pbxproj(),
            "Config/Project.xcconfig": "CURRENT_PROJECT_VERSION = 5\n#include? \"Versions.local.xcconfig\"",
            "App/Info.plist": plist, "Share/Info.plist": plist,
        ])
        defer { tree.cleanUp() }
        let result = try XcodeProjectInput.load(tree.path + "/App.xcodeproj", configuration: "Release")
        #expect(result.sets[0].app.shortVersion == "$(MARKETING_VERSION)")
        #expect(result.sets[0].app.buildVersion == "5")
        #expect(result.sets[0].app.unknowns.keys.sorted() == ["MARKETING_VERSION"])
        #expect(result.findings.filter { $0.rule == "settings.unresolved" }.isEmpty)
        let findings = result.sets.flatMap(Rules.check).filter { $0.rule.rawValue.hasPrefix("version.") }
        #expect(findings == [Finding(rule: "version.short-format", severity: .warning, bundle: "App.app", path: tree.path + "/App/Info.plist",
            message: "CFBundleShortVersionString of App.app is '$(MARKETING_VERSION)', built from $(MARKETING_VERSION), which the checkout cannot supply, so its format is not checked. It would have come from '\(tree.path)/Config/Versions.local.xcconfig', which \(tree.path)/Config/Project.xcconfig includes with #include? but which the checkout does not hold.", line: 7, column: 2)])
    }

    /// The layout Flutter generates: the target's xcconfig includes a git-ignored Generated.xcconfig that
    /// defines the versions the Info.plist reads. On a fresh CI checkout it is missing.
    @Test func missingGeneratedXcconfigIsNamedInTheUnresolvedVersion() throws {
        let fixture = ProjectFixture(configurations: ["Debug", "Release", "Profile"], targets: [
            .init(name: "Runner", productType: "com.apple.product-type.application", settings: [
                "INFOPLIST_FILE": "Runner/Info.plist", "PRODUCT_BUNDLE_IDENTIFIER": "io.example.app", "PRODUCT_NAME": "$(TARGET_NAME)",
            ], perConfiguration: ["Debug": [:]], xcconfig: "Flutter/Release.xcconfig"),
        ])
        let tree = try FixtureTree([
            "ios/Runner.xcodeproj/project.pbxproj": fixture.pbxproj(),
            "ios/Flutter/Release.xcconfig": "#include? \"Pods/Target Support Files/Pods-Runner/Pods-Runner.release.xcconfig\"\n#include \"Generated.xcconfig\"\n",
            "ios/Runner/Info.plist": FixtureTree.plist([
                "CFBundleIdentifier": "$(PRODUCT_BUNDLE_IDENTIFIER)", "CFBundleVersion": "$(FLUTTER_BUILD_NUMBER)",
                "CFBundleShortVersionString": "$(FLUTTER_BUILD_NAME)", "CFBundleName": "$(PRODUCT_NAME)",
                "CFBundleDisplayName": "$(APP_DISPLAY_NAME)",
            ]),
        ])
        defer { tree.cleanUp() }
        let project = try #require(XcodeProjectInput.projectPath(for: tree.path + "/ios"))
        let result = try XcodeProjectInput.load(project, configuration: "Profile")
        #expect(result.sets[0].app.bundlePath == "Runner.app")
        // Flutter's Generated.xcconfig is written by `flutter pub get` and ignored by git: unknown, a warning.
        #expect(result.sets[0].app.buildVersion == "$(FLUTTER_BUILD_NUMBER)")
        let flutter = tree.path + "/ios/Flutter"
        let hint = "It would have come from '\(flutter)/Generated.xcconfig', which \(flutter)/Release.xcconfig includes with #include but which the checkout does not hold, which `flutter pub get` writes."
        #expect(result.findings.map(\.message) == [
            "\(flutter)/Release.xcconfig:2: #include \"Generated.xcconfig\" names a file the checkout does not hold ('\(flutter)/Generated.xcconfig'; `flutter pub get` writes it), so the settings it defines are unknown.",
            "CFBundleDisplayName of target 'Runner' [Profile] is '$(APP_DISPLAY_NAME)', which uses APP_DISPLAY_NAME, a setting the checkout cannot supply. " + hint,
        ])
        #expect(result.findings.allSatisfy { $0.severity == .warning })
        let rules = result.sets.flatMap(Rules.check).filter { $0.severity != .note }
        #expect(rules.map(\.rule) == ["version.build-format", "version.short-format"])
        #expect(rules.allSatisfy { $0.severity == .warning && $0.message.hasSuffix(hint) })
    }

    @Test func overrideInATargetXcconfigIsNamedAndAStraySettingIsIrrelevant() throws {
        let fixture = ProjectFixture(projectSettings: ["MARKETING_VERSION": "4.2", "CURRENT_PROJECT_VERSION": "100"], targets: [
            .init(name: "App", productType: "com.apple.product-type.application", settings: [
                "GENERATE_INFOPLIST_FILE": "YES", "PRODUCT_BUNDLE_IDENTIFIER": "com.example.app",
            ], embeds: [.init(target: "Notify", spec: 13), .init(target: "Keyboard", spec: 13)]),
            .init(name: "Notify", productType: "com.apple.product-type.app-extension", settings: [
                "INFOPLIST_FILE": "Notify/Info.plist", "PRODUCT_BUNDLE_IDENTIFIER": "com.example.app.notify",
            ], xcconfig: "Config/Notify.xcconfig"),
            // Sets MARKETING_VERSION, but its plist reads APP_VERSION: not an override that matters.
            .init(name: "Keyboard", productType: "com.apple.product-type.app-extension", settings: [
                "INFOPLIST_FILE": "Keyboard/Info.plist", "PRODUCT_BUNDLE_IDENTIFIER": "com.example.app.keyboard",
                "MARKETING_VERSION": "1.0", "APP_VERSION": "$(inherited)",
            ]),
        ])
        let tree = try FixtureTree([
            "App.xcodeproj/project.pbxproj": fixture.pbxproj(),
            "Config/Notify.xcconfig": "// notification service\nMARKETING_VERSION = 4.1\n",
            "Notify/Info.plist": FixtureTree.plist(["CFBundleShortVersionString": "$(MARKETING_VERSION)", "CFBundleVersion": "$(CURRENT_PROJECT_VERSION)",
                                                    "NSExtension": ["NSExtensionPointIdentifier": "com.apple.usernotifications.service"]]),
            "Keyboard/Info.plist": FixtureTree.plist(["CFBundleShortVersionString": "$(APP_VERSION:default=4.2)", "CFBundleVersion": "$(CURRENT_PROJECT_VERSION)"]),
        ])
        defer { tree.cleanUp() }
        let result = try XcodeProjectInput.load(tree.path + "/App.xcodeproj", configuration: "Release")
        let set = result.sets[0]
        #expect(set.embedded.map(\.shortVersion) == ["4.1", "4.2"])
        // The notification service's extension point names its kind (BundleRole.kind); the keyboard has none here.
        #expect(set.embedded.map(\.role) == [.notification, .extension])
        #expect(set.embedded[0].valueSources["CFBundleShortVersionString"] == SourceLocation(file: tree.path + "/Config/Notify.xcconfig", detail: "MARKETING_VERSION, line 2"))
        #expect(result.findings.map(\.rule) == ["settings.target-override"])
        #expect(result.findings.first?.path == tree.path + "/Config/Notify.xcconfig")
        #expect(result.findings.first?.message.hasPrefix("target 'Notify' [Release] sets MARKETING_VERSION = 4.1 itself (\(tree.path)/Config/Notify.xcconfig, MARKETING_VERSION, line 2)") == true)
    }

    /// Versions in one xcconfig that every target (not the project) is based on: shared, not an override.
    @Test func aVersionsXcconfigSharedWithTheAppIsNotAnOverride() throws {
        let fixture = ProjectFixture(targets: [
            .init(name: "App", productType: "com.apple.product-type.application", settings: [
                "GENERATE_INFOPLIST_FILE": "YES", "PRODUCT_BUNDLE_IDENTIFIER": "com.example.app",
            ], xcconfig: "Config/Versions.xcconfig", embeds: [.init(target: "Widget", spec: 13)]),
            .init(name: "Widget", productType: "com.apple.product-type.app-extension", settings: [
                "GENERATE_INFOPLIST_FILE": "YES", "PRODUCT_BUNDLE_IDENTIFIER": "com.example.app.widget",
                "INFOPLIST_FILE": "Widget/Info.plist",
            ], xcconfig: "Config/Versions.xcconfig"),
        ])
        let result = try fixture.load(with: [
            "Config/Versions.xcconfig": "MARKETING_VERSION = 3.1\nCURRENT_PROJECT_VERSION = 12\n",
            "Widget/Info.plist": FixtureTree.plist(["NSExtension": ["NSExtensionPointIdentifier": "com.apple.widgetkit-extension"]]),
        ])
        #expect(result.sets[0].all.map(\.buildVersion) == ["12", "12"])
        #expect(result.sets[0].embedded[0].role == .widget)
        #expect(result.findings.isEmpty)
    }

    /// The WatchKit 2 layout: a watchapp2 target in `Watch`, embedding its `watchkit2-extension`; an aggregate
    /// target beside them builds no bundle.
    @Test func legacyWatchAppWithItsExtensionAndAnAggregateTarget() throws {
        let fixture = ProjectFixture(projectSettings: ["CURRENT_PROJECT_VERSION": "5", "MARKETING_VERSION": "1.0", "APP_BUNDLE_ID": "com.example.app"], targets: [
            .init(name: "App", productType: "com.apple.product-type.application", settings: [
                "GENERATE_INFOPLIST_FILE": "YES", "PRODUCT_BUNDLE_IDENTIFIER": "$(APP_BUNDLE_ID)",
            ], embeds: [.init(target: "App Watch", spec: 16, dstPath: "$(CONTENTS_FOLDER_PATH)/Watch")]),
            .init(name: "App Watch", productType: "com.apple.product-type.application.watchapp2", settings: [
                "SDKROOT": "watchos", "INFOPLIST_FILE": "App Watch/Info.plist", "PRODUCT_BUNDLE_IDENTIFIER": "$(APP_BUNDLE_ID).watchkitapp",
            ], embeds: [.init(target: "App Watch Extension", spec: 13)]),
            // Has no Debug: Xcode builds it with its defaultConfigurationName (Release) in a Debug build.
            .init(name: "App Watch Extension", productType: "com.apple.product-type.watchkit2-extension", settings: [
                "SDKROOT": "watchos", "INFOPLIST_FILE": "App Watch Extension/Info.plist", "PRODUCT_BUNDLE_IDENTIFIER": "$(APP_BUNDLE_ID).watchkitapp.watchkitextension",
            ], perConfiguration: ["Release": ["CURRENT_PROJECT_VERSION": "6"]], configurations: ["Beta", "Release"]),
            .init(name: "Lint", productType: "", isa: "PBXAggregateTarget"),
        ])
        let tree = try FixtureTree([
            "App.xcodeproj/project.pbxproj": fixture.pbxproj(),
            "App Watch/Info.plist": FixtureTree.plist([
                "CFBundleIdentifier": "$(PRODUCT_BUNDLE_IDENTIFIER)", "CFBundleVersion": "$(CURRENT_PROJECT_VERSION)",
                "CFBundleShortVersionString": "$(MARKETING_VERSION)", "WKCompanionAppBundleIdentifier": "$(APP_BUNDLE_ID)",
                "CFBundleExecutable": "$(EXECUTABLE_NAME)",
            ]),
            "App Watch Extension/Info.plist": FixtureTree.plist([
                "CFBundleIdentifier": "$(PRODUCT_BUNDLE_IDENTIFIER)", "CFBundleVersion": "$(CURRENT_PROJECT_VERSION)",
                "CFBundleShortVersionString": "$(MARKETING_VERSION)", "CFBundleName": "$(PRODUCT_MODULE_NAME)",
                "NSExtension": ["NSExtensionPointIdentifier": "com.apple.watchkit"],
            ]),
        ])
        defer { tree.cleanUp() }
        #expect(try XcodeProjectInput.load(tree.path + "/App.xcodeproj").configurations == ["Debug", "Release"])
        let result = try XcodeProjectInput.load(tree.path + "/App.xcodeproj", configuration: "Debug")
        try #require(result.sets.count == 1)
        let set = result.sets[0]
        #expect(set.embedded.map(\.bundlePath) == ["App.app/Watch/App Watch.app", "App.app/Watch/App Watch.app/PlugIns/App Watch Extension.appex"])
        #expect(set.embedded.map(\.role) == [.watch, .extension])
        #expect(set.embedded[0].companionAppBundleIdentifier == "com.example.app")
        #expect(set.embedded[1].extensionPoint == "com.apple.watchkit")
        #expect(set.all.map(\.buildVersion) == ["5", "5", "6"])
        #expect(result.findings.map(\.rule) == ["settings.target-override"])
    }

    @Test func missingIncludeAndIncludeCycleAreFindingsNotCrashes() throws {
        let fixture = ProjectFixture(projectXcconfig: "Config/A.xcconfig", targets: [
            .init(name: "App", productType: "com.apple.product-type.application", settings: [
                "GENERATE_INFOPLIST_FILE": "YES", "PRODUCT_BUNDLE_IDENTIFIER": "com.example.app", "CURRENT_PROJECT_VERSION": "1", "MARKETING_VERSION": "1.0",
            ], xcconfig: "Config/Gone.xcconfig", embeds: [.init(target: "Share", spec: 13)]),
            // Reads the same broken project xcconfig: its problems are reported once, not per target.
            .init(name: "Share", productType: "com.apple.product-type.app-extension", settings: [
                "GENERATE_INFOPLIST_FILE": "YES", "PRODUCT_BUNDLE_IDENTIFIER": "com.example.app.share",
            ]),
        ])
        let tree = try FixtureTree([
            "App.xcodeproj/project.pbxproj": fixture.pbxproj(),
            "Config/A.xcconfig": "#include \"B.xcconfig\"\n#include \"Missing.xcconfig\"\nFROM_A = a",
            "Config/B.xcconfig": "#include \"A.xcconfig\"\nFROM_B = b",
        ])
        defer { tree.cleanUp() }
        let result = try XcodeProjectInput.load(tree.path + "/App.xcodeproj", configuration: "Debug")
        #expect(result.sets[0].app.buildVersion == "1")
        let config = tree.path + "/Config"
        #expect(result.findings.map(\.message) == [
            "\(config)/B.xcconfig:1: #include \"A.xcconfig\" forms a cycle of includes (A.xcconfig → B.xcconfig → A.xcconfig); the include is ignored.",
            "\(config)/A.xcconfig:2: #include \"Missing.xcconfig\" names a file that does not exist (Xcode: could not find included file), so the settings it defines are missing.",
            "Unable to open base configuration reference file '\(config)/Gone.xcconfig' of target 'App' [Debug] (Xcode builds with this warning): the settings it defines are unknown, and rules that depend on them are warnings.",
        ])
        // A missing required include or a cycle is an error; a missing base configuration file Xcode builds past.
        #expect(result.findings.map(\.severity) == [.error, .error, .warning])
        #expect(result.findings.allSatisfy { $0.rule == "settings.unresolved" })
    }

    @Test func badProjectsAreOneSentenceErrors() throws {
        let fixture = ProjectFixture(targets: [.init(name: "App", productType: "com.apple.product-type.application")])
        let text = fixture.pbxproj()
        let tree = try FixtureTree([
            "Truncated.xcodeproj/project.pbxproj": String(text.prefix(text.count / 2)),
            "NoRoot.xcodeproj/project.pbxproj": text.replacingOccurrences(of: "rootObject = ", with: "rootObject = FFFF; unused = "),
            "Empty.xcodeproj/keep": "",
        ])
        defer { tree.cleanUp() }
        do {
            _ = try XcodeProjectInput.load(tree.path + "/Truncated.xcodeproj")
            Issue.record("a truncated project was read")
        } catch let error as BundleError {
            #expect(error.code == .invalidProject)
            #expect(error.description.hasPrefix("The Xcode project '\(tree.path)/Truncated.xcodeproj' cannot be read: project.pbxproj is not a valid property list: the file ends"))
            #expect(error.exitStatus == .invalidInput)
        }
        #expect(throws: BundleError(.invalidProject, path: tree.path + "/NoRoot.xcodeproj", detail: "the rootObject FFFF is not a PBXProject in project.pbxproj (unknown object reference)")) {
            try XcodeProjectInput.load(tree.path + "/NoRoot.xcodeproj")
        }
        #expect(throws: BundleError(.unreadable, path: tree.path + "/Empty.xcodeproj/project.pbxproj", detail: "no such file")) {
            try XcodeProjectInput.load(tree.path + "/Empty.xcodeproj")
        }
    }

    @Test func unknownObjectReferenceLosesOnlyThatPart() throws {
        let fixture = ProjectFixture(targets: [
            .init(name: "App", productType: "com.apple.product-type.application", settings: [
                "GENERATE_INFOPLIST_FILE": "YES", "PRODUCT_BUNDLE_IDENTIFIER": "com.example.app", "CURRENT_PROJECT_VERSION": "3",
            ], embeds: [.init(target: "Widget", spec: 13)]),
            .init(name: "Widget", productType: "com.apple.product-type.app-extension"),
        ])
        var text = fixture.pbxproj()
        // Point the widget's configuration list at an object that does not exist.
        let marker = "buildConfigurationList = "
        let widgetStart = try #require(text.range(of: "/* Widget */ = {\n\t\t\tisa = PBXNativeTarget;"))
        let list = try #require(text.range(of: marker, range: widgetStart.upperBound..<text.endIndex))
        text.replaceSubrange(list.upperBound..<text.index(list.upperBound, offsetBy: 24), with: "DEADBEEFDEADBEEFDEADBEEF")
        let tree = try FixtureTree(["App.xcodeproj/project.pbxproj": text])
        defer { tree.cleanUp() }
        let result = try XcodeProjectInput.load(tree.path + "/App.xcodeproj", configuration: "Release")
        #expect(result.sets[0].app.buildVersion == "3")
        #expect(result.sets[0].embedded.map(\.name) == ["Widget"])
        #expect(result.findings.first?.message == "In \(tree.path)/App.xcodeproj/project.pbxproj, target 'Widget' refers to configuration list DEADBEEFDEADBEEFDEADBEEF, an object that does not exist (unknown object reference).")
    }

    @Test func synchronizedFolderAnchorAndCaseInsensitivePaths() throws {
        var fixture = ProjectFixture(targets: [
            .init(name: "App", productType: "com.apple.product-type.application", settings: [
                "INFOPLIST_FILE": "$(SRCROOT)/app/info.plist", "PRODUCT_BUNDLE_IDENTIFIER": "com.example.app",
            ], xcconfig: "Sources/Config/App.xcconfig"),
        ])
        fixture.objectVersion = 77
        fixture.synchronizedXcconfigFolder = "Sources"
        let tree = try FixtureTree([
            "App.xcodeproj/project.pbxproj": fixture.pbxproj(),
            "Sources/Config/App.xcconfig": "CURRENT_PROJECT_VERSION = 12;\nMARKETING_VERSION = 3.0.1 // no final newline",
            "App/Info.plist": FixtureTree.plist(["CFBundleVersion": "$(CURRENT_PROJECT_VERSION)", "CFBundleShortVersionString": "$(MARKETING_VERSION)"]),
        ])
        defer { tree.cleanUp() }
        let app = try XcodeProjectInput.load(tree.path + "/App.xcodeproj", configuration: "Release").sets[0].app
        #expect(app.buildVersion == "12")
        #expect(app.shortVersion == "3.0.1")
        #expect(app.source.file == tree.path + "/App/Info.plist")
    }

    /// Xcode merges the Info.plist it generates over INFOPLIST_FILE's, so with GENERATE_INFOPLIST_FILE = YES a set
    /// CURRENT_PROJECT_VERSION wins over the file's literal (swift-build's InfoPlistProcessorTaskAction; issue 42).
    @Test func generatedSettingWinsOverAPlistLiteral() throws {
        let fixture = ProjectFixture(projectSettings: ["CURRENT_PROJECT_VERSION": "9", "MARKETING_VERSION": "1.2"], targets: [
            .init(name: "App", productType: "com.apple.product-type.application", settings: [
                "GENERATE_INFOPLIST_FILE": "YES", "INFOPLIST_FILE": "App/Info.plist", "PRODUCT_BUNDLE_IDENTIFIER": "com.example.app",
            ]),
        ])
        let tree = try FixtureTree([
            "App.xcodeproj/project.pbxproj": fixture.pbxproj(),
            "App/Info.plist": FixtureTree.plist(["CFBundleVersion": "77"]),
        ])
        defer { tree.cleanUp() }
        let app = try XcodeProjectInput.load(tree.path + "/App.xcodeproj", configuration: "Release").sets[0].app
        #expect(app.buildVersion == "9")
        #expect(app.valueSources["CFBundleVersion"]?.file == tree.path + "/App.xcodeproj/project.pbxproj")
        #expect(app.shortVersion == "1.2")
        #expect(app.bundleIdentifier == "com.example.app")
    }

    @Test func xmlPbxprojIsReadButNotBumped() throws {
        let tree = try FixtureTree(HabitsFixture.files)
        defer { tree.cleanUp() }
        let pbxproj = tree.path + "/Habits.xcodeproj/project.pbxproj"
        let plist = try PropertyListSerialization.propertyList(from: Data(contentsOf: URL(fileURLWithPath: pbxproj)), format: nil)
        try PropertyListSerialization.data(fromPropertyList: plist, format: .xml, options: 0).write(to: URL(fileURLWithPath: pbxproj))
        let set = try XcodeProjectInput.load(tree.path + "/Habits.xcodeproj", configuration: "Release").sets[0]
        #expect(set.app.buildVersion == "289")
        #expect(set.embedded.count == 5)
        let before = try tree.read("Habits.xcodeproj/project.pbxproj")
        #expect(throws: BundleError(.invalidBump, path: pbxproj, detail: "it is not in Xcode's text (OpenStep) format, so Lockstep cannot edit it in place; open and save the project in Xcode first")) {
            try XcodeProjectInput.bump(tree.path + "/Habits.xcodeproj", build: "300", version: nil)
        }
        #expect(try tree.read("Habits.xcodeproj/project.pbxproj") == before)
        #expect(try tree.read("Config/Shared.xcconfig") == HabitsFixture.files["Config/Shared.xcconfig"])
    }

    @Test func twoHundredTargetProject() throws {
        let directory = TestSupport.temporaryDirectory("xcode-sample")
        defer { TestSupport.cleanUp(directory) }
        let path = try XcodeProjectInput.generateSampleProject(at: directory.path, targets: 200)
        #expect(XcodeProjectInput.projectPath(for: directory.path) == path)
        let result = try XcodeProjectInput.load(path)
        #expect(result.sets.count == 2)
        for set in result.sets {
            #expect(set.embedded.count == 199)
            #expect(set.all.allSatisfy { $0.buildVersion == "42" && $0.shortVersion == "1.4.0" })
            #expect(Set(set.all.compactMap(\.bundleIdentifier)).count == 200)
            #expect(set.embedded.allSatisfy { $0.role == .widget })
        }
        #expect(result.findings.isEmpty)
    }

    @Test func projectPathAcceptsTheFolderTheProjectAndItsPbxproj() throws {
        let tree = try habits()
        defer { tree.cleanUp() }
        let project = tree.path + "/Habits.xcodeproj"
        #expect(XcodeProjectInput.projectPath(for: tree.path) == project)
        #expect(XcodeProjectInput.projectPath(for: project + "/") == project)
        #expect(XcodeProjectInput.projectPath(for: project + "/project.pbxproj") == project)
        #expect(XcodeProjectInput.projectPath(for: tree.path + "/Habits") == nil)
    }
}
