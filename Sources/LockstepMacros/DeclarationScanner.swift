/// Just enough of Swift's syntax to find a class's members without a syntax tree (no swift-syntax: see the
/// Design article, "Macros"): string literals and comments are blanked out, so braces and keywords are counted in
/// code only, then the class body is cut into its top-level members.
struct DeclarationScanner {
    /// The source with every comment and string literal's contents replaced by spaces (same length, same offsets).
    let code: [Character]
    let source: [Character]

    init(_ text: String) {
        source = Array(text)
        var code = source
        var index = 0
        while index < source.count {
            index = Self.skipTrivia(source, from: index, blanking: &code)
        }
        self.code = code
    }

    /// Steps over one character of code, or one whole comment or string literal (blanked), from `index`.
    private static func skipTrivia(_ s: [Character], from index: Int, blanking code: inout [Character]) -> Int {
        func at(_ i: Int, _ text: String) -> Bool {
            let chars = Array(text)
            return i + chars.count <= s.count && Array(s[i..<(i + chars.count)]) == chars
        }
        func blank(_ range: Range<Int>) { for i in range where s[i] != "\n" { code[i] = " " } }
        if at(index, "//") {
            var end = index
            while end < s.count && s[end] != "\n" { end += 1 }
            blank(index..<end)
            return end
        }
        if at(index, "/*") {
            var end = index + 2, depth = 1
            while end < s.count && depth > 0 {
                if at(end, "/*") { depth += 1; end += 2 } else if at(end, "*/") { depth -= 1; end += 2 } else { end += 1 }
            }
            blank(index..<end)
            return end
        }
        if s[index] == "\"" || (s[index] == "#" && at(index, "#\"")) {
            return skipString(s, from: index, blanking: &code)
        }
        return index + 1
    }

    /// Steps over a string literal (single-line, multi-line, raw), blanking its text but keeping interpolations'
    /// code, whose own string literals are skipped the same way.
    private static func skipString(_ s: [Character], from start: Int, blanking code: inout [Character]) -> Int {
        var index = start, hashes = 0
        while index < s.count && s[index] == "#" { hashes += 1; index += 1 }
        let multiline = index + 2 < s.count && s[index + 1] == "\"" && s[index + 2] == "\""
        let quotes = multiline ? 3 : 1
        index += quotes
        let closing = Array(String(repeating: "\"", count: quotes) + String(repeating: "#", count: hashes))
        let escape = Array("\\" + String(repeating: "#", count: hashes))
        while index < s.count {
            if index + closing.count <= s.count && Array(s[index..<(index + closing.count)]) == closing {
                return index + closing.count
            }
            if index + escape.count < s.count && Array(s[index..<(index + escape.count)]) == escape {
                let next = index + escape.count
                if s[next] == "(" {
                    // An interpolation: code up to the matching parenthesis.
                    var depth = 1, i = next + 1
                    while i < s.count && depth > 0 {
                        if s[i] == "\"" { i = skipString(s, from: i, blanking: &code); continue }
                        if s[i] == "(" { depth += 1 } else if s[i] == ")" { depth -= 1 }
                        i += 1
                    }
                    for blankIndex in index..<i where s[blankIndex] != "\n" { code[blankIndex] = " " }
                    index = i
                    continue
                }
                code[index] = " "
                index = next + 1
                continue
            }
            if s[index] != "\n" { code[index] = " " }
            index += 1
        }
        return index
    }

    /// The name after the first `class` keyword at the top level (`@Model public final class Name<…>`).
    var className: String? {
        var index = 0
        while let found = word("class", from: index) {
            let name = identifier(from: found + 5)
            if !name.isEmpty { return name }
            index = found + 5
        }
        return nil
    }

    /// The members of the first body (`{ … }`) in the declaration, each as its source text.
    var members: [String] {
        guard let open = code.firstIndex(of: "{") else { return [] }
        var result: [String] = []
        var depth = 0, nesting = 0, start = open + 1
        var index = open + 1
        func flush(_ end: Int) {
            let text = String(source[start..<end]).trimmingCharacters(in: .whitespacesAndNewlines)
            let codeText = String(code[start..<end]).trimmingCharacters(in: .whitespacesAndNewlines)
            // A line of attributes alone continues on the next line (`@Relationship(…)` above its `var`).
            if !codeText.isEmpty && !Member.isAttributesOnly(codeText) {
                result.append(text)
                start = end
            } else if codeText.isEmpty {
                start = end
            }
        }
        while index < code.count {
            let c = code[index]
            switch c {
            case "{": depth += 1
            case "}":
                if depth == 0 { flush(index); return result }
                depth -= 1
                if depth == 0 && nesting == 0 { flush(index + 1) }
            case "(", "[": nesting += 1
            case ")", "]": nesting -= 1
            case "\n", ";":
                if depth == 0 && nesting == 0 && !continues(after: index) { flush(index) }
            default: break
            }
            index += 1
        }
        return result
    }

    /// Whether the statement goes on after the line break at `index`: the line ends with `=`, `,` or `:`, or the
    /// next line starts with `{`, `.`, `=` or an operator.
    private func continues(after index: Int) -> Bool {
        var before = index - 1
        while before >= 0 && (code[before] == " " || code[before] == "\t") { before -= 1 }
        if before >= 0 && ["=", ",", ":"].contains(code[before]) { return true }
        var after = index + 1
        while after < code.count && (code[after] == " " || code[after] == "\t" || code[after] == "\n") { after += 1 }
        return after < code.count && ["{", ".", "=", "?", "&", "|", "+", "-", "*"].contains(code[after])
    }

    private func word(_ word: String, from start: Int) -> Int? {
        let chars = Array(word)
        var index = start
        while index + chars.count <= code.count {
            if Array(code[index..<(index + chars.count)]) == chars,
               index == 0 || !Self.isIdentifier(code[index - 1]),
               index + chars.count == code.count || !Self.isIdentifier(code[index + chars.count]) {
                return index
            }
            index += 1
        }
        return nil
    }

    private func identifier(from start: Int) -> String {
        var index = start
        while index < code.count && code[index].isWhitespace { index += 1 }
        var name = ""
        while index < code.count && Self.isIdentifier(code[index]) { name.append(code[index]); index += 1 }
        return name.first?.isNumber == true ? "" : name
    }

    static func isIdentifier(_ c: Character) -> Bool { c.isLetter || c.isNumber || c == "_" || c == "`" }
}

/// One member declaration of a class: its attributes, its modifiers, and, for a property, its name.
struct Member {
    /// Attributes as written, without the `@`: `["Attribute(.unique)", "Relationship(inverse: \\Plant.backyard)"]`.
    var attributes: [String] = []
    var modifiers: [String] = []
    /// `var`, `let`, `func`, `init`, `struct` …
    var keyword = ""
    var name = ""
    /// Whether a `var` has an accessor block (a computed property, or one with observers).
    var hasAccessors = false
    /// Several bindings in one declaration (`var a = 1, b = 2`).
    var hasSeveralBindings = false

    init(_ text: String) {
        let scanner = DeclarationScanner(text)
        let code = scanner.code, source = scanner.source
        var index = 0
        func skipSpace() { while index < code.count && code[index].isWhitespace { index += 1 } }
        func word() -> String {
            var w = ""
            while index < code.count && DeclarationScanner.isIdentifier(code[index]) { w.append(code[index]); index += 1 }
            return w
        }
        func balanced() {
            // A parenthesised argument list after an attribute or a modifier (`private(set)`).
            guard index < code.count && code[index] == "(" else { return }
            var depth = 0
            repeat {
                if code[index] == "(" { depth += 1 } else if code[index] == ")" { depth -= 1 }
                index += 1
            } while index < code.count && depth > 0
        }
        while true {
            skipSpace()
            guard index < code.count else { return }
            if code[index] == "@" {
                let start = index + 1
                index += 1
                _ = word()
                balanced()
                attributes.append(String(source[start..<index]))
                continue
            }
            let start = index
            let w = word()
            if w.isEmpty { return }
            if Self.modifierWords.contains(w) {
                balanced()
                modifiers.append(String(source[start..<index]))
                continue
            }
            keyword = w
            break
        }
        guard keyword == "var" || keyword == "let" else { return }
        skipSpace()
        name = word().replacingOccurrences(of: "`", with: "")
        // The rest, outside brackets: a `{` is an accessor block (a closure initializer follows `=`), a `,` another binding.
        var depth = 0, afterEquals = false
        while index < code.count {
            switch code[index] {
            case "(", "[", "<": depth += 1
            case ">" where index > 0 && code[index - 1] == "-": break  // `->` in a function type
            case ")", "]", ">": depth -= 1
            case "=": if depth == 0 { afterEquals = true }
            case "{": if depth == 0 && !afterEquals { hasAccessors = true; return } else { depth += 1 }
            case "}": depth -= 1
            case ",": if depth == 0 { hasSeveralBindings = true }
            default: break
            }
            index += 1
        }
    }

    /// Whether a line of code holds nothing but attributes.
    static func isAttributesOnly(_ code: String) -> Bool {
        let member = Member(code)
        return member.keyword.isEmpty && member.modifiers.isEmpty && !member.attributes.isEmpty
    }

    static let modifierWords: Set<String> = [
        "public", "private", "fileprivate", "internal", "package", "open", "final", "static", "class", "lazy",
        "weak", "unowned", "override", "nonisolated", "dynamic", "required", "convenience", "mutating",
    ]

    func has(attribute name: String) -> Bool {
        attributes.contains { $0 == name || $0.hasPrefix(name + "(") || $0.hasPrefix("SwiftData." + name) }
    }

    /// A property `@Model` stores: an instance `var` without accessors, not `@Transient`, not `lazy`, not one the
    /// macros themselves add (`_$backingData`, `_name`).
    var isPersisted: Bool {
        keyword == "var" && !name.isEmpty && !hasAccessors && !has(attribute: "Transient")
            && !modifiers.contains { $0 == "static" || $0 == "class" || $0 == "lazy" } && !name.hasPrefix("_")
    }

    /// The argument list of an attribute (`Attribute(.unique)` → `.unique`), or nil when it has none.
    func arguments(of attribute: String) -> String? {
        guard let written = attributes.first(where: { $0.hasPrefix(attribute + "(") || $0.hasPrefix("SwiftData." + attribute + "(") }),
              let open = written.firstIndex(of: "(") else { return nil }
        return String(written[written.index(after: open)..<written.index(before: written.endIndex)])
    }
}
