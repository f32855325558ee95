import Foundation
@testable import LaunchKit
import AppGroupKit
import LockstepSystem
import LockstepTestSupport
import Testing

/// How `SharedStores` reads a SQLite database at the file level after a kill (LaunchKit links no SQLite): files
/// written byte by byte here, in SQLite's documented formats.
@Suite struct SharedStoresTests {
    /// A folder with `shared.sqlite` holding SQLite's header and a page of zeros.
    static func database() -> (folder: URL, path: String) {
        let folder = TestSupport.temporaryDirectory("stores")
        let path = folder.appendingPathComponent("shared.sqlite").path
        _ = FileManager.default.createFile(atPath: path, contents: Data(SharedStores.sqliteHeader + [UInt8](repeating: 0, count: 496)))
        return (folder, path)
    }

    static func word(_ value: UInt32) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: value >> UInt32(24 - 8 * $0)) } }

    /// A write-ahead log of 512-byte pages whose frames carry `commits` as their commit fields (0: not a commit).
    static func wal(_ commits: [UInt32]) -> Data {
        var bytes = [0x37, 0x7F, 0x06, 0x82] + word(3_007_000) + word(512) + word(0) + word(11) + word(22) + word(0) + word(0)
        for commit in commits { bytes += word(1) + word(commit) + word(11) + word(22) + word(0) + word(0) + [UInt8](repeating: 7, count: 512) }
        return Data(bytes)
    }

    @Test func aDatabaseWithNothingPendingIsIntact() {
        let (folder, path) = Self.database()
        defer { TestSupport.cleanUp(folder) }
        #expect(SharedStores.sqliteCondition(path) == .intact)
        _ = FileManager.default.createFile(atPath: path + "-wal", contents: Self.wal([0, 2]))
        #expect(SharedStores.sqliteCondition(path) == .intact, "the last frame commits")
        #expect(SharedStores.databases(in: folder.path) == [path])
    }

    @Test func aHotJournalOrUncommittedFramesAreRolledBack() {
        let (folder, path) = Self.database()
        defer { TestSupport.cleanUp(folder) }
        _ = FileManager.default.createFile(atPath: path + "-wal", contents: Self.wal([2, 0, 0]))
        #expect(SharedStores.sqliteCondition(path) == .rolledBack("the last 2 frames of '\(path)-wal' belong to a transaction that never committed, which the next connection ignores"))
        try? FileManager.default.removeItem(atPath: path + "-wal")
        _ = FileManager.default.createFile(atPath: path + "-journal", contents: Data(SharedStores.hotJournalHeader + [UInt8](repeating: 0, count: 504)))
        #expect(SharedStores.sqliteCondition(path) == .rolledBack("its rollback journal '\(path)-journal' holds an interrupted transaction, which the next connection undoes"))
    }

    @Test func aHeldWriteLockIsWedgedAndAnotherFileIsUnreadable() throws {
        let (folder, path) = Self.database()
        defer { TestSupport.cleanUp(folder) }
        let lock = try FileLock(path: path)
        try lock.lock()
        #expect(SharedStores.sqliteCondition(path) == .wedged("process \(getpid()) still holds a write lock on it"))
        try lock.unlock()
        #expect(SharedStores.sqliteCondition(path) == .intact)
        try Data("not a database".utf8).write(to: URL(fileURLWithPath: path))
        #expect(SharedStores.sqliteCondition(path) == .unreadable("it is not a SQLite database (its first bytes are not 'SQLite format 3')."))
        #expect(SharedStores.sqliteCondition(folder.path + "/none.sqlite") == .unreadable("there is no database at this path."))
        #expect(SharedStores.Report(path: path, condition: .rolledBack("x")).sentence == "\(path): rolled back — x.")
    }
}
