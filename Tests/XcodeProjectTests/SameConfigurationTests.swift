@testable import CheckKit
import Foundation
import LockstepTestSupport
import Testing
import XcodeKit

/// `check` runs the rules once for the configurations whose bundles are the same but for where their values are
/// written (issue 30): what it reports must be what running the rules for every configuration reports.
@Suite struct SameConfigurationTests {
    /// The findings of the project and of every set, each kept unless an earlier one is the same but for its line
    /// and column: what `check` reported when it ran the rules for every configuration.
    static func everySet(_ path: String) throws -> [Finding] {
        let loaded = try XcodeProjectInput.load(path)
        var kept: [Finding] = []
        for finding in loaded.findings + loaded.sets.flatMap(Rules.check) where !kept.contains(where: { $0.equalsIgnoringPosition(finding) }) {
            kept.append(finding)
        }
        return kept
    }

    /// A widget whose build number is set at its own level, per configuration (none: it inherits the project's).
    static func project(widgetBuild: [String: String]) throws -> FixtureTree {
        let fixture = ProjectFixture(projectSettings: ["CURRENT_PROJECT_VERSION": "5", "MARKETING_VERSION": "1.0"], targets: [
            .app("App", identifier: "com.example.app", plist: nil, embeds: ["Widget"]),
            .init(name: "Widget", productType: "com.apple.product-type.app-extension",
                  settings: ["PRODUCT_BUNDLE_IDENTIFIER": "com.example.app.widget", "INFOPLIST_FILE": "Widget/Info.plist"],
                  perConfiguration: widgetBuild.mapValues { ["CURRENT_PROJECT_VERSION": $0] }),
        ])
        return try FixtureTree([
            "App.xcodeproj/project.pbxproj": fixture.pbxproj(),
            "Widget/Info.plist": FixtureTree.plist([
                "CFBundleIdentifier": "$(PRODUCT_BUNDLE_IDENTIFIER)", "CFBundleVersion": "$(CURRENT_PROJECT_VERSION)",
                "CFBundleShortVersionString": "$(MARKETING_VERSION)",
                "NSExtension": ["NSExtensionPointIdentifier": "com.apple.widgetkit-extension"],
            ]),
        ])
    }

    /// The generated project of the bench: Release is Debug but for the lines of its settings.
    @Test func aSampleProjectsReleaseIsItsDebugButForLines() throws {
        let directory = TestSupport.temporaryDirectory("same-configuration")
        defer { TestSupport.cleanUp(directory) }
        let path = try XcodeProjectInput.generateSampleProject(at: directory.path, targets: 12)
        let sets = try XcodeProjectInput.load(path).sets
        try #require(sets.count == 2)
        #expect(Rules.findsTheSame(in: sets[1], as: sets[0]))
        let findings = try CheckInput.check(path).findings
        #expect(!findings.isEmpty)
        #expect(findings == (try Self.everySet(path)))
    }

    /// A widget whose build number differs from the app's in Release only: Release is checked, and its mismatch
    /// reported.
    @Test func aConfigurationThatDiffersIsChecked() throws {
        let tree = try Self.project(widgetBuild: ["Release": "6"])
        defer { tree.cleanUp() }
        let path = tree.path + "/App.xcodeproj"
        let sets = try XcodeProjectInput.load(path).sets
        try #require(sets.count == 2)
        #expect(!Rules.findsTheSame(in: sets[1], as: sets[0]))
        let findings = try CheckInput.check(path).findings
        #expect(findings.filter { $0.rule == "version.build-mismatch" }.count == 1)
        #expect(findings == (try Self.everySet(path)))
    }

    /// The same wrong build number written in each configuration, each on its own line: one finding, at Debug's
    /// line, as when the rules ran for both.
    @Test func aValueWrittenInEachConfigurationIsReportedOnceAtTheFirstLine() throws {
        let tree = try Self.project(widgetBuild: ["Debug": "6", "Release": "6"])
        defer { tree.cleanUp() }
        let path = tree.path + "/App.xcodeproj"
        let sets = try XcodeProjectInput.load(path).sets
        try #require(sets.count == 2)
        #expect(sets[0].embedded[0].valueSources["CFBundleVersion"] != sets[1].embedded[0].valueSources["CFBundleVersion"])
        #expect(Rules.findsTheSame(in: sets[1], as: sets[0]))
        let findings = try CheckInput.check(path).findings
        let mismatches = findings.filter { $0.rule == "version.build-mismatch" }
        try #require(mismatches.count == 1)
        #expect(mismatches[0].line != nil)
        #expect(findings == (try Self.everySet(path)))
    }
}
