import BundleKit
import CheckKit
import Foundation
import LockstepTestSupport
import Testing

/// `lockstep check` and `lockstep bump` on an `.xcodeproj`, as the real executable: output and exit statuses.
@Suite struct XcodeCommandTests {
    @Test func checkFindsTheOverridingWidgetThenBumpFixesIt() throws {
        let tree = try FixtureTree(HabitsFixture.files)
        defer { tree.cleanUp() }
        let project = tree.path + "/Habits.xcodeproj"

        let check = try run("lockstep", ["check", project, "--configuration", "Release"])
        #expect(check.status == 1, "\(check)")
        let lines = check.stdout.split(separator: "\n").map(String.init)
        // The finding points at the setting's line in project.pbxproj (`path:line:column:`).
        #expect(lines.contains { $0.hasPrefix("\(project)/project.pbxproj:") && $0.contains(": error: The CFBundleVersion of an app extension ('1') must match that of its containing parent app ('289').") && $0.hasSuffix("[version.build-mismatch]") })
        #expect(lines.contains { $0.hasPrefix("\(project)/project.pbxproj:") && $0.contains(": warning: target 'HabitsWidget' [Release] sets CURRENT_PROJECT_VERSION = 1 itself") && $0.hasSuffix("[settings.target-override]") })
        #expect(lines.contains { $0.hasPrefix("\(tree.path)/HabitsWidget/Info.plist: warning: CFBundleDisplayName of target 'HabitsWidget' [Release]") && $0.hasSuffix("[settings.unresolved]") })
        // The App Clip is a bundle of the set; three targets claim the group and copy no privacy manifest.
        #expect(lines.last == "1 error, 5 warnings in 6 bundles.")

        // Every configuration by default; the folder holding the project works too.
        let all = try run("lockstep", ["check", tree.path, "--format", "json"])
        #expect(all.status == 1)
        // Debug and Release share the mismatch and the override: each is reported once.
        #expect(all.stdout.components(separatedBy: #""rule" : "version.build-mismatch""#).count == 2)
        #expect(all.stdout.contains("target 'HabitsWidget' [Debug, Release] sets CURRENT_PROJECT_VERSION = 1 itself"))

        let bump = try run("lockstep", ["bump", project, "--build", "next"])
        #expect(bump.status == 0, "\(bump)")  // agrees now; only the two warnings remain
        #expect(bump.stdout.hasPrefix("lockstep bump: updated \(tree.path)/Config/Shared.xcconfig\nlockstep bump: updated \(project)/project.pbxproj\n"))
        #expect(!bump.stdout.contains("[version.build-mismatch]"))
        let after = try XcodeProjectInput.load(project)
        #expect(after.sets.allSatisfy { $0.all.allSatisfy { $0.buildVersion == "290" } })
    }

    @Test func unreadableProjectsAndUnknownConfigurationsExitTwo() throws {
        let text = HabitsFixture.files["Habits.xcodeproj/project.pbxproj"]!
        let tree = try FixtureTree(HabitsFixture.files.merging(["Broken.xcodeproj/project.pbxproj": String(text.prefix(4000))]) { $1 })
        defer { tree.cleanUp() }
        let unknown = try run("lockstep", ["check", tree.path + "/Habits.xcodeproj", "--configuration", "Beta"])
        #expect(unknown.status == 2)
        #expect(unknown.stderr == "lockstep check: The Xcode project '\(tree.path)/Habits.xcodeproj' has no build configuration 'Beta'; its configurations are Debug, Release.\n")

        let broken = tree.path + "/Broken.xcodeproj"
        let check = try run("lockstep", ["check", broken])
        #expect(check.status == 2)
        #expect(check.stderr.hasPrefix("lockstep check: The Xcode project '\(broken)' cannot be read: project.pbxproj is not a valid property list: the file ends early (truncated?)"))
        let bump = try run("lockstep", ["bump", broken, "--build", "5"])
        #expect(bump.status == 2)
        #expect(try tree.read("Broken.xcodeproj/project.pbxproj") == String(text.prefix(4000)))
    }
}
