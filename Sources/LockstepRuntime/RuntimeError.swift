import LockstepSystem

/// Why a simulated process may not run: one sentence naming the bundle.
public struct RuntimeError: Error, Equatable, Sendable {
    public enum Code: Equatable, Sendable {
        /// No bundle in the installed manifest has this bundle identifier or role (exit 2).
        case unknownBundle
        /// rule `runtime.version-parity`: the bundle's versions differ from the installed app's (exit 78).
        case versionMismatch
        /// rule `runtime.stale`: the app was reinstalled at another build (exit 78).
        case stale
    }

    public var code: Code
    /// The bundle concerned.
    public var subject: String
    /// The rest of the sentence: what exactly happened.
    public var detail: String

    public init(_ code: Code, subject: String, detail: String) {
        self.code = code
        self.subject = subject
        self.detail = detail
    }
}

extension RuntimeError: ReportableError {
    public var description: String {
        switch code {
        case .unknownBundle: return "The manifest has no bundle '\(subject)': \(detail)."
        case .versionMismatch, .stale: return detail
        }
    }

    public var exitStatus: ExitStatus {
        switch code {
        case .versionMismatch, .stale: return .versionMismatch
        case .unknownBundle: return .invalidInput
        }
    }
}
