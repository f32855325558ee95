import LockstepSystem

enum UpCommand: Command {
    static let name = "up"
    static let summary = "Launch every bundle side by side and run a scenario"
    static let help = "Usage: lockstep up [--manifest F] [--groups DIR] [--scenario demo|FILE] [--keep-running] [--no-color]"

    static func run(_ arguments: [String]) throws -> ExitStatus {
        Standard.error("lockstep up: not implemented yet.")
        return .failure
    }
}
