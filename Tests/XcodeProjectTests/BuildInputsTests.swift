import Foundation
import Testing
@testable import XcodeKit

/// What `lockstep build` reads of each target from a project.pbxproj: the Swift files of its Sources phase, the
/// resources of its Resources phase, a synchronized folder's files less its exceptions, the package products it
/// links, and the project's local packages.
@Suite struct BuildInputsTests {
    @Test func eachTargetsFilesProductsAndPackages() throws {
        var fixture = ProjectFixture(objectVersion: 77)
        var app = ProjectFixture.Target.app("App", identifier: "com.x.app", plist: nil, embeds: ["Widget"])
        app.sources = ["App/AppMain.swift", "Shared/Model.swift"]
        app.resources = ["App/Assets.xcassets", "App/en.lproj"]
        app.linkedProducts = ["Markdown"]
        var widget = ProjectFixture.Target.appExtension("Widget", identifier: "com.x.app.widget", plist: nil)
        widget.synchronized = ["Widget": ["Preview.swift", "Old"], "Modules": []]
        widget.packageProducts = ["Kit"]
        fixture.targets = [app, widget]
        fixture.localPackages = ["Packages/Kit"]
        let tree = try FixtureTree([
            "App.xcodeproj/project.pbxproj": fixture.pbxproj(),
            "App/AppMain.swift": "", "Shared/Model.swift": "", "App/Assets.xcassets/Contents.json": "{}",
            "App/en.lproj/Localizable.strings": "", "Widget/W.swift": "", "Widget/Deep/More.swift": "", "Widget/Preview.swift": "",
            "Widget/Old/Gone.swift": "", "Widget/Info.plist": "", "Widget/Media.xcassets/Contents.json": "{}",
            "Packages/Kit/Package.swift": "", "Modules/Feed/Package.swift": "", "Modules/Feed/Sources/Feed/Feed.swift": "",
        ])
        defer { tree.cleanUp() }
        let root = URL(fileURLWithPath: tree.path).standardized.path
        let project = try XcodeProject(path: tree.path + "/App.xcodeproj")
        let inputs = try project.buildInputs()
        let appInputs = try #require(inputs[project.targets[0].id])
        #expect(appInputs.swiftFiles == ["\(root)/App/AppMain.swift", "\(root)/Shared/Model.swift"])
        #expect(appInputs.resources == ["\(root)/App/Assets.xcassets", "\(root)/App/en.lproj"])
        // Linked by its Frameworks phase alone, as Bark's notification service links swift-markdown's product.
        #expect(appInputs.packageProducts == ["Markdown"])
        let widgetInputs = try #require(inputs[project.targets[1].id])
        // The package in the synchronized Modules folder is a package, not the target's own files.
        #expect(widgetInputs.swiftFiles.sorted() == ["\(root)/Widget/Deep/More.swift", "\(root)/Widget/W.swift"])
        #expect(widgetInputs.resources == ["\(root)/Widget/Media.xcassets"])
        #expect(widgetInputs.packageProducts == ["Kit"])
        // A package referenced, and one Xcode 16 finds in a synchronized folder (NetNewsWire's Modules/).
        #expect(try project.localPackages() == ["\(root)/Packages/Kit", "\(root)/Modules/Feed"])
    }

    /// An intent definition in a Sources phase is one Xcode generates classes from, unless its membership says "No
    /// Generated Classes" (AltStore's app target, whose framework generates them).
    @Test func anIntentDefinitionGeneratesClassesUnlessItsMembershipSaysNot() throws {
        var fixture = ProjectFixture()
        var app = ProjectFixture.Target.app("App", identifier: "com.x.app", plist: nil, embeds: ["Widget"])
        app.sources = ["App/AppMain.swift", "Shared/Intents.intentdefinition"]
        app.noCodegen = ["Shared/Intents.intentdefinition"]
        var widget = ProjectFixture.Target.appExtension("Widget", identifier: "com.x.app.widget", plist: nil)
        widget.sources = ["Widget/W.swift", "Shared/Intents.intentdefinition"]
        fixture.targets = [app, widget]
        let tree = try FixtureTree(["App.xcodeproj/project.pbxproj": fixture.pbxproj(), "App/AppMain.swift": "", "Widget/W.swift": "",
                                    "Shared/Intents.intentdefinition": ""])
        defer { tree.cleanUp() }
        let root = URL(fileURLWithPath: tree.path).standardized.path
        let project = try XcodeProject(path: tree.path + "/App.xcodeproj")
        let inputs = try project.buildInputs()
        let appInputs = try #require(inputs[project.targets[0].id])
        #expect(appInputs.intentDefinitions.isEmpty && appInputs.swiftFiles == ["\(root)/App/AppMain.swift"] && appInputs.resources.isEmpty)
        let widgetInputs = try #require(inputs[project.targets[1].id])
        #expect(widgetInputs.intentDefinitions == ["\(root)/Shared/Intents.intentdefinition"])
        #expect(widgetInputs.resources.isEmpty)
    }

    /// Packages fetched from a URL: each `XCRemoteSwiftPackageReference` with its requirement, whatever kind Xcode
    /// wrote, and the products the targets link of it; SwiftPM's identity comes from the URL.
    @Test func remotePackagesAreReadWithTheirRequirementsAndProducts() throws {
        var fixture = ProjectFixture()
        fixture.remotePackages = [
            ("https://github.com/apple/swift-collections.git", "kind = upToNextMajorVersion; minimumVersion = 1.1.0;"),
            ("https://github.com/kean/Nuke", "kind = upToNextMinorVersion; minimumVersion = 12.8.0;"),
            ("https://github.com/a/Exact", "kind = exactVersion; version = 2.0.0;"),
            ("git@github.com:a/Range.git", "kind = versionRange; minimumVersion = 1.0.0; maximumVersion = 3.0.0;"),
            ("https://github.com/a/Branch", "branch = develop; kind = branch;"),
            ("https://github.com/a/Revision", "kind = revision; revision = 0123abcd;"),
        ]
        var app = ProjectFixture.Target.app("App", identifier: "com.x.app", plist: nil)
        app.remoteProducts = [("OrderedCollections", "https://github.com/apple/swift-collections.git"), ("NukeUI", "https://github.com/kean/Nuke"),
                              ("Nuke", "https://github.com/kean/Nuke")]
        var widget = ProjectFixture.Target.appExtension("Widget", identifier: "com.x.app.widget", plist: nil)
        widget.remoteProducts = [("Nuke", "https://github.com/kean/Nuke"), ("Exact", "https://github.com/a/Exact")]
        fixture.targets = [app, widget]
        let tree = try FixtureTree(["App.xcodeproj/project.pbxproj": fixture.pbxproj()])
        defer { tree.cleanUp() }
        let project = try XcodeProject(path: tree.path + "/App.xcodeproj")
        let packages = try project.remotePackages()
        #expect(packages.map(\.identity) == ["swift-collections", "nuke", "exact", "range", "branch", "revision"])
        #expect(packages.map(\.requirement) == [.upToNextMajor("1.1.0"), .upToNextMinor("12.8.0"), .exact("2.0.0"), .range("1.0.0", "3.0.0"),
                                                .branch("develop"), .revision("0123abcd")])
        #expect(packages.map(\.products) == [["OrderedCollections"], ["NukeUI", "Nuke"], ["Exact"], [], [], []])
        #expect(try project.buildInputs()[project.targets[1].id]?.packageProducts == ["Nuke", "Exact"])
    }

    @Test func aFileTheSourcesPhaseNamesThatIsNotThereIsMissing() throws {
        var fixture = ProjectFixture()
        var app = ProjectFixture.Target.app("App", identifier: "com.x.app", plist: nil)
        app.sources = ["App/Gone.swift"]
        fixture.targets = [app]
        let tree = try FixtureTree(["App.xcodeproj/project.pbxproj": fixture.pbxproj()])
        defer { tree.cleanUp() }
        let project = try XcodeProject(path: tree.path + "/App.xcodeproj")
        let inputs = try #require(try project.buildInputs()[project.targets[0].id])
        #expect(inputs.swiftFiles.isEmpty && inputs.missing.count == 1 && inputs.missing[0].hasSuffix("/App/Gone.swift"))
    }
}
