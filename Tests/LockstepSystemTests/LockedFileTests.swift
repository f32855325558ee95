import Foundation
import LockstepSystem
import LockstepTestSupport
import Testing

@Suite struct LockedFileTests {
    @Test func incrementStartsAtOneAndCountsOn() throws {
        let dir = TestSupport.temporaryDirectory()
        defer { TestSupport.cleanUp(dir) }
        let path = dir.appendingPathComponent("n.count").path
        #expect(try LockedFile.increment(path) == 1)
        #expect(try LockedFile.increment(path) == 2)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "2\n")
        #expect(FileManager.default.fileExists(atPath: path + ".lock"))
    }

    @Test func anUpdateThatReturnsNoTextWritesNothing() throws {
        let dir = TestSupport.temporaryDirectory()
        defer { TestSupport.cleanUp(dir) }
        let path = dir.appendingPathComponent("stamps").path
        let lock = dir.appendingPathComponent("stamps.guard").path
        try LockedFile.update(path, lock: lock) { current in
            #expect(current == nil)
            return ("a\n", ())
        }
        let seen = try LockedFile.update(path, lock: lock) { current in (nil as String?, current) }
        #expect(seen == "a\n")
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "a\n")
        #expect(!FileManager.default.fileExists(atPath: path + ".lock"))
    }
}
