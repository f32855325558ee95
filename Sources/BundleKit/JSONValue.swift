/// A JSON document (RFC 8259), as manifests and `installed.json` are written, read without Foundation.
///
/// Every simulated process reads the installed manifest as it starts. `JSONSerialization` hands numbers over as
/// `NSNumber`, and bridging them back (`as? Int`) searches the protocol conformances of every loaded library: with
/// its own start-up that was about a millisecond of each launch, five times per `lockstep up`. This reader is
/// RFC 8259 and says where the text goes wrong; like `JSONSerialization` it skips an initial byte-order mark,
/// reads UTF-16 and UTF-32 documents too, and allows one trailing comma in an array or object.
public enum JSONValue: Sendable, Equatable {
    /// Duplicate keys: the last one wins, as with `JSONSerialization`.
    case object([String: JSONValue])
    case array([JSONValue])
    case string(String)
    /// A number written without a fraction or exponent that fits `Int`.
    case integer(Int)
    /// Any other number.
    case number(Double)
    case bool(Bool)
    case null

    /// Nesting deeper than this is refused rather than risking the stack on hostile input.
    static let maximumDepth = 512

    /// Parses `bytes`, naming `path` in the error.
    /// - Throws: `BundleError.invalidManifest`: "it is not valid JSON (line L, column C: what is wrong)".
    public static func parse(_ bytes: [UInt8], path: String) throws(BundleError) -> JSONValue {
        var parser = JSONParser(bytes: try utf8(bytes, path: path), recordsSpans: false)
        return try parser.document(path: path)
    }

    /// `parse`, refusing an object that holds a key twice: for a file whose every key is a decision (a config),
    /// where the last one silently winning would hide the first.
    /// - Throws: `BundleError.invalidManifest`: "it is not valid JSON (line L, column C: the key 'K' appears twice …)".
    public static func parseRefusingDuplicateKeys(_ bytes: [UInt8], path: String) throws(BundleError) -> JSONValue {
        var parser = JSONParser(bytes: try utf8(bytes, path: path), recordsSpans: false)
        parser.refusesDuplicateKeys = true
        return try parser.document(path: path)
    }

    /// `bytes` as UTF-8. A UTF-16 or UTF-32 document, told by its byte-order mark or by the zero bytes its first
    /// characters have (RFC 4627 §3), is converted, as `JSONSerialization` read those too.
    /// - Throws: `BundleError.invalidManifest` when its code units are not valid in that encoding.
    package static func utf8(_ bytes: [UInt8], path: String) throws(BundleError) -> [UInt8] {
        let head = Array(bytes.prefix(4)) + [UInt8](repeating: 0xAA, count: max(0, 4 - bytes.count))
        let encoding: (units: Int, bigEndian: Bool, bom: Int)
        switch (head[0], head[1], head[2], head[3]) {
        case (0, 0, 0xFE, 0xFF): encoding = (4, true, 4)
        case (0xFF, 0xFE, 0, 0): encoding = (4, false, 4)
        case (0xFE, 0xFF, _, _): encoding = (2, true, 2)
        case (0xFF, 0xFE, _, _): encoding = (2, false, 2)
        case (0, 0, 0, _) where bytes.count >= 4: encoding = (4, true, 0)
        case (_, 0, 0, 0) where bytes.count >= 4: encoding = (4, false, 0)
        case (0, _, 0, _) where bytes.count >= 4: encoding = (2, true, 0)
        case (_, 0, _, 0) where bytes.count >= 4: encoding = (2, false, 0)
        default: return bytes
        }
        let name = encoding.units == 2 ? "UTF-16" : "UTF-32"
        let body = bytes.dropFirst(encoding.bom)
        guard body.count % encoding.units == 0 else {
            throw BundleError(.invalidManifest, path: path, detail: "it is not valid \(name): its length is not a whole number of characters")
        }
        var units: [UInt32] = []
        units.reserveCapacity(body.count / encoding.units)
        var index = body.startIndex
        while index < body.endIndex {
            var unit: UInt32 = 0
            for offset in 0..<encoding.units {
                let byte = UInt32(body[index + (encoding.bigEndian ? offset : encoding.units - 1 - offset)])
                unit = unit << 8 | byte
            }
            units.append(unit)
            index += encoding.units
        }
        let text = encoding.units == 2
            ? String(validating: units.map { UInt16($0) }, as: UTF16.self)
            : String(validating: units, as: UTF32.self)
        guard let text else { throw BundleError(.invalidManifest, path: path, detail: "it is not valid \(name)") }
        return Array(text.utf8)
    }

    /// Parses `bytes` and also returns where each string value sits in them (quotes included), by the key path
    /// that leads to it (`["embedded", "2", "buildVersion"]`): `lockstep bump` rewrites values in place. UTF-8 only:
    /// the spans are offsets into `bytes`.
    package static func parseWithStringSpans(_ bytes: [UInt8], path: String) throws(BundleError) -> (JSONValue, [(keyPath: [String], range: Range<Int>)]) {
        var parser = JSONParser(bytes: bytes, recordsSpans: true)
        let value = try parser.document(path: path)
        return (value, parser.spans)
    }

    public subscript(key: String) -> JSONValue? {
        if case .object(let members) = self { return members[key] }
        return nil
    }

    /// A whole number: an integer, or a number with an integral value in `Int`'s range (`30.0`), as
    /// `JSONSerialization`'s `as? Int` accepted it. Never a boolean.
    public var integer: Int? {
        switch self {
        case .integer(let value): return value
        case .number(let value):
            guard value.rounded() == value, value >= -0x1p63, value < 0x1p63 else { return nil }
            return Int(value)
        default: return nil
        }
    }

    /// `text` as a message quotes it: in single quotes, on one line (a newline, a tab or any other control
    /// character written as `\n`, `\t`, `\u{1B}`), and at most `limit` characters, then "…" and the full length.
    public static func shown(_ text: String, limit: Int = 60) -> String {
        var result = ""
        var count = 0
        for scalar in text.unicodeScalars {
            if count == limit {
                return "'\(result)…' (\(text.unicodeScalars.count) characters)"
            }
            switch scalar {
            case "\n": result += "\\n"
            case "\t": result += "\\t"
            case "\r": result += "\\r"
            case _ where scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) || scalar == "\u{2028}" || scalar == "\u{2029}":
                result += "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
            default: result.unicodeScalars.append(scalar)
            }
            count += 1
        }
        return "'\(result)'"
    }

    /// The value's JSON text on one line, at most `limit` characters (then "…" and its length): how an error
    /// message quotes a value from a file, which may be a megabyte long.
    public func shownText(limit: Int = 60) -> String {
        let text = compactText
        guard text.count > limit else { return text }
        return "\(text.prefix(limit))… (\(text.count) characters)"
    }

    /// The value as JSON text on one line (how error messages quote a value).
    public var compactText: String {
        var text = ""
        write(to: &text, indent: nil)
        return text
    }

    /// Pretty-printed with two-space indentation and keys sorted by their UTF-8 bytes: the same value always
    /// becomes the same text (`installed.json` is written this way).
    public var canonicalText: String {
        var text = ""
        write(to: &text, indent: "")
        return text
    }

    /// Appends the value's text; `indent` is the current line's indentation, nil for one line.
    private func write(to text: inout String, indent: String?) {
        switch self {
        case .string(let value): Self.quote(value, to: &text)
        case .integer(let value): text += String(value)
        case .number(let value): text += "\(value)"
        case .bool(let value): text += value ? "true" : "false"
        case .null: text += "null"
        case .array(let items):
            if items.isEmpty { text += "[]"; return }
            text += "["
            let inner = indent.map { $0 + "  " }
            for (index, item) in items.enumerated() {
                if index > 0 { text += "," }
                if let inner { text += "\n" + inner }
                item.write(to: &text, indent: inner)
            }
            if let indent { text += "\n" + indent }
            text += "]"
        case .object(let members):
            if members.isEmpty { text += "{}"; return }
            text += "{"
            let inner = indent.map { $0 + "  " }
            for (index, key) in members.keys.sorted(by: { $0.utf8.lexicographicallyPrecedes($1.utf8) }).enumerated() {
                if index > 0 { text += "," }
                if let inner { text += "\n" + inner }
                Self.quote(key, to: &text)
                text += indent == nil ? ":" : " : "
                members[key]!.write(to: &text, indent: inner)
            }
            if let indent { text += "\n" + indent }
            text += "}"
        }
    }

    private static func quote(_ string: String, to text: inout String) {
        text += "\""
        // Most strings need no escape: appended whole, not scalar by scalar.
        if !string.utf8.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) {
            text += string
            text += "\""
            return
        }
        for scalar in string.unicodeScalars {
            switch scalar {
            case "\"": text += "\\\""
            case "\\": text += "\\\\"
            case "\n": text += "\\n"
            case "\t": text += "\\t"
            case "\r": text += "\\r"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                text += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: text.unicodeScalars.append(scalar)
            }
        }
        text += "\""
    }
}

/// The recursive-descent reader behind `JSONValue.parse`.
private struct JSONParser {
    let bytes: [UInt8]
    var position = 0
    var depth = 0
    let recordsSpans: Bool
    var keyPath: [String] = []
    var spans: [(keyPath: [String], range: Range<Int>)] = []

    /// Whether a key given twice in one object is an error (`parseRefusingDuplicateKeys`).
    var refusesDuplicateKeys = false

    init(bytes: [UInt8], recordsSpans: Bool) {
        self.bytes = bytes
        self.recordsSpans = recordsSpans
    }

    /// What went wrong, and at which byte.
    struct Syntax: Error {
        var message: String
        var position: Int
    }

    mutating func document(path: String) throws(BundleError) -> JSONValue {
        do throws(Syntax) {
            if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { position = 3 }
            let result = try value()
            skipSpace()
            if position < bytes.count { throw Syntax(message: "more text follows the JSON value", position: position) }
            return result
        } catch {
            let (line, column) = location(of: error.position)
            throw BundleError(.invalidManifest, path: path, detail: "it is not valid JSON (line \(line), column \(column): \(error.message))")
        }
    }

    /// 1-based line and column (in bytes) of `offset`.
    private func location(of offset: Int) -> (line: Int, column: Int) {
        var line = 1, lineStart = 0
        for index in 0..<min(offset, bytes.count) where bytes[index] == 0x0A {
            line += 1
            lineStart = index + 1
        }
        return (line, offset - lineStart + 1)
    }

    private mutating func skipSpace() {
        while position < bytes.count {
            switch bytes[position] {
            case 0x20, 0x09, 0x0A, 0x0D: position += 1
            default: return
            }
        }
    }

    private func unexpected(_ expected: String) -> Syntax {
        guard position < bytes.count else { return Syntax(message: "the text ends where \(expected) should be", position: position) }
        let byte = bytes[position]
        let found = (0x21..<0x7F).contains(byte) ? "'\(Character(Unicode.Scalar(byte)))'" : "byte 0x\(String(byte, radix: 16, uppercase: true))"
        return Syntax(message: "\(expected) is expected, not \(found)", position: position)
    }

    private mutating func value() throws(Syntax) -> JSONValue {
        skipSpace()
        guard position < bytes.count else { throw unexpected("a value") }
        switch bytes[position] {
        case UInt8(ascii: "{"): return try nested { (parser: inout JSONParser) throws(Syntax) in try parser.object() }
        case UInt8(ascii: "["): return try nested { (parser: inout JSONParser) throws(Syntax) in try parser.array() }
        case UInt8(ascii: "\""):
            let start = position
            let text = try string()
            if recordsSpans { spans.append((keyPath, start..<position)) }
            return .string(text)
        case UInt8(ascii: "t"): return try literal("true", .bool(true))
        case UInt8(ascii: "f"): return try literal("false", .bool(false))
        case UInt8(ascii: "n"): return try literal("null", .null)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try number()
        default: throw unexpected("a value")
        }
    }

    private mutating func nested(_ body: (inout JSONParser) throws(Syntax) -> JSONValue) throws(Syntax) -> JSONValue {
        depth += 1
        defer { depth -= 1 }
        if depth > JSONValue.maximumDepth {
            throw Syntax(message: "values nest deeper than \(JSONValue.maximumDepth) levels", position: position)
        }
        return try body(&self)
    }

    private mutating func object() throws(Syntax) -> JSONValue {
        position += 1  // {
        var members: [String: JSONValue] = [:]
        if closes(UInt8(ascii: "}")) { return .object(members) }
        while true {
            skipSpace()
            guard position < bytes.count, bytes[position] == UInt8(ascii: "\"") else { throw unexpected("a key in quotes") }
            let keyStart = position
            let key = try string()
            if refusesDuplicateKeys, members[key] != nil {
                throw Syntax(message: "the key \(JSONValue.shown(key)) appears twice in one object", position: keyStart)
            }
            skipSpace()
            guard position < bytes.count, bytes[position] == UInt8(ascii: ":") else { throw unexpected("':' after the key") }
            position += 1
            if recordsSpans { keyPath.append(key) }
            members[key] = try value()
            if recordsSpans { keyPath.removeLast() }
            if try ends(at: UInt8(ascii: "}")) { return .object(members) }
        }
    }

    private mutating func array() throws(Syntax) -> JSONValue {
        position += 1  // [
        var items: [JSONValue] = []
        if closes(UInt8(ascii: "]")) { return .array(items) }
        while true {
            if recordsSpans { keyPath.append(String(items.count)) }
            items.append(try value())
            if recordsSpans { keyPath.removeLast() }
            if try ends(at: UInt8(ascii: "]")) { return .array(items) }
        }
    }

    /// After a member or an item: consumes ',' or `close`, and says whether the container ended there, or at a
    /// `close` right after the comma. One trailing comma is allowed, as `JSONSerialization` allows it, so every
    /// manifest it read still reads.
    private mutating func ends(at close: UInt8) throws(Syntax) -> Bool {
        skipSpace()
        guard position < bytes.count, bytes[position] == UInt8(ascii: ",") || bytes[position] == close else {
            throw unexpected("',' or '\(Character(Unicode.Scalar(close)))'")
        }
        position += 1
        return bytes[position - 1] == close || closes(close)
    }

    /// Whether `close` follows, after any white space (and if so, consumes it).
    private mutating func closes(_ close: UInt8) -> Bool {
        skipSpace()
        guard position < bytes.count, bytes[position] == close else { return false }
        position += 1
        return true
    }

    private mutating func literal(_ word: StaticString, _ result: JSONValue) throws(Syntax) -> JSONValue {
        let text = UnsafeBufferPointer(start: word.utf8Start, count: word.utf8CodeUnitCount)
        guard bytes.count - position >= text.count, bytes[position..<(position + text.count)].elementsEqual(text) else {
            throw unexpected("a value")
        }
        position += text.count
        return result
    }

    private mutating func number() throws(Syntax) -> JSONValue {
        let start = position
        func digits(_ parser: inout JSONParser) -> Int {
            let first = parser.position
            while parser.position < parser.bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(parser.bytes[parser.position]) {
                parser.position += 1
            }
            return parser.position - first
        }
        if bytes[position] == UInt8(ascii: "-") { position += 1 }
        let leadingZero = position < bytes.count && bytes[position] == UInt8(ascii: "0")
        let whole = digits(&self)
        guard whole > 0, !(leadingZero && whole > 1) else { throw Syntax(message: "a number is malformed", position: start) }
        var integral = true
        if position < bytes.count, bytes[position] == UInt8(ascii: ".") {
            position += 1
            integral = false
            guard digits(&self) > 0 else { throw Syntax(message: "a number is malformed", position: start) }
        }
        if position < bytes.count, bytes[position] | 0x20 == UInt8(ascii: "e") {
            position += 1
            integral = false
            if position < bytes.count, bytes[position] == UInt8(ascii: "+") || bytes[position] == UInt8(ascii: "-") { position += 1 }
            guard digits(&self) > 0 else { throw Syntax(message: "a number is malformed", position: start) }
        }
        let text = String(decoding: bytes[start..<position], as: UTF8.self)
        if integral, let value = Int(text) { return .integer(value) }
        guard let value = Double(text), value.isFinite else { throw Syntax(message: "a number is out of range", position: start) }
        return .number(value)
    }

    /// A string from its opening quote; `position` ends after the closing one.
    private mutating func string() throws(Syntax) -> String {
        position += 1  // "
        let start = position
        // The usual case: no escapes.
        while position < bytes.count, bytes[position] != UInt8(ascii: "\""), bytes[position] != UInt8(ascii: "\\"), bytes[position] >= 0x20 {
            position += 1
        }
        if position < bytes.count, bytes[position] == UInt8(ascii: "\"") {
            position += 1
            return try decoded(bytes[start..<(position - 1)], at: start)
        }
        var utf8 = Array(bytes[start..<position])
        while true {
            guard position < bytes.count else { throw Syntax(message: "a string is not closed", position: start - 1) }
            let byte = bytes[position]
            switch byte {
            case UInt8(ascii: "\""):
                position += 1
                return try decoded(utf8[...], at: start)
            case UInt8(ascii: "\\"):
                try escape(into: &utf8)
            case ..<0x20:
                throw Syntax(message: "a string holds a control character (escape it)", position: position)
            default:
                utf8.append(byte)
                position += 1
            }
        }
    }

    private func decoded(_ utf8: ArraySlice<UInt8>, at start: Int) throws(Syntax) -> String {
        guard let text = String(validating: utf8, as: UTF8.self) else {
            throw Syntax(message: "a string is not valid UTF-8", position: start)
        }
        return text
    }

    /// One escape sequence from its backslash, appended to `utf8` as UTF-8.
    private mutating func escape(into utf8: inout [UInt8]) throws(Syntax) {
        let start = position
        position += 1
        guard position < bytes.count else { throw Syntax(message: "a string is not closed", position: start) }
        let simple: UInt8?
        switch bytes[position] {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): simple = bytes[position]
        case UInt8(ascii: "b"): simple = 0x08
        case UInt8(ascii: "f"): simple = 0x0C
        case UInt8(ascii: "n"): simple = 0x0A
        case UInt8(ascii: "r"): simple = 0x0D
        case UInt8(ascii: "t"): simple = 0x09
        default: simple = nil
        }
        if let simple {
            utf8.append(simple)
            position += 1
            return
        }
        guard bytes[position] == UInt8(ascii: "u") else { throw Syntax(message: "a string has an unknown escape", position: start) }
        var scalar = try hex4(at: start)
        if (0xD800..<0xDC00).contains(scalar) {
            // A high surrogate must be followed by an escaped low one (RFC 8259 §7).
            guard bytes.count - position >= 2, bytes[position] == UInt8(ascii: "\\"), bytes[position + 1] == UInt8(ascii: "u") else {
                throw Syntax(message: "a string has an unpaired surrogate escape", position: start)
            }
            position += 1
            let low = try hex4(at: start)
            guard (0xDC00..<0xE000).contains(low) else { throw Syntax(message: "a string has an unpaired surrogate escape", position: start) }
            scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
        } else if (0xDC00..<0xE000).contains(scalar) {
            throw Syntax(message: "a string has an unpaired surrogate escape", position: start)
        }
        utf8.append(contentsOf: String(Character(Unicode.Scalar(scalar)!)).utf8)
    }

    /// The four hex digits after `\u` (`position` is at the `u`).
    private mutating func hex4(at start: Int) throws(Syntax) -> UInt32 {
        position += 1
        guard bytes.count - position >= 4 else { throw Syntax(message: "a string has a short \\u escape", position: start) }
        var value: UInt32 = 0
        for byte in bytes[position..<(position + 4)] {
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw Syntax(message: "a string has a malformed \\u escape", position: start)
            }
            value = value << 4 | UInt32(digit)
        }
        position += 4
        return value
    }
}
