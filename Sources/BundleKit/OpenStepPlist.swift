
/// A value of an old-style (OpenStep) property list, the format Xcode writes `project.pbxproj` in.
package enum OpenStepValue: Equatable, Sendable {
    case string(String)
    case array([OpenStepValue])
    case dictionary(OpenStepDictionary)
    case data([UInt8])

    package var string: String? { if case .string(let s) = self { return s } else { return nil } }
    package var array: [OpenStepValue]? { if case .array(let a) = self { return a } else { return nil } }
    package var dictionary: OpenStepDictionary? { if case .dictionary(let d) = self { return d } else { return nil } }
}

/// The members of an OpenStep dictionary, in the order written; a key written twice keeps its last value.
///
/// Kept as written and searched member by member, not hashed: a project.pbxproj is thousands of small dictionaries
/// (an object, its `buildSettings`) of which `check` looks up a few keys each, so hashing every key of every
/// dictionary cost more than all the lookups. Hash the few large ones (`objects`) with `lastValues`.
package struct OpenStepDictionary: Equatable, Sendable {
    /// One member. A struct, not a tuple: an array of tuples is freed through the runtime's generic tuple witness,
    /// element by element, and freeing a parsed project.pbxproj is made of little else.
    package struct Member: Sendable {
        package var key: String
        package var value: OpenStepValue

        package init(key: String, value: OpenStepValue) {
            self.key = key
            self.value = value
        }
    }

    /// The members, in the order written.
    package var entries: [Member]

    package init(_ members: [(key: String, value: OpenStepValue)] = []) {
        entries = members.map { Member(key: $0.key, value: $0.value) }
    }

    package init(entries: [Member]) { self.entries = entries }

    package subscript(key: String) -> OpenStepValue? {
        entries.last { $0.key == key }?.value
    }

    /// Each key once, with its last value.
    package var lastValues: [String: OpenStepValue] {
        var values = [String: OpenStepValue](minimumCapacity: entries.count)
        for member in entries { values[member.key] = member.value }
        return values
    }

    /// Each key once, sorted: the first spelling of the key with its last value, as `lastValues` keeps them.
    package var sortedLastEntries: [Member] {
        let members = entries
        // Xcode writes build settings sorted: then the members are the answer, without a sorted copy of each.
        var ascending = true
        for index in members.indices.dropFirst() where !(members[index - 1].key < members[index].key) {
            ascending = false
            break
        }
        if ascending { return members }
        // Keys are almost never written twice: then sorting the members is enough.
        let byKey = members.sorted { $0.key < $1.key }
        if zip(byKey, byKey.dropFirst()).allSatisfy({ $0.key != $1.key }) { return byKey }
        let sorted = members.indices.sorted { a, b in
            members[a].key < members[b].key || (members[a].key == members[b].key && a < b)
        }
        var result: [Member] = []
        result.reserveCapacity(sorted.count)
        var runStart = 0
        for (position, index) in sorted.enumerated() where position + 1 == sorted.count || members[sorted[position + 1]].key != members[index].key {
            result.append(Member(key: members[sorted[runStart]].key, value: members[index].value))
            runStart = position + 1
        }
        return result
    }

    package static func == (lhs: Self, rhs: Self) -> Bool { lhs.lastValues == rhs.lastValues }
}

/// A small, byte-level reader for OpenStep property lists.
///
/// Written instead of `PropertyListSerialization` because on Linux that one rejects several things real
/// pbxproj files contain and gives no position on error; and because `bump` needs the byte range of each
/// object to edit the file in place. One pass, no backtracking: a 200-target project parses in milliseconds.
package struct OpenStepParser {
    package struct Failure: Error {
        package var message: String
    }

    /// The root value, and the byte range of each member of the root's `objects` dictionary (by object id, in order).
    package struct Document {
        package var root: OpenStepDictionary
        package var objectRanges: [(id: String, range: Range<Int>)]

        package init(root: OpenStepDictionary, objectRanges: [(id: String, range: Range<Int>)]) {
            self.root = root
            self.objectRanges = objectRanges
        }
    }

    /// The file, read in place for the length of `parse` (every byte is looked at, so no bounds checks).
    private let bytes: UnsafeBufferPointer<UInt8>
    private var index = 0
    private var objectRanges: [(id: String, range: Range<Int>)] = []
    private var strings: StringTable
    /// Where a `/*` comment that runs to the end of the file starts: the file is damaged, not complete.
    private var unclosedComment: Int?
    /// The members of the dictionaries and the elements of the arrays being read, innermost last: each container's
    /// are moved into an array of their exact count when it closes, instead of growing an array of its own.
    private var members = MoveStack<OpenStepDictionary.Member>()
    private var elements = MoveStack<OpenStepValue>()
    private let unquoted = OpenStepParser.unquotedTable

    package static func parse(_ bytes: [UInt8]) throws(Failure) -> Document {
        try bytes.withUnsafeBufferPointer { bytes throws(Failure) in
            var parser = OpenStepParser(bytes: bytes)
            defer {
                parser.members.free()
                parser.elements.free()
            }
            parser.skipTrivia()
            guard case .dictionary(let root) = try parser.value(depth: 0, recordMembers: false) else {
                throw Failure(message: "the file does not start with a dictionary '{'")
            }
            parser.skipTrivia()
            if let start = parser.unclosedComment {
                parser.index = start
                throw Failure(message: "a '/*' comment \(parser.position) is never closed")
            }
            if parser.index < bytes.count {
                throw Failure(message: "unexpected text after the root dictionary \(parser.position)")
            }
            return Document(root: root, objectRanges: parser.objectRanges)
        }
    }

    private init(bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
        // About one distinct string per 64 bytes of a project.pbxproj would fill a quarter of it.
        strings = StringTable(capacity: min(1 << 16, max(64, bytes.count / 64)))
    }

    /// "at line N", for error messages.
    private var position: String {
        var line = 1
        for byte in bytes[..<min(index, bytes.count)] where byte == UInt8(ascii: "\n") { line += 1 }
        return "at line \(line)"
    }

    private var atEnd: Bool { index >= bytes.count }

    /// Most calls find the next token at once or after one space (`key = value;`): that test is inlined, the loop
    /// is not.
    @inline(__always)
    private mutating func skipTrivia() {
        if index < bytes.count {
            if bytes[index] == 0x20, index + 1 < bytes.count { index += 1 }
            if bytes[index] > 0x20, bytes[index] != UInt8(ascii: "/") { return }
        }
        skipTriviaRun()
    }

    private mutating func skipTriviaRun() {
        while index < bytes.count {
            let byte = bytes[index]
            if byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D {
                index += 1
            } else if byte == UInt8(ascii: "/"), index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "/") {
                while index < bytes.count && bytes[index] != 0x0A { index += 1 }
            } else if byte == UInt8(ascii: "/"), index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "*") {
                // A project.pbxproj names most references in a comment: up to a third of its bytes.
                let start = index
                index += 2
                var closed = false
                while index + 1 < bytes.count {
                    index = Self.nextStar(bytes, from: index)
                    guard index + 1 < bytes.count else { break }
                    if bytes[index] == UInt8(ascii: "*") && bytes[index + 1] == UInt8(ascii: "/") {
                        closed = true
                        break
                    }
                    index += 1
                }
                if closed { index += 2 } else {
                    unclosedComment = start
                    index = bytes.count
                }
            } else {
                return
            }
        }
    }

    /// Where the first `*` at or after `start` is, compared eight bytes at a time; if there is none before the last
    /// seven bytes, where those begin (the caller looks at them one by one).
    private static func nextStar(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
        let raw = UnsafeRawBufferPointer(bytes)
        var index = start
        while index + 8 <= raw.count {
            // A byte of `word ^ "********"` is zero where a `*` is; the lowest flagged byte is the first one.
            let word = raw.loadUnaligned(fromByteOffset: index, as: UInt64.self) ^ 0x2A2A_2A2A_2A2A_2A2A
            let zero = (word &- 0x0101_0101_0101_0101) & ~word & 0x8080_8080_8080_8080
            if zero != 0 { return index + zero.trailingZeroBitCount >> 3 }
            index += 8
        }
        return index
    }

    @inline(__always)
    private mutating func expect(_ byte: UInt8) throws(Failure) {
        skipTrivia()
        if index < bytes.count && bytes[index] == byte {
            index += 1
            return
        }
        try unexpected(byte)
    }

    /// Throws why `byte` is not the next token.
    private func unexpected(_ byte: UInt8) throws(Failure) {
        // The Character only for the message: making one for every `=` and `;` of the file costs more than the rest.
        guard !atEnd else { throw Failure(message: "the file ends early (truncated?): expected '\(Character(Unicode.Scalar(byte)))' \(position)") }
        guard bytes[index] == byte else {
            // A control byte is named, not copied to the terminal.
            let found = bytes[index] < 0x20 || bytes[index] == 0x7F ? "byte 0x\(String(bytes[index], radix: 16))"
                : "'\(Character(Unicode.Scalar(bytes[index])))'"
            throw Failure(message: "expected '\(Character(Unicode.Scalar(byte)))' but found \(found) \(position)")
        }
    }

    private mutating func value(depth: Int, recordMembers: Bool) throws(Failure) -> OpenStepValue {
        skipTrivia()
        guard !atEnd else { throw Failure(message: "the file ends early (truncated?) \(position)") }
        guard depth < Self.maximumDepth else { throw Failure(message: "values are nested too deeply \(position)") }
        switch bytes[index] {
        case UInt8(ascii: "{"):
            index += 1
            let first = members.count
            while true {
                skipTrivia()
                guard !atEnd else { throw Failure(message: "the file ends early (truncated?): a dictionary is not closed \(position)") }
                if bytes[index] == UInt8(ascii: "}") { index += 1; break }
                let key: String
                if depth + 1 < Self.maximumDepth, let token = try stringToken() {
                    key = token
                } else {
                    guard case .string(let token) = try value(depth: depth + 1, recordMembers: false) else {
                        throw Failure(message: "a dictionary key must be a string \(position)")
                    }
                    key = token
                }
                skipTrivia()
                if !atEnd && bytes[index] == UInt8(ascii: ";") {
                    // `key;` is `key = key;` in Apple's old-style property list parser (and openstep_plist).
                    index += 1
                    members.push(.init(key: key, value: .string(key)))
                    continue
                }
                try expect(UInt8(ascii: "="))
                skipTrivia()
                let start = index
                let member: OpenStepValue
                if depth + 1 < Self.maximumDepth, !atEnd, let token = try stringToken() {
                    member = .string(token)
                } else {
                    member = try value(depth: depth + 1, recordMembers: depth == 0 && key == "objects")
                }
                members.push(.init(key: key, value: member))
                if recordMembers { objectRanges.append((key, start..<index)) }
                try expect(UInt8(ascii: ";"))
            }
            return .dictionary(OpenStepDictionary(entries: members.pop(from: first)))
        case UInt8(ascii: "("):
            index += 1
            let first = elements.count
            while true {
                skipTrivia()
                guard !atEnd else { throw Failure(message: "the file ends early (truncated?): an array is not closed \(position)") }
                if bytes[index] == UInt8(ascii: ")") { index += 1; break }
                if depth + 1 < Self.maximumDepth, let token = try stringToken() {
                    elements.push(.string(token))
                } else {
                    let element = try value(depth: depth + 1, recordMembers: false)
                    elements.push(element)
                }
                skipTrivia()
                if !atEnd && bytes[index] == UInt8(ascii: ",") { index += 1 }
                else if !atEnd && bytes[index] != UInt8(ascii: ")") { throw Failure(message: "expected ',' or ')' in an array \(position)") }
            }
            return .array(elements.pop(from: first))
        case UInt8(ascii: "\""), UInt8(ascii: "'"):
            return .string(try quoted())
        case UInt8(ascii: "<"):
            return .data(try data())
        default:
            guard let token = try stringToken() else {
                throw Failure(message: "unexpected '\(Character(Unicode.Scalar(bytes[index])))' \(position)")
            }
            return .string(token)
        }
    }

    /// How deep values may nest: deeper is refused, before the stack runs out.
    private static let maximumDepth = 512

    /// The quoted or unquoted string at `index` (not at the end, not trivia), or nil if the next value is not one.
    /// Keys and most values are: read here, without a call of `value` and an enum to take the string back out of.
    @inline(__always)
    private mutating func stringToken() throws(Failure) -> String? {
        let first = bytes[index]
        if first == UInt8(ascii: "\"") || first == UInt8(ascii: "'") { return try quoted() }
        guard unquoted[Int(first)] else { return nil }
        let start = index
        unquoted.withUnsafeBufferPointer { unquoted in
            // Four bytes a step while four are left (an object id is 24), then one at a time.
            while index + 4 <= bytes.count && unquoted[Int(bytes[index])] && unquoted[Int(bytes[index + 1])]
                    && unquoted[Int(bytes[index + 2])] && unquoted[Int(bytes[index + 3])] {
                index += 4
            }
            while index < bytes.count && unquoted[Int(bytes[index])] { index += 1 }
        }
        return strings.string(bytes, start..<index)
    }

    /// `isUnquoted` of every byte: the test of every byte of every unquoted string of the file (a bit test or the
    /// `switch` cost twice as much). Kept by the parser, not read from the static for each string (a `swift_once`).
    private static let unquotedTable = (0...255).map { isUnquoted(UInt8($0)) }

    /// Which bytes an unquoted string may hold.
    static func isUnquoted(_ byte: UInt8) -> Bool {
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
            return strings.string(bytes, start..<(index - 1))
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

/// A stack whose top elements are moved out into an array, without a retain or release of each: the members of the
/// containers a parse has open. Freed by `free()`, which destroys what is left on it (after a failure).
private struct MoveStack<Element> {
    private var base: UnsafeMutablePointer<Element>
    private var capacity = 256
    private(set) var count = 0

    init() { base = .allocate(capacity: capacity) }

    mutating func push(_ element: Element) {
        if count == capacity {
            let grown = UnsafeMutablePointer<Element>.allocate(capacity: capacity * 2)
            grown.moveInitialize(from: base, count: count)
            base.deallocate()
            base = grown
            capacity *= 2
        }
        (base + count).initialize(to: element)
        count += 1
    }

    /// The elements from `first` to the top, in order, moved into an array of their count.
    mutating func pop(from first: Int) -> [Element] {
        let moved = count - first
        guard moved > 0 else { return [] }
        count = first
        // Not `Array(unsafeUninitializedCapacity:)` nor `Array(repeating:count:)`: their allocation is not
        // specialized, and looking up the array's storage class by its element type cost more than the growth saved.
        var array: [Element] = []
        array.reserveCapacity(moved)
        for index in first..<(first + moved) { array.append((base + index).move()) }
        return array
    }

    func free() {
        base.deinitialize(count: count)
        base.deallocate()
    }
}

/// The strings a file has already given, by their bytes: a project.pbxproj writes a couple of thousand distinct
/// strings (keys, object ids, isa names, settings) six times as often, and making each one again costs an allocation
/// and a UTF-8 check, and then its own release. Bounded: a full table, or a long run of colliding slots, only means
/// the string is made afresh.
private struct StringTable {
    /// Where in the file a slot's string was read (its bytes are compared there), and where in `strings` the string
    /// is; a count of 0 is a free slot. Numbers only: a table of strings retained the empty string once per slot
    /// when it was made, and released it once per slot when freed.
    private struct Slot {
        var start: Int32 = 0
        var count: Int32 = 0
        var string: Int32 = 0
    }

    private var slots: [Slot]
    /// The strings the slots and `shorts` hold.
    private var strings: [String] = []
    private var used = 0
    /// log2 of the number of slots.
    private let bits: Int

    /// A string of up to 15 bytes, by its bytes packed in two words (zero beyond its count): `String` holds such a
    /// string inline, so there is no allocation to share, but making it (checking its UTF-8) cost more than
    /// finding it here. One slot per hash, the last string made there: a miss only means making the string.
    private struct Short {
        var low: UInt64 = 0
        var high: UInt64 = 0
        /// -1: a free slot.
        var count = -1
        /// Where in `strings` the string is.
        var string = 0
    }

    private var shorts = Array(repeating: Short(), count: 1 << 10)

    /// - Parameter capacity: rounded up to a power of two.
    init(capacity: Int) {
        var bits = 1
        while 1 << bits < capacity { bits += 1 }
        self.bits = bits
        slots = Array(repeating: Slot(), count: 1 << bits)
    }

    /// The string of `file[token]` for a token of at most 15 bytes.
    private mutating func short(_ file: UnsafeBufferPointer<UInt8>, _ token: Range<Int>) -> String {
        let count = token.count
        var low: UInt64 = 0, high: UInt64 = 0
        if token.lowerBound + 16 <= file.count {
            let raw = UnsafeRawBufferPointer(file)
            low = raw.loadUnaligned(fromByteOffset: token.lowerBound, as: UInt64.self)
            high = raw.loadUnaligned(fromByteOffset: token.lowerBound + 8, as: UInt64.self)
            // Little-endian: the token's bytes are the low ones of each word.
            if count < 8 {
                low &= (1 << UInt64(count * 8)) &- 1
                high = 0
            } else {
                high &= (1 << UInt64((count - 8) * 8)) &- 1
            }
        } else {
            for (offset, index) in token.enumerated() {
                if offset < 8 { low |= UInt64(file[index]) << UInt64(offset * 8) } else { high |= UInt64(file[index]) << UInt64((offset - 8) * 8) }
            }
        }
        var hash = (low ^ (high &* 0xC2B2_AE3D_27D4_EB4F) ^ UInt64(count)) &* 0x9E37_79B9_7F4A_7C15
        hash ^= hash >> 29
        let slot = Int(truncatingIfNeeded: hash >> (64 - 10))
        if shorts[slot].count == count && shorts[slot].low == low && shorts[slot].high == high { return strings[shorts[slot].string] }
        let made = String(decoding: UnsafeBufferPointer(rebasing: file[token]), as: UTF8.self)
        // A slot taken over by another string gives it its place in `strings`.
        if shorts[slot].count >= 0 {
            strings[shorts[slot].string] = made
            shorts[slot] = Short(low: low, high: high, count: count, string: shorts[slot].string)
        } else {
            shorts[slot] = Short(low: low, high: high, count: count, string: strings.count)
            strings.append(made)
        }
        return made
    }

    /// `String(decoding: file[token], as: UTF8.self)`, the same string as the last time these bytes were read.
    mutating func string(_ file: UnsafeBufferPointer<UInt8>, _ token: Range<Int>) -> String {
        let bytes = UnsafeBufferPointer(rebasing: file[token])
        if bytes.count <= 15 { return short(file, token) }
        // A file too large for 32-bit offsets has no table.
        guard file.count <= Int(Int32.max) else { return String(decoding: bytes, as: UTF8.self) }
        let mask = slots.count - 1
        // The top bits of a multiplicative hash are the ones every byte reaches.
        var slot = Int(truncatingIfNeeded: StringHash.bytes(UnsafeRawBufferPointer(bytes), seed: 0).value >> (64 - bits))
        for _ in 0..<8 {
            let count = Int(slots[slot].count)
            if count == 0 {
                let made = String(decoding: bytes, as: UTF8.self)
                if used < slots.count / 2 {
                    slots[slot] = Slot(start: Int32(token.lowerBound), count: Int32(bytes.count), string: Int32(strings.count))
                    strings.append(made)
                    used += 1
                }
                return made
            }
            if count == bytes.count, Self.equal(UnsafeBufferPointer(rebasing: file[Int(slots[slot].start)..<(Int(slots[slot].start) + count)]), bytes) {
                return strings[Int(slots[slot].string)]
            }
            slot = (slot + 1) & mask
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Whether two runs of bytes of the same length are equal, compared eight bytes at a time (the generic
    /// `elementsEqual` compares one at a time, through an iterator: a twentieth of a 200-target check).
    private static func equal(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>) -> Bool {
        let (x, y) = (UnsafeRawBufferPointer(a), UnsafeRawBufferPointer(b))
        var i = 0
        while i + 8 <= x.count {
            guard x.loadUnaligned(fromByteOffset: i, as: UInt64.self) == y.loadUnaligned(fromByteOffset: i, as: UInt64.self) else { return false }
            i += 8
        }
        while i < x.count {
            guard x[i] == y[i] else { return false }
            i += 1
        }
        return true
    }
}
