import AppGroupKit
import LaunchKit
import LockstepSystem

enum RunCommand: Command {
    static let name = "run"
    static let summary = "Launch one bundle with its identity and sandbox"
    static let help = """
        Usage: lockstep run BUNDLE-ID|ROLE [--manifest F] [--groups DIR] [--device-timing strict|realistic [--seed N]] [-- ARGS…]

        Installs the manifest and launches one bundle (named by bundle id, role or name) with its identity
        (LOCKSTEP_GROUPS, LOCKSTEP_BUNDLE_ID, LOCKSTEP_BUILD; LOCKSTEP_CHILD_X=v is passed on as X=v), sharing
        this terminal and forwarding ARGS. Exits with the bundle's status (128 + N if signal N killed it).
        --device-timing realistic [--seed N] gives the bundle's shared defaults a device's timing (see 'lockstep up
        --help'). Example: lockstep run intent -- perform CompleteHabit --habit Meditate
        """

    static func run(_ arguments: [String]) throws -> ExitStatus {
        let parsed = try Arguments(arguments, options: Arguments.timingOptions.union(["--manifest", "--groups"]), command: name)
        let timing = try parsed.deviceTiming(command: name)
        guard parsed.positionals.count == 1 else {
            throw UsageError("lockstep run: name one bundle (a bundle id or role), then '--' and its arguments; see 'lockstep run --help'.")
        }
        let status = try RunBundle.run(parsed.positionals[0], arguments: parsed.passthrough,
                                       manifest: parsed.value("--manifest"), groupsRoot: parsed.groupsRoot, timing: timing)
        // The bundle's own status, which need not be one of Lockstep's.
        exit(rawStatus: status)
    }
}
