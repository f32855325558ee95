#if canImport(Glibc)
import Glibc
#endif
import CLinux

/// An advisory `flock(2)` lock on a dedicated lock file beside the resource it guards.
///
/// - The lock file is opened with `O_CLOEXEC`, so a launched child never inherits the lock, and it is
///   never the data file itself (replacing a data file by rename would orphan a lock taken on it).
/// - The kernel releases the lock when the holder dies, even by SIGKILL: a process holding a lock is alive.
/// - Locks are advisory: only processes that take this lock are excluded. A `flock` lock belongs to the open
///   file description, so it would survive `fork`; Lockstep never forks without exec.
/// - Lock files are never deleted while in use (deleting one would let two processes lock different inodes).
public final class FileLock: Sendable {
    public enum Mode: Sendable {
        /// `LOCK_SH`: many readers at once.
        case shared
        /// `LOCK_EX`: one writer.
        case exclusive

        var operation: Int32 { self == .shared ? LOCK_SH : LOCK_EX }
    }

    /// The lock file's path.
    public let path: String
    private let descriptor: FileDescriptor

    /// Opens (creating if needed) the lock file at `path`, creating its directory.
    public init(path: String) throws(SystemError) {
        self.path = path
        try AtomicFile.createDirectories(AtomicFile.parentDirectory(of: path))
        descriptor = try FileDescriptor.open(path, O_RDWR | O_CREAT, mode: 0o644)
    }

    deinit { descriptor.close() }

    /// Tries to take the lock without waiting.
    /// - Returns: `false` if another process holds it ("would block" is an answer, not an error).
    public func tryLock(_ mode: Mode = .exclusive) throws(SystemError) -> Bool {
        switch valueOrErrno({ flock(descriptor.rawValue, mode.operation | LOCK_NB) }) {
        case .success: return true
        case .failure(.wouldBlock): return false
        case .failure(let errno): throw SystemError(.lock, path: path, errno: errno)
        }
    }

    /// Whether some process holds the lock file at `path` exclusively: how liveness is read without a daemon.
    ///
    /// The probe opens the file read-only and never creates it, so it leaves nothing an inotify watcher of the
    /// folder wakes for (closing a read-only descriptor is `IN_CLOSE_NOWRITE`); a missing file is not held.
    public static func isHeld(path: String) -> Bool {
        guard let probe = try? FileDescriptor.open(path, O_RDONLY) else { return false }
        // Closing the probe releases the shared lock it may have taken.
        return probe.closeAfter { descriptor in
            if case .failure(.wouldBlock) = valueOrErrno({ flock(descriptor.rawValue, LOCK_SH | LOCK_NB) }) { return true }
            return false
        }
    }

    /// Takes the lock, waiting at most `timeout` seconds (`nil`: as long as it takes).
    /// - Throws: `SystemError` with code `.busy` when the wait runs out (exit status 75).
    public func lock(_ mode: Mode = .exclusive, timeout: Double? = FileLock.defaultTimeout) throws(SystemError) {
        guard let timeout else {
            if case .failure(let errno) = valueOrErrno({ flock(descriptor.rawValue, mode.operation) }) {
                throw SystemError(.lock, path: path, errno: errno)
            }
            return
        }
        if try tryLock(mode) { return }
        // Contended: block in the kernel, which hands the lock over the moment its holder releases it, with a
        // timer signal ending the wait at the deadline (CLinux's lockstep_flock_timed). Polling with LOCK_NB spun
        // and slept instead: four contending processes made two failed flocks and a sched_yield per success.
        let nanoseconds = Int64(min(max(timeout, 0), Double(Int64.max / 2) / 1e9) * 1e9)
        switch valueOrErrno({ lockstep_flock_timed(descriptor.rawValue, mode.operation, nanoseconds) }) {
        case .success: return
        case .failure(.wouldBlock): throw SystemError(.busy(seconds: timeout), path: path)
        case .failure(let errno): throw SystemError(.lock, path: path, errno: errno)
        }
    }

    /// Releases the lock. Errors are reported, not swallowed.
    public func unlock() throws(SystemError) {
        if case .failure(let errno) = valueOrErrno({ flock(descriptor.rawValue, LOCK_UN) }) {
            throw SystemError(.lock, path: path, errno: errno)
        }
    }

    /// Runs `body` holding the lock, releasing it afterwards.
    public func withLock<R>(
        _ mode: Mode = .exclusive, timeout: Double? = FileLock.defaultTimeout, _ body: () throws -> R
    ) throws -> R {
        try lock(mode, timeout: timeout)
        let result: R
        do {
            result = try body()
        } catch {
            // The body's error is the one worth reporting; the unlock is still attempted.
            try? unlock()
            throw error
        }
        try unlock()
        return result
    }

    /// The default bounded wait, overridable with `LOCKSTEP_LOCK_TIMEOUT` (seconds).
    /// Read once: every lock asks for it, and the environment does not change under a running process.
    public static let defaultTimeout: Double = {
        if let text = getenv("LOCKSTEP_LOCK_TIMEOUT"), let value = Double(String(cString: text)), value >= 0 {
            return value
        }
        return 10
    }()
}

/// Monotonic time in seconds, immune to wall-clock changes.
public enum Monotonic {
    public static var now: Double {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }
}
