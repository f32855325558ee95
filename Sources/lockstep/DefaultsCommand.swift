import LockstepSystem

enum DefaultsCommand: Command {
    static let name = "defaults"
    static let summary = "Read and write a defaults suite as a bundle"
    static let help = "Usage: lockstep defaults --as BUNDLE-ID read|write|delete|increment SUITE [KEY [VALUE]]"

    static func run(_ arguments: [String]) throws -> ExitStatus {
        Standard.error("lockstep defaults: not implemented yet.")
        return .failure
    }
}
