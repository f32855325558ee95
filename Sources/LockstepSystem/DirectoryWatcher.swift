#if canImport(Glibc)
import Glibc
#endif
import Synchronization

/// Wakes a waiting thread when something changes in a few directories: inotify(7) when the kernel offers it,
/// otherwise polling at a fixed interval (`LOCKSTEP_WATCH=poll` forces the fallback).
///
/// A wake is only a hint: callers re-read the state they care about after every wake, so a spurious wake (a poll
/// tick, an unrelated file) costs one check and a coalesced one loses nothing. The one directory watcher: every
/// simulated framework and the stale-build guard wait the same way, with the same fallback.
///
/// An untimed wait blocks in `read(2)` on the inotify descriptor itself — one system call per wake, as a bare
/// inotify reader makes — and `cancel()` ends it by removing the watches (`inotify_rm_watch`): the kernel then
/// queues an `IN_IGNORED` event for each, which wakes the blocked read, or the next one. No pipe is needed.
///
/// When the kernel's event queue overflows (`IN_Q_OVERFLOW`, after `fs.inotify.max_queued_events` unread events: a
/// burst of writes while the waiter was busy), an `IN_IGNORED` may be among the events it dropped, so the watcher
/// asks the kernel again whether each watch is alive (`inotify_add_watch` of the same folder gives back the same
/// watch while it lives) and goes on blocking when all are; only a folder removed or replaced at its path meanwhile
/// leaves it polling.
public final class DirectoryWatcher: Sendable {  // The descriptor and watches are immutable; the rest is atomic.
    /// How often the fallback looks when inotify is unavailable (or no watch is left).
    static let pollInterval = 0.05
    /// What a watch reports: a file written, moved in, created, removed or changed.
    private static let mask = UInt32(IN_CLOSE_WRITE | IN_MOVED_TO | IN_MODIFY | IN_CREATE | IN_DELETE | IN_ATTRIB)

    private let inotify: Int32?
    /// Each watched folder with its watch: what `cancel()` removes, and how the watches are checked again after an
    /// overflow.
    private let watched: [(directory: String, watch: Int32)]
    private let cancelled = Atomic<Bool>(false)
    /// Watches whose `IN_IGNORED` the waiter has not read yet, counted again after an overflow (`recount`). Once none
    /// is left (every watched directory was removed, or one was removed or replaced while the queue overflowed), no
    /// event can end a blocked read any more, so the waiter polls instead, as where inotify is unavailable.
    private let live: Atomic<Int>

    /// Whether changes are observed through inotify (false: polling).
    public var usesInotify: Bool { inotify != nil }

    /// - Parameter directories: folders to watch; they must exist.
    /// - Throws: nothing at present (inotify failing means polling); the signature leaves room for a watcher
    ///   that needs a resource of its own again.
    public init(directories: [String]) throws(SystemError) {
        let forcePoll = getenv("LOCKSTEP_WATCH").map { String(cString: $0) == "poll" } ?? false
        // Blocking: an untimed wait sleeps in `read(2)`; a timed one reads only after `poll(2)` said it is ready.
        var fd: Int32? = forcePoll ? nil : inotify_init1(Int32(IN_CLOEXEC))
        if let descriptor = fd, descriptor < 0 { fd = nil }
        var watched: [(directory: String, watch: Int32)] = []
        if let descriptor = fd {
            for directory in directories {
                let watch = inotify_add_watch(descriptor, directory, Self.mask)
                if watch < 0 {
                    // A file system without inotify support (some network mounts): fall back to polling.
                    close(descriptor)
                    fd = nil
                    watched = []
                    break
                }
                // The same directory twice gives the same watch: one IN_IGNORED, counted once.
                if !watched.contains(where: { $0.watch == watch }) { watched.append((directory, watch)) }
            }
        }
        inotify = fd
        self.watched = watched
        live = Atomic(watched.count)
    }

    deinit {
        if let inotify { close(inotify) }
    }

    /// Blocks until something may have changed (`true`), or until `timeout` seconds pass or `cancel()` is
    /// called (`false`).
    public func wait(timeout: Double?) -> Bool {
        let start = Monotonic.now
        while true {
            if cancelled.load(ordering: .acquiring) { return false }
            var remaining = -1
            if let timeout {
                let left = timeout - (Monotonic.now - start)
                if left <= 0 { return false }
                remaining = Int(left * 1000) + 1
            }
            guard let inotify, live.load(ordering: .relaxed) > 0 else {
                // Polling: a tick is a wake; `cancel()` is seen at the next one.
                let interval = Int(Self.pollInterval * 1000)
                remaining = remaining < 0 ? interval : min(remaining, interval)
                _ = poll(nil, 0, Int32(remaining))
                if cancelled.load(ordering: .acquiring) { return false }
                if let timeout, Monotonic.now - start >= timeout { return false }
                return true
            }
            if remaining >= 0 {
                var descriptor = pollfd(fd: inotify, events: Int16(POLLIN), revents: 0)
                let ready = poll(&descriptor, 1, Int32(remaining))
                if ready < 0 && errno != EINTR { return false }
                if ready <= 0 { continue }  // the deadline is checked at the top
            }
            switch readEvents(inotify) {
            case nil: return false
            case false?: continue  // EINTR
            case true?: return !cancelled.load(ordering: .acquiring)
            }
        }
    }

    /// Makes the current and every later `wait` return `false`.
    public func cancel() {
        // The flag first: a waiter woken by the IN_IGNORED below (now, or by a read that starts later) sees it.
        guard !cancelled.exchange(true, ordering: .acquiringAndReleasing) else { return }
        guard let inotify else { return }
        for (_, watch) in watched { _ = inotify_rm_watch(inotify, watch) }
    }

    /// One `read(2)` of the pending events: a read returns every event that fits, and events left over only make
    /// the next wait return at once (a spurious wake, harmless), so the queue is not drained with a second call.
    /// Counts the watches the kernel dropped (`IN_IGNORED`: a watched directory was removed), and after an overflow
    /// counts them again (`recount`).
    /// - Returns: true once read, false when interrupted (EINTR), nil on another error.
    private func readEvents(_ fd: Int32) -> Bool? {
        withUnsafeTemporaryAllocation(byteCount: 4096, alignment: 8) { buffer -> Bool? in
            let count = read(fd, buffer.baseAddress, buffer.count)
            if count < 0 { return errno == EINTR ? false : nil }
            // struct inotify_event: wd (Int32), mask, cookie, len (UInt32), then `len` bytes of name.
            var offset = 0
            var dropped = 0
            var overflowed = false
            while offset + 16 <= count {
                let mask = buffer.load(fromByteOffset: offset + 4, as: UInt32.self)
                if mask & UInt32(IN_IGNORED) != 0 { dropped += 1 }
                // The queue overflowed: an IN_IGNORED may be among the lost events, so the count is not to be trusted.
                if mask & UInt32(IN_Q_OVERFLOW) != 0 { overflowed = true }
                offset += 16 + Int(buffer.load(fromByteOffset: offset + 12, as: UInt32.self))
            }
            if overflowed {
                live.store(recount(fd), ordering: .relaxed)
            } else if dropped > 0 {
                live.subtract(dropped, ordering: .relaxed)
            }
            return true
        }
    }

    /// How many watches are alive, asked of the kernel after an overflow: adding a watch on a folder already watched
    /// gives back its watch (with the same mask, nothing changes). All of them, or 0 — the waiter then polls — when
    /// a folder is gone or is another folder now (a new watch, removed again: `cancel()` would not know it).
    private func recount(_ fd: Int32) -> Int {
        for (directory, watch) in watched {
            let again = inotify_add_watch(fd, directory, Self.mask)
            guard again == watch else {
                if again >= 0 { _ = inotify_rm_watch(fd, again) }
                return 0
            }
        }
        return watched.count
    }
}
