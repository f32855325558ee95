import LockstepSystem

enum BumpCommand: Command {
    static let name = "bump"
    static let summary = "Set the build or marketing version everywhere, then re-check"
    static let help = "Usage: lockstep bump PATH (--build N|next) | (--version X.Y.Z)"

    static func run(_ arguments: [String]) throws -> ExitStatus {
        Standard.error("lockstep bump: not implemented yet.")
        return .failure
    }
}
