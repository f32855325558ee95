import LockstepSystem

// `lockstep-bench [--quick] [--json]`, which `lockstep bench` runs (the help is there): our figures beside
// baselines measured in the same run, with the ratio and the target of each. `lockstep-bench __worker KIND …` is
// one of the processes it starts. It is a separate executable so that `lockstep` links neither SQLite nor the
// benchmarks; it is found next to `lockstep` in the build directory (`make install` does not install it).
Standard.setUp()
let arguments = Array(CommandLine.arguments.dropFirst())
do {
    if arguments.first == "__worker" {
        try Workers.run(Array(arguments.dropFirst()))
        exit(.success)
    }
    var quick = false, json = false
    for argument in arguments {
        switch argument {
        case "--quick": quick = true
        case "--json": json = true
        default: throw BenchError.usage("lockstep bench: unexpected argument '\(argument)'; see 'lockstep bench --help'.")
        }
    }
    let plan = quick ? BenchPlan.quick : BenchPlan.full
    let rows = Figures.all(plan) { figure in
        if !json { Standard.error("lockstep bench: measuring \(figure)…") }
    }
    if json {
        print(BenchReport.json(rows))
    } else {
        print(BenchReport.table(rows, header: "lockstep bench\(quick ? " --quick" : "") (ours beside baselines measured in this run)"))
    }
    exit(.success)
} catch {
    exit(withError: error)
}
