@testable import BundleKit
import Testing
@testable import XcodeKit

/// What the faster reading of project.pbxproj (issue 30) must keep: object ids found as `[String: …]` found them,
/// and comments, arrays and dictionaries read as before whatever their length.
@Suite struct ReadingCostTests {
    /// The id table answers as a dictionary does, through growth, repeats and misses.
    @Test func idTableAnswersAsADictionary() {
        var table = IDTable<Int>(capacity: 2)
        var dictionary: [String: Int] = [:]
        for step in 0..<5_000 {
            // 24-character ids as Xcode writes them, and short and odd-length keys.
            let key = step % 3 == 0 ? String(format24: step % 1_700) : "k\(step % 900)"
            table[key] = step
            dictionary[key] = step
        }
        #expect(table.count == dictionary.count)
        for (key, value) in dictionary { #expect(table[key] == value) }
        for miss in ["", "k900", String(format24: 1_700), "k1 "] { #expect(table[miss] == nil) }
        var set = IDTable<Void>(capacity: 0)
        let first = set.insert("a", ()), again = set.insert("a", ()), other = set.insert("b", ())
        #expect(first && !again && other)
    }

    /// Keys are compared as strings are, by canonical equivalence: `é` written precomposed or decomposed, and the
    /// three characters whose decomposition is an ASCII one (`K`, `;`, `` ` ``), are the same key.
    @Test func idTableKeysAreCanonicallyEquivalentStrings() {
        let pairs = [("\u{E9}t\u{E9}", "e\u{301}te\u{301}"), ("K0123456789ABCDEF01234567", "\u{212A}0123456789ABCDEF01234567"),
                     ("a;b", "a\u{37E}b"), ("`x", "\u{1FEF}x"), ("\u{212A}\u{E9}", "Ke\u{301}")]
        for (written, referenced) in pairs {
            #expect(written == referenced)
            var table = IDTable<Int>(capacity: 4)
            table[written] = 1
            #expect(table[referenced] == 1, "\(Array(referenced.unicodeScalars))")
            let inserted = table.insert(referenced, 2)
            #expect(!inserted)
            #expect(XcodeProject.unique([written, "x", referenced]) == [written, "x"])
            #expect(XcodeProject.unique([written] + (0..<20).map { "id\($0)" } + [referenced]).count == 21)
        }
        var table = IDTable<Int>(capacity: 4)
        table["K"] = 1
        #expect(table["k"] == nil && table["\u{212A}"] == 1 && table["\u{212A}\u{301}"] == nil)
    }

    /// The index of `objects` answers as `lastValues` does: each id's last value, ids compared as strings.
    @Test func objectIndexAnswersAsLastValues() {
        var members: [(key: String, value: OpenStepValue)] = []
        for step in 0..<3_000 { members.append((String(format24: step % 1_100), .string("v\(step)"))) }
        members += [("\u{E9}", .string("pre")), ("e\u{301}", .string("de")), ("K", .string("k")), ("\u{212A}", .string("kelvin"))]
        let dictionary = OpenStepDictionary(members)
        let index = ObjectIndex(dictionary)
        for (key, value) in dictionary.lastValues { #expect(index[key] == value) }
        #expect(index["\u{E9}"] == .string("de") && index["K"] == .string("kelvin"))
        #expect(index[String(format24: 1_100)] == nil && index[""] == nil)
        #expect(ObjectIndex(OpenStepDictionary())["a"] == nil)
    }

    /// `unique` keeps the first of each id, in order, for short lists (compared) and long ones (hashed).
    @Test func uniqueKeepsFirstSeenOrder() {
        for count in [0, 1, 5, 8, 9, 40] {
            let ids = (0..<count * 3).map { "id\(($0 * 7) % max(count, 1))" }
            var seen = Set<String>()
            #expect(XcodeProject.unique(ids) == ids.filter { seen.insert($0).inserted })
        }
    }

    /// Comments of every length, with stars anywhere in them, end at their first `*/`, across the eight-byte steps
    /// they are searched in; one that never closes is an error at its line.
    @Test func commentsOfEveryLengthEndAtTheirFirstClose() throws {
        for length in 0..<24 {
            for star in -1..<length {
                var inside = Array(repeating: UInt8(ascii: "x"), count: length)
                if star >= 0 { inside[star] = UInt8(ascii: "*") }
                let comment = "/*" + String(decoding: inside, as: UTF8.self) + "*/"
                for padding in 0..<3 {
                    let text = "{" + String(repeating: " ", count: padding) + "a = " + comment + "b " + comment + "; c = (" + comment + ");}" + comment
                    let root = try OpenStepParser.parse(Array(text.utf8)).root
                    #expect(root["a"] == .string("b") && root["c"] == .array([]), "\(text)")
                }
            }
        }
        for text in ["{a = b;}\n/*", "{a = b;}\n/*/", "{a = b;}\n/* x *", "{a = b;}\n/* *x/ ", "{a = b;}\n/* 01234567 * / 01234567"] {
            #expect(throws: OpenStepParser.Failure.self) { try OpenStepParser.parse(Array(text.utf8)) }
            do { _ = try OpenStepParser.parse(Array(text.utf8)) } catch {
                #expect(error.message.contains("never closed") && error.message.contains("line 2"), "\(error.message)")
            }
        }
    }

    /// Short strings (held inline by `String`, found by their bytes) are the bytes as read, whatever their length,
    /// their bytes and how near the end of the file they are; strings that share a slot each stay themselves.
    @Test func shortStringsAreTheBytesAsRead() throws {
        let names = (1...15).map { String(repeating: "n", count: $0) } + ["\u{E9}t\u{E9}", "x\u{E9}x\u{E9}x\u{E9}x"]
        for (index, name) in names.enumerated() {
            for tail in 0..<18 {
                let text = "{k = \(index); \(name) = \"\(name)\"; v = (\(name), \(name)x, \(name))" + String(repeating: " ", count: tail) + ";}"
                let root = try OpenStepParser.parse(Array(text.utf8)).root
                #expect(root[name] == .string(name) && root["k"] == .string("\(index)"))
                #expect(root["v"] == .array([.string(name), .string(name + "x"), .string(name)]))
            }
        }
        var text = "{"
        for index in 0..<5_000 { text += "s\(index) = t\(index % 1_500); " }
        let root = try OpenStepParser.parse(Array((text + "}").utf8)).root
        for index in 0..<5_000 { #expect(root["s\(index)"] == .string("t\(index % 1_500)")) }
    }

    /// Settings written sorted (as Xcode writes them) are returned as written; written out of order or twice, they
    /// are sorted with each key's last value, as before.
    @Test func sortedSettingsAsWrittenOrSorted() {
        let cases: [[(String, String)]] = [
            [("A", "1"), ("B", "2"), ("C", "3")], [("A", "1"), ("A", "2")], [("A", "1"), ("C", "2"), ("B", "3")],
            [("\u{E9}", "1"), ("e\u{301}", "2")], [("e\u{301}", "1"), ("f", "2")], [], [("Z", "1")],
        ]
        for members in cases {
            let dictionary = OpenStepDictionary(members.map { ($0.0, OpenStepValue.string($0.1)) })
            let expected = dictionary.lastValues.sorted { $0.key < $1.key }
            #expect(dictionary.sortedLastEntries.map(\.key) == expected.map(\.key))
            #expect(dictionary.sortedLastEntries.map(\.value) == expected.map(\.value))
        }
    }

    /// Strings read in place (keys, elements) keep the nesting limit where it was: a string 511 levels below the
    /// root is read, one at 512 is refused, at its own line.
    @Test func stringsInPlaceKeepTheNestingLimit() throws {
        // The root is level 0, `k`'s value level 1, and each `(` opened there one more.
        func nested(_ arrays: Int, _ leaf: String) -> String {
            "{k = " + String(repeating: "(", count: arrays) + "\n" + leaf + String(repeating: ")", count: arrays) + ";}"
        }
        for leaf in ["x", "\"x\"", "{x = y;}", "{\"x\" = y;}", "(x)"] {
            // A leaf that is a container holds its string one level further down.
            let arrays = leaf.hasPrefix("x") || leaf.hasPrefix("\"") ? 510 : 509
            let root = try OpenStepParser.parse(Array(nested(arrays, leaf).utf8)).root
            #expect(root["k"] != nil)
            do {
                _ = try OpenStepParser.parse(Array(nested(arrays + 1, leaf).utf8))
                Issue.record("\(leaf) one level deeper was read")
            } catch {
                #expect(error.message.contains("nested too deeply") && error.message.contains("line 2"), "\(leaf): \(error.message)")
            }
        }
    }

    /// ASCII paths joined and cut as bytes give what the characters' way gives, for every short path of slashes,
    /// dots and names; other paths still go the characters' way.
    @Test func asciiPathsAsBytesMatchTheCharactersWay() {
        var paths = [""]
        for _ in 0..<4 { paths += paths.flatMap { path in ["a", ".", "/", "bc"].map { path + $0 } } }
        paths = Array(Set(paths)).sorted()
        for path in paths + ["\r\n/x", "a/\r\n", "/\u{7F}/."] {
            #expect(PathText.lastComponent(of: path) == PathText.lastComponentByCharacters(of: path), "\(path)")
        }
        let bases = paths.filter { $0.utf8.count <= 3 } + ["/Users/x/Proj", "Proj/", "", "/"]
        for base in bases {
            for relative in paths {
                #expect(PathText.join(base, relative) == PathText.joinByCharacters(base, relative), "\(base) + \(relative)")
            }
        }
        #expect(PathText.join("/p/\u{E9}", "../a") == "/p/a")
        #expect(PathText.lastComponent(of: "x/\u{301}") == PathText.lastComponentByCharacters(of: "x/\u{301}"))
    }

    /// Containers nested and side by side keep their own members, in order, however many there are; a failure
    /// deep inside open containers reports its line.
    @Test func containersKeepTheirMembers() throws {
        var text = "{"
        for outer in 0..<30 {
            text += "d\(outer) = {"
            for inner in 0..<(outer * 7) { text += "k\(inner) = (v\(inner), {x = \(inner);}, ()); " }
            text += "}; "
        }
        text += "}"
        let root = try OpenStepParser.parse(Array(text.utf8)).root
        #expect(root.entries.count == 30)
        for outer in 0..<30 {
            let dictionary = try #require(root["d\(outer)"]?.dictionary)
            #expect(dictionary.entries.count == outer * 7)
            for (index, member) in dictionary.entries.enumerated() {
                #expect(member.key == "k\(index)")
                #expect(member.value == .array([.string("v\(index)"), .dictionary(OpenStepDictionary([("x", .string("\(index)"))])), .array([])]))
            }
        }
        let broken = "{a = (b, {c = (d, {e = (f\n;"
        do { _ = try OpenStepParser.parse(Array(broken.utf8)) } catch {
            #expect(error.message.contains("line 2"), "\(error.message)")
        }
    }
}

private extension String {
    /// A 24-character uppercase hexadecimal id, as Xcode names objects.
    init(format24 number: Int) {
        let hex = String(number, radix: 16, uppercase: true)
        self = String(repeating: "0", count: 24 - hex.count) + hex
    }
}
