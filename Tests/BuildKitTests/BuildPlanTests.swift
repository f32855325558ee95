@testable import BuildKit
import BundleKit
import XcodeGenKit
import Foundation
import Testing

/// What `lockstep build` plans from a project, before anything is written or compiled.
@Suite struct BuildPlanTests {
    static let spec = ProjectBuildTests.fixture.appendingPathComponent("project.yml").path

    @Test func eachBundleIsItsTargetsModuleOnItsPlatform() throws {
        let plan = try BuildPlan.make(.init(project: Self.spec))
        #expect(plan.configuration == "Debug")
        #expect(plan.platforms == [.iOS, .watchOS])
        let names = plan.modules.map { "\($0.name)@\($0.platform.rawValue)" }
        #expect(names == ["Tally@iOS", "TallyWidget@iOS", "TallyWatch@watchOS"])
        let widget = try #require(plan.modules.first { $0.name == "TallyWidget" })
        #expect(widget.bundle?.role == .widget && widget.bundle?.bundleIdentifier == "com.example.Tally.widget")
        #expect(widget.defines == ["DEBUG", "TALLY_EXTRA"])
        #expect(widget.languageMode == "5")
        // Its own folder's files and the shared folder's, as the spec's `sources` list them.
        #expect(widget.files.map { URL(fileURLWithPath: $0).lastPathComponent }.sorted() == ["TallyGoalWidget.swift", "TallyLinks.swift", "TallyModel.swift", "TallyPlace.swift", "TallySettings.swift", "TallyStore.swift", "TallyWidgets.swift"])
        #expect(plan.buildFolder.hasSuffix("/Fixtures/Tally/.build/lockstep"))
        // The widget's folder holds an intent definition: Xcode's classes are generated into its module only.
        #expect(widget.intentClasses?.contains("public class ChooseGoalIntent: INIntent") == true)
        #expect(plan.modules.first { $0.name == "Tally" }?.intentClasses == nil)

        let release = try BuildPlan.make(.init(project: Self.spec, targets: ["TallyWidget"], configuration: "Release"))
        // The app is always planned: every bundle needs it.
        #expect(release.modules.map(\.name) == ["Tally", "TallyWidget"])
        #expect(release.modules.allSatisfy { $0.defines.isEmpty })
    }

    @Test func standInsReplaceAModuleOrAFolderOfIt() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("stand-ins-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try "struct LinuxWidget {}\n".write(to: folder.appendingPathComponent("LinuxWidget.swift"), atomically: true, encoding: .utf8)

        let whole = try BuildPlan.make(.init(project: Self.spec, standIns: ["TallyWidget": folder.path]))
        let widget = try #require(whole.modules.first { $0.name == "TallyWidget" })
        #expect(widget.files == [folder.appendingPathComponent("LinuxWidget.swift").path])
        #expect(widget.standIns == [folder.path])
        // A stand-in for the whole module brings its own classes: none are generated beside it.
        #expect(widget.intentClasses == nil)

        let part = try BuildPlan.make(.init(project: Self.spec, standIns: ["TallyWidget/Shared": folder.path]))
        let partial = try #require(part.modules.first { $0.name == "TallyWidget" })
        #expect(partial.files.map { URL(fileURLWithPath: $0).lastPathComponent }.sorted() == ["LinuxWidget.swift", "TallyGoalWidget.swift", "TallyWidgets.swift"])
        // The app compiles Shared too, but the stand-in names the widget's module only.
        #expect(part.modules.first { $0.name == "Tally" }?.standIns == [])

        // One file of a folder (Widget Examples' networking file, the only one of its folder that needs a change).
        let one = try BuildPlan.make(.init(project: Self.spec, standIns: ["TallyWidget/Shared/TallyStore.swift": folder.path]))
        let single = try #require(one.modules.first { $0.name == "TallyWidget" })
        #expect(single.files.map { URL(fileURLWithPath: $0).lastPathComponent }.sorted() == ["LinuxWidget.swift", "TallyGoalWidget.swift", "TallyLinks.swift", "TallyModel.swift", "TallyPlace.swift", "TallySettings.swift", "TallyWidgets.swift"])
        #expect(throws: BuildError.self) { try BuildPlan.make(.init(project: Self.spec, standIns: ["TallyWidget/Shared/TallyStore": folder.path])) }

        #expect(throws: BuildError.self) { try BuildPlan.make(.init(project: Self.spec, standIns: ["TallyWidget/Nope": folder.path])) }

        // A stand-in for an Apple framework Lockstep lacks: a module of that name each platform's modules import.
        let framework = try BuildPlan.make(.init(project: Self.spec, standIns: ["CoreLocation": folder.path]))
        #expect(framework.modules.filter { $0.name == "CoreLocation" }.map(\.platform) == [.watchOS, .iOS])
        #expect(framework.modules.filter { $0.name != "CoreLocation" }.allSatisfy { $0.dependencies.contains("CoreLocation") })
        // Lockstep provides a CoreLocation too: the team's takes its place in the generated package.
        let iOS = framework.modules.filter { $0.platform == .iOS }
        let manifest = GeneratedPackage(platform: .iOS, modules: iOS, folder: "/nowhere", lockstep: "/lockstep").manifest(withStandInHost: false)
        #expect(!manifest.contains(".product(name: \"CoreLocation\"") && manifest.contains(".product(name: \"UniformTypeIdentifiers\""), "\(manifest)")
    }
}

@Suite struct ManifestValueTests {
    /// A setting nothing defines is empty when Xcode builds: Apple's samples write `$(SAMPLE_CODE_DISAMBIGUATOR)`, set
    /// to `${DEVELOPMENT_TEAM}`, which a checkout without a team leaves unset.
    @Test func anUnsetSettingIsEmptyInTheManifest() {
        #expect(ProjectBuild.unsetAsEmpty("group.example.Birds$(DEVELOPMENT_TEAM)") == "group.example.Birds")
        #expect(ProjectBuild.unsetAsEmpty("com.example.${TEAM}.app") == "com.example..app")
        #expect(ProjectBuild.unsetAsEmpty("price$5 $(") == "price$5 $(")
        #expect(ProjectBuild.unsetAsEmpty("plain") == "plain")
    }
}

@Suite struct GeneratedPackageTests {
    /// Every module of a generated package depends on each of these products of Lockstep's: each must be one.
    @Test func theAppleNamedProductsAreLockstepsProducts() throws {
        let manifest = ProjectBuildTests.fixture.deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Package.swift")
        let text = try String(contentsOf: manifest, encoding: .utf8)
        for product in GeneratedPackage.appleProducts {
            #expect(text.contains(".library(name: \"\(product)\""), "\(product) is no library product of Package.swift")
        }
    }
}

extension GeneratedPackageTests {
    @Test func buildCopiesAreNamedApartFromTheTeamsFiles() {
        #expect(GeneratedPackage.copyName(of: "Views/Row.swift") == "Views/Row.lockstep.swift")
        #expect(GeneratedPackage.copyName(of: "main.swift") == "main.swift")
        #expect(GeneratedPackage.copyName(of: "Watch/main.swift") == "Watch/main.swift")
    }

    /// A build copy named as the team's file gave a `#fileID` warning for every file of every build; the copy's own
    /// name gives none.
    @Test func aBuildCopyCompilesWithoutAFileIDWarning() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("lockstep-copyname-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let swiftc = URL(fileURLWithPath: Toolchain.swift).deletingLastPathComponent().appendingPathComponent("swiftc").path
        func warnings(copyNamed name: String) throws -> String {
            let copy = folder.appendingPathComponent(name)
            try "#sourceLocation(file: \"/team/Widget/Row.swift\", line: 1)\nlet row = #fileID\n".write(to: copy, atomically: true, encoding: .utf8)
            let process = Process()
            process.executableURL = URL(fileURLWithPath: swiftc)
            process.arguments = ["-parse-as-library", "-module-name", "Widget", "-c", "-wmo", copy.path, "-o", folder.appendingPathComponent("out.o").path]
            let errors = Pipe()
            process.standardError = errors
            try process.run()
            let text = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            #expect(process.terminationStatus == 0, "\(text)")
            return text
        }
        // The old name shows what the test guards against, so the test can fail.
        #expect(try warnings(copyNamed: "Row.swift").contains("conflicts with '#fileID' strings"))
        #expect(try !warnings(copyNamed: GeneratedPackage.copyName(of: "Row.swift")).contains("#fileID"))
    }
}

@Suite struct SpecSourcesTests {
    /// XcodeGen's `excludes` and `includes` globs, as its sources are listed (`**/` any folders, none included).
    @Test func globsMatchAsXcodeGenDoes() {
        #expect(SpecProject.glob("**/*Tests.swift", matches: "ATests.swift"))
        #expect(SpecProject.glob("**/*Tests.swift", matches: "Deep/Er/ATests.swift"))
        #expect(!SpecProject.glob("*Tests.swift", matches: "Deep/ATests.swift"))
        #expect(SpecProject.glob("Preview Content", matches: "Preview Content/Assets.xcassets"))
        #expect(SpecProject.glob("*.md", matches: "README.md") && !SpecProject.glob("*.md", matches: "README.mdx"))
        #expect(SpecProject.glob("Model?.swift", matches: "Model1.swift"))
    }

    /// A spec's `excludes` leave files out of the target, `optional` may be missing, `buildPhase: none` builds nothing.
    @Test func aSpecsSourceOptionsAreObeyed() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("spec-sources-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.copyItem(at: ProjectBuildTests.fixture, to: folder)
        try "struct Mock {}\n".write(to: folder.appendingPathComponent("Widget/TallyMock.swift"), atomically: true, encoding: .utf8)
        let spec = folder.appendingPathComponent("project.yml")
        var text = try String(contentsOf: spec, encoding: .utf8)
        text = text.replacingOccurrences(of: "    sources: [Widget, Shared]\n", with: """
                sources:
                  - path: Widget
                    excludes: ["**/*Mock.swift"]
                  - Shared
                  - path: Generated
                    optional: true
                  - path: Docs
                    buildPhase: none

            """)
        try text.write(to: spec, atomically: true, encoding: .utf8)
        let plan = try BuildPlan.make(.init(project: spec.path))
        let widget = try #require(plan.modules.first { $0.name == "TallyWidget" })
        #expect(widget.files.map { URL(fileURLWithPath: $0).lastPathComponent }.sorted() == ["TallyGoalWidget.swift", "TallyLinks.swift", "TallyModel.swift", "TallyPlace.swift", "TallySettings.swift", "TallyStore.swift", "TallyWidgets.swift"])
    }
}

/// A local package a target links becomes modules of the generated package, read with `swift package dump-package`;
/// what it needs from a package fetched by URL stops the bundle before the compiler unless a stand-in provides it.
@Suite struct LocalPackageTests {
    /// The Tally fixture in a fresh folder, its widget linking the local package `name` made of `files` (relative
    /// paths, Package.swift among them); returns the folder (removed by the caller) and the spec.
    static func fixture(package name: String, files: [String: String]) throws -> (folder: URL, spec: URL) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("local-package-\(UUID().uuidString)")
        try FileManager.default.copyItem(at: ProjectBuildTests.fixture, to: folder)
        for (path, text) in files {
            let file = folder.appendingPathComponent(name).appendingPathComponent(path)
            try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            try text.write(to: file, atomically: true, encoding: .utf8)
        }
        let spec = folder.appendingPathComponent("project.yml")
        var text = try String(contentsOf: spec, encoding: .utf8)
        text = text.replacingOccurrences(of: "targets:\n", with: "packages:\n  \(name):\n    path: \(name)\ntargets:\n")
        text = text.replacingOccurrences(of: "    sources: [Widget, Shared]\n", with: "    sources: [Widget, Shared]\n    dependencies:\n      - package: \(name)\n")
        try text.write(to: spec, atomically: true, encoding: .utf8)
        return (folder, spec)
    }

    @Test func aPackageProductIsItsTargetsAndItsRemoteDependencyIsSwiftPMs() throws {
        let (folder, spec) = try Self.fixture(package: "TallyKit", files: [
            "Package.swift": """
                // swift-tools-version:5.9
                import PackageDescription
                let package = Package(name: "TallyKit", platforms: [.iOS(.v17)],
                    products: [.library(name: "TallyKit", targets: ["TallyKit"])],
                    dependencies: [.package(url: "https://example.invalid/remote.git", from: "1.0.0"), .package(url: "https://example.invalid/Soup.git", exact: "2.4.3")],
                    targets: [.target(name: "TallyKit", dependencies: [.product(name: "Remote", package: "remote"), "Soup"], swiftSettings: [.define("TALLY_KIT")])])
                """,
            "Sources/TallyKit/Kit.swift": "public struct Kit {}\n",
        ])
        defer { try? FileManager.default.removeItem(at: folder) }

        let plan = try BuildPlan.make(.init(project: spec.path, targets: ["TallyWidget"]))
        let library = try #require(plan.modules.first { $0.name == "TallyKit" })
        #expect(library.defines == ["TALLY_KIT"] && library.languageMode == "5" && library.files.count == 1)
        // The local package's own `.package(url:)` is the generated package's: SwiftPM fetches and builds it. A
        // dependency by name (`"Soup"`) is the product of the package of that name, as SwiftPM finds it.
        #expect(library.packageProducts == [.init(name: "Remote", package: "remote"), .init(name: "Soup", package: "soup")])
        #expect(plan.remotePackages.map(\.url) == ["https://example.invalid/remote.git", "https://example.invalid/Soup.git"])
        #expect(plan.remotePackages.first?.dependencyLine == #".package(url: "https://example.invalid/remote.git", "1.0.0"..<"2.0.0")"#)
        let widget = try #require(plan.modules.first { $0.name == "TallyWidget" })
        #expect(widget.dependencies == ["TallyKit"] && widget.blocker == nil)

        let standIn = folder.appendingPathComponent("linux/Remote")
        try FileManager.default.createDirectory(at: standIn, withIntermediateDirectories: true)
        try "public enum Remote {}\n".write(to: standIn.appendingPathComponent("Remote.swift"), atomically: true, encoding: .utf8)
        let replaced = try BuildPlan.make(.init(project: spec.path, targets: ["TallyWidget"], standIns: ["Remote": standIn.path]))
        #expect(replaced.modules.first { $0.name == "TallyWidget" }?.blocker == nil)
        #expect(replaced.modules.first { $0.name == "TallyKit" }?.dependencies == ["Remote"])
        #expect(replaced.modules.first { $0.name == "TallyKit" }?.packageProducts == [.init(name: "Soup", package: "soup")])
        #expect(replaced.modules.first { $0.name == "Remote" }?.standIns == [standIn.path])
    }

    /// A target whose folder is the package's own (`path: "."`, Backyard Birds' data package) does not compile the
    /// package's manifest, as SwiftPM does not.
    @Test func aTargetAtThePackageRootLeavesOutPackageSwift() throws {
        let (folder, spec) = try Self.fixture(package: "RootKit", files: [
            "Package.swift": """
                // swift-tools-version:5.9
                import PackageDescription
                let package = Package(name: "RootKit", products: [.library(name: "RootKit", targets: ["RootKit"])],
                    targets: [.target(name: "RootKit", path: ".")])
                """,
            "Kit.swift": "public struct Kit {}\n",
        ])
        defer { try? FileManager.default.removeItem(at: folder) }
        let plan = try BuildPlan.make(.init(project: spec.path, targets: ["TallyWidget"]))
        let library = try #require(plan.modules.first { $0.name == "RootKit" })
        #expect(library.files.map { ($0 as NSString).lastPathComponent } == ["Kit.swift"], "\(library.files)")
    }
}

/// What real checkouts hold that must not stop a build: a file Lockstep never compiles that is not there (an
/// uninitialized submodule's Objective-C), and a bundle whose identifier the device refuses (left out, as `check`
/// reports it).
@Suite struct RealCheckoutTests {
    /// The Tally fixture in a fresh folder `name-UUID` (removed by the caller), its spec changed by `edit`.
    static func fixture(_ name: String, spec edit: (String) -> String) throws -> (folder: URL, spec: URL) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("\(name)-\(UUID().uuidString)")
        try FileManager.default.copyItem(at: ProjectBuildTests.fixture, to: folder)
        let spec = folder.appendingPathComponent("project.yml")
        try edit(try String(contentsOf: spec, encoding: .utf8)).write(to: spec, atomically: true, encoding: .utf8)
        return (folder, spec)
    }

    @Test func aMissingObjectiveCFileAndARefusedIdentifierLeaveTheRestToBuild() throws {
        let (folder, spec) = try Self.fixture("real-checkout") { text in
            text.replacingOccurrences(of: "    sources: [App, Shared]\n", with: "    sources: [App, Shared, Vendor/Markdown/NSString+Markdown.m]\n")
                .replacingOccurrences(of: "PRODUCT_BUNDLE_IDENTIFIER: com.example.Tally.watchkitapp", with: "PRODUCT_BUNDLE_IDENTIFIER: .watchkitapp")
        }
        defer { try? FileManager.default.removeItem(at: folder) }
        let plan = try BuildPlan.make(.init(project: spec.path))
        #expect(plan.modules.map(\.name) == ["Tally", "TallyWidget"])
        #expect(plan.notBuilt.map(\.bundle.name) == ["TallyWatch"])
        #expect(plan.notBuilt.first?.reason == "its bundle identifier '.watchkitapp' is not one a device installs (lockstep check reports it)")
    }

    /// An app whose bundle id takes its prefix from an xcconfig each developer copies from a template (Ice Cubes'
    /// `$(BUNDLE_ID_PREFIX)`): the build stops before anything is written or compiled, with one sentence naming the
    /// setting and the file it would have come from (it said that neither the app nor the stand-in app built).
    @Test func anAppWhoseIdentifierNeedsAMissingXcconfigStopsTheBuildSayingWhy() throws {
        let (folder, spec) = try Self.fixture("missing-xcconfig") { text in
            text.replacingOccurrences(of: "  Tally:\n    type: application\n    platform: iOS\n", with: """
                  Tally:
                    type: application
                    platform: iOS
                    configFiles:
                      Debug: Config/Local.xcconfig
                    settings:
                      PRODUCT_BUNDLE_IDENTIFIER: $(ID_PREFIX).Tally

                """)
        }
        defer { try? FileManager.default.removeItem(at: folder) }
        do {
            _ = try BuildPlan.make(.init(project: spec.path))
            Issue.record("the plan was made")
        } catch let error as BuildError {
            #expect(error.exitStatus == .invalidInput)
            #expect(error.description.hasPrefix("The project 'Tally' has no target Lockstep can run: its app Tally is not built: its bundle identifier '$(ID_PREFIX).Tally' uses ID_PREFIX, which the checkout does not define, and '.Tally' is not one a device installs. It would have come from '\(folder.path)/Config/Local.xcconfig', the base configuration file of target 'Tally' [Debug]"),
                    "\(error.description)")
        }
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent(".build").path))
    }

    /// A watch app's intents extension with no `@main` (a principal class starts it): the report names the platform
    /// that starts it, watchOS, not iOS (NetNewsWire's Mac extensions were said to be started by iOS).
    @Test func anExtensionWithoutMainNamesItsOwnPlatform() throws {
        let (folder, spec) = try Self.fixture("watch-intents") { text in
            text.replacingOccurrences(of: "        WKCompanionAppBundleIdentifier: com.example.Tally\n", with: """
                        WKCompanionAppBundleIdentifier: com.example.Tally
                    dependencies:
                      - target: TallyWatchIntents

                """) + """
                  TallyWatchIntents:
                    type: app-extension
                    platform: watchOS
                    settings:
                      PRODUCT_BUNDLE_IDENTIFIER: com.example.Tally.watchkitapp.intents
                    sources: [WatchIntents]
                    info:
                      path: WatchIntents/Info.plist
                      properties:
                        CFBundleShortVersionString: $(MARKETING_VERSION)
                        CFBundleVersion: $(CURRENT_PROJECT_VERSION)
                        NSExtension:
                          NSExtensionPointIdentifier: com.apple.intents-service
                          NSExtensionPrincipalClass: $(PRODUCT_MODULE_NAME).IntentHandler

                """
        }
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("WatchIntents"), withIntermediateDirectories: true)
        try "import Intents\n\nclass IntentHandler: INExtension {}\n".write(to: folder.appendingPathComponent("WatchIntents/IntentHandler.swift"), atomically: true, encoding: .utf8)
        let plan = try BuildPlan.make(.init(project: spec.path))
        let intents = try #require(plan.modules.first { $0.name == "TallyWatchIntents" })
        #expect(intents.platform == .watchOS)
        #expect(intents.blocker == "it has no @main entry point, and watchOS starts an intents extension from a principal class Lockstep cannot make",
                "\(String(describing: intents.blocker))")
    }
}
