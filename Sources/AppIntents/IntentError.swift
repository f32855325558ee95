import LockstepSystem

/// Why an intent could not run: one sentence naming the intent or parameter (or the remote error's sentence).
public typealias IntentError = CodedError<IntentErrorCode>

/// What an `IntentError` is.
public enum IntentErrorCode: ErrorCode {
    /// No intent has that name.
    case unknownIntent
    /// A parameter the intent needs was not given.
    case missingParameter
    /// A parameter value that does not parse as the parameter's type, or a parameter the intent does not have.
    case invalidParameter
    /// The intent ran in another process and threw there; `status` is the exit status that error carried.
    case failedElsewhere(status: Int32)
    /// The request to the app or its response could not be exchanged.
    case transport
    /// An intent with `openAppWhenRun` was asked of an extension while its app is not running (rule
    /// `intent.where`).
    case needsApp
    /// A command the intents extension does not take.
    case usage

    public func sentence(subject: String, detail: String) -> String {
        switch self {
        case .unknownIntent: return "There is no intent named '\(subject)' (intents: \(detail))."
        case .missingParameter: return "The intent \(detail) needs the parameter --\(subject)."
        case .invalidParameter: return "The parameter '\(subject)' is invalid: \(detail)."
        case .failedElsewhere: return subject
        case .transport: return "Could not hand the intent to the app through '\(subject)': \(detail)."
        case .usage: return "'\(subject)' is not a command of the intents extension; use \(detail)."
        case .needsApp: return "The intent \(subject) opens its app when run (openAppWhenRun), so it runs only in \(detail), which is not running; an app extension may not run it."
        }
    }

    public var exitStatus: ExitStatus {
        switch self {
        case .unknownIntent, .missingParameter, .usage: return .usage
        case .invalidParameter: return .invalidInput
        case .failedElsewhere(let status): return ExitStatus(rawValue: status) ?? .failure
        case .transport: return .failure
        case .needsApp: return .unavailable
        }
    }
}
