import Foundation
import Glibc
import LockstepSystem
import LockstepTestSupport
import Testing

@Suite struct FileDescriptorTests {
    @Test func readAtOffsetStopsAtTheEnd() throws {
        let dir = TestSupport.temporaryDirectory()
        defer { TestSupport.cleanUp(dir) }
        let path = dir.appendingPathComponent("data").path
        try AtomicFile.write(Array("0123456789".utf8), to: path)
        let fd = try FileDescriptor.open(path, O_RDONLY)
        defer { fd.close() }
        #expect(try fd.read(at: 2, count: 3, path: path) == Array("234".utf8))
        #expect(try fd.read(at: 8, count: 5, path: path) == Array("89".utf8))
        #expect(try fd.read(at: 10, count: 4, path: path) == [])
        #expect(try fd.read(at: 0, count: 0, path: path) == [])
    }

    /// A failed replacement names the file being replaced (not the temp file) and leaves nothing behind.
    @Test func failedWriteNamesTheTargetFile() throws {
        let dir = TestSupport.temporaryDirectory()
        defer { TestSupport.cleanUp(dir) }
        let path = dir.path + "/missing/file"
        #expect(throws: SystemError(.write, path: path, errno: .noSuchFile)) { try AtomicFile.write("x", to: path) }
        let folder = dir.path + "/folder"
        try AtomicFile.createDirectories(folder)
        #expect(throws: SystemError(.write, path: folder, errno: Errno(rawValue: EISDIR))) { try AtomicFile.write("x", to: folder) }
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == ["folder"])
    }

    /// `mkdir -p`: missing parents made, existing folders fine, a file in the way named in the error.
    @Test func createDirectoriesMakesMissingParentsOnly() throws {
        let dir = TestSupport.temporaryDirectory()
        defer { TestSupport.cleanUp(dir) }
        let deep = dir.path + "/a/b/c/d"
        try AtomicFile.createDirectories(deep)
        try AtomicFile.createDirectories(deep)  // again: nothing to do
        try AtomicFile.createDirectories(dir.path + "/a/b/e/")
        var isDirectory: ObjCBool = false
        #expect(FileManager.default.fileExists(atPath: deep, isDirectory: &isDirectory) && isDirectory.boolValue)
        #expect(FileManager.default.fileExists(atPath: dir.path + "/a/b/e", isDirectory: &isDirectory) && isDirectory.boolValue)
        try AtomicFile.write("x", to: dir.path + "/a/file")
        #expect(throws: SystemError(.createDirectory, path: dir.path + "/a/file/f/g", errno: Errno(rawValue: ENOTDIR))) {
            try AtomicFile.createDirectories(dir.path + "/a/file/f/g")
        }
    }

    /// Both ends of a pipe are close-on-exec from the start: a spawn on another thread never inherits them.
    @Test func pipeEndsAreCloseOnExec() throws {
        let (read, write) = try FileDescriptor.pipe()
        defer { read.close() }
        #expect(fcntl(read.rawValue, F_GETFD) & FD_CLOEXEC != 0)
        #expect(fcntl(write.rawValue, F_GETFD) & FD_CLOEXEC != 0)
        try write.writeAll(Array("x".utf8), path: "pipe")
        write.close()  // the reader then sees the end of the pipe
        #expect(try read.readAll(path: "pipe") == Array("x".utf8))
    }

    /// A lock held open is `O_CLOEXEC`, so a launched child never inherits it (<doc:Design> "On-disk layout").
    @Test func lockDescriptorIsCloseOnExec() throws {
        let dir = TestSupport.temporaryDirectory()
        defer { TestSupport.cleanUp(dir) }
        let path = URL(fileURLWithPath: dir.path).resolvingSymlinksInPath().path + "/x.lock"
        let lock = try FileLock(path: path)
        let flags = try FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd").compactMap { entry -> Int32? in
            guard (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\(entry)")) == path,
                  let info = try? String(contentsOfFile: "/proc/self/fdinfo/\(entry)", encoding: .utf8),
                  let line = info.split(separator: "\n").first(where: { $0.hasPrefix("flags:") }) else { return nil }
            return Int32(line.dropFirst("flags:".count).trimmingCharacters(in: .whitespaces), radix: 8)
        }
        withExtendedLifetime(lock) {}
        #expect(flags.count == 1)
        #expect(flags.allSatisfy { $0 & O_CLOEXEC != 0 })
    }
}
