@testable import BundleKit
@testable import CheckKit
import Foundation
import LockstepTestSupport
import Testing

/// `JSONValue` replaced `JSONSerialization` for manifests: it must read what that read, refuse what that refused,
/// and say where a document goes wrong.
@Suite struct JSONValueTests {
    /// The same value `JSONSerialization` reads, with its numbers told apart from its booleans.
    private func foundation(_ text: String) -> JSONValue? {
        guard let object = try? JSONSerialization.jsonObject(with: Data(text.utf8), options: [.fragmentsAllowed]) else { return nil }
        func convert(_ value: Any) -> JSONValue {
            switch value {
            case let dictionary as [String: Any]: return .object(dictionary.mapValues(convert))
            case let array as [Any]: return .array(array.map(convert))
            case let string as String: return .string(string)
            case is NSNull: return .null
            case let number as NSNumber:
                if String(cString: number.objCType) == "c" { return .bool(number.boolValue) }
                if let integer = value as? Int, !["d", "f"].contains(String(cString: number.objCType)) { return .integer(integer) }
                return .number(number.doubleValue)
            default: Issue.record("unexpected \(type(of: value))"); return .null
            }
        }
        return convert(object)
    }

    private func parsed(_ text: String) -> JSONValue? { try? JSONValue.parse(Array(text.utf8), path: "t.json") }

    @Test func readsWhatJSONSerializationReads() throws {
        let documents = [
            #"{"a": [1, -2, 3.5, 1e3, -0.25E-2, 0, -0], "b": {"c": null, "d": true, "e": false}, "f": ""}"#,
            #"  [ "x\"y\\z\/\b\f\n\r\t", "\u00e9\u0041", "\ud83e\uddd8", "é🧘" ]  "#,
            #"{"dup": 1, "dup": 2}"#,
            #""just a string""#, "42", "-7", "true", "null", "[]", "{}", "[[[]]]",
            #"{"big": 9223372036854775807, "bigger": 9223372036854775808}"#, "[1, 2,]", #"{"a": [], }"#,
            "\u{FEFF}{\"bom\": 1}",
        ]
        for text in documents {
            let ours = try #require(parsed(text), "\(text)")
            let theirs = try #require(foundation(text), "\(text)")
            #expect(ours == theirs, "\(text)")
        }
    }

    @Test func refusesWhatJSONSerializationRefusesAndSaysWhere() {
        let cases: [(String, String)] = [
            ("{", "line 1, column 2: the text ends where a key in quotes should be"),
            (#"{"a" 1}"#, "line 1, column 6: ':' after the key is expected, not '1'"),
            ("{\n  \"a\": 1,,\n}", "line 2, column 10: a key in quotes is expected, not ','"),
            ("[,]", "line 1, column 2: a value is expected, not ','"),
            ("[1 2]", "line 1, column 4: ',' or ']' is expected, not '2'"),
            ("[01]", "line 1, column 2: a number is malformed"),
            ("[1.]", "line 1, column 2: a number is malformed"),
            ("[-]", "line 1, column 2: a number is malformed"),
            ("[1e]", "line 1, column 2: a number is malformed"),
            ("[1e999]", "line 1, column 2: a number is out of range"),
            ("[tru]", "line 1, column 2: a value is expected, not 't'"),
            ("[\"a\nb\"]", "line 1, column 4: a string holds a control character (escape it)"),
            (#"["\q"]"#, "line 1, column 3: a string has an unknown escape"),
            (#"["\u12"]"#, "line 1, column 3: a string has a malformed \\u escape"),
            (#"["\ud83e"]"#, "line 1, column 3: a string has an unpaired surrogate escape"),
            (#"["\udc00"]"#, "line 1, column 3: a string has an unpaired surrogate escape"),
            (#"["abc"#, "line 1, column 2: a string is not closed"),
            ("{} {}", "line 1, column 4: more text follows the JSON value"),
            ("", "line 1, column 1: the text ends where a value should be"),
            ("[\u{7}]", "line 1, column 2: a value is expected, not byte 0x7"),
        ]
        for (text, location) in cases {
            #expect(foundation(text) == nil, "JSONSerialization reads \(text)")
            let error = #expect(throws: BundleError.self) { try JSONValue.parse(Array(text.utf8), path: "t.json") }
            #expect(error?.description == "The manifest 't.json' is invalid: it is not valid JSON (\(location)).", "\(text)")
        }
        // Invalid UTF-8 inside a string.
        let error = #expect(throws: BundleError.self) { try JSONValue.parse([0x5B, 0x22, 0xC3, 0x28, 0x22, 0x5D], path: "t.json") }
        #expect(error?.description == "The manifest 't.json' is invalid: it is not valid JSON (line 1, column 3: a string is not valid UTF-8).")
    }

    @Test func utf16AndUTF32DocumentsReadAsJSONSerializationReadThem() throws {
        let text = #"{"name": "Café ☕️ 𝄞", "n": [1, 2.5]}"#
        let expected = try #require(parsed(text))
        for (encoding, bom) in [(String.Encoding.utf16BigEndian, [UInt8]()), (.utf16LittleEndian, []), (.utf16BigEndian, [0xFE, 0xFF]),
                                (.utf16LittleEndian, [0xFF, 0xFE]), (.utf32BigEndian, []), (.utf32LittleEndian, []),
                                (.utf32BigEndian, [0, 0, 0xFE, 0xFF]), (.utf32LittleEndian, [0xFF, 0xFE, 0, 0])] {
            let bytes = bom + Array(try #require(text.data(using: encoding)))
            #expect(try JSONValue.parse(bytes, path: "t.json") == expected, "\(encoding) \(bom)")
            #expect((try? JSONSerialization.jsonObject(with: Data(bytes))) != nil, "JSONSerialization refuses \(encoding) \(bom)")
        }
        let odd = #expect(throws: BundleError.self) { try JSONValue.parse([0xFE, 0xFF, 0x00, 0x7B, 0x00], path: "t.json") }
        #expect(odd?.description == "The manifest 't.json' is invalid: it is not valid UTF-16: its length is not a whole number of characters.")
        let lone = #expect(throws: BundleError.self) { try JSONValue.parse([0xFE, 0xFF, 0xD8, 0x00, 0x00, 0x7B], path: "t.json") }
        #expect(lone?.description == "The manifest 't.json' is invalid: it is not valid UTF-16.")
    }

    @Test func bumpRefusesToEditAUTF16ManifestInPlace() throws {
        let dir = TestSupport.temporaryDirectory()
        defer { TestSupport.cleanUp(dir) }
        let path = dir.appendingPathComponent("lockstep.json").path
        let bytes = [UInt8](try #require(Manifest.embeddedDefaultText.data(using: .utf16)))  // with its byte-order mark
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        #expect(try Manifest.load(path).app.buildVersion == "1")
        let error = #expect(throws: BundleError.self) { try Bump.apply(.build("2"), to: path) }
        #expect(error?.description == "Cannot bump '\(path)': it is not UTF-8, and bump edits a manifest's text in place; save it as UTF-8 first.")
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == Data(bytes))
    }

    @Test func nestingIsBounded() {
        let deep = String(repeating: "[", count: JSONValue.maximumDepth) + String(repeating: "]", count: JSONValue.maximumDepth)
        #expect(parsed(deep) != nil)
        let error = #expect(throws: BundleError.self) { try JSONValue.parse(Array(("[" + deep + "]").utf8), path: "t.json") }
        #expect(error?.description.contains("values nest deeper than 512 levels") == true)
        #expect(parsed(String(repeating: "[", count: 100_000)) == nil)  // refused, not a stack overflow
    }

    @Test func wholeNumbersIncludeIntegralDoublesButNotBooleans() {
        #expect(parsed("30")?.integer == 30)
        #expect(parsed("30.0")?.integer == 30)
        #expect(parsed("3e1")?.integer == 30)
        #expect(parsed("30.5")?.integer == nil)
        #expect(parsed("true")?.integer == nil)
        #expect(parsed("\"30\"")?.integer == nil)
        #expect(parsed("9223372036854775808")?.integer == nil)  // past Int.max: a double, not a whole Int
        #expect(parsed("-9223372036854775808") == .integer(.min))
    }

    @Test func theCanonicalTextIsJSONThatReadsBackToTheSameValue() throws {
        let value = JSONValue.object([
            "b": .array([.string("x\"y\\z\n\u{1}é/"), .string("🧘")]), "a": .integer(7), "c": .array([.object(["k": .string("v")])]),
            "é": .array([]), "Z": .object([:]), "n": .null, "t": .bool(true), "d": .number(2.5),
        ])
        let text = value.canonicalText
        #expect(text.hasPrefix("{\n  \"Z\" : {},\n  \"a\" : 7,\n  \"b\" : [\n    \"x\\\"y"), "\(text)")
        #expect(parsed(text) == value)
        #expect(foundation(text) == value)
        #expect(parsed(value.compactText) == value)
        #expect(!value.compactText.contains("\n"))
    }

    @Test func stringSpansAreWhereTheValuesSit() throws {
        let text = #"{"app": {"buildVersion": "1", "n": ["x"]}, "embedded": [{"buildVersion": "1\"2"}]}"#
        let bytes = Array(text.utf8)
        let (_, spans) = try JSONValue.parseWithStringSpans(bytes, path: "t.json")
        #expect(spans.map(\.keyPath) == [["app", "buildVersion"], ["app", "n", "0"], ["embedded", "0", "buildVersion"]])
        #expect(spans.map { String(decoding: bytes[$0.range], as: UTF8.self) } == [#""1""#, #""x""#, #""1\"2""#])
    }
}
