import LockstepSystem

/// Why a Habits operation failed: one sentence naming the habit, value or store file (`subject`), with extra words
/// such as SQLite's message or the accepted range (`detail`).
public typealias HabitError = CodedError<HabitErrorCode>

/// What a `HabitError` is.
public enum HabitErrorCode: ErrorCode {
    /// No habit has that name (<doc:Design> "The command line": unknown habit → exit 1).
    case unknownHabit
    /// A habit with that name exists already.
    case duplicateHabit
    /// A value that is negative, not a number, or not allowed for the habit's kind.
    case invalidValue
    /// A habit name or emoji that cannot be stored (empty, too long).
    case invalidName
    /// The store file exists but is not a SQLite database (or is damaged); it is left untouched.
    case corruptStore
    /// The store was written by a newer schema; this build may read it but must not write it (rule `sqlite.shared`).
    case schemaTooNew(found: Int32, known: Int32)
    /// SQLITE_BUSY after the busy timeout: another process held the write lock too long.
    case busy
    /// Any other SQLite failure; `detail` carries SQLite's message.
    case database
    /// A command that does not fit its form; `subject` is the command, `detail` its usage.
    case usage

    public func sentence(subject: String, detail: String) -> String {
        switch self {
        case .unknownHabit:
            return "There is no habit named '\(subject)'\(detail.isEmpty ? "" : " (habits: \(detail))")."
        case .duplicateHabit: return "A habit named '\(subject)' exists already."
        case .invalidValue: return "The value '\(subject)' is invalid: \(detail)."
        case .invalidName: return "The habit name '\(subject)' is invalid: \(detail)."
        case .corruptStore:
            return "The Habits store '\(subject)' is not a readable SQLite database (\(detail)); it was left untouched — move it away to start over."
        case .schemaTooNew(let found, let known):
            return "The Habits store '\(subject)' has schema version \(found), newer than this build's \(known): this build may read it but will not write it (rule sqlite.shared)."
        case .busy:
            return "The Habits store '\(subject)' stayed locked by another process past the busy timeout (SQLITE_BUSY)."
        case .database: return "The Habits store '\(subject)' reported an error: \(detail)."
        case .usage: return "Usage: \(detail)\(subject.isEmpty ? "" : " (got '\(subject)')")."
        }
    }

    public var exitStatus: ExitStatus {
        switch self {
        case .unknownHabit: return .failure
        case .duplicateHabit, .invalidValue, .invalidName, .corruptStore: return .invalidInput
        case .schemaTooNew: return .versionMismatch
        case .busy: return .busy
        case .database: return .failure
        case .usage: return .usage
        }
    }
}
