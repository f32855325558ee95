import Foundation
import LockstepTestSupport
import Testing

/// `lockstep build` and `lockstep up PROJECT` on a small multi-target project of our own (Fixtures/Tally: an app, its
/// widget and a watch app, sharing files written with `#if os(iOS)`/`os(watchOS)`), as separate processes.
@Suite(.serialized) struct ProjectBuildTests {
    static let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/Tally")

    /// A copy of the fixture in a fresh folder, so that its build folder and runs write nothing in the repository.
    static func copy() throws -> (folder: URL, spec: String) {
        let folder = TestSupport.temporaryDirectory("project-build")
        let destination = folder.appendingPathComponent("Tally")
        try FileManager.default.copyItem(at: fixture, to: destination)
        return (folder, destination.appendingPathComponent("project.yml").path)
    }

    /// Every file below `folder` but the build folder, with its bytes.
    static func snapshot(_ folder: URL) throws -> [String: Data] {
        var files: [String: Data] = [:]
        let enumerator = FileManager.default.enumerator(atPath: folder.path)
        while let relative = enumerator?.nextObject() as? String {
            if relative.hasPrefix(".build") { enumerator?.skipDescendants(); continue }
            var isDirectory: ObjCBool = false
            let path = folder.appendingPathComponent(relative).path
            if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue {
                files[relative] = try Data(contentsOf: URL(fileURLWithPath: path))
            }
        }
        return files
    }

    /// The whole path a team takes: `up` builds every target from the project's own files, unchanged, each with
    /// its platform's conditions and its configuration's defines, and launches them side by side with the app's App
    /// Group; a second build compiles nothing; a target that does not compile is reported with the compiler's first
    /// error and the first missing Apple symbol; a stand-in replaces the module.
    @Test func upBuildsAndRunsTheTeamsOwnTargets() throws {
        let (folder, spec) = try Self.copy()
        defer { TestSupport.cleanUp(folder) }
        let project = folder.appendingPathComponent("Tally")
        let before = try Self.snapshot(project)
        let up = try run("lockstep", ["up", spec, "--no-color"], timeout: 900)
        #expect(up.status == 0, "\(up)")
        #expect(up.stdout.contains("3 of 3 targets built (Debug)"), "\(up.stdout)")
        // The widget's shared file took its iOS branch on the simulator, and Debug's SWIFT_ACTIVE_COMPILATION_CONDITIONS.
        // The caption comes from the widget's string catalog.
        // (The small widget truncates the device line, as a device would.)
        #expect(up.stdout.contains("→ Tally 0 · counted today · iPhone simula… · debug"), "\(up.stdout)")
        // The widget kind declared only under #if os(iOS) is there.
        #expect(up.stdout.contains("reloaded TallyLockScreen"), "\(up.stdout)")
        #expect(up.stdout.contains("ready com.example.Tally.watchkitapp"), "\(up.stdout)")
        #expect(up.stdout.contains("TallyApp is running"), "\(up.stdout)")
        #expect(try Self.snapshot(project) == before, "the team's files changed")
        // The device is in the build folder, and the gallery shows every kind (the small widgets in full colour and
        // accented, a tinted Home Screen; the Lock Screen's inline one vibrant) and the PreviewProvider's preview,
        // which the build copy recorded (a file-scope provider under #if os(iOS)).
        #expect(up.stdout.contains("widget gallery: \(project.path)/.build/lockstep/groups/gallery.html (6 pictures)"), "\(up.stdout)")
        let preview = try String(contentsOf: project.appendingPathComponent(
            ".build/lockstep/groups/phone/AppGroup/group.com.example.tally/.lockstep/widgetkit/renders/Previews/1-TallyLockScreenPreviews-1.svg"),
            encoding: .utf8)
        #expect(preview.contains("42 counted") && preview.contains("Inline (accessoryInline)"), "\(preview)")

        // The widget drew its catalog's image at its size (48 × 32 pixels at 2x) and its catalog's color.
        let drawing = try String(contentsOf: project.appendingPathComponent(
            ".build/lockstep/groups/phone/AppGroup/group.com.example.tally/.lockstep/widgetkit/renders/Tally/systemSmall.svg"), encoding: .utf8)
        #expect(drawing.contains("<image href=\"data:image/png;base64,") && drawing.contains("width=\"24\" height=\"16\""), "\(drawing)")
        #expect(drawing.contains("fill=\"#5a58d1\""), "\(drawing)")
        // NSLocalizedString with no bundle named found the widget's string catalog, as on a device.
        let inline = try String(contentsOf: project.appendingPathComponent(
            ".build/lockstep/groups/phone/AppGroup/group.com.example.tally/.lockstep/widgetkit/renders/TallyLockScreen/accessoryInline.svg"), encoding: .utf8)
        #expect(inline.contains("0 counted so far"), "\(inline)")

        // The SiriKit widget builds with the classes Xcode generates from its target's .intentdefinition, and its
        // instance started with the file's defaults (a label, a number, a flag and an enum case).
        #expect(up.stdout.contains("reloaded TallyGoal (first timeline; not counted; next .never) → Cups: goal 8, bold with total"), "\(up.stdout)")
        // `configure` sets the generated intent's parameters (the enum by its case's name, the custom type by its
        // identifier), in the running widget process, and its timeline reads them.
        let scenario = folder.appendingPathComponent("goal.txt")
        try """
            send widget --kind TallyGoal configure --label Steps --goal 10000 --style compact --counter Walk
            wait widget configured TallyGoal
            send widget --kind TallyGoal render systemSmall
            wait widget Steps: goal 10000, compact with total of Walk

            """.write(to: scenario, atomically: true, encoding: .utf8)
        let configured = try run("lockstep", ["up", spec, "--scenario", scenario.path, "--no-color"], timeout: 600)
        #expect(configured.status == 0, "\(configured)")
        #expect(configured.stdout.contains("4 of 4 steps held"), "\(configured.stdout)")

        // The manifest carries what `check` resolves.
        let manifest = try String(contentsOf: project.appendingPathComponent(".build/lockstep/lockstep.json"), encoding: .utf8)
        #expect(manifest.contains("\"bundleIdentifier\" : \"com.example.Tally.watchkitapp\""), "\(manifest)")
        #expect(manifest.contains("\"buildVersion\" : \"7\""), "\(manifest)")
        #expect(manifest.contains("group.com.example.tally"), "\(manifest)")
        #expect(manifest.contains("/Widget/Assets.xcassets\""), "\(manifest)")

        // Nothing changed: no build copy is written again.
        let copy = project.appendingPathComponent(".build/lockstep/iOS/Sources/TallyWidget/Shared/TallyStore.lockstep.swift").path
        let written = try FileManager.default.attributesOfItem(atPath: copy)[.modificationDate] as? Date
        let again = try run("lockstep", ["build", spec, "--format", "json"], timeout: 600)
        #expect(again.status == 0, "\(again)")
        #expect(again.stdout.contains("\"built\" : true"), "\(again.stdout)")
        #expect(try FileManager.default.attributesOfItem(atPath: copy)[.modificationDate] as? Date == written)

        // A widget file that needs a UIKit view controller: the report names the target, the file and line, and the symbol.
        let bad = project.appendingPathComponent("Widget/Controller.swift")
        try "import UIKit\n\nlet accent = UIColor.systemIndigo\nlet controller = UIViewController()\n".write(to: bad, atomically: true, encoding: .utf8)
        let failed = try run("lockstep", ["build", spec, "--target", "TallyWidget"], timeout: 600)
        #expect(failed.status == 1, "\(failed)")
        #expect(failed.stdout.contains("✗ TallyWidget (widget, iOS): \(bad.path):4: cannot find 'UIViewController' in scope"), "\(failed.stdout)")
        #expect(failed.stdout.contains("first missing symbol: UIViewController"), "\(failed.stdout)")
        let json = try run("lockstep", ["build", spec, "--target", "TallyWidget", "--format", "json"], timeout: 600)
        #expect(json.status == 1 && json.stdout.contains("\"missingSymbol\" : \"UIViewController\""), "\(json)")

        // A stand-in for the widget's own folder: the team's Linux files build in its place, beside its shared files
        // and the classes of the folder's intent definition (which is no Swift file the stand-in replaces).
        let linux = folder.appendingPathComponent("linux-widget")
        try FileManager.default.createDirectory(at: linux, withIntermediateDirectories: true)
        for file in ["TallyWidgets.swift", "TallyGoalWidget.swift"] {
            try FileManager.default.copyItem(at: project.appendingPathComponent("Widget/" + file), to: linux.appendingPathComponent(file))
        }
        let config = folder.appendingPathComponent("lockstep-config.json")
        try #"{"standIns": {"TallyWidget/Widget": "linux-widget"}}"#.write(to: config, atomically: true, encoding: .utf8)
        let standIn = try run("lockstep", ["build", spec, "--target", "TallyWidget", "--config", config.path], timeout: 600)
        #expect(standIn.status == 0, "\(standIn)")
        #expect(standIn.stdout.contains("✓ TallyWidget (widget, iOS): built"), "\(standIn.stdout)")
        #expect(standIn.stdout.contains("(with stand-ins)"), "\(standIn.stdout)")
    }

    /// Bad input: one sentence naming what is wrong, exit 2, and no build folder written.
    @Test func badInputIsOneSentenceAndWritesNothing() throws {
        let (folder, spec) = try Self.copy()
        defer { TestSupport.cleanUp(folder) }
        let project = folder.appendingPathComponent("Tally")
        let buildFolder = project.appendingPathComponent(".build").path

        let unknown = try run("lockstep", ["build", spec, "--target", "Nope"])
        #expect(unknown.status == 2 && unknown.stderr.contains("has no target 'Nope' among the bundles of Tally (Tally, TallyWidget, TallyWatch)"), "\(unknown)")

        let config = folder.appendingPathComponent("config.json")
        try #"{"standIns": {"TallyWidget": "no-such-folder"}}"#.write(to: config, atomically: true, encoding: .utf8)
        let standIn = try run("lockstep", ["build", spec, "--config", config.path])
        #expect(standIn.status == 2 && standIn.stderr.contains("The stand-in for module 'TallyWidget' is '\(folder.path)/no-such-folder', which is not a folder"), "\(standIn)")

        try #"{"standIns": {"TallyWidget": 3}}"#.write(to: config, atomically: true, encoding: .utf8)
        let invalid = try run("lockstep", ["build", spec, "--config", config.path])
        #expect(invalid.status == 2 && invalid.stderr.contains("'standIns' gives 'TallyWidget' 3; give each module the folder"), "\(invalid)")

        // An intent definition Xcode could not generate classes from stops the build before anything is written.
        let definition = project.appendingPathComponent("Widget/TallyGoal.intentdefinition")
        let good = try Data(contentsOf: definition)
        try "<?xml version=\"1.0\"?>\n<plist><dict><key>INIntents</key>".write(to: definition, atomically: true, encoding: .utf8)
        let malformed = try run("lockstep", ["build", spec])
        #expect(malformed.status == 2 && malformed.stderr.contains("TallyGoal.intentdefinition' cannot be read: it is not an XML, binary or OpenStep property list, or it is truncated."), "\(malformed)")
        try good.write(to: definition)

        try FileManager.default.removeItem(at: project.appendingPathComponent("Watch"))
        let missing = try run("lockstep", ["build", spec])
        #expect(missing.status == 2 && missing.stderr.contains("The target 'TallyWatch' builds '\(project.path)/Watch', which does not exist."), "\(missing)")

        let noApp = folder.appendingPathComponent("Library/project.yml")
        try FileManager.default.createDirectory(at: noApp.deletingLastPathComponent(), withIntermediateDirectories: true)
        try "name: Library\ntargets:\n  Kit:\n    type: framework\n    platform: iOS\n".write(to: noApp, atomically: true, encoding: .utf8)
        let library = try run("lockstep", ["build", noApp.path])
        #expect(library.status == 2 && library.stderr.contains("has no target Lockstep can run"), "\(library)")

        let notAProject = try run("lockstep", ["build", folder.path])
        #expect(notAProject.status == 2 && notAProject.stderr.contains("neither an .xcodeproj"), "\(notAProject)")
        let usage = try run("lockstep", ["build"])
        #expect(usage.status == 64, "\(usage)")

        for result in [unknown, standIn, invalid, malformed, missing, library, notAProject] {
            #expect(result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
            #expect(result.stdout.isEmpty, "\(result.stdout)")
        }
        #expect(!FileManager.default.fileExists(atPath: buildFolder), "a build folder was written for bad input")
    }
}
