import LockstepSystem

enum NotifyCommand: Command {
    static let name = "notify"
    static let summary = "Post or wait for a Darwin notification"
    static let help = "Usage: lockstep notify --as BUNDLE-ID (post NAME | wait NAME [--timeout S])"

    static func run(_ arguments: [String]) throws -> ExitStatus {
        Standard.error("lockstep notify: not implemented yet.")
        return .failure
    }
}
