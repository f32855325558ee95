import Foundation
import LockstepTestSupport
import Testing
@testable import AppGroupKit

/// Values other programs write into a suite that Lockstep once could not keep (issue 20): integers past Int.max
/// and a string that starts with U+FEFF. Read by `lockstep defaults`, and unchanged by the next write.
@Suite struct OddSuiteValueTests {
    /// `{big = 2⁶⁴−1; k = v}` as Apple's and Python's writers store it: the integer as 16 bytes (marker 0x14).
    static let unsignedSuite = handWritten([
        [0xD2, 1, 2, 3, 4],                                            // dict: keys 1, 2; values 3, 4
        [0x53] + Array("big".utf8),
        [0x51] + Array("k".utf8),
        [0x14] + [UInt8](repeating: 0, count: 8) + [UInt8](repeating: 0xFF, count: 8),
        [0x51] + Array("v".utf8),
    ])

    /// A binary plist laid out by hand from its objects (the first one the top), not by the codec under test:
    /// one-byte offsets and references.
    static func handWritten(_ objects: [[UInt8]]) -> [UInt8] {
        var bytes = Array("bplist00".utf8)
        var offsets: [UInt8] = []
        for object in objects {
            offsets.append(UInt8(bytes.count))
            bytes += object
        }
        let table = bytes.count
        bytes += offsets
        bytes += [0, 0, 0, 0, 0, 0, 1, 1] + [0, 0, 0, 0, 0, 0, 0, UInt8(objects.count)] + [UInt8](repeating: 0, count: 8)
            + [0, 0, 0, 0, 0, 0, 0, UInt8(table)]
        return bytes
    }

    @Test func theCodecReadsAndWritesTheWholeUnsignedRange() throws {
        let decoded = try #require(PropertyList.decodeDictionary(Data(Self.unsignedSuite)))
        #expect(decoded["big"] as? UInt64 == .max)
        #expect(decoded["k"] as? String == "v")
        // Written back as it came, and Int where it fits.
        let written = try #require(PropertyList.data(["big": UInt64.max, "small": UInt64(7)], format: .binary))
        let again = try #require(PropertyList.decodeDictionary(written))
        #expect(again["big"] as? UInt64 == .max)
        #expect(again["small"] as? Int == 7)
        #expect(PropertyList.isEqual(again["big"], UInt64.max))
        let xml = String(decoding: try #require(PropertyList.data(["big": UInt64.max], format: .xml)), as: UTF8.self)
        #expect(xml.contains("<integer>18446744073709551615</integer>"))
        #expect(PropertyList.decodeDictionary(Data(xml.utf8))?["big"] as? UInt64 == .max)
    }

    @Test func defaultsReadsAndKeepsABigUnsignedIntegerAndALeadingByteOrderMark() throws {
        let groups = TestSupport.temporaryDirectory("odd-suite")
        defer { TestSupport.cleanUp(groups) }
        let environment = ["LOCKSTEP_GROUPS": groups.path]
        func defaults(_ arguments: [String]) throws -> ProcessResult {
            try run("lockstep", ["defaults", "--as", "com.example.habits"] + arguments, environment: environment, timeout: 30)
        }
        #expect(try defaults(["write", "group.com.example.habits", "seed", "1"]).status == 0)
        let suite = groups.path + "/phone/AppGroup/group.com.example.habits/Library/Preferences/group.com.example.habits.plist"

        try Data(Self.unsignedSuite).write(to: URL(fileURLWithPath: suite))
        let read = try defaults(["read", "group.com.example.habits", "big"])
        #expect(read.status == 0 && read.stdout == "18446744073709551615\n", "\(read)")
        #expect(try defaults(["write", "group.com.example.habits", "other", "x"]).status == 0)
        let kept = try defaults(["read", "group.com.example.habits", "big"])
        #expect(kept.stdout == "18446744073709551615\n", "\(kept)")
        // An integer that large cannot be incremented; it is refused, not wrapped.
        let increment = try defaults(["increment", "group.com.example.habits", "big"])
        #expect(increment.status == 2, "\(increment)")
        #expect(try defaults(["write", "group.com.example.habits", "max", "18446744073709551615", "-int"]).status == 0)
        #expect(try defaults(["write", "group.com.example.habits", "over", "18446744073709551616", "-int"]).status == 2)

        // An XML suite whose string and key start with U+FEFF, raw and as a character reference.
        let xml = """
        <?xml version="1.0" encoding="UTF-8"?>
        <plist version="1.0">
        <dict>
        \t<key>bom</key>
        \t<string>\u{FEFF}hello</string>
        \t<key>\u{FEFF}key</key>
        \t<string>&#xFEFF;x</string>
        </dict>
        </plist>
        """
        try Data(xml.utf8).write(to: URL(fileURLWithPath: suite))
        let bom = try defaults(["read", "group.com.example.habits", "bom"])
        #expect(bom.stdout == "\u{FEFF}hello\n", "\(bom)")
        #expect(try defaults(["write", "group.com.example.habits", "other", "y"]).status == 0)
        let after = try #require(PropertyList.decodeDictionary(try Data(contentsOf: URL(fileURLWithPath: suite))))
        #expect(after["bom"] as? String == "\u{FEFF}hello")
        #expect(after["\u{FEFF}key"] as? String == "\u{FEFF}x")
        #expect(after["other"] as? String == "y")
    }
}
