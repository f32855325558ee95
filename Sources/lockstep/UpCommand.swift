import AppGroupKit
import BuildKit
import LaunchKit
import LockstepSystem

enum UpCommand: Command {
    static let name = "up"
    static let summary = "Launch every bundle side by side and run a scenario"
    static let help = """
        Usage: lockstep up [--manifest F] [--groups DIR] [--scenario demo|FILE] [--device-timing strict|realistic [--seed N]]
                           [--keep-running] [--no-color]
               lockstep up PROJECT [--target NAME]… [--configuration NAME] [--build-path DIR] [--config FILE] [--unpinned] [same options]

        Installs the manifest, launches every bundle as its own process and waits until each is ready: host,
        widget and watch keep running; intents and other extensions are launched once to check that they run
        (identity and version rules), then on demand by scenario steps. Runs the scenario (default: demo) and
        tears everything down (SIGTERM, then SIGKILL after \(Int(Supervisor.grace)) s). Output lines are prefixed
        with the bundle's role, coloured on a terminal.

        With PROJECT (an .xcodeproj, a folder holding one, or an XcodeGen project.yml), first builds the app's
        bundles from the project as `lockstep build` does, then launches those that built, with the manifest it
        wrote, saying which it left out and why; the default scenario then asks every widget to reload. Its
        groups root is DIR/groups unless --groups (or LOCKSTEP_GROUPS) names one.

          --scenario demo|FILE  the built-in demo, or a scenario file (format: Sources/lockstep/Lockstep.docc/Simulating.md)
          --device-timing strict|realistic
                                strict (the default): a shared defaults write is seen by every process when it
                                returns, stricter than a device; realistic: as on a device, writes reach the other
                                processes only at a flush point or after a delay, reads are cached, and a killed
                                bundle loses what it had not flushed (Simulating.md "Device timing")
          --seed N              the seed realistic timing draws its delays from (default 1): a seed repeats a run
          --keep-running        after the scenario, keep the bundles up until Ctrl-C
          --no-color            never colour the prefixes

        Exits 0 when every step held, 1 when a step failed, a bundle ended unexpectedly (named in the last
        line) or, with PROJECT, a target did not build, 2 for an invalid manifest or scenario, or the demo on a
        groups root an earlier run used (nothing launched).
        """

    static func run(_ arguments: [String]) throws -> ExitStatus {
        let parsed = try Arguments(arguments, options: Arguments.timingOptions.union(["--manifest", "--groups", "--scenario", "--target", "--configuration", "--build-path", "--config"]),
                                   flags: ["--keep-running", "--no-color", "--unpinned"], command: name)
        let timing = try parsed.deviceTiming(command: name)
        var manifest = parsed.value("--manifest")
        var scenario = parsed.value("--scenario") ?? "demo"
        var groupsRoot = parsed.groupsRoot
        var notBuilt: [String] = []
        if !parsed.operands.isEmpty {
            guard manifest == nil else {
                throw UsageError("lockstep up: give a project or --manifest, not both; see 'lockstep up --help'.")
            }
            let report = try BuildCommand.build(parsed, command: name) { print("lockstep | \($0)") }
            print(report.text.split(separator: "\n").map { "lockstep | \($0)" }.joined(separator: "\n"))
            let left = report.outcomes.filter { $0.executable == nil }.map(\.bundle.name)
            if !left.isEmpty { print("lockstep | left out \(left.joined(separator: ", ")): not built (above); the other bundles run") }
            notBuilt = report.outcomes.filter { $0.executable == nil || $0.standInHost }.map(\.bundle.name)
            manifest = report.manifest
            if parsed.value("--scenario") == nil { scenario = try ProjectScenario.write(for: report) }
            // A project's device lives in its build folder, not in the team's checkout (unless --groups or
            // LOCKSTEP_GROUPS says where).
            if parsed.value("--groups") == nil && ProcessEnvironment.value(GroupsRoot.environmentVariable) == nil {
                groupsRoot = report.plan.buildFolder + "/groups"
            }
        } else if !parsed.passthrough.isEmpty {
            throw UsageError("lockstep up: unexpected argument '\(parsed.passthrough[0])'; see 'lockstep up --help'.")
        }
        let options = Up.Options(
            manifest: manifest, groupsRoot: groupsRoot,
            scenario: scenario, keepRunning: parsed.has("--keep-running"),
            color: !parsed.has("--no-color") && Standard.isTerminal(1), timing: timing)
        let status = try Up.run(options)
        // As `build`: a target of the team's that did not build fails the run, though the others ran.
        if status == .success && !notBuilt.isEmpty {
            Standard.error("lockstep up: \(notBuilt.joined(separator: ", ")) did not build (the report above says why); the other bundles ran.")
            return .failure
        }
        return status
    }
}
