import LaunchKit
import LockstepSystem

/// `lockstep bench [--quick] [--json]`: our figures beside baselines measured in the same run, with the ratio
/// and the target of each. The bench is its own executable, `lockstep-bench`, next to `lockstep` in the build
/// directory: `lockstep` links neither the benchmarks nor SQLite. This verb checks the command line and becomes it.
enum BenchCommand: Command {
    static let name = "bench"
    static let summary = "Run the benchmarks beside same-run baselines"
    static let help = """
    Usage: lockstep bench [--quick] [--json]

    Measures Lockstep beside what you would otherwise use, in the same run, and prints for each figure our
    number, the baseline's, their ratio and the target. Ratios hold on a noisy shared machine; absolute times
    do not. Build with -c release first (make bench does); it runs lockstep-bench from the build directory.

      --quick   a reduced run, under a minute (CI smoke use)
      --json    {"rows":[{"name","unit","ours","baseline","ratio","target","met"}]} instead of the table

    A row whose target is not met says so (met: false); a figure that could not be measured says why.
    Exits 0 when the bench ran, whatever the figures; 64 on a usage error.
    """

    static func run(_ arguments: [String]) throws -> ExitStatus {
        let parsed = try Arguments(arguments, options: [], flags: ["--quick", "--json"], command: name)
        guard parsed.positionals.isEmpty else {
            throw UsageError("lockstep bench: unexpected argument '\(parsed.positionals[0])'; see 'lockstep bench --help'.")
        }
        // Only next to this `lockstep`: a `lockstep-bench` elsewhere on PATH would measure other executables.
        let running = ExecutableLocator.running
        let bench = String(running[..<(running.lastIndex(of: "/") ?? running.startIndex)]) + "/lockstep-bench"
        guard FileSystem.isExecutable(bench) else { throw BenchNotBuilt(path: bench) }
        Program.replace(with: bench, arguments: arguments)
        throw BenchNotBuilt(path: bench)
    }
}

/// `lockstep bench` run where `lockstep-bench` was not built (an installed `lockstep`: the bench measures a build).
struct BenchNotBuilt: ReportableError {
    let path: String
    var description: String {
        "lockstep bench: cannot run '\(path)'; the bench runs from a build directory (make bench)."
    }
    var exitStatus: ExitStatus { .unavailable }
}
