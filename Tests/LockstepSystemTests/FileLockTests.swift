import Foundation
import LockstepSystem
import LockstepTestSupport
import Testing

@Suite struct FileLockTests {
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
        let dir = TestSupport.temporaryDirectory()
        defer { TestSupport.cleanUp(dir) }
        let path = dir.appendingPathComponent("x.lock").path
        let holder = try FileLock(path: path)
        try holder.lock()
        let waiter = try FileLock(path: path)
        #expect(throws: SystemError(.busy(seconds: 0.05), path: path)) { try waiter.lock(timeout: 0.05) }
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
