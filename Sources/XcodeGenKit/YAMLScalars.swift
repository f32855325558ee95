import XcodeKit

// The YAML reader's scalars: plain, quoted, literal and folded, as libyaml and Yams read them (see YAML.swift).
extension YAMLParser {
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
}
