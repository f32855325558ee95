import BundleKit
import CheckKit
import Foundation
import Glibc
import LockstepTestSupport
import Testing

/// Every descriptor BundleKit opens to read an input is `O_CLOEXEC` (HELPERS.md hard constraints), including the
/// Xcode project, which once went through `FileManager.contents(atPath:)` (no `O_CLOEXEC` on Linux).
@Suite struct DescriptorTests {
    /// Runs `read` on another thread with `path` a FIFO, so the descriptor it opens stays open (blocked in
    /// read(2)) while `/proc/self/fdinfo` is inspected; then feeds it `bytes` and lets it finish.
    /// - Returns: the `flags:` of the reader's descriptor.
    static func openFlags(fifo path: String, bytes: [UInt8], _ read: @escaping @Sendable (String) -> Void) throws -> Int32? {
        #expect(mkfifo(path, 0o600) == 0)
        // O_RDWR never blocks on a FIFO, and with a writer present the reader's open returns at once and its
        // read(2) waits for the bytes: nothing hangs, even if a regression made the reader give up early.
        let writer = open(path, O_RDWR | O_CLOEXEC)
        #expect(writer >= 0)
        let done = DispatchSemaphore(value: 0)
        Thread { read(path); done.signal() }.start()
        var flags: Int32?
        // The reader's descriptor is installed as its open(2) returns: look for it for at most 10 s.
        let deadline = Date().addingTimeInterval(10)
        while flags == nil, Date() < deadline {
            for entry in (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? [] {
                guard let fd = Int32(entry), fd != writer,
                      (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\(entry)")) == path,
                      let info = try? String(contentsOfFile: "/proc/self/fdinfo/\(entry)", encoding: .utf8),
                      let line = info.split(separator: "\n").first(where: { $0.hasPrefix("flags:") }),
                      let value = Int32(line.dropFirst("flags:".count).trimmingCharacters(in: .whitespaces), radix: 8)
                else { continue }
                flags = value
            }
        }
        _ = bytes.withUnsafeBytes { write(writer, $0.baseAddress, $0.count) }
        close(writer)
        #expect(done.wait(timeout: .now() + 10) == .success)
        return flags
    }

    @Test func inputsAreOpenedCloseOnExec() throws {
        let dir = TestSupport.temporaryDirectory()
        defer { TestSupport.cleanUp(dir) }
        let root = URL(fileURLWithPath: dir.path).resolvingSymlinksInPath().path

        // Only the PATH a user gives may be a pipe (`lockstep check <(…)`): its reader blocks, and is inspected.
        let manifest = try Self.openFlags(fifo: root + "/lockstep.json", bytes: Array(Manifest.embeddedDefaultText.utf8)) {
            _ = try? CheckInput.check($0)
        }
        #expect(manifest.map { $0 & O_CLOEXEC != 0 } == true, "manifest flags \(String(manifest ?? 0, radix: 8))")
    }

    /// A FIFO where a file belongs (an Info.plist, a project.pbxproj, a manifest read by path) is refused at once,
    /// naming it, instead of blocking the reader until a writer comes (issue 20: a CI job would sit until its timeout).
    @Test func aFIFOWhereAFileBelongsIsRefusedWithoutBlocking() throws {
        let dir = TestSupport.temporaryDirectory()
        defer { TestSupport.cleanUp(dir) }
        let root = dir.path
        try FileManager.default.createDirectory(atPath: root + "/App.xcodeproj", withIntermediateDirectories: true)
        for path in [root + "/Info.plist", root + "/lockstep.json", root + "/App.xcodeproj/project.pbxproj"] {
            #expect(mkfifo(path, 0o600) == 0)
        }
        #expect(throws: BundleError(.unreadable, path: root + "/Info.plist", detail: "it is a named pipe (FIFO), not a file")) {
            try PropertyListFile.dictionary(at: root + "/Info.plist")
        }
        #expect(throws: BundleError(.unreadable, path: root + "/lockstep.json", detail: "it is a named pipe (FIFO), not a file")) {
            try Manifest.load(root + "/lockstep.json")
        }
        #expect(throws: BundleError(.unreadable, path: root + "/App.xcodeproj/project.pbxproj", detail: "it is a named pipe (FIFO), not a file")) {
            try CheckInput.check(root + "/App.xcodeproj")
        }
    }
}
