import LockstepSystem

enum InitCommand: Command {
    static let name = "init"
    static let summary = "Print the embedded default manifest"
    static let help = "Usage: lockstep init"

    static func run(_ arguments: [String]) throws -> ExitStatus {
        Standard.error("lockstep init: not implemented yet.")
        return .failure
    }
}
