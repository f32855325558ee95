import LockstepSystem

enum RunCommand: Command {
    static let name = "run"
    static let summary = "Launch one bundle with its identity and sandbox"
    static let help = "Usage: lockstep run BUNDLE-ID|ROLE [--manifest F] [--groups DIR] [-- ARGS…]"

    static func run(_ arguments: [String]) throws -> ExitStatus {
        Standard.error("lockstep run: not implemented yet.")
        return .failure
    }
}
