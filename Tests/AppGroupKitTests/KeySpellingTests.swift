import Foundation
import LockstepTestSupport
import Testing
@testable import AppGroupKit

/// Two keys that differ only in their Unicode normalisation are two keys of a suite, as on iOS, where a suite is an
/// `NSDictionary` whose `NSString` keys compare by UTF-16 code units; Swift's `String` would make them one
/// (security-4 defaults-nfc-nfd-keys-merge).
@Suite struct KeySpellingTests {
    /// "café" with U+00E9, and with "e" followed by U+0301: one `String`, two keys.
    static let composed = "caf\u{E9}", decomposed = "cafe\u{301}"

    /// `{"café" (composed): "nfc", "café" (decomposed): "nfd"}` as a binary plist, both keys UTF-16 strings, as
    /// Apple's and Python's writers store them.
    static let bothSpellingsSuite: [UInt8] = {
        func utf16(_ string: String) -> [UInt8] {
            [0x60 | UInt8(string.utf16.count)] + string.utf16.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }
        }
        return OddSuiteValueTests.handWritten([
            [0xD2, 1, 2, 3, 4],  // dict: keys 1, 2; values 3, 4
            utf16(composed), utf16(decomposed),
            [0x53] + Array("nfc".utf8), [0x53] + Array("nfd".utf8),
        ])
    }()

    @Test func theTwoSpellingsAreOneStringButTwoKeys() {
        #expect(Self.composed == Self.decomposed, "Swift's String equality is canonical equivalence")
        #expect(DefaultsKey(Self.composed) != DefaultsKey(Self.decomposed))
        #expect(Set([DefaultsKey(Self.composed), DefaultsKey(Self.decomposed), DefaultsKey(Self.composed)]).count == 2)
    }

    @Test func lockstepDefaultsKeepsBothKeys() throws {
        let groups = TestSupport.temporaryDirectory("key-spelling")
        defer { TestSupport.cleanUp(groups) }
        let group = "group.com.example.habits"
        func defaults(_ arguments: [String]) throws -> ProcessResult {
            try run("lockstep", ["defaults", "--as", "com.example.habits"] + arguments, environment: ["LOCKSTEP_GROUPS": groups.path], timeout: 30)
        }
        #expect(try defaults(["write", group, Self.composed, "nfc"]).status == 0)
        #expect(try defaults(["write", group, Self.decomposed, "nfd"]).status == 0)
        #expect(try defaults(["read", group, Self.composed]).stdout == "nfc\n")
        #expect(try defaults(["read", group, Self.decomposed]).stdout == "nfd\n")
        let whole = try defaults(["read", group]).stdout
        #expect(whole.contains("<key>\(Self.composed)</key>") && whole.contains("<key>\(Self.decomposed)</key>"), "\(whole)")

        // A suite another program wrote with both keys keeps them through a write of another key, which folds the
        // journal into the plist at exit.
        let container = groups.path + "/phone/AppGroup/\(group)"
        try FileManager.default.removeItem(atPath: container + "/.lockstep/defaults/\(group).journal")
        try Data(Self.bothSpellingsSuite).write(to: URL(fileURLWithPath: container + "/Library/Preferences/\(group).plist"))
        #expect(try defaults(["write", group, "other", "1"]).status == 0)
        #expect(try defaults(["read", group, Self.composed]).stdout == "nfc\n")
        #expect(try defaults(["read", group, Self.decomposed]).stdout == "nfd\n")
        let plist = try Data(contentsOf: URL(fileURLWithPath: container + "/Library/Preferences/\(group).plist"))
        let keys = try #require(plist.withUnsafeBytes { BinaryPlistCodec.decodeEntries($0) }).map(\.key)
        #expect(keys.count == 3)
        #expect(Set(keys.map { Array($0.unicodeScalars) }) == Set([Self.composed, Self.decomposed, "other"].map { Array($0.unicodeScalars) }))
    }

    @Test func groupDefaultsKeepsBothKeysThroughEveryWrite() throws {
        let fixture = Fixture(); defer { fixture.cleanUp() }
        let app = try #require(try GroupDefaults(suiteName: Fixture.group, sandbox: fixture.sandbox()))
        try app.set("nfc", forKey: Self.composed)
        try app.set("nfd", forKey: Self.decomposed)
        #expect(try app.string(forKey: Self.composed) == "nfc")
        #expect(try app.string(forKey: Self.decomposed) == "nfd")
        // Increments, whose record is patched for the next one of the same key: each spelling its own counter.
        let counter = "z\u{E9}ro", other = "ze\u{301}ro"
        for _ in 0..<3 { try app.increment(counter) }
        try app.increment(other)
        try app.increment(counter)
        #expect(try app.integer(forKey: counter) == 4 && app.integer(forKey: other) == 1)
        try app.transaction { transaction in
            #expect(transaction.value(forKey: Self.decomposed) as? String == "nfd")
            try transaction.set("both", forKey: Self.composed)
            #expect(transaction.value(forKey: Self.decomposed) as? String == "nfd")
        }

        // Another process's view replays the journal, then reads the folded plist: the same five keys.
        let widget = try #require(try GroupDefaults(suiteName: Fixture.group, sandbox: fixture.sandbox("com.example.habits.widget")))
        #expect(try widget.string(forKey: Self.composed) == "both" && widget.string(forKey: Self.decomposed) == "nfd")
        #expect(try widget.integer(forKey: counter) == 4 && widget.integer(forKey: other) == 1)
        try app.synchronize()
        let fresh = try #require(try GroupDefaults(suiteName: Fixture.group, sandbox: fixture.sandbox("com.example.habits.widget")))
        #expect(try fresh.suiteValues().count == 4)
        #expect(try fresh.string(forKey: Self.decomposed) == "nfd" && fresh.integer(forKey: other) == 1)

        try widget.removeObject(forKey: Self.decomposed)
        #expect(try app.string(forKey: Self.composed) == "both" && app.value(forKey: Self.decomposed) == nil)
        // A [String: Any] holds one of two spellings: the first in code-unit order, whichever was written last.
        #expect(try app.dictionaryRepresentation()[counter] as? Int == 1)
    }
}
