import LockstepSystem

enum ContainerCommand: Command {
    static let name = "container"
    static let summary = "Print the container a bundle would get"
    static let help = "Usage: lockstep container --as BUNDLE-ID (app|GROUP-ID)"

    static func run(_ arguments: [String]) throws -> ExitStatus {
        Standard.error("lockstep container: not implemented yet.")
        return .failure
    }
}
