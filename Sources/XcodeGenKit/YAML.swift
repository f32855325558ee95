import BundleKit
import XcodeKit

/// A YAML document as XcodeGen specs are written: the block and flow subset (mappings, sequences, plain, quoted,
/// literal and folded scalars, comments, anchors, aliases and merge keys), read without a package dependency.
///
/// Anything outside that subset (tags, complex keys, several documents, directives) is refused with the file,
/// line and column, never misread: a spec Lockstep reads wrongly would give a wrong verdict on a real project.
struct YAMLNode {
    enum Kind {
        /// The text after quoting and folding; `plain` when it was written unquoted, so that it resolves to a
        /// boolean or a number the way XcodeGen's YAML reader (Yams) resolves it.
        case scalar(String, plain: Bool)
        case sequence([YAMLNode])
        /// In document order; a key written twice keeps its last value, as Yams does.
        case mapping([(key: String, value: YAMLNode)])
    }

    var kind: Kind
    var mark: YAMLMark

    var string: String? { if case .scalar(let text, _) = kind { text } else { nil } }
    var sequence: [YAMLNode]? { if case .sequence(let items) = kind { items } else { nil } }
    var pairs: [(key: String, value: YAMLNode)]? { if case .mapping(let pairs) = kind { pairs } else { nil } }

    /// The value of `key` (the last one when written twice).
    subscript(key: String) -> YAMLNode? { pairs?.last { $0.key == key }?.value }
}

enum YAML {
    /// Nesting deeper than this is refused rather than risking the stack.
    static let maximumDepth = 200
    /// Aliases may share a node many times over; more nodes than this in all (the "billion laughs") is refused.
    static let maximumNodes = 1_000_000

    /// Parses a whole spec file; an empty file is an empty mapping (as XcodeGen reads it).
    /// - Throws: `BundleError.invalidSpec`: "line L, column C: what is wrong".
    static func parse(_ bytes: [UInt8], path: String) throws(BundleError) -> YAMLNode {
        var parser = YAMLParser(bytes: bytes, path: path)
        do {
            return try parser.document()
        } catch {
            throw BundleError(.invalidSpec, path: path, detail: "line \(error.line), column \(error.column): \(error.message)")
        }
    }
}

struct YAMLSyntaxError: Error {
    var line: Int
    var column: Int
    var message: String
}

private struct YAMLParser {
    let bytes: [UInt8]
    let path: String
    var index = 0
    var line = 1
    var lineStart = 0
    var depth = 0
    var nodes = 0
    var anchors: [String: YAMLNode] = [:]
    var nodeSizes: [String: Int] = [:]

    init(bytes: [UInt8], path: String) {
        // A UTF-8 byte-order mark is not part of the document.
        let start = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        self.bytes = Self.unicodeBreaksAsLineFeeds(bytes)
        self.path = path
        index = start
        lineStart = start
    }

    /// YAML 1.1 (and libyaml, which PyYAML and Yams use) reads U+0085, U+2028 and U+2029 as line breaks: each
    /// becomes a line feed after spaces that fill its other bytes, so every byte keeps its offset (for `bump`).
    static func unicodeBreaksAsLineFeeds(_ bytes: [UInt8]) -> [UInt8] {
        guard bytes.contains(0xC2) || bytes.contains(0xE2) else { return bytes }
        var out = bytes
        var i = 0
        while i + 1 < out.count {
            if out[i] == 0xC2, out[i + 1] == 0x85 {
                out[i] = 0x20; out[i + 1] = 0x0A; i += 2
            } else if out[i] == 0xE2, i + 2 < out.count, out[i + 1] == 0x80, out[i + 2] == 0xA8 || out[i + 2] == 0xA9 {
                out[i] = 0x20; out[i + 1] = 0x20; out[i + 2] = 0x0A; i += 3
            } else {
                i += 1
            }
        }
        return out
    }

    /// The first character libyaml refuses ("control characters are not allowed"): C0 controls other than tab, line
    /// feed and carriage return (NUL among them), DEL, and the C1 controls other than U+0085.
    func firstControlCharacter() -> YAMLSyntaxError? {
        var line = 1, lineStart = 0
        for (offset, byte) in bytes.enumerated() {
            if byte == 0x0A { line += 1; lineStart = offset + 1; continue }
            let c1 = byte == 0xC2 && offset + 1 < bytes.count && bytes[offset + 1] >= 0x80 && bytes[offset + 1] <= 0x9F
            if (byte < 0x20 && byte != 0x09 && byte != 0x0D) || byte == 0x7F || c1 {
                let shown = c1 ? String(format: "U+%04X", Int(bytes[offset + 1])) : String(format: "U+%04X", Int(byte))
                return YAMLSyntaxError(line: line, column: offset - lineStart + 1, message: "the control character \(shown) is not allowed in YAML (libyaml refuses it)")
            }
        }
        return nil
    }

    var column: Int { index - lineStart }
    var atEnd: Bool { index >= bytes.count }
    var current: UInt8 { index < bytes.count ? bytes[index] : 0 }
    func peek(_ offset: Int) -> UInt8 { index + offset < bytes.count ? bytes[index + offset] : 0 }

    func error(_ message: String) -> YAMLSyntaxError {
        YAMLSyntaxError(line: line, column: column + 1, message: message)
    }

    func mark(from start: Int, line startLine: Int, column startColumn: Int) -> YAMLMark {
        YAMLMark(file: path, line: startLine, column: startColumn + 1, range: start..<index)
    }

    static func isBreak(_ byte: UInt8) -> Bool { byte == 0x0A || byte == 0x0D }
    static func isBlank(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 }
    /// A space, a line break or the end: what must follow `-`, `:`, `?` for them to be indicators.
    func isSeparator(at offset: Int) -> Bool {
        let byte = peek(offset)
        return byte == 0 || byte == 0x20 || byte == 0x09 || Self.isBreak(byte)
    }

    mutating func newline() {
        if current == 0x0D && peek(1) == 0x0A { index += 1 }
        index += 1
        line += 1
        lineStart = index
    }

    /// Skips spaces, comments and line breaks up to the next content; tabs may not indent a line.
    mutating func skipBlank() throws(YAMLSyntaxError) {
        while !atEnd {
            switch current {
            case 0x20: index += 1
            case 0x09:
                // A tab after content separates; a tab that indents a line is not YAML.
                if column == 0 || bytes[lineStart..<index].allSatisfy({ $0 == 0x20 }) {
                    var probe = index
                    while probe < bytes.count, Self.isBlank(bytes[probe]) { probe += 1 }
                    if probe < bytes.count, !Self.isBreak(bytes[probe]), bytes[probe] != UInt8(ascii: "#") {
                        throw error("a tab indents this line; YAML indents with spaces only")
                    }
                }
                index += 1
            case 0x0A, 0x0D: newline()
            case UInt8(ascii: "#"): skipComment()
            default: return
            }
        }
    }

    mutating func skipComment() {
        while !atEnd, !Self.isBreak(current) { index += 1 }
    }

    /// Skips spaces and a comment on the current line; returns whether the line ends there.
    mutating func restOfLineIsEmpty() -> Bool {
        while !atEnd, Self.isBlank(current) { index += 1 }
        if current == UInt8(ascii: "#") && (index == 0 || Self.isBlank(bytes[index - 1])) { skipComment() }
        return atEnd || Self.isBreak(current)
    }

    // MARK: the document

    mutating func document() throws(YAMLSyntaxError) -> YAMLNode {
        if let refused = firstControlCharacter() { throw refused }
        try skipBlank()
        if current == UInt8(ascii: "%") { throw error("directives (%YAML, %TAG) are not used in XcodeGen specs") }
        if column == 0 && startsWith("---") && isSeparator(at: 3) {
            index += 3
            try skipBlank()
        }
        if atEnd || (column == 0 && startsWith("...") && isSeparator(at: 3)) {
            return YAMLNode(kind: .mapping([]), mark: mark(from: index, line: line, column: column))
        }
        let root = try block(parentIndent: -1)
        try skipBlank()
        if column == 0 && startsWith("...") && isSeparator(at: 3) {
            index += 3
            try skipBlank()
        }
        if !atEnd {
            if column == 0 && startsWith("---") { throw error("a second document; a spec is one document") }
            throw error("unexpected text after the document (is it indented the same as what it belongs to?)")
        }
        return root
    }

    func startsWith(_ text: String) -> Bool {
        let utf8 = Array(text.utf8)
        return index + utf8.count <= bytes.count && Array(bytes[index..<index + utf8.count]) == utf8
    }

    // MARK: block nodes

    /// The node at the cursor (after blank lines), which must be indented more than `parentIndent`; an empty
    /// scalar when there is none (`key:` with nothing under it is "", as XcodeGen reads it).
    mutating func block(parentIndent: Int) throws(YAMLSyntaxError) -> YAMLNode {
        try skipBlank()
        if atEnd || column <= parentIndent || (column == 0 && (startsWith("---") || startsWith("...")) && isSeparator(at: 3)) {
            return YAMLNode(kind: .scalar("", plain: true), mark: mark(from: index, line: line, column: column))
        }
        depth += 1
        defer { depth -= 1 }
        guard depth <= YAML.maximumDepth else { throw error("nesting deeper than \(YAML.maximumDepth) levels") }

        let indent = column
        var anchor: String?
        if current == UInt8(ascii: "!") { throw error("tags (!…) are not used in XcodeGen specs") }
        if current == UInt8(ascii: "&") {
            anchor = try anchorName()
            if restOfLineIsEmpty() {
                // `key: &anchor` with the node on the lines below.
                let node = try block(parentIndent: parentIndent)
                return try record(anchor!, node)
            }
            guard !Self.isBreak(current) else { throw error("an anchor with no node") }
        }
        let node: YAMLNode
        if current == UInt8(ascii: "-") && isSeparator(at: 1) {
            node = try blockSequence(indent: column)
        } else if current == UInt8(ascii: "?") && isSeparator(at: 1) {
            throw error("complex mapping keys (? …) are not used in XcodeGen specs")
        } else if current == UInt8(ascii: "|") || current == UInt8(ascii: ">") {
            node = try blockScalar(parentIndent: parentIndent)
        } else {
            node = try inlineOrMapping(indent: anchor == nil ? indent : column, parentIndent: parentIndent)
        }
        return try anchor.map { name throws(YAMLSyntaxError) in try record(name, node) } ?? node
    }

    /// A node that starts on this line: a flow collection, an alias, a scalar, or the first key of a block mapping.
    mutating func inlineOrMapping(indent: Int, parentIndent: Int) throws(YAMLSyntaxError) -> YAMLNode {
        let start = index, startLine = line, startColumn = column
        if current == UInt8(ascii: "*") {
            let node = try alias()
            if keyIndicatorFollows() { throw error("an alias as a mapping key is not used in XcodeGen specs") }
            return node
        }
        if current == UInt8(ascii: "[") || current == UInt8(ascii: "{") {
            let node = try flow()
            if keyIndicatorFollows() { throw error("a flow collection as a mapping key is not used in XcodeGen specs") }
            return node
        }
        let key = try scalarOnLine(parentIndent: parentIndent, flow: false, mayContinue: false)
        if keyIndicatorFollows() {
            return try blockMapping(indent: indent, firstKey: key)
        }
        // Not a key: a scalar, perhaps continued on the lines below.
        index = start
        line = startLine
        lineStart = start - startColumn
        return try scalarOnLine(parentIndent: parentIndent, flow: false, mayContinue: true)
    }

    /// Whether `:` and a separator follow, after spaces on this line.
    mutating func keyIndicatorFollows() -> Bool {
        var probe = index
        while probe < bytes.count, Self.isBlank(bytes[probe]) { probe += 1 }
        guard probe < bytes.count, bytes[probe] == UInt8(ascii: ":") else { return false }
        let next = probe + 1 < bytes.count ? bytes[probe + 1] : 0
        guard next == 0 || Self.isBlank(next) || Self.isBreak(next) else { return false }
        index = probe + 1
        return true
    }

    mutating func blockMapping(indent: Int, firstKey: YAMLNode) throws(YAMLSyntaxError) -> YAMLNode {
        let startMark = firstKey.mark
        var pairs: [(key: String, value: YAMLNode)] = []
        var merges: [YAMLNode] = []
        var key: YAMLNode? = firstKey
        while true {
            if key == nil {
                // The next key, at exactly this indentation.
                if current == UInt8(ascii: "?") && isSeparator(at: 1) { throw error("complex mapping keys (? …) are not used in XcodeGen specs") }
                if current == UInt8(ascii: "-") && isSeparator(at: 1) { throw error("a sequence item where a mapping key was expected") }
                if current == UInt8(ascii: "*") || current == UInt8(ascii: "[") || current == UInt8(ascii: "{") || current == UInt8(ascii: "&") || current == UInt8(ascii: "!") {
                    throw error("only plain or quoted scalars are mapping keys in XcodeGen specs")
                }
                let next = try scalarOnLine(parentIndent: indent, flow: false, mayContinue: false)
                guard keyIndicatorFollows() else { throw error("expected 'key: value' in the mapping that starts on line \(startMark.line)") }
                key = next
            }
            let value = try mappingValue(indent: indent)
            if case .scalar("<<", true) = key!.kind {
                merges.append(value)
            } else {
                pairs.append((key!.string ?? "", value))
            }
            key = nil
            try skipBlank()
            if atEnd || column < indent || (column == 0 && (startsWith("---") || startsWith("...")) && isSeparator(at: 3)) { break }
            if column > indent { throw error("this line is indented more than the mapping it is in (line \(startMark.line)) and is not a value") }
        }
        if !merges.isEmpty { pairs = try merged(merges, under: pairs) }
        try count(1)
        return YAMLNode(kind: .mapping(pairs), mark: YAMLMark(file: path, line: startMark.line, column: startMark.column, range: startMark.range.lowerBound..<index))
    }

    /// The value after `key:`: on the same line, or on the lines below (a block sequence may sit at the key's own
    /// indentation).
    mutating func mappingValue(indent: Int) throws(YAMLSyntaxError) -> YAMLNode {
        if restOfLineIsEmpty() {
            try skipBlank()
            if !atEnd && column == indent && current == UInt8(ascii: "-") && isSeparator(at: 1) {
                return try blockSequence(indent: indent)
            }
            return try block(parentIndent: indent)
        }
        if current == UInt8(ascii: "&") {
            let anchor = try anchorName()
            if restOfLineIsEmpty() {
                try skipBlank()
                if !atEnd && column == indent && current == UInt8(ascii: "-") && isSeparator(at: 1) {
                    return try record(anchor, try blockSequence(indent: indent))
                }
                return try record(anchor, try block(parentIndent: indent))
            }
            return try record(anchor, try sameLineValue(indent: indent))
        }
        return try sameLineValue(indent: indent)
    }

    mutating func sameLineValue(indent: Int) throws(YAMLSyntaxError) -> YAMLNode {
        switch current {
        case UInt8(ascii: "!"): throw error("tags (!…) are not used in XcodeGen specs")
        case UInt8(ascii: "*"): return try endOfValue(try alias())
        case UInt8(ascii: "["), UInt8(ascii: "{"): return try endOfValue(try flow())
        case UInt8(ascii: "|"), UInt8(ascii: ">"): return try blockScalar(parentIndent: indent)
        case UInt8(ascii: "-") where isSeparator(at: 1):
            throw error("a sequence cannot start on the line of its key; put '- …' on the lines below")
        default:
            let value = try scalarOnLine(parentIndent: indent, flow: false, mayContinue: true)
            let colon = (line: line, column: column + 1)
            if keyIndicatorFollows() {
                throw YAMLSyntaxError(line: colon.line, column: colon.column, message: "a mapping value cannot itself be 'key: value' on the same line; quote it if the colon is part of the text")
            }
            return value
        }
    }

    mutating func endOfValue(_ node: YAMLNode) throws(YAMLSyntaxError) -> YAMLNode {
        guard restOfLineIsEmpty() else { throw error("unexpected text after the value") }
        return node
    }

    mutating func blockSequence(indent: Int) throws(YAMLSyntaxError) -> YAMLNode {
        let start = index, startLine = line, startColumn = column
        var items: [YAMLNode] = []
        while true {
            guard current == UInt8(ascii: "-") && isSeparator(at: 1) else {
                throw error("expected '- ' for the next item of the sequence that starts on line \(startLine)")
            }
            index += 1
            if restOfLineIsEmpty() {
                items.append(try block(parentIndent: indent))
            } else {
                // `- key: value` and `- - x`: the item's node starts here, indented at this column.
                items.append(try block(parentIndent: indent))
            }
            try skipBlank()
            if atEnd || column < indent || (column == 0 && (startsWith("---") || startsWith("...")) && isSeparator(at: 3)) { break }
            if column > indent { throw error("this line is indented more than the sequence it is in (line \(startLine))") }
            if !(current == UInt8(ascii: "-") && isSeparator(at: 1)) { break }
        }
        try count(1)
        return YAMLNode(kind: .sequence(items), mark: mark(from: start, line: startLine, column: startColumn))
    }

    // MARK: scalars

    /// A plain or quoted scalar starting at the cursor. A plain one ends at `: `, ` #` or the line's end, and when
    /// `mayContinue` goes on over the lines below that are indented more than `parentIndent` (folded with spaces).
    mutating func scalarOnLine(parentIndent: Int, flow: Bool, mayContinue: Bool) throws(YAMLSyntaxError) -> YAMLNode {
        let start = index, startLine = line, startColumn = column
        if current == UInt8(ascii: "'") || current == UInt8(ascii: "\"") {
            let text = try quoted(parentIndent: parentIndent)
            try count(1)
            return YAMLNode(kind: .scalar(text, plain: false), mark: mark(from: start, line: startLine, column: startColumn))
        }
        if current == UInt8(ascii: "@") || current == UInt8(ascii: "`") {
            throw error("a plain scalar cannot start with '\(Character(Unicode.Scalar(current)))'; quote it")
        }
        if current == UInt8(ascii: "%") && startColumn == 0 { throw error("directives are not used in XcodeGen specs") }
        // `%` is an indicator that cannot start a plain scalar (libyaml: "found character that cannot start any token").
        if current == UInt8(ascii: "%") { throw error("a plain scalar cannot start with '%'; quote it") }
        if current == UInt8(ascii: "?") && isSeparator(at: 1) { throw error("complex mapping keys (? …) are not used in XcodeGen specs") }
        var text = plainLine(flow: flow)
        var end = index
        if mayContinue && !flow {
            // Continuation lines: more indented than the parent, not comments, not a new key.
            while true {
                var probeIndex = index, probeLine = line, probeLineStart = lineStart
                var blankLines = 0
                var reached = false
                while probeIndex < bytes.count {
                    let byte = bytes[probeIndex]
                    if Self.isBreak(byte) {
                        if byte == 0x0D, probeIndex + 1 < bytes.count, bytes[probeIndex + 1] == 0x0A { probeIndex += 1 }
                        probeIndex += 1
                        probeLine += 1
                        probeLineStart = probeIndex
                        // A line that is only spaces is a blank line of the scalar.
                        var scan = probeIndex
                        while scan < bytes.count, Self.isBlank(bytes[scan]) { scan += 1 }
                        if scan < bytes.count, Self.isBreak(bytes[scan]) { blankLines += 1; probeIndex = scan; continue }
                        probeIndex = scan
                        reached = true
                        break
                    } else if Self.isBlank(byte) {
                        probeIndex += 1
                    } else {
                        break  // a comment or more text on this line ends the scalar
                    }
                }
                if reached, probeIndex < bytes.count, bytes[probeLineStart..<probeIndex].contains(0x09) {
                    throw YAMLSyntaxError(line: probeLine, column: 1, message: "a tab indents this line; YAML indents with spaces only")
                }
                guard reached, probeIndex < bytes.count, probeIndex - probeLineStart > parentIndent,
                      bytes[probeIndex] != UInt8(ascii: "#") else { break }
                let saved = (index, line, lineStart)
                (index, line, lineStart) = (probeIndex, probeLine, probeLineStart)
                if column == 0 && (startsWith("---") || startsWith("...")) && isSeparator(at: 3) { (index, line, lineStart) = saved; break }
                let more = plainLine(flow: false)
                if keyIndicatorFollows() || (current == UInt8(ascii: ":") && isSeparator(at: 1)) {
                    throw error("'\(more): …' looks like a mapping key, but it continues the plain scalar above; check its indentation")
                }
                text += blankLines == 0 ? " " + more : String(repeating: "\n", count: blankLines) + more
                end = index
            }
        }
        index = max(index, end)
        guard !text.isEmpty || flow else { throw error("expected a value") }
        try count(1)
        return YAMLNode(kind: .scalar(text, plain: true), mark: YAMLMark(file: path, line: startLine, column: startColumn + 1, range: start..<end))
    }

    /// The plain text from the cursor to `: `, ` #`, the line's end (or in flow context `,`, `[`, `]`, `{`, `}`),
    /// trailing spaces dropped; the cursor is left after the text.
    mutating func plainLine(flow: Bool) -> String {
        let start = index
        var end = index
        while !atEnd {
            let byte = current
            if Self.isBreak(byte) { break }
            if byte == UInt8(ascii: ":") && (isSeparator(at: 1) || (flow && [UInt8(ascii: ","), UInt8(ascii: "]"), UInt8(ascii: "}")].contains(peek(1)))) { break }
            if byte == UInt8(ascii: "#") && index > start && Self.isBlank(bytes[index - 1]) { break }
            if flow && (byte == UInt8(ascii: ",") || byte == UInt8(ascii: "[") || byte == UInt8(ascii: "]") || byte == UInt8(ascii: "{") || byte == UInt8(ascii: "}")) { break }
            index += 1
            if !Self.isBlank(byte) { end = index }
        }
        index = end
        return String(decoding: bytes[start..<end], as: UTF8.self)
    }

    /// A single- or double-quoted scalar, which may span lines (folded as YAML folds them).
    mutating func quoted(parentIndent: Int) throws(YAMLSyntaxError) -> String {
        let quote = current
        let openLine = line, openColumn = column
        index += 1
        var out: [UInt8] = []
        var pendingSpace: [UInt8] = []
        while true {
            guard !atEnd else {
                throw YAMLSyntaxError(line: openLine, column: openColumn + 1, message: "the quoted scalar that starts here is never closed")
            }
            let byte = current
            if Self.isBreak(byte) {
                // Folding: trailing spaces go, one break becomes a space, each further empty line a newline.
                newline()
                var breaks = 0
                while true {
                    while !atEnd, Self.isBlank(current) { index += 1 }
                    if !atEnd, Self.isBreak(current) { breaks += 1; newline() } else { break }
                }
                if !atEnd && column == 0 && (startsWith("---") || startsWith("...")) && isSeparator(at: 3) {
                    throw YAMLSyntaxError(line: openLine, column: openColumn + 1, message: "the quoted scalar that starts here is never closed")
                }
                pendingSpace = []
                out += breaks == 0 ? [0x20] : [UInt8](repeating: 0x0A, count: breaks)
                continue
            }
            if Self.isBlank(byte) { pendingSpace.append(byte); index += 1; continue }
            out += pendingSpace
            pendingSpace = []
            if quote == UInt8(ascii: "'") {
                if byte == quote {
                    if peek(1) == quote { out.append(quote); index += 2; continue }
                    index += 1
                    return String(decoding: out, as: UTF8.self)
                }
                out.append(byte)
                index += 1
                continue
            }
            if byte == quote { index += 1; return String(decoding: out, as: UTF8.self) }
            if byte == UInt8(ascii: "\\") {
                index += 1
                if Self.isBreak(current) {
                    // An escaped line break joins the lines without a space.
                    newline()
                    while !atEnd, Self.isBlank(current) { index += 1 }
                    continue
                }
                out += try escape()
                continue
            }
            out.append(byte)
            index += 1
        }
    }

    mutating func escape() throws(YAMLSyntaxError) -> [UInt8] {
        let byte = current
        index += 1
        let simple: [UInt8: UInt8] = [
            UInt8(ascii: "0"): 0, UInt8(ascii: "a"): 7, UInt8(ascii: "b"): 8, UInt8(ascii: "t"): 9, 0x09: 9,
            UInt8(ascii: "n"): 10, UInt8(ascii: "v"): 11, UInt8(ascii: "f"): 12, UInt8(ascii: "r"): 13,
            UInt8(ascii: "e"): 27, 0x20: 0x20, UInt8(ascii: "\""): 0x22, UInt8(ascii: "/"): 0x2F, UInt8(ascii: "\\"): 0x5C,
        ]
        if let mapped = simple[byte] { return [mapped] }
        let digits: Int
        switch byte {
        case UInt8(ascii: "x"): digits = 2
        case UInt8(ascii: "u"): digits = 4
        case UInt8(ascii: "U"): digits = 8
        case UInt8(ascii: "N"): return Array("\u{85}".utf8)
        case UInt8(ascii: "_"): return Array("\u{A0}".utf8)
        case UInt8(ascii: "L"): return Array("\u{2028}".utf8)
        case UInt8(ascii: "P"): return Array("\u{2029}".utf8)
        default:
            index -= 1
            throw error("'\\\(Character(Unicode.Scalar(byte)))' is not a YAML escape")
        }
        var value: UInt32 = 0
        for _ in 0..<digits {
            guard let digit = hexValue(current) else { throw error("expected \(digits) hexadecimal digits after '\\\(Character(Unicode.Scalar(byte)))'") }
            value = value << 4 | UInt32(digit)
            index += 1
        }
        guard let scalar = Unicode.Scalar(value) else { throw error("U+\(String(value, radix: 16, uppercase: true)) is not a Unicode character") }
        return Array(String(Character(scalar)).utf8)
    }

    func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    /// `|` (literal) or `>` (folded), with an optional chomping indicator and indentation digit.
    mutating func blockScalar(parentIndent: Int) throws(YAMLSyntaxError) -> YAMLNode {
        let start = index, startLine = line, startColumn = column
        let folded = current == UInt8(ascii: ">")
        index += 1
        var chomp: UInt8 = 0  // 0 clip, '-' strip, '+' keep
        var explicit: Int?
        for _ in 0..<2 {
            if current == UInt8(ascii: "-") || current == UInt8(ascii: "+") { chomp = current; index += 1 }
            else if current >= UInt8(ascii: "1") && current <= UInt8(ascii: "9") { explicit = Int(current - UInt8(ascii: "0")); index += 1 }
        }
        guard restOfLineIsEmpty() else { throw error("expected the end of the line after a block scalar indicator") }
        guard !atEnd else {
            try count(1)
            return YAMLNode(kind: .scalar("", plain: false), mark: mark(from: start, line: startLine, column: startColumn))
        }
        newline()
        // The lines: the first non-empty one sets the indentation, unless it was given.
        var contentIndent = explicit.map { max(parentIndent, 0) + $0 }
        var lines: [(text: String, empty: Bool, moreIndented: Bool)] = []
        var end = index
        var endState = (line: line, lineStart: lineStart)
        while !atEnd {
            var probe = index
            while probe < bytes.count, bytes[probe] == 0x20 { probe += 1 }
            let spaces = probe - index
            let lineIsEmpty = probe >= bytes.count || Self.isBreak(bytes[probe])
            if contentIndent == nil && !lineIsEmpty {
                if spaces <= parentIndent { break }
                contentIndent = spaces
            }
            if !lineIsEmpty, let indent = contentIndent, spaces < indent { break }
            if lineIsEmpty, let indent = contentIndent, spaces > indent {
                // Spaces beyond the indentation on an otherwise empty line are content.
                lines.append((String(repeating: " ", count: spaces - indent), false, true))
            } else if lineIsEmpty {
                lines.append(("", true, false))
            } else {
                let from = index + (contentIndent ?? spaces)
                var to = from
                while to < bytes.count, !Self.isBreak(bytes[to]) { to += 1 }
                let text = String(decoding: bytes[from..<to], as: UTF8.self)
                lines.append((text, false, text.first == " " || text.first == "\t"))
            }
            index = probe
            while !atEnd, !Self.isBreak(current) { index += 1 }
            if !lineIsEmpty || lines.last?.empty == false {
                end = index
                endState = (line, lineStart)
            }
            if atEnd { break }
            newline()
        }
        // Leave the cursor at the end of the last line that belonged to the scalar.
        let trailingEmpty = lines.reversed().prefix { $0.empty }.count
        let body = lines.dropLast(trailingEmpty)
        var text = ""
        if folded {
            // libyaml's folding: empty lines before the first content line are kept; between two content lines the
            // break becomes a space when neither is more indented and no empty line is between them, and is dropped
            // (the empty lines kept) when some are; beside a more-indented line every break is kept.
            var previousMoreIndented: Bool?
            var emptyLines = 0
            for entry in body {
                if entry.empty { emptyLines += 1; continue }
                if let previous = previousMoreIndented {
                    if !previous && !entry.moreIndented {
                        text += emptyLines == 0 ? " " : String(repeating: "\n", count: emptyLines)
                    } else {
                        text += String(repeating: "\n", count: emptyLines + 1)
                    }
                } else {
                    text += String(repeating: "\n", count: emptyLines)
                }
                emptyLines = 0
                text += entry.text
                previousMoreIndented = entry.moreIndented
            }
        } else {
            text = body.map(\.text).joined(separator: "\n")
        }
        if !body.isEmpty {
            switch chomp {
            case UInt8(ascii: "-"): break
            case UInt8(ascii: "+"): text += String(repeating: "\n", count: 1 + trailingEmpty)
            default: text += "\n"
            }
        }
        // Rewind to the end of the scalar's last content line, so the caller sees what follows.
        index = end
        (line, lineStart) = endState
        try count(1)
        return YAMLNode(kind: .scalar(text, plain: false), mark: YAMLMark(file: path, line: startLine, column: startColumn + 1, range: start..<end))
    }

    // MARK: flow collections

    mutating func flow() throws(YAMLSyntaxError) -> YAMLNode {
        depth += 1
        defer { depth -= 1 }
        guard depth <= YAML.maximumDepth else { throw error("nesting deeper than \(YAML.maximumDepth) levels") }
        let start = index, startLine = line, startColumn = column
        let isMapping = current == UInt8(ascii: "{")
        let close = isMapping ? UInt8(ascii: "}") : UInt8(ascii: "]")
        index += 1
        var items: [YAMLNode] = []
        var pairs: [(key: String, value: YAMLNode)] = []
        var merges: [YAMLNode] = []
        while true {
            try skipBlank()
            guard !atEnd else {
                throw YAMLSyntaxError(line: startLine, column: startColumn + 1, message: "the flow collection that starts here is never closed")
            }
            if current == close { index += 1; break }
            let entry = try flowNode()
            try skipBlank()
            guard !atEnd else {
                throw YAMLSyntaxError(line: startLine, column: startColumn + 1, message: "the flow collection that starts here is never closed")
            }
            var value: YAMLNode?
            if current == UInt8(ascii: ":") {
                index += 1
                try skipBlank()
                if current == UInt8(ascii: ",") || current == close {
                    value = YAMLNode(kind: .scalar("", plain: true), mark: mark(from: index, line: line, column: column))
                } else {
                    value = try flowNode()
                }
                try skipBlank()
            }
            if isMapping {
                guard let key = entry.string else { throw error("only scalars are mapping keys in XcodeGen specs") }
                let pairValue = value ?? YAMLNode(kind: .scalar("", plain: true), mark: entry.mark)
                if case .scalar("<<", true) = entry.kind { merges.append(pairValue) } else { pairs.append((key, pairValue)) }
            } else if let value {
                guard let key = entry.string else { throw error("only scalars are mapping keys in XcodeGen specs") }
                items.append(YAMLNode(kind: .mapping([(key, value)]), mark: entry.mark))
            } else {
                items.append(entry)
            }
            if current == UInt8(ascii: ",") { index += 1; continue }
            if current == close { index += 1; break }
            throw error("expected ',' or '\(Character(Unicode.Scalar(close)))' in the flow collection that starts on line \(startLine)")
        }
        if !merges.isEmpty { pairs = try merged(merges, under: pairs) }
        try count(1)
        let node = isMapping ? YAMLNode.Kind.mapping(pairs) : .sequence(items)
        return YAMLNode(kind: node, mark: mark(from: start, line: startLine, column: startColumn))
    }

    mutating func flowNode() throws(YAMLSyntaxError) -> YAMLNode {
        switch current {
        case UInt8(ascii: "["), UInt8(ascii: "{"): return try flow()
        case UInt8(ascii: "*"): return try alias()
        case UInt8(ascii: "!"): throw error("tags (!…) are not used in XcodeGen specs")
        case UInt8(ascii: "&"):
            let name = try anchorName()
            try skipBlank()
            return try record(name, try flowNode())
        case UInt8(ascii: "?") where isSeparator(at: 1): throw error("complex mapping keys (? …) are not used in XcodeGen specs")
        default: return try scalarOnLine(parentIndent: -1, flow: true, mayContinue: false)
        }
    }

    // MARK: anchors, aliases, merge keys

    mutating func anchorName() throws(YAMLSyntaxError) -> String {
        index += 1
        let start = index
        while !atEnd, !Self.isBlank(current), !Self.isBreak(current),
              ![UInt8(ascii: ","), UInt8(ascii: "["), UInt8(ascii: "]"), UInt8(ascii: "{"), UInt8(ascii: "}")].contains(current) {
            index += 1
        }
        guard index > start else { throw error("an anchor or alias needs a name") }
        let name = String(decoding: bytes[start..<index], as: UTF8.self)
        while !atEnd, Self.isBlank(current) { index += 1 }
        return name
    }

    mutating func record(_ name: String, _ node: YAMLNode) throws(YAMLSyntaxError) -> YAMLNode {
        anchors[name] = node
        nodeSizes[name] = size(of: node)
        return node
    }

    mutating func alias() throws(YAMLSyntaxError) -> YAMLNode {
        let start = index, startLine = line, startColumn = column
        let name = try anchorName()
        guard var node = anchors[name] else {
            throw YAMLSyntaxError(line: startLine, column: startColumn + 1, message: "the alias *\(name) names no anchor defined before it")
        }
        // Each use of an alias counts every node it stands for: shared anchors must not multiply beyond the cap.
        try count(nodeSizes[name] ?? 1)
        node.mark = YAMLMark(file: path, line: startLine, column: startColumn + 1, range: start..<index)
        return node
    }

    func size(of node: YAMLNode) -> Int {
        var total = 0
        var stack = [node]
        while let next = stack.popLast(), total <= YAML.maximumNodes {
            total += 1
            switch next.kind {
            case .scalar: break
            case .sequence(let items): stack += items
            case .mapping(let pairs): stack += pairs.map(\.value)
            }
        }
        return total
    }

    mutating func count(_ added: Int) throws(YAMLSyntaxError) {
        nodes += added
        guard nodes <= YAML.maximumNodes else {
            throw error("the document, its aliases expanded, has more than \(YAML.maximumNodes) nodes")
        }
    }

    /// `<<: *base` or `<<: [*a, *b]`: the merged mappings' keys under the mapping's own (which win); of several, the
    /// first listed wins, as in Yams.
    func merged(_ merges: [YAMLNode], under pairs: [(key: String, value: YAMLNode)]) throws(YAMLSyntaxError) -> [(key: String, value: YAMLNode)] {
        var base: [(key: String, value: YAMLNode)] = []
        for merge in merges {
            switch merge.kind {
            case .mapping(let mapped): base += mapped
            case .sequence(let items):
                for item in items.reversed() {
                    guard let mapped = item.pairs else {
                        throw YAMLSyntaxError(line: item.mark.line, column: item.mark.column, message: "a merge key (<<) takes mappings only")
                    }
                    base += mapped
                }
            case .scalar:
                throw YAMLSyntaxError(line: merge.mark.line, column: merge.mark.column, message: "a merge key (<<) takes a mapping or a list of mappings")
            }
        }
        return base + pairs
    }
}
