import LockstepSystem

/// `lockstep bench [--quick] [--json]`: our figures beside baselines measured in the same run, with the ratio
/// and the target of each. The logic is in `Bench/`; the workers it spawns are `__bench-worker` and `lockstep-idle`.
enum BenchCommand: Command {
    static let name = "bench"
    static let summary = "Run the benchmarks beside same-run baselines"
    static let help = """
    Usage: lockstep bench [--quick] [--json]

    Measures Lockstep beside what you would otherwise use, in the same run, and prints for each figure our
    number, the baseline's, their ratio and the target. Ratios hold on a noisy shared machine; absolute times
    do not. Build with -c release first (make bench does).

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
        let plan = parsed.has("--quick") ? BenchPlan.quick : BenchPlan.full
        let json = parsed.has("--json")
        let rows = Figures.all(plan) { figure in
            if !json { Standard.error("lockstep bench: measuring \(figure)…") }
        }
        if json {
            print(BenchReport.json(rows))
        } else {
            print(BenchReport.table(rows, header: "lockstep bench\(plan.quick ? " --quick" : "") (ours beside baselines measured in this run)"))
        }
        return .success
    }
}
