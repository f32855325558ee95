import BundleKit
import Foundation
import LockstepTestSupport
import Testing

/// `.lockstep.json`, waivers and baselines, through the built `lockstep check`.
@Suite struct CheckPolicyTests {
    /// The embedded default manifest with the widget's build number set to `widgetBuild`.
    static func manifest(in dir: URL, widgetBuild: String, intentShort: String = "1.0.0") throws -> String {
        let path = dir.appendingPathComponent("lockstep.json").path
        let text = Manifest.embeddedDefaultText
            .replacingFirst(#""extensionPoint": "com.apple.widgetkit-extension", "shortVersion": "1.0.0", "buildVersion": "1","#,
                                  with: #""extensionPoint": "com.apple.widgetkit-extension", "shortVersion": "1.0.0", "buildVersion": "\#(widgetBuild)","#)
            .replacingOccurrences(of: #""extensionPoint": "com.apple.appintents-extension", "shortVersion": "1.0.0","#,
                                  with: #""extensionPoint": "com.apple.appintents-extension", "shortVersion": "\#(intentShort)","#)
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test func aBaselineWrittenTodayPassesTodayAndANewMismatchFails() throws {
        let dir = TestSupport.temporaryDirectory()
        defer { TestSupport.cleanUp(dir) }
        let manifest = try Self.manifest(in: dir, widgetBuild: "7")
        #expect(try run("lockstep", ["check", manifest]).status == 1)
        let baseline = dir.appendingPathComponent("baseline.json").path
        let written = try run("lockstep", ["check", manifest, "--write-baseline", baseline])
        #expect(written.status == 0 && written.stdout.contains("(known from the baseline)"), "\(written)")
        let today = try run("lockstep", ["check", manifest, "--baseline", baseline])
        #expect(today.status == 0, "\(today)")
        // A new mismatch (the intents extension's version) fails; the known one stays known.
        let worse = try Self.manifest(in: dir, widgetBuild: "7", intentShort: "1.0.1")
        let tomorrow = try run("lockstep", ["check", worse, "--baseline", baseline])
        #expect(tomorrow.status == 1, "\(tomorrow)")
        #expect(tomorrow.stdout.contains("version.short-mismatch]\n"), "\(tomorrow)")
        #expect(tomorrow.stdout.contains("[version.build-mismatch] (known from the baseline)"), "\(tomorrow)")
        // Matched by rule, bundle and values, not wording or file: a baseline from `--format json` works too.
        let json = try run("lockstep", ["check", manifest, "--format", "json"])
        try json.stdout.write(toFile: baseline, atomically: true, encoding: .utf8)
        #expect(try run("lockstep", ["check", manifest, "--baseline", baseline]).status == 0)
    }

    @Test func aWaiverShowsItsReasonInEveryFormatAndDoesNotFail() throws {
        let dir = TestSupport.temporaryDirectory()
        defer { TestSupport.cleanUp(dir) }
        let manifest = try Self.manifest(in: dir, widgetBuild: "7")
        let config = dir.appendingPathComponent("team.json").path
        try #"{"waivers": [{"rule": "version.build-mismatch", "bundle": "Habits.app/PlugIns/HabitsWidget.appex", "reason": "the widget ships next week"}], "severity": {"settings.target-override": "error"}}"#
            .write(toFile: config, atomically: true, encoding: .utf8)
        for format in ["text", "json", "github", "junit", "sarif"] {
            let result = try run("lockstep", ["check", manifest, "--config", config, "--format", format])
            #expect(result.status == 0, "\(format): \(result)")
            #expect(result.stdout.contains("the widget ships next week"), "\(format): \(result)")
        }
        // From the working directory, without --config.
        try FileManager.default.copyItem(atPath: config, toPath: dir.appendingPathComponent(".lockstep.json").path)
        #expect(try run("lockstep", ["check", "lockstep.json"], currentDirectory: dir.path).status == 0)
    }

    @Test(arguments: [
        (#"{"disable": ["version.nope"]}"#, "'disable' names 'version.nope', which is not a rule of lockstep check (see 'lockstep rules')"),
        // A rule the simulated processes enforce is explained by `lockstep rules`, but is not check's to disable.
        (#"{"disable": ["widget.budget"]}"#, "'disable' names 'widget.budget', which is not a rule of lockstep check (see 'lockstep rules')"),
        (#"{"colour": true}"#, "'colour' is not a key it knows (disable, severity, waivers, baseline, strict, standIns)"),
        (#"{"strict": "yes"}"#, "'strict' has the wrong type (\"yes\")"),
        (#"{"severity": {"version.missing": "fatal"}}"#, "'severity' gives 'version.missing' \"fatal\"; use \"error\", \"warning\" or \"note\""),
        (#"{"waivers": [{"rule": "group.shared", "bundle": "X.app"}]}"#, "each entry of 'waivers' must be {\"rule\", \"bundle\", \"reason\"} with a non-empty bundle and reason"),
    ])
    func aBadConfigIsOneSentenceAndExitTwo(text: String, detail: String) throws {
        let dir = TestSupport.temporaryDirectory()
        defer { TestSupport.cleanUp(dir) }
        let manifest = try Self.manifest(in: dir, widgetBuild: "1")
        let config = dir.appendingPathComponent("c.json").path
        try text.write(toFile: config, atomically: true, encoding: .utf8)
        let result = try run("lockstep", ["check", manifest, "--config", config])
        #expect(result.status == 2, "\(result)")
        #expect(result.stderr == "lockstep check: The lockstep config '\(config)' is invalid: \(detail).\n", "\(result)")
        #expect(result.stdout.isEmpty)
    }
}
