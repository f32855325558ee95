import Foundation
import LockstepSystem
import LockstepTestSupport
import Synchronization
import Testing

/// An untimed wait blocks in `read(2)` on the inotify descriptor and `cancel()` ends it by removing the watches
/// (the kernel queues IN_IGNORED): these check every order of cancel and wait, and a watched folder removed.
@Suite struct DirectoryWatcherTests {
    /// Runs `wait` on another thread; returns its answer, or nil when it did not return within ten seconds.
    private func waitElsewhere(_ watcher: DirectoryWatcher, timeout: Double? = nil,
                               whileWaiting: () throws -> Void) rethrows -> Bool? {
        let answer = Mutex<Bool?>(nil)
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            let woken = watcher.wait(timeout: timeout)
            answer.withLock { $0 = woken }
            done.signal()
        }
        thread.start()
        try whileWaiting()
        guard done.wait(timeout: .now() + 10) == .success else { return nil }
        return answer.withLock { $0 }
    }

    @Test func aChangeWakesAnUntimedWait() throws {
        let dir = TestSupport.temporaryDirectory(); defer { TestSupport.cleanUp(dir) }
        let watcher = try DirectoryWatcher(directories: [dir.path])
        let woken = try waitElsewhere(watcher) { try AtomicFile.write("x", to: dir.path + "/file") }
        #expect(woken == true)
        watcher.cancel()
    }

    /// Cancelled from another thread while the wait may be blocked in `read(2)` or about to enter it: either way
    /// it returns false (the IN_IGNORED stays queued for a read that starts later), and so does every later wait.
    @Test(arguments: [nil, 30.0]) func cancelEndsAWaitInProgress(timeout: Double?) throws {
        let dir = TestSupport.temporaryDirectory(); defer { TestSupport.cleanUp(dir) }
        let watcher = try DirectoryWatcher(directories: [dir.path, dir.path])  // the same folder twice: one watch
        #expect(waitElsewhere(watcher, timeout: timeout) { watcher.cancel() } == false)
        #expect(watcher.wait(timeout: nil) == false)
        #expect(watcher.wait(timeout: 30) == false)
        watcher.cancel()  // twice: harmless
        #expect(watcher.wait(timeout: nil) == false)
    }

    @Test func cancelBeforeWaitingEndsEveryWait() throws {
        let dir = TestSupport.temporaryDirectory(); defer { TestSupport.cleanUp(dir) }
        let watcher = try DirectoryWatcher(directories: [dir.path])
        watcher.cancel()
        try AtomicFile.write("x", to: dir.path + "/file")  // a pending change does not make a cancelled wait true
        #expect(watcher.wait(timeout: nil) == false)
        #expect(watcher.wait(timeout: 30) == false)
    }

    @Test func aTimedWaitWithoutChangesEndsFalse() throws {
        let dir = TestSupport.temporaryDirectory(); defer { TestSupport.cleanUp(dir) }
        let watcher = try DirectoryWatcher(directories: [dir.path])
        #expect(watcher.wait(timeout: 0.02) == false)
        #expect(watcher.wait(timeout: 0) == false)
    }

    /// A removed folder takes its watch with it: no event can end a blocked read afterwards, so the watcher polls,
    /// its waits still return, and `cancel()` still ends an untimed one.
    @Test func aRemovedFolderLeavesAWatcherThatCancelStillEnds() throws {
        let dir = TestSupport.temporaryDirectory(); defer { TestSupport.cleanUp(dir) }
        let watched = dir.path + "/watched"
        try AtomicFile.createDirectories(watched)
        let watcher = try DirectoryWatcher(directories: [watched])
        try FileManager.default.removeItem(atPath: watched)
        // The removal's events (IN_DELETE_SELF is not asked for; IN_IGNORED is always sent) wake the wait.
        #expect(watcher.wait(timeout: 30) == true)
        // Whatever is left queued, the watcher now wakes by itself (a poll tick is a wake) instead of blocking.
        var ticks = 0
        while ticks < 3, watcher.wait(timeout: nil) { ticks += 1 }
        #expect(ticks == 3)
        #expect(waitElsewhere(watcher) { watcher.cancel() } == false)
    }

    /// More unread events than the kernel queues (`fs.inotify.max_queued_events`) end in `IN_Q_OVERFLOW`. The
    /// watches are still alive, so once the queue is read the watcher blocks again — a timed wait with no change
    /// ends false, where a polling watcher would wake at its first tick — and a change still wakes it at once.
    @Test(.enabled(if: Self.queueLimit.map { $0 <= 1 << 20 } ?? false, "needs inotify's queue limit, at most 2^20"))
    func anOverflowedQueueLeavesTheWatcherBlocking() throws {
        let dir = TestSupport.temporaryDirectory(); defer { TestSupport.cleanUp(dir) }
        let watcher = try DirectoryWatcher(directories: [dir.path])
        #expect(watcher.usesInotify)
        // Each file is an IN_CREATE and an IN_CLOSE_WRITE.
        let limit = try #require(Self.queueLimit)
        for index in 0..<(limit / 2 + 64) {
            let fd = open(dir.path + "/f\(index)", O_WRONLY | O_CREAT | O_CLOEXEC, 0o644)
            try #require(fd >= 0)
            close(fd)
        }
        // Read what is queued, the overflow included: each read takes what fits in its buffer.
        var reads = 0
        while watcher.wait(timeout: 0.2) {
            reads += 1
            try #require(reads < 500, "the watcher keeps waking: it polls")
        }
        #expect(reads > 0)
        #expect(watcher.wait(timeout: 0.2) == false)
        #expect(waitElsewhere(watcher) { try? AtomicFile.write("x", to: dir.path + "/after") } == true)
        #expect(waitElsewhere(watcher) { watcher.cancel() } == false)
    }

    /// `fs.inotify.max_queued_events`, when it can be read.
    private static var queueLimit: Int? {
        (try? String(contentsOfFile: "/proc/sys/fs/inotify/max_queued_events", encoding: .utf8))
            .flatMap { Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
    }
}
