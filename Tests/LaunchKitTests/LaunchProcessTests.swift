import Foundation
import LockstepSystem
import LockstepTestSupport
import Testing

/// A device with a probe app: host, widget (30 MB default limit) and an intents extension, all played by
/// `lockstep-probe`, in a fresh groups root.
struct ProbeDevice {
    let directory = TestSupport.temporaryDirectory("launch")
    var groups: String { directory.appendingPathComponent("groups").path }
    var manifest: String { directory.appendingPathComponent("manifest.json").path }

    /// - Parameter roles: more embedded probe bundles, by role (`share`, `notification`), named `Probe<role>`.
    init(hostBuild: String = "1", widgetBuild: String = "1", intentBuild: String? = nil, widgetExecutable: String = "lockstep-probe", widgetGroups: [String] = ["group.com.example.probe"],
         intentExecutable: String = "lockstep-probe", roles: [String] = []) throws {
        let more = roles.map { role in
            #", { "name": "Probe\#(role)", "role": "\#(role)", "bundleIdentifier": "com.example.probe.\#(role)", "shortVersion": "1.0", "buildVersion": "\#(hostBuild)", "executable": "lockstep-probe", "appGroups": ["group.com.example.probe"] }"#
        }.joined()
        let groups = widgetGroups.map { "\"\($0)\"" }.joined(separator: ", ")
        try """
        { "manifestVersion": 1,
          "app": { "name": "Probe", "bundleIdentifier": "com.example.probe", "shortVersion": "1.0", "buildVersion": "\(hostBuild)",
                   "executable": "lockstep-probe", "appGroups": ["group.com.example.probe"] },
          "embedded": [
            { "name": "ProbeWidget", "role": "widget", "bundleIdentifier": "com.example.probe.widget",
              "extensionPoint": "com.apple.widgetkit-extension", "shortVersion": "1.0", "buildVersion": "\(widgetBuild)",
              "executable": "\(widgetExecutable)", "appGroups": [\(groups)] },
            { "name": "ProbeIntents", "role": "intent", "bundleIdentifier": "com.example.probe.intents",
              "extensionPoint": "com.apple.appintents-extension", "shortVersion": "1.0", "buildVersion": "\(intentBuild ?? hostBuild)",
              "executable": "\(intentExecutable)", "appGroups": ["group.com.example.probe"] }\(more)
          ] }
        """.write(toFile: manifest, atomically: true, encoding: .utf8)
    }

    /// Writes a scenario file and returns its path.
    func scenario(_ text: String) throws -> String {
        let path = directory.appendingPathComponent("scenario-\(UUID().uuidString.prefix(6)).txt").path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// `lockstep up` on this device with `scenario`, to completion.
    func up(_ scenario: String, _ extra: [String] = []) throws -> ProcessResult {
        try run("lockstep", ["up", "--manifest", manifest, "--groups", groups, "--scenario", try self.scenario(scenario), "--no-color"] + extra)
    }

    func cleanUp() { TestSupport.cleanUp(directory) }
}

/// The pids `lockstep up` reported launching (`launched widget (com.example.probe.widget, pid 123)`).
func launchedPids(_ output: String) -> [pid_t] {
    output.split(separator: "\n").compactMap { line in
        guard line.contains("launched "), let range = line.range(of: "pid ") else { return nil }
        return pid_t(line[range.upperBound...].prefix { $0.isNumber })
    }
}

func isGone(_ pid: pid_t) -> Bool { kill(pid, 0) == -1 && errno == ESRCH }

@Suite struct LaunchProcessTests {
    @Test func longRunningBundlesComeUpAndScenarioStepsHold() throws {
        let device = try ProbeDevice()
        defer { device.cleanUp() }
        let result = try device.up("""
            == intents run on demand and exit [intent.perform]
            run intent echo hello from the intent
            expect-output hello from the intent
            expect-status 0
            run com.example.probe.intents exit 3
            expect-status 3
            == a bundle inherits nothing but stdin, stdout and stderr [process.separate]
            run intent fds
            expect-output fds [0, 1, 2]
            == bundles are separate processes [process.separate]
            send widget echo ping
            wait widget ping
            advance 1d
            """)
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout.contains("host     | ready"))
        #expect(result.stdout.contains("widget   | ready"))
        #expect(result.stdout.contains("intent   | hello from the intent"))
        #expect(result.stdout.contains("✓ intent.perform"))
        #expect(result.stdout.contains("✓ process.separate"))
        #expect(result.stdout.contains("10 of 10 steps held"))
        // The intents extension is not long-running: launched up front only to check that it runs, then per step.
        #expect(result.stdout.contains("launched intent (com.example.probe.intents, pid "))
        #expect(result.stdout.contains("to check that it runs"))
        #expect(result.stdout.contains("intent   | ready com.example.probe.intents: starts at build 1, runs on demand"))
        #expect(result.stdout.contains("3 bundles ready in "))
        #expect(result.stdout.contains("(host, widget running; intent checked, runs on demand)"))
        #expect(launchedPids(result.stdout).count == 3)
        #expect(launchedPids(result.stdout).allSatisfy(isGone))
    }

    @Test func aFailedStepFailsTheRunAndTheChecklistSaysWhich() throws {
        let device = try ProbeDevice()
        defer { device.cleanUp() }
        let result = try device.up("""
            == the widget answers [widget.reload]
            send widget echo pong
            wait widget --timeout 300ms never printed
            """)
        #expect(result.status == 1, "\(result)")
        #expect(result.stdout.contains("✗ widget.reload"))
        #expect(result.stdout.contains("widget did not print 'never printed' within 300 ms"))
        #expect(result.stderr == "lockstep up: 1 of 2 steps of scenario '\(result.stdout.split(separator: "'")[1])' did not hold.\n", "\(result)")
    }

    @Test func ctrlCStopsEveryChild() throws {
        let device = try ProbeDevice()
        defer { device.cleanUp() }
        let up = try Child("lockstep", ["up", "--manifest", device.manifest, "--groups", device.groups,
                                        "--scenario", try device.scenario(""), "--keep-running", "--no-color"])
        #expect(up.waitForOutput("Ctrl-C stops them"))
        let pids = launchedPids(up.stdoutSoFar)
        #expect(pids.count == 3)  // host, widget, and the intents extension's launch check (already gone)
        up.signal(SIGINT)
        let result = up.wait(timeout: 30)
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout.contains("every bundle stopped"))
        for pid in pids { #expect(isGone(pid), "pid \(pid) outlived lockstep up") }
    }

    @Test func aWidgetAtAnotherBuildRefusesToStart() throws {
        let device = try ProbeDevice(hostBuild: "3", widgetBuild: "2")
        defer { device.cleanUp() }
        let result = try device.up("")
        #expect(result.status == 1, "\(result)")
        #expect(result.stdout.contains("The CFBundleVersion of an app extension ('2') must match that of its containing parent app ('3')."))
        #expect(result.stdout.contains("[runtime.version-parity]"))
        let last = result.stderr.split(separator: "\n").last.map(String.init) ?? ""
        #expect(last.hasPrefix("lockstep up: widget (com.example.probe.widget, pid "))
        #expect(last.contains("exited with status 78 before it was ready"))
        #expect(launchedPids(result.stdout).allSatisfy(isGone))
    }

    /// An on-demand bundle is checked at `up` too: a mismatched intents extension stops the run before the scenario,
    /// with the same wording as a long-running bundle, instead of at its first intent.
    @Test func anIntentsExtensionAtAnotherBuildFailsUpBeforeTheScenario() throws {
        let device = try ProbeDevice(intentBuild: "2")
        defer { device.cleanUp() }
        let result = try device.up("""
            run intent echo never
            """)
        #expect(result.status == 1, "\(result)")
        #expect(result.stdout.contains("The CFBundleVersion of an app extension ('2') must match that of its containing parent app ('1')."))
        #expect(!result.stdout.contains("scenario '"), "the scenario never started")
        let last = result.stderr.split(separator: "\n").last.map(String.init) ?? ""
        #expect(last.hasPrefix("lockstep up: intent (com.example.probe.intents, pid "), "\(result)")
        #expect(last.contains("exited with status 78 before it was ready"))
        #expect(launchedPids(result.stdout).allSatisfy(isGone))
    }

    /// The launch check is not a run of the scenario's: a step about the intents extension before any `run intent`
    /// finds nothing to look at.
    @Test func aStepAboutAnOnDemandBundleIgnoresItsLaunchCheck() throws {
        let device = try ProbeDevice()
        defer { device.cleanUp() }
        let result = try device.up("""
            expect-exit intent 0
            """)
        #expect(result.status == 1, "\(result)")
        #expect(result.stdout.contains("intent was never launched"), "\(result)")
    }

    @Test func aReinstallAtAnotherBuildStopsTheOldProcesses() throws {
        let device = try ProbeDevice()
        defer { device.cleanUp() }
        let result = try device.up("""
            == an old extension stops after a reinstall [runtime.stale]
            send widget write-shared before the reinstall
            wait widget wrote before the reinstall
            reinstall --build 2
            expect-exit widget 78
            expect-exit host 78
            launch widget
            send widget identity
            wait widget build 2
            """)
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout.contains("ProbeWidget (com.example.probe.widget) is from build 1, but Probe is now installed at build 2"), "\(result)")
        #expect(result.stdout.contains("✓ runtime.stale"))
        let shared = try String(contentsOfFile: "\(device.groups)/phone/AppGroup/group.com.example.probe/shared.txt", encoding: .utf8)
        #expect(shared == "before the reinstall\n")
    }

    @Test func aBundleAboveItsMemoryLimitIsKilled() throws {
        let device = try ProbeDevice()
        defer { device.cleanUp() }
        let result = try device.up("""
            == widgets are killed above 30 MB [widget.memory]
            send widget alloc 8
            wait widget allocated 8 MB
            send widget alloc 48
            expect-exit widget EXC_RESOURCE
            """)
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout.contains("killed: EXC_RESOURCE (RESOURCE_TYPE_MEMORY: high watermark memory limit exceeded) (limit=30 MB)"))
    }

    /// rule `extension.memory`: each kind has its own limit, and its own words when it is killed.
    @Test func eachExtensionKindIsKilledAboveItsOwnLimit() throws {
        let device = try ProbeDevice(roles: ["share", "notification"])
        defer { device.cleanUp() }
        let result = try device.up("""
            == every extension has its own memory limit [extension.memory]
            launch share
            send share alloc 60
            wait share allocated 60 MB
            send share alloc 80
            expect-exit share EXC_RESOURCE
            launch notification
            send notification alloc 40
            expect-exit notification EXC_RESOURCE
            """)
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout.contains("(limit=120 MB)"), "\(result)")
        #expect(result.stdout.contains("exceeded mem limit: ActiveHard 24 MB (fatal)"), "\(result)")
    }

    /// rule `notification.service`: a service extension that ends without delivering leaves the original content.
    @Test func aServiceThatDeliversNothingLeavesTheOriginalContent() throws {
        let device = try ProbeDevice(roles: ["notification"])
        defer { device.cleanUp() }
        let result = try device.up("""
            run notification deliver '{"aps":{"alert":{"title":"Habits","body":"Check in"},"mutable-content":1}}'
            expect-output shown: Habits — Check in (the original content: the service extension exited with status 0 without delivering)
            """)
        #expect(result.status == 0, "\(result)")
    }

    @Test func suspensionHoldingASharedLockIsDead10cc() throws {
        let device = try ProbeDevice()
        defer { device.cleanUp() }
        let result = try device.up("""
            == suspended with a lock in the group container [lock.dead10cc]
            send widget hold-lock .lockstep/store.lock
            wait widget locked
            suspend widget
            expect-exit widget dead10cc
            == suspended without a lock resumes [lock.dead10cc]
            suspend host
            resume host
            send host echo still here
            wait host still here
            """)
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout.contains("killed: Termination Reason: Namespace RUNNINGBOARD, Code 0xdead10cc (it held a lock on \(device.groups)/phone/AppGroup/group.com.example.probe/.lockstep/store.lock while suspended)"), "\(result)")
        #expect(result.stdout.contains("host suspended (it held no lock in a shared container)"))
    }

    @Test func anUnexpectedExitIsNamedInTheLastLine() throws {
        let device = try ProbeDevice()
        defer { device.cleanUp() }
        let result = try device.up("""
            send widget exit 5
            wait host --timeout 5s never
            """)
        #expect(result.status == 1, "\(result)")
        let last = result.stderr.split(separator: "\n").last.map(String.init) ?? ""
        #expect(last.contains("widget (com.example.probe.widget, pid "), "\(result)")
        #expect(last.contains("exited with status 5 unexpectedly"), "\(result)")
    }

    @Test func runGivesOneBundleItsIdentity() throws {
        let device = try ProbeDevice()
        defer { device.cleanUp() }
        let base = ["run", "--manifest", device.manifest, "--groups", device.groups]
        let identity = try run("lockstep", base + ["widget", "--", "identity"])
        #expect(identity.status == 0, "\(identity)")
        #expect(identity.stdout.contains("com.example.probe.widget build 1 groups "))
        let child = try run("lockstep", base + ["intent", "--", "env", "HABIT"], environment: ["LOCKSTEP_CHILD_HABIT": "Meditate"])
        #expect(child.stdout == "HABIT=Meditate\n", "\(child)")
        let status = try run("lockstep", base + ["com.example.probe", "--", "exit", "9"])
        #expect(status.status == 9)
    }

    @Test func runForwardsSignalsAndExitsWithTheBundlesStatus() throws {
        let device = try ProbeDevice()
        defer { device.cleanUp() }
        let run = try Child("lockstep", ["run", "--manifest", device.manifest, "--groups", device.groups, "widget", "--", "pause"])
        #expect(run.waitForOutput("paused, pid "))
        let bundle = try #require(pid_t(run.stdoutSoFar.split(separator: " ").last?.prefix { $0.isNumber } ?? ""))
        run.signal(SIGTERM)
        #expect(run.wait().status == 128 + SIGTERM)
        #expect(isGone(bundle))
    }

    @Test func badInputIsOneSentenceAndLaunchesNothing() throws {
        let device = try ProbeDevice()
        defer { device.cleanUp() }
        let unknown = try run("lockstep", ["run", "nosuch", "--manifest", device.manifest, "--groups", device.groups])
        #expect(unknown.status == 2)
        #expect(unknown.stderr == "lockstep run: The manifest has no bundle 'nosuch': it has host (com.example.probe), widget (com.example.probe.widget), intent (com.example.probe.intents).\n")

        let broken = device.directory.appendingPathComponent("broken.json").path
        try "{ not json".write(toFile: broken, atomically: true, encoding: .utf8)
        let invalid = try run("lockstep", ["up", "--manifest", broken, "--groups", device.groups])
        #expect(invalid.status == 2)
        #expect(invalid.stderr.contains("The manifest '\(broken)' is invalid"), "\(invalid)")

        let badScenario = try run("lockstep", ["up", "--manifest", device.manifest, "--groups", device.groups, "--scenario", "/nonexistent/s.txt"])
        #expect(badScenario.status == 2)
        #expect(badScenario.stderr == "lockstep up: The scenario '/nonexistent/s.txt' is invalid: the file does not exist.\n")
        #expect(!FileManager.default.fileExists(atPath: device.groups), "nothing may be written for invalid input")

        let usage = try run("lockstep", ["run"])
        #expect(usage.status == 64)
    }

    @Test func aMissingExecutableIsNamedBeforeAnythingStarts() throws {
        let device = try ProbeDevice(widgetExecutable: "lockstep-no-such-widget")
        defer { device.cleanUp() }
        let result = try device.up("")
        #expect(result.status == 2)
        #expect(result.stderr.hasPrefix("lockstep up: Cannot launch 'com.example.probe.widget': its executable 'lockstep-no-such-widget' is neither next to lockstep"))
        #expect(!result.stdout.contains("launched"))
    }

    @Test func anExecutableThatExitsAtOnceIsNamed() throws {
        let device = try ProbeDevice(widgetExecutable: "/bin/false")
        defer { device.cleanUp() }
        let result = try device.up("")
        #expect(result.status == 1)
        #expect(result.stderr.contains("lockstep up: widget (com.example.probe.widget, pid "), "\(result)")
        #expect(result.stderr.contains("exited with status 1 before it was ready"))
        #expect(launchedPids(result.stdout).allSatisfy(isGone))
    }

    @Test func aProbeStartedByHandActsAsTheEmbeddedDefaultApp() throws {
        let directory = TestSupport.temporaryDirectory("launch")
        defer { TestSupport.cleanUp(directory) }
        let groups = directory.appendingPathComponent("groups").path
        var environment = ["LOCKSTEP_GROUPS": groups, "LOCKSTEP_BUNDLE_ID": "", "LOCKSTEP_BUILD": "", "LOCKSTEP_MANIFEST": ""]
        let result = try run("lockstep-probe", ["identity"], environment: environment)
        #expect(result.stdout == "com.example.habits build 1 groups \(groups)\n", "\(result)")
        // The embedded default is installed once; starting again changes nothing.
        let installed = try String(contentsOfFile: "\(groups)/.lockstep/installed.json", encoding: .utf8)
        environment["LOCKSTEP_BUNDLE_ID"] = "com.example.habits.widget"
        let widget = try run("lockstep-probe", ["identity"], environment: environment)
        #expect(widget.stdout.hasPrefix("com.example.habits.widget build 1"))
        #expect(try String(contentsOfFile: "\(groups)/.lockstep/installed.json", encoding: .utf8) == installed)
    }
}

@Suite struct DemoTests {
    /// `lockstep up` with no arguments: the embedded Habits app, its four real executables and the demo scenario.
    @Test func theDemoHoldsOnTheEmbeddedHabitsApp() throws {
        let directory = TestSupport.temporaryDirectory("demo")
        defer { TestSupport.cleanUp(directory) }
        let groups = directory.appendingPathComponent("groups").path
        let result = try run("lockstep", ["up", "--groups", groups, "--no-color"], environment: ["LOCKSTEP_MANIFEST": ""])
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout.contains("✓ runtime.stale"))
        // rule `widget.interactive`: the button's intent ran in the widget's process, and its reload was not counted.
        #expect(result.stdout.contains("✓ widget.interactive"))
        #expect(result.stdout.contains("(CompleteHabit tapped in the widget; not counted: the person's own action; next .atEnd) → ✓ 1/3 habits done"), "\(result.stdout)")
        #expect(result.stdout.contains("HabitsWidget (com.example.habits.widget) is from build 1, but Habits is now installed at build 2"))
        // rule `widget.configurable`: the bundle's AppIntentConfiguration widget, configured from the demo.
        #expect(result.stdout.contains("✓ widget.configurable"), "\(result.stdout)")
        // The widgets' pictures, as one page: its path is printed, and it holds the bundle's widgets and the Live Activity.
        let gallery = "\(groups)/gallery.html"
        #expect(result.stdout.contains("widget gallery: \(gallery)"), "\(result.stdout)")
        let page = try String(contentsOfFile: gallery, encoding: .utf8)
        for kind in ["HabitsWidget", "HabitFocus", "HabitActivityAttributes", "HabitsComplication"] {
            #expect(page.contains("<h2>\(kind)</h2>"), "\(kind)")
        }
        #expect(!result.stdout.contains("✗"))
        #expect(launchedPids(result.stdout).allSatisfy(isGone))
    }

    /// The reference app is correct on a device's timing too (issue 43): the watch app synchronizes the complication's
    /// data before it asks for a reload, which realistic timing showed it must (rule `defaults.device-flush`).
    @Test func theDemoHoldsUnderRealisticDeviceTiming() throws {
        let directory = TestSupport.temporaryDirectory("demo")
        defer { TestSupport.cleanUp(directory) }
        let groups = directory.appendingPathComponent("groups").path
        let result = try run("lockstep", ["up", "--groups", groups, "--no-color", "--device-timing", "realistic", "--seed", "3"],
                             environment: ["LOCKSTEP_MANIFEST": ""])
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout.contains("✓ watch.complication"), "\(result.stdout)")
        #expect(!result.stdout.contains("✗"))
    }

    /// The demo on a groups root where an earlier run left its devices could never hold (it starts by adding its three
    /// habits): one sentence at once, exit 2, nothing launched and nothing in the root changed.
    @Test func theDemoRefusesAGroupsRootAnEarlierRunUsed() throws {
        let directory = TestSupport.temporaryDirectory("demo")
        defer { TestSupport.cleanUp(directory) }
        let groups = directory.appendingPathComponent("groups").path
        let store = "\(groups)/phone/AppGroup/group.com.example.habits/habits.sqlite"
        try FileManager.default.createDirectory(atPath: (store as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try "earlier".write(toFile: store, atomically: true, encoding: .utf8)
        let result = try run("lockstep", ["up", "--groups", groups, "--no-color"], environment: ["LOCKSTEP_MANIFEST": ""])
        #expect(result.status == 2, "\(result)")
        #expect(result.stderr == "lockstep up: The demo scenario starts from an empty groups root, but '\(groups)' holds the devices of an earlier run ('phone/'): remove that folder, or pass --groups with a new one (`make demo` does both).\n", "\(result)")
        #expect(result.stdout.isEmpty, "\(result)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: groups) == ["phone"])
        #expect(try String(contentsOfFile: store, encoding: .utf8) == "earlier")
    }

    /// The widget says it is ready before it has drawn its first timeline; a teardown right after (a scenario with
    /// no steps) still leaves every family's picture for the gallery.
    @Test func aTeardownRightAfterReadyKeepsTheWidgetsFirstDrawing() throws {
        let directory = TestSupport.temporaryDirectory("demo")
        defer { TestSupport.cleanUp(directory) }
        let groups = directory.appendingPathComponent("groups").path
        let scenario = directory.appendingPathComponent("empty.scenario").path
        try "# no steps\n".write(toFile: scenario, atomically: true, encoding: .utf8)
        for _ in 0..<3 {
            try? FileManager.default.removeItem(atPath: groups)
            let result = try run("lockstep", ["up", "--groups", groups, "--scenario", scenario, "--no-color"], environment: ["LOCKSTEP_MANIFEST": ""])
            #expect(result.status == 0, "\(result)")
            let renders = "\(groups)/phone/AppGroup/group.com.example.habits/.lockstep/widgetkit/renders/HabitsWidget"
            let pictures = (try? FileManager.default.contentsOfDirectory(atPath: renders)) ?? []
            // Six families, and the three Home Screen ones again in accented mode (the Lock Screen's are vibrant only).
            #expect(pictures.filter { $0.hasSuffix(".svg") }.count == 9, "\(pictures) \(result.stdout)")
        }
    }
}
