@testable import BundleKit
@testable import CheckKit
import Foundation
import LockstepTestSupport
import Testing
@testable import XcodeKit

/// `TargetResolver` takes a target's resolution in a later configuration from an earlier one when every setting the
/// earlier one read is assigned alike in both (issue 30): each configuration must still read exactly as when it is
/// read alone, its values' sources (files, details, lines) its own.
@Suite struct ConfigurationReuseTests {
    /// The widget's Info.plist: `ResolverCacheTests`' keys, and its extension point.
    static let plist = FixtureTree.plist(ResolverCacheTests.plistKeys.merging([
        "NSExtension": ["NSExtensionPointIdentifier": "com.apple.widgetkit-extension"],
    ]) { $1 })

    /// An app embedding a widget; `widget` and `project` are added to their settings, `perConfiguration` and
    /// `projectPerConfiguration` to each configuration's.
    static func fixture(widget: [String: String] = [:], perConfiguration: [String: [String: String]] = [:],
                        project: [String: String] = [:], projectPerConfiguration: [String: [String: String]] = [:],
                        xcconfigs: [String: String] = [:]) -> ProjectFixture {
        var fixture = ProjectFixture(projectSettings: ["CURRENT_PROJECT_VERSION": "5", "MARKETING_VERSION": "1.0"].merging(project) { $1 },
                                     targets: [
            .app("App", identifier: "com.example.app", plist: nil, embeds: ["Widget"]),
            .init(name: "Widget", productType: "com.apple.product-type.app-extension",
                  settings: ["PRODUCT_BUNDLE_IDENTIFIER": "com.example.app.widget", "INFOPLIST_FILE": "Widget/Info.plist"]
                      .merging(widget) { $1 },
                  perConfiguration: perConfiguration, xcconfigPerConfiguration: xcconfigs),
        ])
        fixture.projectPerConfiguration = projectPerConfiguration
        return fixture
    }

    /// Each configuration's bundle sets read together (one resolver for all, as `check` reads them) and alone:
    /// the records must be equal, with every value's source in the same file, detail, line and column. Returns,
    /// by configuration, whether the widget's resolution was taken from an earlier configuration.
    @discardableResult
    static func expectSameAsAlone(_ path: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) throws -> [String: Bool] {
        let project = try XcodeProject(path: path)
        let together = try ProjectReading(project: project, configuration: nil)
        var reused: [String: Bool] = [:]
        for configuration in together.configurations {
            let alone = try ProjectReading(project: project, configuration: configuration)
            for app in together.apps {
                let (members, app1, embedded1) = together.members(of: app, configuration: configuration)
                let (_, app2, embedded2) = alone.members(of: app, configuration: configuration)
                for (a, b) in zip([app1] + embedded1, [app2] + embedded2) {
                    #expect(a == b, "\(configuration): \(a.name)", sourceLocation: sourceLocation)
                    #expect(a.source.detail == b.source.detail, sourceLocation: sourceLocation)
                    for (key, source) in b.valueSources {
                        let other = a.valueSources[key]
                        #expect(other?.detail == source.detail && other?.line == source.line && other?.column == source.column
                                && other?.pbxprojSetting?.key == source.pbxprojSetting?.key
                                && other?.pbxprojSetting?.object == source.pbxprojSetting?.object,
                                "\(configuration): \(a.name) \(key): \(String(describing: other)) is not \(source)", sourceLocation: sourceLocation)
                    }
                }
                for member in members where member.resolved.target.name == "Widget" {
                    // A resolution taken from another configuration is never one to take from again.
                    reused[configuration] = !member.resolved.isReusable
                    #expect(member.resolved.context == "target 'Widget' [\(configuration)]", sourceLocation: sourceLocation)
                }
            }
        }
        return reused
    }

    static func tree(_ fixture: ProjectFixture, files: [String: String] = [:]) throws -> FixtureTree {
        try FixtureTree(["App.xcodeproj/project.pbxproj": fixture.pbxproj(), "Widget/Info.plist": plist].merging(files) { $1 })
    }

    @Test func aReleaseThatDiffersOnlyWhereItsValuesAreWrittenIsTakenFromDebug() throws {
        // Its own bundle id and build number, the same in each configuration, each on its own line.
        let tree = try Self.tree(Self.fixture(perConfiguration: ["Debug": ["CURRENT_PROJECT_VERSION": "5"], "Release": ["CURRENT_PROJECT_VERSION": "5"]],
                                              projectPerConfiguration: ["Debug": ["SWIFT_OPTIMIZATION_LEVEL": "-Onone"], "Release": ["SWIFT_OPTIMIZATION_LEVEL": "-O"]]))
        defer { tree.cleanUp() }
        let reused = try Self.expectSameAsAlone(tree.path + "/App.xcodeproj")
        #expect(reused == ["Debug": false, "Release": true])
    }

    @Test func aSettingItReadsThroughAnotherThatDiffersByConfigurationIsReadAgain() throws {
        let tree = try Self.tree(Self.fixture(widget: ["PRODUCT_BUNDLE_IDENTIFIER": "$(BASE_ID).widget"],
                                              projectPerConfiguration: ["Debug": ["BASE_ID": "com.example.debug"], "Release": ["BASE_ID": "com.example.app"]]))
        defer { tree.cleanUp() }
        let reused = try Self.expectSameAsAlone(tree.path + "/App.xcodeproj")
        #expect(reused["Release"] == false)
    }

    @Test func aValueThatNamesTheConfigurationIsReadAgain() throws {
        let tree = try Self.tree(Self.fixture(widget: ["CURRENT_PROJECT_VERSION": "5-$(CONFIGURATION)"]))
        defer { tree.cleanUp() }
        let reused = try Self.expectSameAsAlone(tree.path + "/App.xcodeproj")
        #expect(reused["Release"] == false)
    }

    @Test func aSettingOnlyALaterConfigurationDefinesIsReadAgain() throws {
        // Debug never defines it: its default stands in; Release's project level defines it.
        let tree = try Self.tree(Self.fixture(widget: ["CURRENT_PROJECT_VERSION": "$(EXTRA_BUILD:default=7)"],
                                              projectPerConfiguration: ["Release": ["EXTRA_BUILD": "9"]]))
        defer { tree.cleanUp() }
        let reused = try Self.expectSameAsAlone(tree.path + "/App.xcodeproj")
        #expect(reused["Release"] == false)
    }

    @Test func aTargetLevelThatDiffersIsReadAgain() throws {
        let tree = try Self.tree(Self.fixture(perConfiguration: ["Release": ["MARKETING_VERSION": "2.0"]]))
        defer { tree.cleanUp() }
        let reused = try Self.expectSameAsAlone(tree.path + "/App.xcodeproj")
        #expect(reused["Release"] == false)
    }

    @Test func valuesFromAnXcconfigPerConfigurationAreSourcedInEach() throws {
        let settings = "PRODUCT_BUNDLE_IDENTIFIER = com.example.app.widget\nCURRENT_PROJECT_VERSION = 5\n"
        let tree = try Self.tree(Self.fixture(xcconfigs: ["Debug": "Config/Debug.xcconfig", "Release": "Config/Release.xcconfig"]),
                                 files: ["Config/Debug.xcconfig": settings, "Config/Release.xcconfig": "// Release\n" + settings])
        defer { tree.cleanUp() }
        let reused = try Self.expectSameAsAlone(tree.path + "/App.xcodeproj")
        #expect(reused["Release"] == true)
    }

    @Test func theBenchsGeneratedProjectReadsAsAlone() throws {
        let directory = TestSupport.temporaryDirectory("configuration-reuse")
        defer { TestSupport.cleanUp(directory) }
        let path = try XcodeProjectInput.generateSampleProject(at: directory.path, targets: 6)
        let project = try XcodeProject(path: path)
        let together = try ProjectReading(project: project, configuration: nil)
        try Self.expectSameAsAlone(path)
        // Every Release resolution is Debug's but for where its values are written.
        let widgets = together.apps.flatMap { together.members(of: $0, configuration: "Debug").members + together.members(of: $0, configuration: "Release").members }
        #expect(widgets.filter { $0.resolved.configuration == "Release" }.allSatisfy { !$0.resolved.isReusable })
        #expect(widgets.filter { $0.resolved.configuration == "Debug" }.allSatisfy { $0.resolved.isReusable })
    }
}
