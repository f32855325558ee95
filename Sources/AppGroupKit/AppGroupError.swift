import LockstepSystem

/// Why AppGroupKit refused or failed: one sentence naming the group, bundle, suite, key or file.
///
/// Refusals (`notEntitled`, `invalidIdentifier`, `invalidValue`, `malformedSuite`, `pathEscape`, `notAFile`,
/// `unknownBundle`) happen before anything is written.
public typealias AppGroupError = CodedError<AppGroupErrorCode>

/// What an `AppGroupError` is; its `subject` is the group id, bundle id, suite, key or path.
public enum AppGroupErrorCode: ErrorCode {
    /// The process's entitlements do not list the App Group (rule `group.entitlement`); `detail` names the
    /// bundle and what it lists. Exit 77.
    case notEntitled
    /// A group id, bundle id, suite, notification or file name that is malformed (rule `group.id-format`). Exit 2.
    case invalidIdentifier
    /// A defaults value that is not a property-list type (rule `defaults.plist-types`). Exit 2.
    case invalidValue
    /// The suite's plist on disk is not a readable dictionary plist; it is left untouched. Exit 2.
    case malformedSuite
    /// A path that would leave its container (`..`, absolute, a symlink pointing outside). Exit 2.
    case pathEscape
    /// A file name in a container that names a folder, FIFO, socket or device; `detail` says which. Exit 2.
    case notAFile
    /// A bundle id the manifest does not list. Exit 2.
    case unknownBundle
    /// A defaults journal with a bad record followed by valid ones: damage, not the torn tail a killed writer
    /// leaves. Refused by readers and writers alike and never cut or compacted over; left byte for byte. Exit 2.
    case damagedJournal
    /// A write whose journal record could not be appended whole for a reason other than room (an I/O error): it
    /// did not happen and no reader ever sees it. Exit 2 (no room is `noSpace`, 75).
    case notWritten
    /// A full disk (`ENOSPC`, `EDQUOT`) or the file-size limit (`EFBIG`, SIGXFSZ being ignored) stopped a write;
    /// nothing of it was written, `detail` is the whole sentence. Exit 75: retry once there is room.
    case noSpace
    /// A bounded lock wait ran out. Exit 75.
    case busy
    /// `LOCKSTEP_DEVICE_TIMING` or `LOCKSTEP_SEED` holds something other than a timing mode or a seed
    /// (`DeviceTiming`); `subject` is both as set. Exit 2.
    case invalidTiming
    /// The operating system refused (open, read, write, inotify); `detail` carries its sentence. Exit 2: the
    /// suite or file is unreadable (1 is only ever a key that does not exist).
    case system

    public func sentence(subject: String, detail: String) -> String {
        switch self {
        case .notEntitled:
            return "\(detail.isEmpty ? "The bundle" : detail) is not entitled to the App Group '\(subject)':"
                + " its com.apple.security.application-groups entitlement must list it [group.entitlement]."
        case .invalidIdentifier: return "'\(subject)' is not a valid identifier: \(detail)."
        case .invalidValue: return "The value for '\(subject)' is refused: \(detail) [defaults.plist-types]; nothing was written."
        case .malformedSuite: return "The defaults suite '\(subject)' is not a readable property list: \(detail); it was left untouched."
        case .pathEscape: return "The path '\(subject)' would leave its container: \(detail); nothing was written."
        case .notAFile: return "The path '\(subject)' names \(detail), not a file; nothing was written."
        case .unknownBundle: return "The bundle '\(subject)' is not in the manifest\(detail.isEmpty ? "" : " \(detail)")."
        case .damagedJournal:
            return "The defaults journal '\(subject)' is damaged: \(detail); it was left untouched, and the suite is neither read nor written until it is repaired."
        case .notWritten: return Self.notWritten(subject, detail)
        case .invalidTiming: return "The environment's \(subject) is invalid: \(detail)."
        case .busy, .system, .noSpace: return detail
        }
    }

    /// The sentence of a journal append that failed: it is the write's one durable step, so nothing happened.
    static func notWritten(_ journal: String, _ reason: String) -> String {
        "Could not append to '\(journal)': \(reason); the write did not happen, and no reader will see any of it."
    }

    public var exitStatus: ExitStatus {
        switch self {
        case .notEntitled: return .notEntitled
        case .invalidIdentifier, .invalidValue, .malformedSuite, .pathEscape, .notAFile, .unknownBundle, .damagedJournal,
             .notWritten, .system, .invalidTiming:
            return .invalidInput
        case .busy, .noSpace: return .busy
        }
    }
}

extension AppGroupError {
    /// Wraps a LockstepSystem failure, keeping `busy` distinct (exit 75).
    init(_ error: SystemError) {
        if case .busy = error.code {
            self.init(.busy, subject: error.path, detail: error.description)
        } else if error.errno?.isNoSpace == true {
            self.init(.noSpace, subject: error.path, detail: error.description)
        } else {
            self.init(.system, subject: error.path, detail: error.description)
        }
    }
}

