@testable import BundleKit
@testable import CheckKit
import Foundation
import LockstepTestSupport
import Testing
@testable import XcodeKit

/// Constructs of real projects that `check` once misread (issue 13, part B): preprocessed Info.plists, `$(SRCROOT)`
/// with a relative project path, the watch-only stub, Apple's extension points, the watch app as the parent of its
/// own widget, and an extension a script embeds.
@Suite struct ProjectConstructTests {
    static let versioned = ["CFBundleVersion": "$(CURRENT_PROJECT_VERSION)", "CFBundleShortVersionString": "$(MARKETING_VERSION)",
                            "CFBundleIdentifier": "$(PRODUCT_BUNDLE_IDENTIFIER)"]
    static var widgetPlist: [String: Any] {
        var plist: [String: Any] = versioned
        plist["NSExtension"] = ["NSExtensionPointIdentifier": "com.apple.widgetkit-extension"]
        return plist
    }

    /// An app and a widget with versions at project level, with `app`'s and `widget`'s own settings added.
    static func appAndWidget(app: [String: String] = [:], widget: [String: String] = [:], dependencies: [String] = [], embed: Bool = true) -> ProjectFixture {
        ProjectFixture(projectSettings: ["CURRENT_PROJECT_VERSION": "12", "MARKETING_VERSION": "3.1"], targets: [
            .init(name: "App", productType: "com.apple.product-type.application", settings: [
                "INFOPLIST_FILE": "App/Info.plist", "PRODUCT_BUNDLE_IDENTIFIER": "com.example.app",
            ].merging(app) { $1 }, embeds: embed ? [.init(target: "Widget", spec: 13)] : [], dependencies: dependencies),
            .init(name: "Widget", productType: "com.apple.product-type.app-extension", settings: [
                "INFOPLIST_FILE": "Widget/Info.plist", "PRODUCT_BUNDLE_IDENTIFIER": "com.example.app.widget",
            ].merging(widget) { $1 }),
        ])
    }

    static func errors(_ result: XcodeProjectInput.Result) -> [Finding] {
        (result.findings + result.sets.flatMap(Rules.check)).filter { $0.severity == .error }
    }

    // MARK: - INFOPLIST_PREPROCESS

    /// Xcode runs the C preprocessor over such a plist: `#if`/`#else`, a prefix header's macros in the text, and
    /// definitions from the build settings. It used to be unreadable, and the app's extensions went unchecked.
    @Test func preprocessedInfoPlistWithPrefixHeaderAndDefinitions() throws {
        let fixture = Self.appAndWidget(app: [
            "INFOPLIST_PREPROCESS": "YES", "INFOPLIST_PREFIX_HEADER": "App/Versions.h",
            "INFOPLIST_PREPROCESSOR_DEFINITIONS": "BETA=0 CHANNEL=store",
        ])
        let app = """
        <?xml version="1.0" encoding="UTF-8"?>
        <plist version="1.0">
        <dict>
        \t<key>CFBundleIdentifier</key><string>$(PRODUCT_BUNDLE_IDENTIFIER)</string>
        #if BETA && defined(CHANNEL)
        \t<key>CFBundleVersion</key><string>999</string>
        #elif !defined(APP_BUILD)
        \t<key>CFBundleVersion</key><string>0</string>
        #else
        \t<key>CFBundleVersion</key><string>APP_BUILD</string>
        #endif
        #ifndef SHORT
        \t<key>CFBundleShortVersionString</key><string>APP_SHORT</string>
        #endif
        </dict>
        </plist>
        """
        let tree = try FixtureTree([
            "App.xcodeproj/project.pbxproj": fixture.pbxproj(),
            "App/Info.plist": app,
            "App/Versions.h": "// the versions, one place\n#define APP_BUILD 12\n#define APP_SHORT APP_MAJOR.1\n#define APP_MAJOR 3\n",
            "Widget/Info.plist": FixtureTree.plist(Self.widgetPlist),
        ])
        defer { tree.cleanUp() }
        let result = try XcodeProjectInput.load(tree.path + "/App.xcodeproj", configuration: "Release")
        #expect(result.sets[0].app.buildVersion == "12")
        #expect(result.sets[0].app.shortVersion == "3.1")
        #expect(Self.errors(result).isEmpty, "\(Self.errors(result))")
        // The widget is compared with the preprocessed app: a real mismatch is still caught.
        try tree.write(["App/Versions.h": "#define APP_BUILD 13\n#define APP_SHORT 3.1\n"])
        let mismatch = try XcodeProjectInput.load(tree.path + "/App.xcodeproj", configuration: "Release")
        #expect(Self.errors(mismatch).map(\.rule) == ["version.build-mismatch"])
    }

    @Test func preprocessorFlagsAndIncludes() throws {
        var preprocessor = InfoPlistPreprocessor(definitions: "\"NAME=My App\" FLAG", flags: "-DLEVEL=2 -D OTHER -UFLAG")
        preprocessor.read = { path in path.hasSuffix("inc.h") ? "#define FROM_INCLUDE yes\n" : nil }
        let text = try preprocessor.process("""
        #include "inc.h"
        #if LEVEL >= 2 && defined OTHER && !defined(FLAG) && (LEVEL * 3 - 1) % 4 == 1
        a=NAME b=FROM_INCLUDE c=NAME_NOT
        #else
        wrong
        #endif
        """, file: "/p/Info.plist")
        #expect(text == "a=My App b=yes c=NAME_NOT\n")
        for (bad, sentence) in [("#if X\n", "/p/Info.plist: #if without #endif"), ("#endif\n", "/p/Info.plist:1: #endif without #if"),
                                ("#if (1\n#endif\n", "/p/Info.plist:1: cannot evaluate '#if (1'"),
                                ("#include \"nope.h\"\n", "/p/Info.plist:1: #include \"/p/nope.h\" cannot be read")] {
            var fresh = InfoPlistPreprocessor()
            fresh.read = { _ in nil }
            #expect(throws: InfoPlistPreprocessor.Failure.invalid(sentence)) { try fresh.process(bad, file: "/p/Info.plist") }
        }
        // A macro that names itself, or a file that includes itself, ends: no hang.
        var recursive = InfoPlistPreprocessor(definitions: "A=A.B")
        recursive.read = { _ in "#include \"self.h\"\n" }
        #expect(try recursive.process("A", file: "/p/x").hasPrefix("A.B"))
        #expect(throws: InfoPlistPreprocessor.Failure.self) { try recursive.process("#include \"self.h\"\n", file: "/p/x") }
    }

    @Test func brokenPreprocessedInfoPlistIsOneError() throws {
        let fixture = Self.appAndWidget(app: ["INFOPLIST_PREPROCESS": "YES"])
        let tree = try FixtureTree([
            "App.xcodeproj/project.pbxproj": fixture.pbxproj(),
            "App/Info.plist": FixtureTree.plist(Self.versioned) + "#if 1\n",
            "Widget/Info.plist": FixtureTree.plist(Self.widgetPlist),
        ])
        defer { tree.cleanUp() }
        let result = try XcodeProjectInput.load(tree.path + "/App.xcodeproj", configuration: "Release")
        #expect(result.findings.filter { $0.severity == .error }.map(\.message) == [
            "The Info.plist of target 'App' [Release] is preprocessed (INFOPLIST_PREPROCESS = YES), and \(tree.path)/App/Info.plist: #if without #endif.",
        ])
    }

    // MARK: - $(SRCROOT)

    /// `$(SRCROOT)` is the absolute folder of the project, whatever path the user gave and wherever `check` runs:
    /// the same verdict, run from the repository root, from inside the project folder, and with an absolute path.
    @Test func srcrootIsAbsoluteWhateverThePathAndWorkingDirectory() throws {
        let fixture = Self.appAndWidget(app: ["INFOPLIST_FILE": "$(SRCROOT)/App/Info.plist"],
                                        widget: ["INFOPLIST_FILE": "$(PROJECT_DIR)/Widget/Info.plist", "CURRENT_PROJECT_VERSION": "11"])
        let tree = try FixtureTree([
            "Shop/Shop.xcodeproj/project.pbxproj": fixture.pbxproj(),
            "Shop/App/Info.plist": FixtureTree.plist(Self.versioned),
            "Shop/Widget/Info.plist": FixtureTree.plist(Self.widgetPlist),
        ])
        defer { tree.cleanUp() }
        var verdicts: [String] = []
        for (directory, path) in [(tree.path, "Shop/Shop.xcodeproj"), (tree.path, "./Shop/../Shop/Shop.xcodeproj/"),
                                  (tree.path + "/Shop", "Shop.xcodeproj"), (tree.path + "/Shop", "."),
                                  ("/", tree.path + "/Shop/Shop.xcodeproj/project.pbxproj")] {
            let result = try run("lockstep", ["check", path, "--configuration", "Release", "--format", "json"], currentDirectory: directory)
            #expect(result.status == 1, "\(directory) \(path): \(result)")
            let rules = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
            let findings = (rules["findings"] as? [[String: Any]] ?? []).filter { $0["severity"] as? String == "error" }
            verdicts.append(findings.compactMap { $0["rule"] as? String }.joined(separator: ","))
        }
        #expect(Set(verdicts) == ["version.build-mismatch"], "\(verdicts)")
    }

    // MARK: - Watch-only apps, extension points, nested parents

    /// A watch-only app: a stub container (Xcode writes its Info.plist) embedding the watch app. No
    /// version.missing for the stub, no companion id required of its watch app.
    @Test func watchOnlyStubContainerNeedsNoVersions() throws {
        let fixture = ProjectFixture(projectSettings: ["CURRENT_PROJECT_VERSION": "4", "MARKETING_VERSION": "1.0"], targets: [
            .init(name: "Timer", productType: "com.apple.product-type.application.watchapp2-container", settings: [
                "PRODUCT_BUNDLE_IDENTIFIER": "com.example.timer",
            ], embeds: [.init(target: "Timer WatchKit App", spec: 16, dstPath: "$(CONTENTS_FOLDER_PATH)/Watch")]),
            .init(name: "Timer WatchKit App", productType: "com.apple.product-type.application.watchapp2", settings: [
                "GENERATE_INFOPLIST_FILE": "YES", "PRODUCT_BUNDLE_IDENTIFIER": "com.example.timer.watchkitapp", "SDKROOT": "watchos",
                "INFOPLIST_KEY_WKWatchOnly": "YES",
            ]),
        ])
        let tree = try FixtureTree(["Timer.xcodeproj/project.pbxproj": fixture.pbxproj()])
        defer { tree.cleanUp() }
        let result = try XcodeProjectInput.load(tree.path + "/Timer.xcodeproj", configuration: "Release")
        #expect(result.sets.count == 1)
        #expect(Self.errors(result).isEmpty, "\(Self.errors(result))")
    }

    /// Action extensions without UI (`com.apple.services`) and other documented points are known; a typo is a warning.
    @Test(arguments: ["com.apple.services", "com.apple.networkextension.packet-tunnel", "com.apple.Safari.web-extension",
                      "com.apple.message-payload-provider", "com.apple.photo-editing",
                      // Local Push Connectivity (NEAppPushProvider), which Home Assistant's App Store app embeds.
                      "com.apple.networkextension.app-push"])
    func documentedExtensionPointsAreKnown(point: String) {
        #expect(Rules.knownExtensionPoints.contains(point))
        #expect(!Rules.knownExtensionPoints.contains(point + "s"))
    }

    /// A widget inside the watch app: Xcode names the watch app as its containing parent app, App Store Connect
    /// the iOS application; versions are compared with the iOS app.
    @Test func watchWidgetMismatchNamesTheWatchAppAsItsParent() throws {
        let fixture = ProjectFixture(projectSettings: ["CURRENT_PROJECT_VERSION": "8", "MARKETING_VERSION": "2.0"], targets: [
            .init(name: "App", productType: "com.apple.product-type.application", settings: [
                "GENERATE_INFOPLIST_FILE": "YES", "PRODUCT_BUNDLE_IDENTIFIER": "com.example.app",
            ], embeds: [.init(target: "Watch", spec: 16, dstPath: "$(CONTENTS_FOLDER_PATH)/Watch")]),
            .init(name: "Watch", productType: "com.apple.product-type.application", settings: [
                "GENERATE_INFOPLIST_FILE": "YES", "PRODUCT_BUNDLE_IDENTIFIER": "com.example.app.watchkitapp", "SDKROOT": "watchos",
                "INFOPLIST_KEY_WKCompanionAppBundleIdentifier": "com.example.app",
            ], embeds: [.init(target: "WatchWidget", spec: 13)]),
            .init(name: "WatchWidget", productType: "com.apple.product-type.app-extension", settings: [
                "INFOPLIST_FILE": "WatchWidget/Info.plist", "PRODUCT_BUNDLE_IDENTIFIER": "com.example.app.watchkitapp.widget",
                "SDKROOT": "watchos", "CURRENT_PROJECT_VERSION": "7",
            ]),
        ])
        let result = try fixture.load(with: [
            "WatchWidget/Info.plist": FixtureTree.plist(Self.widgetPlist),
        ])
        let errors = Self.errors(result)
        #expect(errors.map(\.rule) == ["version.build-mismatch"])
        #expect(errors.first?.message == "The CFBundleVersion of an app extension ('7') must match that of its containing parent app ('8', App.app/Watch/Watch.app). ITMS-90473: CFBundleVersion Mismatch - The CFBundleVersion value '7' of extension 'App.app/Watch/Watch.app/PlugIns/WatchWidget.appex' does not match the CFBundleVersion value '8' of its containing iOS application 'App.app'.")
    }

    /// An extension the app depends on but copies with a script: a note says its versions are not checked.
    @Test func extensionEmbeddedByAScriptIsANote() throws {
        let fixture = Self.appAndWidget(dependencies: ["Widget"], embed: false)
        let result = try fixture.load(with: [
            "App/Info.plist": FixtureTree.plist(Self.versioned),
            "Widget/Info.plist": FixtureTree.plist(Self.widgetPlist),
        ], configuration: nil)
        #expect(result.findings.map(\.rule) == ["bundle.not-embedded"])
        #expect(result.findings.first?.severity == .note)
        #expect(result.findings.first?.message == "Target 'App' depends on 'Widget' (com.apple.product-type.app-extension), but no Copy Files phase of the project embeds it: if a script embeds it, its versions are not checked.")
        // Embedded as well: no note.
        let embedded = try FixtureTree(["App.xcodeproj/project.pbxproj": Self.appAndWidget(dependencies: ["Widget"]).pbxproj()])
        defer { embedded.cleanUp() }
        #expect(try XcodeProjectInput.load(embedded.path + "/App.xcodeproj").findings.allSatisfy { $0.rule != "bundle.not-embedded" })
    }

    /// An app target whose copy phase embeds its own product used to give "0 bundles" and exit 0; now the cycle is
    /// an error and the app's real extension is still checked.
    @Test func anAppThatEmbedsItselfIsAFindingAndItsExtensionsAreChecked() throws {
        var fixture = Self.appAndWidget(widget: ["CURRENT_PROJECT_VERSION": "11"])
        fixture.targets[0].embeds.append(.init(target: "App", spec: 13))
        let result = try fixture.load(with: [
            "App/Info.plist": FixtureTree.plist(Self.versioned),
            "Widget/Info.plist": FixtureTree.plist(Self.widgetPlist),
        ])
        #expect(result.sets.count == 1)
        #expect(result.sets.first?.embedded.map(\.name) == ["Widget"])
        #expect(Self.errors(result).map(\.rule) == ["bundle.embed-cycle", "version.build-mismatch"])
        #expect(Self.errors(result).first?.message == "Target 'App' embeds its own product in a Copy Files phase: a bundle cannot contain itself.")
    }

    /// A file listed twice among the groups (real projects have them, e.g. XcodeGen's own test project) used to
    /// end the walk of the groups tree, so the xcconfigs of groups not yet walked were "missing".
    @Test func aFileListedTwiceInTheGroupsLosesNoOtherFile() throws {
        var fixture = Self.appAndWidget()
        fixture.projectSettings = [:]
        fixture.projectXcconfig = "Shared/base.xcconfig"
        fixture.targets[1].xcconfig = "Widget/widget.xcconfig"
        let pbxproj = try NSRegularExpression(pattern: #"(\t\t\t\t[0-9A-F]{24},\n)"#)
            .stringByReplacingMatches(in: fixture.pbxproj(), range: NSRange(location: 0, length: fixture.pbxproj().utf16.count), withTemplate: "$1$1")
        let result = try FixtureTree.loadProject([
            "App.xcodeproj/project.pbxproj": pbxproj,
            "Shared/base.xcconfig": "CURRENT_PROJECT_VERSION = 12\nMARKETING_VERSION = 3.1\n",
            "Widget/widget.xcconfig": "WIDGET_FLAG = YES\n",
            "App/Info.plist": FixtureTree.plist(Self.versioned),
            "Widget/Info.plist": FixtureTree.plist(Self.widgetPlist),
        ])
        #expect(result.findings.filter { $0.rule == "settings.unresolved" }.isEmpty, "\(result.findings)")
        #expect(result.sets.first?.embedded.first?.buildVersion == "12")
        #expect(Self.errors(result).isEmpty)
    }

    /// A framework a copy phase puts in PlugIns is no app extension: the extension rules do not apply to it.
    @Test func aFrameworkInPlugInsIsNoExtension() throws {
        var fixture = Self.appAndWidget()
        fixture.targets[1].productType = "com.apple.product-type.framework"
        fixture.targets[1].settings["CURRENT_PROJECT_VERSION"] = "1"
        let result = try fixture.load(with: [
            "App/Info.plist": FixtureTree.plist(Self.versioned),
            "Widget/Info.plist": FixtureTree.plist(Self.versioned),
        ])
        #expect(result.sets.first?.embedded.isEmpty == true)
        #expect(Self.errors(result).isEmpty, "\(Self.errors(result))")
    }

    /// A checkout with only a Tuist manifest: one sentence saying to generate the project first (exit 2).
    /// (An XcodeGen spec is read: XcodeGenTests.)
    @Test func aTuistManifestSaysToGenerateTheProjectFirst() throws {
        let tree = try FixtureTree(["Tuist/Project.swift": "import ProjectDescription\n"])
        defer { tree.cleanUp() }
        #expect(throws: BundleError(.unsupportedInput, path: tree.path + "/Tuist", detail: CheckInput.generatedProject("Project.swift"))) {
            try CheckInput.check(tree.path + "/Tuist")
        }
        #expect(CheckInput.generatedProject("Project.swift").contains("tuist generate"))
    }

    /// An Xcode workspace is not read itself: one sentence naming the projects it lists as the command to run
    /// (exit 2), whatever its groups and location kinds; `self:` in an `.xcodeproj`'s own workspace is that project.
    /// A `>` or an attribute-like text inside a quoted value is text, and numeric entities are decoded.
    @Test func aWorkspaceNamesTheProjectsToCheck() throws {
        let data = """
            <?xml version="1.0" encoding="UTF-8"?>
            <Workspace
               version = "1.0">
               <FileRef
                  location = "group:App.xcodeproj">
               </FileRef>
               <!-- <FileRef location = "group:Old.xcodeproj"> > <FileRef location = "group:Older.xcodeproj"> -->
               <Group
                  location = "container:Modules"
                  name = "Modules">
                  <FileRef
                     location = "group:Widgets &amp; Co/Widgets.xcodeproj">
                  </FileRef>
                  <FileRef location = "group:README.md"/>
               </Group>
               <FileRef
                  location = "group:Pods/Pods.xcodeproj">
               </FileRef>
               <Group
                  name = "location = 'Q'"
                  location = "group:G">
                  <FileRef location = "group:It&#39;s &#x41;/A.xcodeproj"></FileRef>
               </Group>
               <FileRef location = "group:a>b/B.xcodeproj"></FileRef>
               <FileRef location = 'absolute:/opt/Shared.xcodeproj'></FileRef>
               <FileRef location = "developer:Platforms/Other.xcodeproj"></FileRef>
               <FileRef location = "group:App.xcodeproj"></FileRef>
            </Workspace>
            """
        let tree = try FixtureTree(["App.xcworkspace/contents.xcworkspacedata": data, "Empty.xcworkspace/contents.xcworkspacedata": "<Workspace version = \"1.0\"></Workspace>\n",
                                    "App.xcodeproj/project.xcworkspace/contents.xcworkspacedata": "<Workspace version = \"1.0\"><FileRef location = \"self:\"></FileRef></Workspace>\n"])
        defer { tree.cleanUp() }
        let workspace = tree.path + "/App.xcworkspace"
        #expect(XcodeWorkspace.projects(in: workspace) == [tree.path + "/App.xcodeproj", tree.path + "/Modules/Widgets & Co/Widgets.xcodeproj",
                                                           tree.path + "/Pods/Pods.xcodeproj", tree.path + "/G/It's A/A.xcodeproj",
                                                           tree.path + "/a>b/B.xcodeproj", "/opt/Shared.xcodeproj"])
        // Only what is here goes in the command; the rest is named apart.
        try tree.write(["App.xcodeproj/project.pbxproj": "{}", "Modules/Widgets & Co/Widgets.xcodeproj/project.pbxproj": "{}"])
        let advice = CheckInput.workspaceAdvice(workspace)
        #expect(advice.hasSuffix("`lockstep check \(tree.path)/App.xcodeproj '\(tree.path)/Modules/Widgets & Co/Widgets.xcodeproj'` (not here: \(tree.path)/Pods/Pods.xcodeproj, \(tree.path)/G/It's A/A.xcodeproj, \(tree.path)/a>b/B.xcodeproj, /opt/Shared.xcodeproj)"), "\(advice)")
        #expect(throws: BundleError(.unsupportedInput, path: workspace + "/", detail: advice)) { try CheckInput.check(workspace + "/") }
        #expect(XcodeWorkspace.projects(in: tree.path + "/App.xcodeproj/project.xcworkspace") == [tree.path + "/App.xcodeproj"])
        #expect(CheckInput.workspaceAdvice(tree.path + "/Empty.xcworkspace").hasSuffix("lists no .xcodeproj"))
        #expect(XcodeWorkspace.projects(in: tree.path + "/Missing.xcworkspace") == nil)
        #expect(CheckInput.shellWords(["a/b.xcodeproj", "it's here", ""]) == "a/b.xcodeproj 'it'\\''s here' ''")
        #expect(CheckInput.listedProjects([tree.path + "/Pods/Pods.xcodeproj"]) == "none of the projects it lists is here: \(tree.path)/Pods/Pods.xcodeproj")
    }

    /// `lockstep check .` in a checkout whose projects sit in subfolders beside their workspace (CocoaPods, modular
    /// apps): the sentence gives the workspace's projects, as for the workspace itself.
    @Test func aCheckoutWithAWorkspaceNamesItsProjects() throws {
        let tree = try FixtureTree([
            "W.xcworkspace/contents.xcworkspacedata": "<Workspace version = \"1.0\"><FileRef location = \"group:App/App.xcodeproj\"></FileRef><FileRef location = \"group:Pods/Pods.xcodeproj\"></FileRef></Workspace>\n",
            "App/App.xcodeproj/project.pbxproj": "{}",
        ])
        defer { tree.cleanUp() }
        let advice = CheckInput.folderAdvice(tree.path)
        #expect(advice == "the folder holds no .app bundle or .xcodeproj, but the workspace W.xcworkspace; check the projects it lists: `lockstep check \(tree.path)/App/App.xcodeproj` (not here: \(tree.path)/Pods/Pods.xcodeproj)")
        #expect(throws: BundleError(.unsupportedInput, path: tree.path, detail: advice)) { try CheckInput.check(tree.path) }
    }

    /// A folder of two projects is not read as either: the sentence names both (exit 2), not "no .xcodeproj".
    @Test func aFolderOfTwoProjectsNamesBoth() throws {
        let fixture = Self.appAndWidget()
        let tree = try FixtureTree(["A.xcodeproj/project.pbxproj": fixture.pbxproj(), "B.xcodeproj/project.pbxproj": fixture.pbxproj()])
        defer { tree.cleanUp() }
        let advice = CheckInput.folderAdvice(tree.path)
        #expect(advice.hasSuffix("check each: `lockstep check \(tree.path)/A.xcodeproj \(tree.path)/B.xcodeproj`"))
        #expect(throws: BundleError(.unsupportedInput, path: tree.path, detail: advice)) { try CheckInput.check(tree.path) }
    }

    /// rule `group.config-drift`: the group in Debug's entitlements and not in Release's.
    @Test func anAppGroupInOneConfigurationOnlyIsAWarning() throws {
        var fixture = Self.appAndWidget(app: ["CODE_SIGN_ENTITLEMENTS": "App/App.entitlements"])
        fixture.targets[1].perConfiguration = ["Debug": ["CODE_SIGN_ENTITLEMENTS": "Widget/Debug.entitlements"],
                                               "Release": ["CODE_SIGN_ENTITLEMENTS": "Widget/Release.entitlements"]]
        func entitlements(_ groups: [String]) -> String {
            FixtureTree.plist(["com.apple.security.application-groups": groups])
        }
        let tree = try FixtureTree([
            "App.xcodeproj/project.pbxproj": fixture.pbxproj(),
            "App/Info.plist": FixtureTree.plist(Self.versioned), "Widget/Info.plist": FixtureTree.plist(Self.widgetPlist),
            "App/App.entitlements": entitlements(["group.com.example"]),
            "Widget/Debug.entitlements": entitlements(["group.com.example"]), "Widget/Release.entitlements": entitlements([]),
        ])
        defer { tree.cleanUp() }
        let result = try XcodeProjectInput.load(tree.path + "/App.xcodeproj")
        let drift = result.findings.filter { $0.rule == "group.config-drift" }
        #expect(drift.map(\.message) == ["App.app/PlugIns/Widget.appex claims the App Group 'group.com.example' in Debug but no App Group in Release: built that way it shares nothing with its app (a widget that works in development shows no data when shipped)."])
        #expect(drift.first?.severity == .warning)
        #expect(try XcodeProjectInput.load(tree.path + "/App.xcodeproj", configuration: "Release").findings.allSatisfy { $0.rule != "group.config-drift" })
    }

    /// rule `privacy.manifest` for a project: a target that claims an App Group and copies no privacy manifest
    /// declaring UserDefaults is a warning; one whose manifest declares it passes; an invalid one is an error.
    @Test func aTargetThatClaimsAGroupNeedsAPrivacyManifest() throws {
        var fixture = Self.appAndWidget(app: ["CODE_SIGN_ENTITLEMENTS": "App/App.entitlements"], widget: ["CODE_SIGN_ENTITLEMENTS": "App/App.entitlements"])
        fixture.synchronizedXcconfigFolder = nil
        let entitlements = FixtureTree.plist(["com.apple.security.application-groups": ["group.com.example"]])
        let tree = try FixtureTree([
            "App.xcodeproj/project.pbxproj": fixture.pbxproj(),
            "App/Info.plist": FixtureTree.plist(Self.versioned), "Widget/Info.plist": FixtureTree.plist(Self.widgetPlist),
            "App/App.entitlements": entitlements,
        ])
        defer { tree.cleanUp() }
        let result = try XcodeProjectInput.load(tree.path + "/App.xcodeproj", configuration: "Release")
        let privacy = result.findings.filter { $0.rule.rawValue.hasPrefix("privacy.") }
        #expect(privacy.map(\.bundle) == ["App.app", "App.app/PlugIns/Widget.appex"])
        #expect(privacy.allSatisfy { $0.severity == .warning })
        #expect(privacy.first?.message.hasPrefix("Target 'App' claims the App Group 'group.com.example', so its code reads the group's UserDefaults suite (NSPrivacyAccessedAPICategoryUserDefaults, reason 1C8F.1), but it copies no PrivacyInfo.xcprivacy") == true)

        // The widget copies one that declares it, the app one with a reason that is not approved.
        fixture.targets[0].resources = ["App/PrivacyInfo.xcprivacy"]
        fixture.targets[1].resources = ["Widget/PrivacyInfo.xcprivacy"]
        func manifest(_ reason: String) -> String {
            """
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0"><dict><key>NSPrivacyAccessedAPITypes</key><array><dict>
            <key>NSPrivacyAccessedAPIType</key><string>NSPrivacyAccessedAPICategoryUserDefaults</string>
            <key>NSPrivacyAccessedAPITypeReasons</key><array><string>\(reason)</string></array>
            </dict></array></dict></plist>
            """
        }
        try tree.write(["App.xcodeproj/project.pbxproj": fixture.pbxproj(),
                        "App/PrivacyInfo.xcprivacy": manifest("XXXX.1"), "Widget/PrivacyInfo.xcprivacy": manifest("1C8F.1")])
        let again = try XcodeProjectInput.load(tree.path + "/App.xcodeproj", configuration: "Release").findings.filter { $0.rule.rawValue.hasPrefix("privacy.") }
        #expect(again.map(\.rule) == ["privacy.manifest-invalid"], "\(again)")
        #expect(again.first?.bundle == "App.app" && again.first?.severity == .error)
    }

    /// rule `extension.*` on a project's share extension: its Info.plist holds the facts.
    @Test func aShareExtensionsInfoPlistRulesOnAProject() throws {
        func findings(_ share: [String: Any]) throws -> [Finding] {
            var plist: [String: Any] = Self.versioned
            plist["NSExtension"] = share
            let tree = try FixtureTree(["App.xcodeproj/project.pbxproj": Self.appAndWidget().pbxproj(),
                                        "App/Info.plist": FixtureTree.plist(Self.versioned), "Widget/Info.plist": FixtureTree.plist(plist)])
            defer { tree.cleanUp() }
            return try XcodeProjectInput.load(tree.path + "/App.xcodeproj", configuration: "Release").sets.flatMap(Rules.check)
                .filter { $0.rule.rawValue.hasPrefix("extension.") && $0.rule != "extension.point" }
        }
        let rule: [String: Any] = ["NSExtensionActivationSupportsText": "YES"]
        let share: [String: Any] = ["NSExtensionPointIdentifier": "com.apple.share-services", "NSExtensionAttributes": ["NSExtensionActivationRule": rule]]
        let typed = try findings(share)
        // No CFBundleDisplayName in the plist: a warning on a project (the built app decides); a string "YES": an error.
        #expect(typed.map(\.rule).sorted() == ["extension.display-name", "extension.plist-types"])
        #expect(typed.first { $0.rule == "extension.display-name" }?.severity == .warning)
        let truePredicate = try findings(["NSExtensionPointIdentifier": "com.apple.share-services", "NSExtensionAttributes": ["NSExtensionActivationRule": "TRUEPREDICATE"]])
        #expect(truePredicate.contains { $0.rule == "extension.activation-rule" && $0.severity == .error })
    }

    /// rule `os.extension-floor` on a project: the deployment targets are the built plists' MinimumOSVersion.
    @Test func anExtensionAboveItsAppsDeploymentTargetIsAWarning() throws {
        let fixture = Self.appAndWidget(app: ["IPHONEOS_DEPLOYMENT_TARGET": "16.0"], widget: ["IPHONEOS_DEPLOYMENT_TARGET": "17.0"])
        var plist: [String: Any] = Self.widgetPlist
        plist["CFBundleDisplayName"] = "Widget"
        let tree = try FixtureTree(["App.xcodeproj/project.pbxproj": fixture.pbxproj(),
                                    "App/Info.plist": FixtureTree.plist(Self.versioned), "Widget/Info.plist": FixtureTree.plist(plist)])
        defer { tree.cleanUp() }
        let findings = try XcodeProjectInput.load(tree.path + "/App.xcodeproj", configuration: "Release").sets.flatMap(Rules.check).filter { $0.rule.rawValue.hasPrefix("os.") }
        #expect(findings.map(\.rule) == ["os.extension-floor"])
        #expect(findings.first?.severity == .warning)
    }
}
