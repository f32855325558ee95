import LockstepSystem

enum VerifyCommand: Command {
    static let name = "verify"
    static let summary = "Print who can see whose data, through each channel"
    static let help = "Usage: lockstep verify [--manifest F] [--groups DIR] [--format text|json]"

    static func run(_ arguments: [String]) throws -> ExitStatus {
        Standard.error("lockstep verify: not implemented yet.")
        return .failure
    }
}
