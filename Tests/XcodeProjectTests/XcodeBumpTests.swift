@testable import BundleKit
@testable import CheckKit
import Foundation
import LockstepTestSupport
import Testing

@Suite struct XcodeBumpTests {
    /// The lines that differ between two versions of a file with the same number of lines.
    func changedLines(_ before: String, _ after: String) -> [String] {
        let old = before.split(separator: "\n", omittingEmptySubsequences: false)
        let new = after.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(old.count == new.count)
        return zip(old, new).filter { $0 != $1 }.map { "\($0.0.trimmingCharacters(in: .whitespaces)) → \($0.1.trimmingCharacters(in: .whitespaces))" }
    }

    /// Runs `body` on a fresh checkout of `files` (the Habits project's by default), then expects every file of the
    /// checkout to read as it was written: a refused bump writes nothing.
    func expectNothingWritten(_ files: [String: String] = HabitsFixture.files, sourceLocation: Testing.SourceLocation = #_sourceLocation,
                              _ body: (FixtureTree) throws -> Void) throws {
        let tree = try FixtureTree(files)
        defer { tree.cleanUp() }
        try body(tree)
        for (path, text) in files.sorted(by: { $0.key < $1.key }) {
            #expect(try tree.read(path) == text, "\(path) was written", sourceLocation: sourceLocation)
        }
    }

    @Test func bumpEditsOnlyTheDefinitionsAndTheProjectThenAgrees() throws {
        let tree = try FixtureTree(HabitsFixture.files)
        defer { tree.cleanUp() }
        let project = tree.path + "/Habits.xcodeproj"
        let pbxproj = try tree.read("Habits.xcodeproj/project.pbxproj")
        let shared = try tree.read("Config/Shared.xcconfig")
        let base = try tree.read("Config/Base.xcconfig")
        let plist = try tree.read("Habits/Info.plist")

        let changed = try XcodeProjectInput.bump(project, build: "290", version: "2.2")
        #expect(changed == [tree.path + "/Config/Base.xcconfig", tree.path + "/Config/Shared.xcconfig", project + "/project.pbxproj"])
        // The project's value and the widget's override, in both configurations; tests and framework untouched.
        let pbxprojChanges = changedLines(pbxproj, try tree.read("Habits.xcodeproj/project.pbxproj"))
        #expect(pbxprojChanges.sorted() == [
            "CURRENT_PROJECT_VERSION = 1; → CURRENT_PROJECT_VERSION = 290;",
            "CURRENT_PROJECT_VERSION = 1; → CURRENT_PROJECT_VERSION = 290;",
            "CURRENT_PROJECT_VERSION = 289; → CURRENT_PROJECT_VERSION = 290;",
            "CURRENT_PROJECT_VERSION = 289; → CURRENT_PROJECT_VERSION = 290;",
        ])
        #expect(changedLines(shared, try tree.read("Config/Shared.xcconfig")) == [
            "MARKETING_VERSION = 2.0 → MARKETING_VERSION = 2.2",
            "CURRENT_PROJECT_VERSION = 1 // the project's pbxproj value wins over this → CURRENT_PROJECT_VERSION = 290 // the project's pbxproj value wins over this",
        ])
        #expect(changedLines(base, try tree.read("Config/Base.xcconfig")) == [
            "MARKETING_VERSION = 2.1 // the last definition wins → MARKETING_VERSION = 2.2 // the last definition wins",
        ])
        #expect(try tree.read("Habits/Info.plist") == plist)

        let result = try XcodeProjectInput.load(project)
        for set in result.sets {
            #expect(set.all.allSatisfy { $0.buildVersion == "290" && $0.shortVersion == "2.2" })
        }
        #expect(try XcodeProjectInput.bump(project, build: "290", version: nil) == [])  // nothing left to change
    }

    /// A read-only xcconfig among the files to change: refused before anything is written, so the pbxproj the
    /// bump would also have changed is left byte for byte as it was.
    @Test func readOnlyFileLeavesTheWholeProjectUntouched() throws {
        try expectNothingWritten { tree in
            #expect(chmod(tree.path + "/Config/Shared.xcconfig", 0o444) == 0)
            #expect(throws: BundleError(.invalidBump, path: tree.path + "/Config/Shared.xcconfig", detail: "the file is read-only; nothing was written")) {
                try XcodeProjectInput.bump(tree.path + "/Habits.xcodeproj", build: "290", version: nil)
            }
        }
    }

    @Test func literalInfoPlistValuesAndNext() throws {
        let fixture = ProjectFixture(projectSettings: ["CURRENT_PROJECT_VERSION": "9"], targets: [
            .app("App", identifier: "com.example.app", plist: "App/Info.plist", embeds: ["Share"]),
            .appExtension("Share", identifier: "com.example.app.share", plist: "Share/Info.plist"),
        ])
        let tree = try FixtureTree([
            "App.xcodeproj/project.pbxproj": fixture.pbxproj(),
            "App/Info.plist": FixtureTree.plist(["CFBundleVersion": "1.0.77", "CFBundleShortVersionString": "1.0"]),
            "Share/Info.plist": FixtureTree.plist(["CFBundleVersion": "1.0.76", "CFBundleShortVersionString": "1.0"]),
        ])
        defer { tree.cleanUp() }
        let before = try tree.read("Share/Info.plist")
        let changed = try XcodeProjectInput.bump(tree.path + "/App.xcodeproj", build: "next", version: nil)
        #expect(changed == [tree.path + "/App.xcodeproj/project.pbxproj", tree.path + "/App/Info.plist", tree.path + "/Share/Info.plist"])
        #expect(changedLines(before, try tree.read("Share/Info.plist")) == ["<string>1.0.76</string> → <string>1.0.78</string>"])
        let set = try XcodeProjectInput.load(tree.path + "/App.xcodeproj", configuration: "Release").sets[0]
        #expect(set.all.map(\.buildVersion) == ["1.0.78", "1.0.78"])
    }

    @Test func bumpFollowsIndirectionAndConditionalKeys() throws {
        let fixture = ProjectFixture(projectSettings: ["CURRENT_PROJECT_VERSION": "$(BUILD_NUMBER)", "MARKETING_VERSION": "2.0"], projectXcconfig: "Config/Version.xcconfig", targets: [
            .app("App", identifier: "com.example.app", plist: nil, embeds: ["Widget"]),
            .appExtension("Widget", identifier: "com.example.app.widget", plist: nil, settings: ["MARKETING_VERSION[sdk=iphoneos*]": "1.9"]),
        ])
        let tree = try FixtureTree([
            "App.xcodeproj/project.pbxproj": fixture.pbxproj(),
            "Config/Version.xcconfig": "// CI sets BUILD_NUMBER\nBUILD_NUMBER = 41\nBUILD_NUMBER[config=Debug] = 1",
        ])
        defer { tree.cleanUp() }
        let pbxproj = try tree.read("App.xcodeproj/project.pbxproj")
        let xcconfig = try tree.read("Config/Version.xcconfig")
        let changed = try XcodeProjectInput.bump(tree.path + "/App.xcodeproj", build: "next", version: "2.1")
        #expect(changed == [tree.path + "/App.xcodeproj/project.pbxproj", tree.path + "/Config/Version.xcconfig"])
        // 'next' increments the highest of the app's builds (Release's 41, not Debug's 1), written where each
        // configuration reads it.
        #expect(changedLines(xcconfig, try tree.read("Config/Version.xcconfig")) == [
            "BUILD_NUMBER = 41 → BUILD_NUMBER = 42", "BUILD_NUMBER[config=Debug] = 1 → BUILD_NUMBER[config=Debug] = 42",
        ])
        #expect(changedLines(pbxproj, try tree.read("App.xcodeproj/project.pbxproj")).sorted() == [
            "\"MARKETING_VERSION[sdk=iphoneos*]\" = 1.9; → \"MARKETING_VERSION[sdk=iphoneos*]\" = 2.1;",
            "\"MARKETING_VERSION[sdk=iphoneos*]\" = 1.9; → \"MARKETING_VERSION[sdk=iphoneos*]\" = 2.1;",
            "MARKETING_VERSION = 2.0; → MARKETING_VERSION = 2.1;",
            "MARKETING_VERSION = 2.0; → MARKETING_VERSION = 2.1;",
        ])
        let result = try XcodeProjectInput.load(tree.path + "/App.xcodeproj")
        #expect(result.sets.flatMap(\.all).allSatisfy { $0.buildVersion == "42" && $0.shortVersion == "2.1" })
    }

    @Test func windowsLineEndingsAreReadAndKept() throws {
        let fixture = ProjectFixture(projectXcconfig: "Version.xcconfig", targets: [
            .app("App", identifier: "com.example.app", plist: nil),
        ])
        let tree = try FixtureTree([
            "App.xcodeproj/project.pbxproj": fixture.pbxproj(),
            "Version.xcconfig": "// versions\r\nMARKETING_VERSION = 1.0\r\nCURRENT_PROJECT_VERSION = 7\r\n",
        ])
        defer { tree.cleanUp() }
        #expect(try XcodeProjectInput.load(tree.path + "/App.xcodeproj", configuration: "Release").sets[0].app.buildVersion == "7")
        _ = try XcodeProjectInput.bump(tree.path + "/App.xcodeproj", build: "8", version: nil)
        #expect(try tree.read("Version.xcconfig") == "// versions\r\nMARKETING_VERSION = 1.0\r\nCURRENT_PROJECT_VERSION = 8\r\n")
    }

    @Test func invalidValuesWriteNothing() throws {
        try expectNothingWritten { tree in
            let project = tree.path + "/Habits.xcodeproj"
            #expect(throws: BundleError(.invalidBump, path: project, detail: "'2.0-beta' is not a valid CFBundleShortVersionString: it must be a period-separated list of at most 3 non-negative integers")) {
                try XcodeProjectInput.bump(project, build: "300", version: "2.0-beta")
            }
            #expect(throws: BundleError.self) { try XcodeProjectInput.bump(project, build: "1.2.3.4.5", version: nil) }
        }
    }

    @Test func aVersionBuiltFromSeveralSettingsIsRefusedBeforeWriting() throws {
        let fixture = ProjectFixture(projectSettings: ["CURRENT_PROJECT_VERSION": "9", "MARKETING_VERSION": "1.0"], targets: [
            .app("App", identifier: "com.example.app", plist: "App/Info.plist"),
        ])
        try expectNothingWritten([
            "App.xcodeproj/project.pbxproj": fixture.pbxproj(),
            "App/Info.plist": FixtureTree.plist(["CFBundleVersion": "$(MARKETING_VERSION).$(CURRENT_PROJECT_VERSION)"]),
        ]) { tree in
            do {
                _ = try XcodeProjectInput.bump(tree.path + "/App.xcodeproj", build: "10", version: nil)
                Issue.record("bump accepted a composite CFBundleVersion")
            } catch let error as BundleError {
                #expect(error.description == "Cannot bump '\(tree.path)/App.xcodeproj/project.pbxproj': CFBundleVersion of target 'App' [Debug] is '$(MARKETING_VERSION).$(CURRENT_PROJECT_VERSION)', which is not a single setting Lockstep can set; edit it by hand.")
            }
        }
    }
}
