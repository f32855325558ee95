import LockstepSystem

enum BenchCommand: Command {
    static let name = "bench"
    static let summary = "Run the benchmarks beside same-run baselines"
    static let help = "Usage: lockstep bench [--quick] [--json]"

    static func run(_ arguments: [String]) throws -> ExitStatus {
        Standard.error("lockstep bench: not implemented yet.")
        return .failure
    }
}
