#if canImport(Glibc)
@preconcurrency import Glibc
#endif

/// Lockstep's exit statuses, the same for every command and simulated process (<doc:Design> "The command line").
///
/// The simulated processes add the sysexits(3) values for the iOS conditions they reproduce.
public enum ExitStatus: Int32, Sendable, CaseIterable {
    /// Success.
    case success = 0
    /// A check, rule or scenario failed.
    case failure = 1
    /// Unreadable or invalid input; nothing was written.
    case invalidInput = 2
    /// Usage error (`EX_USAGE`).
    case usage = 64
    /// The counterpart is not reachable (`EX_UNAVAILABLE`).
    case unavailable = 69
    /// Busy: a lock wait timed out, or no room to write (a full disk, the file-size limit): retry later (`EX_TEMPFAIL`).
    case busy = 75
    /// Not entitled (`EX_NOPERM`).
    case notEntitled = 77
    /// Version mismatch or stale build (`EX_CONFIG`).
    case versionMismatch = 78
}

/// An error that knows its exit status and describes itself as one sentence.
///
/// Every module's public error type conforms, and decides its status in a single `switch`;
/// `exit(withError:)` is the one place where an error becomes a message and a status.
public protocol ReportableError: Error, CustomStringConvertible {
    var exitStatus: ExitStatus { get }
}

/// Prints the error's sentence on stderr (prefixed with the program name) and exits with its status.
public func exit(withError error: any Error, program: String = Program.name) -> Never {
    let status: ExitStatus
    let message: String
    if let error = error as? any ReportableError {
        status = error.exitStatus
        message = error.description
    } else {
        status = .failure
        message = String(describing: error)
    }
    // Sentences that already name their command (`lockstep check: …`) are not prefixed twice.
    Standard.error(message.hasPrefix("\(program) ") || message.hasPrefix("\(program):") ? message : "\(program): \(message)")
    exit(status)
}

/// Exits the process with a Lockstep status, flushing stdout first.
public func exit(_ status: ExitStatus) -> Never {
    exit(rawStatus: status.rawValue)
}

/// Exits with a status that need not be one of Lockstep's (`lockstep run` passes on its bundle's), flushing stdout first.
package func exit(rawStatus status: Int32) -> Never {
    fflush(stdout)
    Glibc.exit(status)
}
