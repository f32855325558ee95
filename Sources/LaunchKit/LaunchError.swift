import LockstepSystem

/// Why a bundle could not be launched, supervised or verified: one sentence naming the bundle, file or step
/// (`subject`), completed by what exactly happened (`detail`).
public typealias LaunchError = CodedError<LaunchErrorCode>

/// What a `LaunchError` is.
public enum LaunchErrorCode: ErrorCode {
    /// No bundle in the manifest has this bundle identifier or role.
    case unknownBundle
    /// The bundle names no executable, or it is not next to `lockstep`, on PATH, or at the path given.
    case executableNotFound
    /// `posix_spawn` or a pipe failed.
    case spawnFailed
    /// rule `runtime.version-parity`: the bundle's versions differ from the installed app's (exit 78).
    case versionMismatch
    /// rule `runtime.stale`: the app was reinstalled at another build (exit 78).
    case stale
    /// A long-running bundle did not print its ready line in time, or exited before it did.
    case notReady
    /// A scenario file that cannot be read or parsed (exit 2).
    case invalidScenario
    /// A value on the command line or in the environment that is not valid (exit 2).
    case invalidInput

    public func sentence(subject: String, detail: String) -> String {
        switch self {
        case .unknownBundle: return "The manifest has no bundle '\(subject)': \(detail)."
        case .executableNotFound: return "Cannot launch '\(subject)': \(detail)."
        case .spawnFailed: return "Could not start '\(subject)': \(detail)."
        case .versionMismatch, .stale, .notReady, .invalidInput: return detail
        case .invalidScenario: return "The scenario '\(subject)' is invalid: \(detail)."
        }
    }

    public var exitStatus: ExitStatus {
        switch self {
        case .versionMismatch, .stale: return .versionMismatch
        // A manifest naming an executable that is not there is invalid input, found before anything is launched.
        case .invalidScenario, .invalidInput, .unknownBundle, .executableNotFound: return .invalidInput
        case .spawnFailed, .notReady: return .failure
        }
    }
}
