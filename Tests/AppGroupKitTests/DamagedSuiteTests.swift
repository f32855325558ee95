@testable import AppGroupKit
import Foundation
import LockstepTestSupport
import Testing

/// Issue 42 item 8: a suite file that starts with `bplist00` but is not a binary property list (`bplist00;` then
/// zeros) is unreadable — never text holding the key `bplist00` — and is never replaced: every verb of
/// `lockstep defaults` refuses it with exit 2, naming the file, and leaves it byte for byte.
@Suite struct DamagedSuiteTests {
    static let damaged = Data("bplist00;".utf8) + Data(repeating: 0, count: 60)

    @Test func theLibraryRefusesItAndNeverReplacesIt() throws {
        let fixture = Fixture(); defer { fixture.cleanUp() }
        let defaults = try #require(try GroupDefaults(suiteName: Fixture.group, sandbox: fixture.sandbox()))
        try FileManager.default.createDirectory(atPath: (defaults.plistPath as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try Self.damaged.write(to: URL(fileURLWithPath: defaults.plistPath))
        let readError = #expect(throws: AppGroupError.self) { try defaults.value(forKey: "bplist00") }
        #expect(readError?.code == .malformedSuite)
        #expect(readError?.description.contains("binary property list") == true, "\(String(describing: readError))")
        #expect(throws: AppGroupError.self) { try defaults.set(1, forKey: "k") }
        #expect(throws: AppGroupError.self) { try defaults.synchronize() }
        #expect(try Data(contentsOf: URL(fileURLWithPath: defaults.plistPath)) == Self.damaged)
    }

    @Test(arguments: [["read"], ["write", "b", "2"], ["increment", "n"], ["delete", "a"]])
    func everyVerbRefusesItWithStatusTwo(verb: [String]) throws {
        let root = try ProcessTests.Root(); defer { root.cleanUp() }
        #expect(try root.defaults(as: ProcessTests.app, "write", ProcessTests.group, "a", "1").status == 0)
        let defaults = try #require(try GroupDefaults(suiteName: ProcessTests.group, sandbox: root.sandbox()))
        try defaults.synchronize()
        try Self.damaged.write(to: URL(fileURLWithPath: defaults.plistPath))
        let arguments = [verb[0], ProcessTests.group] + verb.dropFirst()
        let result = try root.lockstep(["defaults", "--as", ProcessTests.app] + arguments)
        #expect(result.status == 2, "\(result)")
        #expect(result.stderr.contains(defaults.plistPath) && result.stderr.contains("binary property list"), "\(result)")
        #expect(result.stderr.split(separator: "\n").count == 1, "\(result)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: defaults.plistPath)) == Self.damaged)
    }
}
