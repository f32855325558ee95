import Foundation
import LockstepTestSupport
import Testing

/// What one bundle writes and another reads through `lockstep` is data: it never reaches the terminal as control
/// sequences, and reading or writing a container file is bounded in memory (security round four).
@Suite struct HostileContainerValueTests {
    static let app = "com.example.habits", widget = "com.example.habits.widget", group = "group.com.example.habits"

    /// The widget stores a value that would retitle the reader's window and clear its screen; the app reads it.
    @Test func defaultsReadEscapesAnotherBundlesControlCharacters() throws {
        let root = TestSupport.temporaryDirectory("hostile-values")
        defer { TestSupport.cleanUp(root) }
        let environment = ["LOCKSTEP_GROUPS": root.path]
        let hostile = "hi\u{1B}]0;owned\u{07}\u{1B}[2J\u{01}"
        #expect(try run("lockstep", ["defaults", "--as", Self.widget, "write", Self.group, "note", hostile], environment: environment).status == 0)
        let one = try run("lockstep", ["defaults", "--as", Self.app, "read", Self.group, "note"], environment: environment)
        #expect(one.status == 0 && one.stdout == "hi\\u{1B}]0;owned\\u{7}\\u{1B}[2J\\u{1}\n", "\(one)")
        let all = try run("lockstep", ["defaults", "--as", Self.app, "read", Self.group], environment: environment)
        #expect(all.status == 0)
        #expect(!all.stdout.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" && $0 != "\t" }, "\(all.stdout)")
        // Well-formed XML 1.0 again: a property list reader takes it.
        let plist = try PropertyListSerialization.propertyList(from: Data(all.stdout.utf8), format: nil) as? [String: Any]
        #expect(plist?["note"] as? String == "hi\\u{1B}]0;owned\\u{7}\\u{1B}[2J\\u{1}")
    }

    /// `--read` streams the file (1 GB was held twice over in memory); `--write` refuses standard input past its
    /// bound (128 MB) and writes nothing, instead of growing without end.
    @Test func containerReadStreamsAndWriteIsBounded() throws {
        let root = TestSupport.temporaryDirectory("hostile-values")
        defer { TestSupport.cleanUp(root) }
        let environment = ["LOCKSTEP_GROUPS": root.path]
        // More than one piece of the read (a megabyte): the pieces come out whole and in order.
        let text = (0..<200_000).map { "line \($0)\n" }.joined()
        #expect(try run("lockstep", ["container", "--as", Self.app, Self.group, "--write", "big.txt"], environment: environment, stdin: Data(text.utf8)).status == 0)
        let read = try run("lockstep", ["container", "--as", Self.app, Self.group, "--read", "big.txt"], environment: environment)
        #expect(read.status == 0 && read.stdout == text, "\(read.stdout.utf8.count) of \(text.utf8.count) bytes")
        let folder = try run("lockstep", ["container", "--as", Self.app, Self.group], environment: environment).stdout
            .trimmingCharacters(in: .whitespacesAndNewlines)
        let tooMuch = try run("lockstep", ["container", "--as", Self.app, Self.group, "--write", "huge.bin"], environment: environment,
                              stdin: Data(count: (128 << 20) + 1))
        #expect(tooMuch.status == 2 && tooMuch.stderr.contains("it holds more than 128 MB"), "\(tooMuch)")
        #expect(!FileManager.default.fileExists(atPath: folder + "/huge.bin"))
    }
}
