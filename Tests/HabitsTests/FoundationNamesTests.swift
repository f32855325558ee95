import Foundation
import LockstepFoundation
import Testing

/// Foundation's names that Foundation on Linux leaves out.
@Suite("LockstepFoundation: Foundation's other names")
struct FoundationNamesTests {
    @Test func atomicWriteIsAtomic() throws {
        #expect(Data.WritingOptions.atomicWrite == .atomic)
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("lockstep-atomic-write-\(getpid())")
        defer { try? FileManager.default.removeItem(at: file) }
        try Data("saved".utf8).write(to: file, options: .atomicWrite)
        #expect(try Data(contentsOf: file) == Data("saved".utf8))
    }
}
