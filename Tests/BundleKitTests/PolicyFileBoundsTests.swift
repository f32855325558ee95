import BundleKit
import Foundation
import LockstepTestSupport
import Testing

/// A pull request controls `.lockstep.json` and the baseline it names: each is read as a regular file of bounded size,
/// strictly (a key given twice is refused), and its waivers are bounded in number (security round four).
@Suite struct PolicyFileBoundsTests {
    static func write(_ text: String, to path: String) throws { try text.write(toFile: path, atomically: true, encoding: .utf8) }

    /// A baseline written by `check` but with its `findings` given a second time, empty: the second would silently
    /// replace the first and every known finding would fail the run; it is refused like a config's repeated key.
    @Test func aBaselineGivingAKeyTwiceIsRefusedNamingTheKey() throws {
        let dir = TestSupport.temporaryDirectory()
        defer { TestSupport.cleanUp(dir) }
        let manifest = try CheckPolicyTests.manifest(in: dir, widgetBuild: "7")
        let baseline = dir.appendingPathComponent("known.json").path
        #expect(try run("lockstep", ["check", manifest, "--write-baseline", baseline]).status == 0)
        var text = try String(contentsOfFile: baseline, encoding: .utf8)
        let close = try #require(text.lastIndex(of: "}"))
        text.replaceSubrange(close..., with: #", "findings": []}"#)
        try Self.write(text, to: baseline)
        let result = try run("lockstep", ["check", manifest, "--baseline", baseline])
        #expect(result.status == 2, "\(result)")
        #expect(result.stderr.contains("the key 'findings' appears twice in one object"), "\(result)")
    }

    /// `{"baseline": "/dev/stdin"}` with standard input an open pipe made `check` wait for it forever, and a FIFO
    /// named as the baseline was read; both are refused at once, naming what the file is.
    @Test func aBaselineNamedByTheConfigIsReadOnlyFromARegularFile() throws {
        let dir = TestSupport.temporaryDirectory()
        defer { TestSupport.cleanUp(dir) }
        _ = try CheckPolicyTests.manifest(in: dir, widgetBuild: "1")
        try Self.write(#"{"baseline": "/dev/stdin"}"#, to: dir.appendingPathComponent(".lockstep.json").path)
        // The pipe holds a valid (empty) report: reading it would pass; a baseline that is a pipe is refused instead.
        let fromStdin = try run("lockstep", ["check", "lockstep.json"], stdin: Data(#"{"findings": []}"#.utf8), timeout: 20, currentDirectory: dir.path)
        #expect(fromStdin.status == 2, "\(fromStdin)")
        #expect(fromStdin.stderr.contains("The baseline '/dev/stdin' named by '.lockstep.json' cannot be read: it is a named pipe (FIFO), not a file"), "\(fromStdin)")

        #expect(try run("/usr/bin/mkfifo", [dir.appendingPathComponent("fifo").path]).status == 0)
        try Self.write(#"{"baseline": "fifo"}"#, to: dir.appendingPathComponent(".lockstep.json").path)
        let fifo = try run("lockstep", ["check", "lockstep.json"], timeout: 20, currentDirectory: dir.path)
        #expect(fifo.status == 2 && fifo.stderr.contains("it is a named pipe (FIFO), not a file"), "\(fifo)")
        let explicit = try run("lockstep", ["check", "lockstep.json", "--baseline", "fifo"], timeout: 20, currentDirectory: dir.path)
        #expect(explicit.status == 2 && explicit.stderr.contains("it is a named pipe (FIFO), not a file"), "\(explicit)")
    }

    /// A baseline past its bound is refused before it is read (a sparse file: nothing is written to make it).
    @Test func aBaselineLargerThanItsBoundIsRefused() throws {
        let dir = TestSupport.temporaryDirectory()
        defer { TestSupport.cleanUp(dir) }
        let manifest = try CheckPolicyTests.manifest(in: dir, widgetBuild: "1")
        let baseline = dir.appendingPathComponent("huge.json").path
        #expect(FileManager.default.createFile(atPath: baseline, contents: Data("{".utf8)))
        let handle = try #require(FileHandle(forWritingAtPath: baseline))
        try handle.truncate(atOffset: 64 << 20 + 1)
        try handle.close()
        let result = try run("lockstep", ["check", manifest, "--baseline", baseline])
        #expect(result.status == 2 && result.stderr.contains("it is larger than 64 MB"), "\(result)")
    }

    /// 200,000 waivers took 22 s and 757 MB to report; a config holds at most 10,000, and those it holds are
    /// each reported once when they match nothing.
    @Test func aConfigWithMoreWaiversThanItsBoundIsRefused() throws {
        let dir = TestSupport.temporaryDirectory()
        defer { TestSupport.cleanUp(dir) }
        let manifest = try CheckPolicyTests.manifest(in: dir, widgetBuild: "1")
        func config(_ count: Int) throws -> String {
            let waiver = #"{"rule": "group.shared", "bundle": "Nope.appex", "reason": "r"}"#
            let path = dir.appendingPathComponent("team-\(count).json").path
            try Self.write(#"{"waivers": ["# + Array(repeating: waiver, count: count).joined(separator: ",") + "]}", to: path)
            return path
        }
        let tooMany = try run("lockstep", ["check", manifest, "--config", try config(10_001)])
        #expect(tooMany.status == 2, "\(tooMany)")
        #expect(tooMany.stderr.contains("'waivers' holds 10001 entries; at most 10000 are read"), "\(tooMany)")
        let atBound = try run("lockstep", ["check", manifest, "--config", try config(10_000), "--format", "json"])
        #expect(atBound.status == 0, "\(atBound.stderr)")
        #expect(atBound.stdout.components(separatedBy: "matches no finding").count - 1 == 10_000)
    }
}

/// `check` agrees with the device on an App Group identifier (security round four).
@Suite struct GroupIdentifierCheckTests {
    /// 'group.com.example.a/../../x' passed `check` with 0 errors while the simulator refused it (exit 2,
    /// group.id-format): it is an error finding of each bundle that claims it.
    @Test func aGroupIdentifierTheDeviceRefusesIsAnError() throws {
        let dir = TestSupport.temporaryDirectory()
        defer { TestSupport.cleanUp(dir) }
        let manifest = dir.appendingPathComponent("m.json").path
        let bad = "group.com.example.habits/../../x"
        try Manifest.embeddedDefaultText.replacingOccurrences(of: "\"group.com.example.habits\"", with: "\"\(bad)\"")
            .write(toFile: manifest, atomically: true, encoding: .utf8)
        let result = try run("lockstep", ["check", manifest])
        #expect(result.status == 1, "\(result)")
        #expect(result.stdout.contains("error: The App Group '\(bad)' claimed by Habits.app is not 'group.' followed by reverse-DNS components of letters, digits and '-': the device refuses it. [group.shared]"), "\(result)")
        // A part the checkout does not hold stands for itself, as on the device: no finding.
        try Manifest.embeddedDefaultText.replacingOccurrences(of: "\"group.com.example.habits\"", with: "\"group.$(TEAM_SUFFIX).habits\"")
            .write(toFile: manifest, atomically: true, encoding: .utf8)
        #expect(!(try run("lockstep", ["check", manifest]).stdout.contains("the device refuses it")))
    }
}
