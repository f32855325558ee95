import LockstepSystem

enum CheckCommand: Command {
    static let name = "check"
    static let summary = "Check bundle ids and version parity (RULES.md §6)"
    static let help = "Usage: lockstep check PATH… [--format text|json|github|junit] [--strict]"

    static func run(_ arguments: [String]) throws -> ExitStatus {
        Standard.error("lockstep check: not implemented yet.")
        return .failure
    }
}
