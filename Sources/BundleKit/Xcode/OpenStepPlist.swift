/// A value of an old-style (OpenStep) property list, the format Xcode writes `project.pbxproj` in.
enum OpenStepValue: Equatable, Sendable {
    case string(String)
    case array([OpenStepValue])
    case dictionary([String: OpenStepValue])
    case data([UInt8])

    var string: String? { if case .string(let s) = self { return s } else { return nil } }
    var array: [OpenStepValue]? { if case .array(let a) = self { return a } else { return nil } }
    var dictionary: [String: OpenStepValue]? { if case .dictionary(let d) = self { return d } else { return nil } }
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

    /// The root value, and the byte range of each member of the root's `objects` dictionary (by object id).
    struct Document {
        var root: [String: OpenStepValue]
        var objectRanges: [String: Range<Int>]
    }

    private let bytes: [UInt8]
    private var index = 0
    private var objectRanges: [(id: String, range: Range<Int>)] = []
    /// The members of the dictionaries being read, innermost last: each dictionary is built once, at its
    /// exact size, when it closes (growing a dictionary member by member rehashes it at every doubling).
    private var members: [(key: String, value: OpenStepValue)] = []

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
        var objectRanges = [String: Range<Int>](minimumCapacity: parser.objectRanges.count)
        for (id, range) in parser.objectRanges { objectRanges[id] = range }
        return Document(root: root, objectRanges: objectRanges)
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
        let character = Character(Unicode.Scalar(byte))
        guard !atEnd else { throw Failure(message: "the file ends early (truncated?): expected '\(character)' \(position)") }
        guard bytes[index] == byte else {
            throw Failure(message: "expected '\(character)' but found '\(Character(Unicode.Scalar(bytes[index])))' \(position)")
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
            let first = members.count
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
            // A key written twice keeps its last value, as before.
            var dictionary = [String: OpenStepValue](minimumCapacity: members.count - first)
            for (key, value) in members[first...] { dictionary[key] = value }
            members.removeSubrange(first...)
            return .dictionary(dictionary)
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
