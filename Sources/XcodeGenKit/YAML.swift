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

struct YAMLParser {
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
