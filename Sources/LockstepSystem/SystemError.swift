/// What went wrong talking to the operating system, as a sentence that names the file.
public struct SystemError: Error, Equatable, Sendable, CustomStringConvertible {
    public enum Code: Equatable, Sendable {
        /// `open(2)` failed.
        case open
        /// Reading failed.
        case read
        /// Writing, syncing or renaming failed while replacing a file.
        case write
        /// `flock(2)` failed for a reason other than contention.
        case lock
        /// A bounded lock wait ran out.
        case busy(seconds: Double)
        /// Creating a directory failed.
        case createDirectory
        /// Spawning or signalling a process failed.
        case process
        /// A write was refused because the path holds something other than a regular file (`kind` names it: "a
        /// folder", "a named pipe (FIFO)", "a device or a socket"); nothing was written.
        case notARegularFile(kind: String)
        /// `dlopen(3)` could not load a library (`path` names it); `reason` is the dynamic linker's.
        case load(reason: String)
    }

    public let code: Code
    public let path: String
    public let errno: Errno?

    public init(_ code: Code, path: String, errno: Errno? = nil) {
        self.code = code
        self.path = path
        self.errno = errno
    }

    /// Why, in a few words, for a sentence that names the file itself: the operating system's reason, or what the
    /// path is instead of a regular file.
    public var reason: String {
        if case .notARegularFile(let kind) = code { return "it is \(kind), not a regular file" }
        if case .load(let reason) = code { return reason }
        return errno.map { "\($0)" } ?? "it failed"
    }

    public var description: String {
        let reason = errno.map { ": \($0)" } ?? ""
        switch code {
        case .open: return "Could not open '\(path)'\(reason)."
        case .read: return "Could not read '\(path)'\(reason)."
        case .write: return "Could not write '\(path)'\(reason); the previous contents are unchanged."
        case .lock: return "Could not lock '\(path)'\(reason)."
        case .busy(let seconds):
            return "Timed out after \(formatSeconds(seconds)) s waiting for the lock '\(path)', held by another process."
        case .createDirectory: return "Could not create the directory '\(path)'\(reason)."
        case .process: return "Could not run '\(path)'\(reason)."
        case .notARegularFile(let kind): return "Could not write '\(path)': it is \(kind), not a regular file; nothing was written."
        case .load(let reason): return "Could not load the library '\(path)': \(reason)."
        }
    }
}

private func formatSeconds(_ seconds: Double) -> String {
    seconds == seconds.rounded() ? String(Int(seconds)) : String(seconds)
}

extension SystemError: ReportableError {
    public var exitStatus: ExitStatus {
        switch code {
        case .busy: return .busy
        default: return .failure
        }
    }
}
