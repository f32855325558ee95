import LaunchKit
import LockstepSystem

enum UpCommand: Command {
    static let name = "up"
    static let summary = "Launch every bundle side by side and run a scenario"
    static let help = """
        Usage: lockstep up [--manifest F] [--groups DIR] [--scenario demo|FILE] [--keep-running] [--no-color]

        Installs the manifest, launches every bundle as its own process and waits until each is ready: host,
        widget and watch keep running; intents and other extensions are launched once to check that they run
        (identity and version rules), then on demand by scenario steps. Runs the scenario (default: demo) and
        tears everything down (SIGTERM, then SIGKILL after \(Int(Supervisor.grace)) s). Output lines are prefixed
        with the bundle's role, coloured on a terminal.

          --scenario demo|FILE  the built-in demo, or a scenario file (format: Sources/lockstep/Lockstep.docc/Simulating.md)
          --keep-running        after the scenario, keep the bundles up until Ctrl-C
          --no-color            never colour the prefixes

        Exits 0 when every step held, 1 when a step failed or a bundle ended unexpectedly (named in the last
        line), 2 for an invalid manifest or scenario, or the demo on a groups root an earlier run used (nothing
        launched).
        """

    static func run(_ arguments: [String]) throws -> ExitStatus {
        let parsed = try Arguments(arguments, options: ["--manifest", "--groups", "--scenario"],
                                   flags: ["--keep-running", "--no-color"], command: name)
        guard parsed.positionals.isEmpty, parsed.passthrough.isEmpty else {
            throw UsageError("lockstep up: unexpected argument '\((parsed.positionals + parsed.passthrough)[0])'; see 'lockstep up --help'.")
        }
        let options = Up.Options(
            manifest: parsed.value("--manifest"), groupsRoot: parsed.groupsRoot,
            scenario: parsed.value("--scenario") ?? "demo", keepRunning: parsed.has("--keep-running"),
            color: !parsed.has("--no-color") && Standard.isTerminal(1))
        return try Up.run(options)
    }
}
