/// A value of an old-style (OpenStep) property list, the format Xcode writes `project.pbxproj` in.
enum OpenStepValue: Equatable, Sendable {
    case string(String)
    case array([OpenStepValue])
    case dictionary(OpenStepDictionary)
    case data([UInt8])

    var string: String? { if case .string(let s) = self { return s } else { return nil } }
    var array: [OpenStepValue]? { if case .array(let a) = self { return a } else { return nil } }
    var dictionary: OpenStepDictionary? { if case .dictionary(let d) = self { return d } else { return nil } }
}

/// The members of an OpenStep dictionary, in the order written; a key written twice keeps its last value.
///
/// Kept as written and searched member by member, not hashed: a project.pbxproj is thousands of small dictionaries
/// (an object, its `buildSettings`) of which `check` looks up a few keys each, so hashing every key of every
/// dictionary cost more than all the lookups. Hash the few large ones (`objects`) with `lastValues`.
struct OpenStepDictionary: Equatable, Sendable {
    var members: [(key: String, value: OpenStepValue)]

    init(_ members: [(key: String, value: OpenStepValue)] = []) { self.members = members }

    subscript(key: String) -> OpenStepValue? {
        members.last { $0.key == key }?.value
    }

    /// Each key once, with its last value.
    var lastValues: [String: OpenStepValue] {
        Dictionary(members, uniquingKeysWith: { _, last in last })
    }

    /// Each key once, sorted: the first spelling of the key with its last value, as `lastValues` keeps them.
    var sortedLastValues: [(key: String, value: OpenStepValue)] {
        let sorted = members.indices.sorted { a, b in
            members[a].key < members[b].key || (members[a].key == members[b].key && a < b)
        }
        var result: [(key: String, value: OpenStepValue)] = []
        result.reserveCapacity(sorted.count)
        var runStart = 0
        for (position, index) in sorted.enumerated() where position + 1 == sorted.count || members[sorted[position + 1]].key != members[index].key {
            result.append((members[sorted[runStart]].key, members[index].value))
            runStart = position + 1
        }
        return result
    }

    static func == (lhs: Self, rhs: Self) -> Bool { lhs.lastValues == rhs.lastValues }
}

/// A small, byte-level reader for OpenStep property lists.
///
/// Written instead of `PropertyListSerialization` because on Linux that one rejects several things real
/// pbxproj files contain and gives no position on error; and because `bump` needs the byte range of each
/// object to edit the file in place. One pass, no backtracking: a 200-target project parses in milliseconds.
struct OpenStepParser {
    struct Failure: Error {
        var message: String
    }

    /// The root value, and the byte range of each member of the root's `objects` dictionary (by object id, in order).
    struct Document {
        var root: OpenStepDictionary
        var objectRanges: [(id: String, range: Range<Int>)]
    }

    private let bytes: [UInt8]
    private var index = 0
    private var objectRanges: [(id: String, range: Range<Int>)] = []

    static func parse(_ bytes: [UInt8]) throws(Failure) -> Document {
        var parser = OpenStepParser(bytes: bytes)
        parser.skipTrivia()
        guard case .dictionary(let root) = try parser.value(depth: 0, recordMembers: false) else {
            throw Failure(message: "the file does not start with a dictionary '{'")
        }
        parser.skipTrivia()
        if parser.index < bytes.count {
            throw Failure(message: "unexpected text after the root dictionary \(parser.position)")
        }
        return Document(root: root, objectRanges: parser.objectRanges)
    }

    private init(bytes: [UInt8]) { self.bytes = bytes }

    /// "at line N", for error messages.
    private var position: String {
        var line = 1
        for byte in bytes[..<min(index, bytes.count)] where byte == UInt8(ascii: "\n") { line += 1 }
        return "at line \(line)"
    }

    private var atEnd: Bool { index >= bytes.count }

    private mutating func skipTrivia() {
        while index < bytes.count {
            let byte = bytes[index]
            if byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D {
                index += 1
            } else if byte == UInt8(ascii: "/"), index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "/") {
                while index < bytes.count && bytes[index] != 0x0A { index += 1 }
            } else if byte == UInt8(ascii: "/"), index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "*") {
                index += 2
                while index + 1 < bytes.count && !(bytes[index] == UInt8(ascii: "*") && bytes[index + 1] == UInt8(ascii: "/")) {
                    index += 1
                }
                index = min(index + 2, bytes.count)
            } else {
                return
            }
        }
    }

    private mutating func expect(_ byte: UInt8) throws(Failure) {
        skipTrivia()
        // The Character only for the message: making one for every `=` and `;` of the file costs more than the rest.
        guard !atEnd else { throw Failure(message: "the file ends early (truncated?): expected '\(Character(Unicode.Scalar(byte)))' \(position)") }
        guard bytes[index] == byte else {
            throw Failure(message: "expected '\(Character(Unicode.Scalar(byte)))' but found '\(Character(Unicode.Scalar(bytes[index])))' \(position)")
        }
        index += 1
    }

    private mutating func value(depth: Int, recordMembers: Bool) throws(Failure) -> OpenStepValue {
        skipTrivia()
        guard !atEnd else { throw Failure(message: "the file ends early (truncated?) \(position)") }
        guard depth < 512 else { throw Failure(message: "values are nested too deeply \(position)") }
        switch bytes[index] {
        case UInt8(ascii: "{"):
            index += 1
            // Most dictionaries of a project.pbxproj (objects, build settings) have a handful of members.
            var members: [(key: String, value: OpenStepValue)] = []
            members.reserveCapacity(8)
            while true {
                skipTrivia()
                guard !atEnd else { throw Failure(message: "the file ends early (truncated?): a dictionary is not closed \(position)") }
                if bytes[index] == UInt8(ascii: "}") { index += 1; break }
                guard case .string(let key) = try value(depth: depth + 1, recordMembers: false) else {
                    throw Failure(message: "a dictionary key must be a string \(position)")
                }
                try expect(UInt8(ascii: "="))
                skipTrivia()
                let start = index
                members.append((key, try value(depth: depth + 1, recordMembers: depth == 0 && key == "objects")))
                if recordMembers { objectRanges.append((key, start..<index)) }
                try expect(UInt8(ascii: ";"))
            }
            return .dictionary(OpenStepDictionary(members))
        case UInt8(ascii: "("):
            index += 1
            var array: [OpenStepValue] = []
            while true {
                skipTrivia()
                guard !atEnd else { throw Failure(message: "the file ends early (truncated?): an array is not closed \(position)") }
                if bytes[index] == UInt8(ascii: ")") { index += 1; break }
                array.append(try value(depth: depth + 1, recordMembers: false))
                skipTrivia()
                if !atEnd && bytes[index] == UInt8(ascii: ",") { index += 1 }
                else if !atEnd && bytes[index] != UInt8(ascii: ")") { throw Failure(message: "expected ',' or ')' in an array \(position)") }
            }
            return .array(array)
        case UInt8(ascii: "\""), UInt8(ascii: "'"):
            return .string(try quoted())
        case UInt8(ascii: "<"):
            return .data(try data())
        default:
            let start = index
            while index < bytes.count && Self.isUnquoted(bytes[index]) { index += 1 }
            guard index > start else {
                throw Failure(message: "unexpected '\(Character(Unicode.Scalar(bytes[index])))' \(position)")
            }
            return .string(String(decoding: bytes[start..<index], as: UTF8.self))
        }
    }

    private static func isUnquoted(_ byte: UInt8) -> Bool {
        switch byte {
        case 0x00...0x20, UInt8(ascii: "{"), UInt8(ascii: "}"), UInt8(ascii: "("), UInt8(ascii: ")"),
             UInt8(ascii: "="), UInt8(ascii: ";"), UInt8(ascii: ","), UInt8(ascii: "\""), UInt8(ascii: "<"),
             UInt8(ascii: ">"), UInt8(ascii: "'"):
            return false
        default:
            return true
        }
    }

    private mutating func quoted() throws(Failure) -> String {
        let quote = bytes[index]
        index += 1
        let start = index
        // Fast path: no escapes.
        while index < bytes.count && bytes[index] != quote && bytes[index] != UInt8(ascii: "\\") { index += 1 }
        guard index < bytes.count else { throw Failure(message: "the file ends inside a quoted string (truncated?) \(position)") }
        if bytes[index] == quote {
            index += 1
            return String(decoding: bytes[start..<(index - 1)], as: UTF8.self)
        }
        var out = Array(bytes[start..<index])
        while true {
            guard index < bytes.count else { throw Failure(message: "the file ends inside a quoted string (truncated?) \(position)") }
            let byte = bytes[index]
            index += 1
            if byte == quote { break }
            guard byte == UInt8(ascii: "\\") else { out.append(byte); continue }
            guard index < bytes.count else { throw Failure(message: "the file ends inside a quoted string (truncated?) \(position)") }
            let escaped = bytes[index]
            index += 1
            switch escaped {
            case UInt8(ascii: "n"): out.append(0x0A)
            case UInt8(ascii: "t"): out.append(0x09)
            case UInt8(ascii: "r"): out.append(0x0D)
            case UInt8(ascii: "a"): out.append(0x07)
            case UInt8(ascii: "b"): out.append(0x08)
            case UInt8(ascii: "f"): out.append(0x0C)
            case UInt8(ascii: "v"): out.append(0x0B)
            case UInt8(ascii: "U"), UInt8(ascii: "u"):
                var scalar: UInt32 = 0
                var digits = 0
                while digits < 4, index < bytes.count, let digit = Self.hexDigit(bytes[index]) {
                    scalar = scalar * 16 + UInt32(digit)
                    index += 1
                    digits += 1
                }
                out.append(contentsOf: Array(String(Unicode.Scalar(scalar).map(Character.init) ?? "\u{FFFD}").utf8))
            case UInt8(ascii: "0")...UInt8(ascii: "7"):
                var code = UInt32(escaped - UInt8(ascii: "0"))
                var digits = 1
                while digits < 3, index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "7")).contains(bytes[index]) {
                    code = code * 8 + UInt32(bytes[index] - UInt8(ascii: "0"))
                    index += 1
                    digits += 1
                }
                out.append(contentsOf: Array(String(Unicode.Scalar(code).map(Character.init) ?? "\u{FFFD}").utf8))
            default: out.append(escaped)
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    private mutating func data() throws(Failure) -> [UInt8] {
        index += 1
        var out: [UInt8] = []
        var high: UInt8?
        while true {
            guard index < bytes.count else { throw Failure(message: "the file ends inside <data> (truncated?) \(position)") }
            let byte = bytes[index]
            index += 1
            if byte == UInt8(ascii: ">") { break }
            if byte == 0x20 || byte == 0x0A || byte == 0x09 || byte == 0x0D { continue }
            guard let digit = Self.hexDigit(byte) else { throw Failure(message: "invalid hex digit in <data> \(position)") }
            if let h = high { out.append(h << 4 | digit); high = nil } else { high = digit }
        }
        return out
    }

    private static func hexDigit(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
        default: return nil
        }
    }
}
