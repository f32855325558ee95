@testable import AppGroupKit
import Foundation
import LockstepTestSupport
import Testing

/// Issue 27 item 5: a suite plist whose root is a binary property list that is not a dictionary (an array, a
/// number) is malformed: reported, and never overwritten, by the library and by `lockstep defaults write`.
@Suite struct NonDictionarySuiteTests {
    static var roots: [Any] { [["x"], 7, "text"] }

    @Test(arguments: 0..<3) func aNonDictionaryRootIsNeverOverwritten(root: Int) throws {
        let fixture = Fixture(); defer { fixture.cleanUp() }
        let defaults = try #require(try GroupDefaults(suiteName: Fixture.group, sandbox: fixture.sandbox()))
        let bytes = try PropertyListSerialization.data(fromPropertyList: Self.roots[root], format: .binary, options: 0)
        #expect(bytes.starts(with: Data("bplist00".utf8)))
        try bytes.write(to: URL(fileURLWithPath: defaults.plistPath))
        let readError = #expect(throws: AppGroupError.self) { try defaults.value(forKey: "k") }
        #expect(readError?.code == .malformedSuite)
        #expect(readError?.description.contains("not a property-list dictionary") == true, "\(String(describing: readError))")
        #expect(throws: AppGroupError.self) { try defaults.set(1, forKey: "k") }
        #expect(throws: AppGroupError.self) { try defaults.synchronize() }
        #expect(try Data(contentsOf: URL(fileURLWithPath: defaults.plistPath)) == bytes)
    }

    @Test func defaultsWriteRefusesItWithStatusTwo() throws {
        let root = try ProcessTests.Root(); defer { root.cleanUp() }
        // The suite exists (a first write), then something replaces it with a binary plist holding an array.
        #expect(try root.defaults(as: ProcessTests.app, "write", ProcessTests.group, "a", "1").status == 0)
        let defaults = try #require(try GroupDefaults(suiteName: ProcessTests.group, sandbox: root.sandbox()))
        try defaults.synchronize()
        let bytes = try PropertyListSerialization.data(fromPropertyList: ["x", "y"], format: .binary, options: 0)
        try bytes.write(to: URL(fileURLWithPath: defaults.plistPath))
        let result = try root.defaults(as: ProcessTests.app, "write", ProcessTests.group, "b", "2")
        #expect(result.status == 2, "\(result)")
        #expect(result.stderr.contains(defaults.plistPath) && result.stderr.contains("dictionary"), "\(result)")
        #expect(result.stderr.split(separator: "\n").count == 1, "\(result)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: defaults.plistPath)) == bytes)
    }
}
