import Foundation
import Glibc
import LockstepSystem
import LockstepTestSupport
import Testing

/// `AtomicFile.writeThrough`: what a user-named output path (a baseline, a project file) may be.
@Suite struct AtomicFileTests {
    @Test func aSymlinkIsWrittenThroughAndStaysALink() throws {
        let dir = TestSupport.temporaryDirectory()
        defer { TestSupport.cleanUp(dir) }
        let target = dir.appendingPathComponent("target").path
        try AtomicFile.write(Array("old".utf8), to: target, mode: 0o600)
        // Two links deep, the first relative.
        let middle = dir.appendingPathComponent("middle").path
        let link = dir.appendingPathComponent("link").path
        try FileManager.default.createSymbolicLink(atPath: middle, withDestinationPath: target)
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "middle")
        #expect(try AtomicFile.writeThrough(Array("new".utf8), to: link) == target)
        #expect(try AtomicFile.read(target) == Array("new".utf8))
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link) == "middle")
        #expect((try FileManager.default.attributesOfItem(atPath: target)[.posixPermissions] as? Int) == 0o600)
    }

    @Test func aDanglingLinkCreatesItsTarget() throws {
        let dir = TestSupport.temporaryDirectory()
        defer { TestSupport.cleanUp(dir) }
        let link = dir.appendingPathComponent("link").path
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "new")
        try AtomicFile.writeThrough(Array("x".utf8), to: link)
        #expect(try AtomicFile.read(dir.appendingPathComponent("new").path) == Array("x".utf8))
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link) == "new")
    }

    @Test func whatIsNotARegularFileIsRefusedAndLeftAsItWas() throws {
        let dir = TestSupport.temporaryDirectory()
        defer { TestSupport.cleanUp(dir) }
        let fifo = dir.appendingPathComponent("fifo").path
        #expect(mkfifo(fifo, 0o644) == 0)
        let folder = dir.appendingPathComponent("folder").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
        let linkToFifo = dir.appendingPathComponent("link").path
        try FileManager.default.createSymbolicLink(atPath: linkToFifo, withDestinationPath: "fifo")
        for (path, kind) in [(fifo, "a named pipe (FIFO)"), (folder, "a folder"), (linkToFifo, "a named pipe (FIFO)"), ("/dev/null", "a device or a socket")] {
            #expect(throws: SystemError(.notARegularFile(kind: kind), path: path)) { try AtomicFile.writeThrough([1], to: path) }
        }
        var info = stat()
        #expect(lstat(fifo, &info) == 0 && info.st_mode & S_IFMT == S_IFIFO)
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted() == ["fifo", "folder", "link"])
    }
}
