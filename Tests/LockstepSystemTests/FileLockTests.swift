import Foundation
import CLinux
import Glibc
import Synchronization
import LockstepSystem
import LockstepTestSupport
import Testing

@Suite struct FileLockTests {
    /// Runs `body` with a lock file in a fresh directory and a `FileLock` on it that holds the lock: where the
    /// contention tests start.
    private func withHeldLock(_ body: (_ path: String, _ holder: FileLock) throws -> Void) throws {
        let dir = TestSupport.temporaryDirectory()
        defer { TestSupport.cleanUp(dir) }
        let path = dir.appendingPathComponent("x.lock").path
        let holder = try FileLock(path: path)
        try holder.lock()
        try body(path, holder)
    }

    @Test func tryLockReportsContentionAsFalse() throws {
        let dir = TestSupport.temporaryDirectory()
        defer { TestSupport.cleanUp(dir) }
        let path = dir.appendingPathComponent("x.lock").path
        let first = try FileLock(path: path)
        let second = try FileLock(path: path)
        #expect(try first.tryLock())
        #expect(try second.tryLock() == false)
        try first.unlock()
        #expect(try second.tryLock())
    }

    @Test func boundedWaitEndsInBusy() throws {
        try withHeldLock { path, _ in
            let waiter = try FileLock(path: path)
            #expect(throws: SystemError(.busy(seconds: 0.05), path: path)) { try waiter.lock(timeout: 0.05) }
        }
    }

    /// A contended wait blocks in the kernel and takes the lock the moment the holder lets go. The holder releases
    /// only once /proc/locks lists the waiter as blocked on the lock file's inode (`->`), so the wait really was a
    /// blocked flock, not a retry that happened to come after the release.
    @Test func contendedWaitTakesTheLockOnRelease() throws {
        try withHeldLock { path, holder in
            let outcome = Mutex<Result<Void, SystemError>?>(nil)
            let done = DispatchSemaphore(value: 0)
            let waiter = try FileLock(path: path)
            let thread = Thread {
                outcome.withLock { $0 = Result { () throws(SystemError) in try waiter.lock(timeout: 30) } }
                done.signal()
            }
            thread.start()
            var info = stat()
            #expect(stat(path, &info) == 0)
            let inode = ":\(info.st_ino) "
            let deadline = Date().addingTimeInterval(30)
            var blocked = false
            while !blocked && Date() < deadline {
                let locks = (try? String(contentsOfFile: "/proc/locks", encoding: .utf8)) ?? ""
                blocked = locks.split(separator: "\n").contains { $0.contains("-> FLOCK") && $0.contains(inode) }
            }
            #expect(blocked)
            try holder.unlock()
            #expect(done.wait(timeout: .now() + 30) == .success)
            #expect(throws: Never.self) { try outcome.withLock { $0 }?.get() }
            #expect(try holder.tryLock() == false)  // the waiter holds it now
            try waiter.unlock()
        }
    }

    /// The deadline still ends the wait on a thread that blocks every signal, as Dispatch's worker threads do.
    @Test func boundedWaitEndsInBusyWithSignalsBlocked() throws {
        try withHeldLock { path, _ in
            let outcome = Mutex<Result<Void, SystemError>?>(nil)
            let stillBlocked = Mutex(false)
            let done = DispatchSemaphore(value: 0)
            let thread = Thread {
                var all = sigset_t()
                sigfillset(&all)
                pthread_sigmask(SIG_SETMASK, &all, nil)
                let waiter = try! FileLock(path: path)
                outcome.withLock { $0 = Result { () throws(SystemError) in try waiter.lock(timeout: 0.05) } }
                var now = sigset_t()
                pthread_sigmask(SIG_SETMASK, nil, &now)
                stillBlocked.withLock { $0 = sigismember(&now, lockstep_lock_signal()) == 1 }
                done.signal()
            }
            thread.start()
            #expect(done.wait(timeout: .now() + 30) == .success)
            #expect(throws: SystemError(.busy(seconds: 0.05), path: path)) { try outcome.withLock { $0 }?.get() }
            #expect(stillBlocked.withLock { $0 })  // the caller's signal mask is given back
        }
    }

    @Test func atomicWriteReplacesWholeFile() throws {
        let dir = TestSupport.temporaryDirectory()
        defer { TestSupport.cleanUp(dir) }
        let path = dir.appendingPathComponent("f.txt").path
        try AtomicFile.write("one", to: path)
        try AtomicFile.write("two", to: path)
        #expect(try AtomicFile.read(path).map { String(decoding: $0, as: UTF8.self) } == "two")
        #expect(try AtomicFile.read(dir.appendingPathComponent("missing").path) == nil)
        // No temp files left behind.
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == ["f.txt"])
    }
}
