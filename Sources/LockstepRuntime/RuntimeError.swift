import LockstepSystem

/// Why a simulated process may not run: one sentence naming the bundle (`subject`), completed by what exactly
/// happened (`detail`).
public typealias RuntimeError = CodedError<RuntimeErrorCode>

/// What a `RuntimeError` is.
public enum RuntimeErrorCode: ErrorCode {
    /// No bundle in the installed manifest has this bundle identifier or role (exit 2).
    case unknownBundle
    /// rule `runtime.version-parity`: the bundle's versions differ from the installed app's (exit 78).
    case versionMismatch
    /// rule `runtime.stale`: the app was reinstalled at another build (exit 78).
    case stale

    public func sentence(subject: String, detail: String) -> String {
        switch self {
        case .unknownBundle: return "The manifest has no bundle '\(subject)': \(detail)."
        case .versionMismatch, .stale: return detail
        }
    }

    public var exitStatus: ExitStatus {
        switch self {
        case .versionMismatch, .stale: return .versionMismatch
        case .unknownBundle: return .invalidInput
        }
    }
}
