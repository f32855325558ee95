#if canImport(Glibc)
import Glibc
#endif

/// Wakes a waiting thread when something changes in a few directories: inotify(7) when the kernel offers it,
/// otherwise polling at a fixed interval (`LOCKSTEP_WATCH=poll` forces the fallback).
///
/// A wake is only a hint: callers re-read the state they care about after every wake, so a spurious wake (a poll
/// tick, an unrelated file) costs one check and a coalesced one loses nothing. The one directory watcher: every
/// simulated framework and the stale-build guard wait the same way, with the same fallback.
public final class DirectoryWatcher: Sendable {  // Only immutable descriptors; `cancel` writes one byte to a socket.
    /// How often the fallback looks when inotify is unavailable.
    static let pollInterval = 0.05

    private let inotify: Int32?
    private let cancelRead: Int32
    private let cancelWrite: Int32

    /// Whether changes are observed through inotify (false: polling).
    public var usesInotify: Bool { inotify != nil }

    /// - Parameter directories: folders to watch; they must exist.
    /// - Throws: `SystemError` when its wake-up pipe cannot be made.
    public init(directories: [String]) throws(SystemError) {
        let ends = try FileDescriptor.pipe()
        cancelRead = ends.read.rawValue
        cancelWrite = ends.write.rawValue
        // `cancel` must never block, however often it is called.
        _ = fcntl(cancelWrite, F_SETFL, fcntl(cancelWrite, F_GETFL) | O_NONBLOCK)
        let forcePoll = getenv("LOCKSTEP_WATCH").map { String(cString: $0) == "poll" } ?? false
        var fd: Int32? = forcePoll ? nil : inotify_init1(Int32(IN_CLOEXEC | IN_NONBLOCK))
        if let descriptor = fd, descriptor < 0 { fd = nil }
        if let descriptor = fd {
            let mask = UInt32(IN_CLOSE_WRITE | IN_MOVED_TO | IN_MODIFY | IN_CREATE | IN_DELETE | IN_ATTRIB)
            for directory in directories where inotify_add_watch(descriptor, directory, mask) < 0 {
                // A file system without inotify support (some network mounts): fall back to polling.
                close(descriptor)
                fd = nil
                break
            }
        }
        inotify = fd
    }

    deinit {
        if let inotify { close(inotify) }
        close(cancelRead)
        close(cancelWrite)
    }

    /// Blocks until something may have changed (`true`), or until `timeout` seconds pass or `cancel()` is
    /// called (`false`).
    public func wait(timeout: Double?) -> Bool {
        let start = Monotonic.now
        while true {
            var remaining = -1
            if let timeout {
                let left = timeout - (Monotonic.now - start)
                if left <= 0 { return false }
                remaining = Int(left * 1000) + 1
            }
            if inotify == nil {
                let interval = Int(Self.pollInterval * 1000)
                remaining = remaining < 0 ? interval : min(remaining, interval)
            }
            // On the stack: this runs once per change observed, inside the latency the bench measures.
            var fds = (pollfd(fd: cancelRead, events: Int16(POLLIN), revents: 0),
                       pollfd(fd: inotify ?? -1, events: Int16(POLLIN), revents: 0))
            let ready = withUnsafeMutableBytes(of: &fds) {
                poll($0.baseAddress!.assumingMemoryBound(to: pollfd.self), inotify == nil ? 1 : 2, Int32(remaining))
            }
            if ready < 0 {
                if errno == EINTR { continue }
                return false
            }
            if fds.0.revents != 0 { return false }
            if inotify == nil {
                if ready == 0, let timeout, Monotonic.now - start >= timeout { return false }
                return true
            }
            if ready > 0, let inotify, fds.1.revents != 0 {
                drain(inotify)
                return true
            }
        }
    }

    /// Makes the current and every later `wait` return `false`.
    public func cancel() {
        var byte: UInt8 = 1
        _ = write(cancelWrite, &byte, 1)
    }

    private func drain(_ fd: Int32) {
        // A read returns every pending event that fits: one that does not fill the buffer emptied the queue
        // (saves a second read, one system call on every wake-up).
        withUnsafeTemporaryAllocation(byteCount: 4096, alignment: 8) { buffer in
            while read(fd, buffer.baseAddress, buffer.count) > buffer.count - 512 {}
        }
    }
}
