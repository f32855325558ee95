import BundleKit
import Foundation

/// The C preprocessor Xcode runs over an Info.plist when `INFOPLIST_PREPROCESS = YES`, read as clang
/// (`-traditional-cpp`) and GCC (`-traditional`) read it without `-C`: backslash-continued lines joined, `/* … */`
/// removed, nothing replaced inside "…" or '…': `#define`/`#undef`, `#if`/`#ifdef`/`#ifndef`/`#elif`/`#else`/`#endif`, `#include "…"`, and
/// object-like macros replaced in the text (`<string>APP_VERSION</string>` with `#define APP_VERSION 1.2`). Macros
/// come from `INFOPLIST_PREFIX_HEADER`, `INFOPLIST_PREPROCESSOR_DEFINITIONS` and the `-D`/`-U`/`-include` flags of
/// `INFOPLIST_OTHER_PREPROCESSOR_FLAGS`.
///
/// Bounded for hostile input: includes nest at most `maximumDepth` deep, a macro is not expanded again inside its
/// own expansion and expands at most `maximumDepth` levels, the output stops as soon as it grows past
/// `maximumOutput` bytes, and the whole run takes at most `maximumSteps` steps (lines read, macros expanded): macros
/// whose last level expands to nothing never grow the output, and includes of includes multiply (all errors).
struct InfoPlistPreprocessor {
    enum Failure: Error, Equatable {
        /// A sentence naming the file and line.
        case invalid(String)
    }

    static let maximumDepth = 32
    static let maximumOutput = 8 * 1024 * 1024
    static let maximumSteps = 4_000_000

    /// Steps taken so far, shared by the copies of one run (a reference, so the non-mutating expansion counts too).
    private final class Steps: @unchecked Sendable {  // @unchecked: one preprocessing run uses it, on one thread.
        var count = 0
    }
    private let steps = Steps()

    /// The defined macros and their values, as UTF-8 (expanded again and again).
    private(set) var macros: [String: [UInt8]] = [:]
    /// Reads an included file's text (nil when it cannot be read); the path is made relative to the including file.
    var read: (String) -> String? = { path in InputFile.readIfPresent(path).map { String(decoding: $0, as: UTF8.self) } }

    /// - Parameters:
    ///   - definitions: `INFOPLIST_PREPROCESSOR_DEFINITIONS` (`NAME`, `NAME=VALUE`, space-separated).
    ///   - flags: `INFOPLIST_OTHER_PREPROCESSOR_FLAGS` (`-DNAME=VALUE`, `-D NAME`, `-UNAME`; others ignored).
    init(definitions: String = "", flags: String = "") {
        for word in Self.words(definitions) { define(word) }
        var words = Self.words(flags)[...]
        while let word = words.popFirst() {
            if word == "-D" || word == "-U", let next = words.popFirst() {
                word == "-D" ? define(next) : { macros[next] = nil }()
            } else if word.hasPrefix("-D") {
                define(String(word.dropFirst(2)))
            } else if word.hasPrefix("-U") {
                macros[String(word.dropFirst(2))] = nil
            }
        }
    }

    private mutating func define(_ word: String) {
        let parts = word.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
        guard let name = parts.first, !name.isEmpty else { return }
        macros[String(name)] = parts.count > 1 ? Array(parts[1].utf8) : [UInt8(ascii: "1")]
    }

    /// Build-setting words: split at spaces, with double or single quotes grouping.
    static func words(_ text: String) -> [String] {
        var result: [String] = [], current = "", quote: Character?
        for character in text {
            if let open = quote {
                if character == open { quote = nil } else { current.append(character) }
            } else if character == "\"" || character == "'" {
                quote = character
            } else if character == " " || character == "\t" {
                if !current.isEmpty { result.append(current); current = "" }
            } else {
                current.append(character)
            }
        }
        if !current.isEmpty { result.append(current) }
        return result
    }

    /// Reads a header for its `#define`s only (the prefix header, `-include`): its text is not output.
    mutating func include(header path: String) throws(Failure) {
        guard let text = read(path) else { throw .invalid("the Info.plist prefix header '\(path)' cannot be read") }
        _ = try process(text, file: path, depth: 0)
    }

    /// `text` (of the file `file`) preprocessed.
    mutating func process(_ text: String, file: String) throws(Failure) -> String {
        try process(text, file: file, depth: 0)
    }

    private mutating func process(_ text: String, file: String, depth: Int) throws(Failure) -> String {
        var output: [UInt8] = []
        try process(text, file: file, depth: depth, into: &output)
        return String(decoding: output, as: UTF8.self)
    }

    private mutating func process(_ text: String, file: String, depth: Int, into output: inout [UInt8]) throws(Failure) {
        guard depth < Self.maximumDepth else { throw .invalid("\(file): #include nests more than \(Self.maximumDepth) files deep") }
        // Each open conditional: whether its current branch is taken, and whether any branch was.
        var stack: [(active: Bool, taken: Bool, sawElse: Bool)] = []
        // Each entry's `active` already includes its parents' (a branch inside an untaken one is never taken).
        var active: Bool { stack.last?.active ?? true }
        for (number, rawLine) in Self.logicalLines(text) {
            try step(file: file, line: number)
            let line = rawLine.drop(while: { $0 == " " || $0 == "\t" })
            guard line.first == "#" else {
                if active {
                    var disabled: [String] = []
                    try expand(Array(rawLine.utf8)[...], into: &output, disabled: &disabled, depth: 0, file: file, line: number)
                    output.append(0x0A)
                    try checkSize(output, file: file, line: number)
                }
                continue
            }
            let body = line.dropFirst().drop(while: { $0 == " " || $0 == "\t" })
            let directive = String(body.prefix(while: { $0.isLetter }))
            let argument = body.dropFirst(directive.count).trimmingCharacters(in: .whitespaces)
            switch directive {
            case "if", "ifdef", "ifndef":
                let parentActive = active
                var holds = false
                if parentActive {
                    switch directive {
                    case "ifdef": holds = macros[Self.firstIdentifier(argument)] != nil
                    case "ifndef": holds = macros[Self.firstIdentifier(argument)] == nil
                    default: holds = try evaluate(argument, file: file, line: number) != 0
                    }
                }
                stack.append((parentActive && holds, holds || !parentActive, false))
            case "elif":
                guard let top = stack.popLast(), !top.sawElse else { throw .invalid("\(file):\(number): #elif without #if") }
                var holds = false
                if !top.taken && active { holds = try evaluate(argument, file: file, line: number) != 0 }
                stack.append((holds, top.taken || holds, false))
            case "else":
                guard let top = stack.popLast(), !top.sawElse else { throw .invalid("\(file):\(number): #else without #if") }
                stack.append((!top.taken && active, true, true))
            case "endif":
                guard stack.popLast() != nil else { throw .invalid("\(file):\(number): #endif without #if") }
            case "define" where active:
                let name = Self.firstIdentifier(argument)
                guard !name.isEmpty else { throw .invalid("\(file):\(number): #define names no macro") }
                // Function-like macros (`NAME(x)`) are not used in Info.plists; they are kept out of the text.
                let rest = argument.dropFirst(name.count)
                if rest.first == "(" { continue }
                macros[name] = Array(rest.trimmingCharacters(in: .whitespaces).utf8)
            case "undef" where active:
                macros[Self.firstIdentifier(argument)] = nil
            case "include" where active:
                guard let open = argument.firstIndex(where: { $0 == "\"" || $0 == "<" }),
                      let close = argument[argument.index(after: open)...].firstIndex(where: { $0 == "\"" || $0 == ">" }) else {
                    throw .invalid("\(file):\(number): #include names no file")
                }
                let path = PathText.join(PathText.parent(of: file), String(argument[argument.index(after: open)..<close]))
                guard let included = read(path) else { throw .invalid("\(file):\(number): #include \"\(path)\" cannot be read") }
                try process(included, file: path, depth: depth + 1, into: &output)
            default:
                // `#pragma`, `#error` in an inactive branch, `#line`, and directives of inactive branches.
                if directive == "error" && active { throw .invalid("\(file):\(number): #error \(argument)") }
            }
        }
        guard stack.isEmpty else { throw .invalid("\(file): #if without #endif") }
    }

    /// Counts one step of work, failing once the run has taken `maximumSteps`.
    private func step(file: String, line: Int) throws(Failure) {
        steps.count += 1
        guard steps.count <= Self.maximumSteps else {
            throw .invalid("\(file):\(line): preprocessing the Info.plist takes more than \(Self.maximumSteps) steps (macros or includes that multiply)")
        }
    }

    private func checkSize(_ output: [UInt8], file: String, line: Int) throws(Failure) {
        guard output.count <= Self.maximumOutput else {
            throw .invalid("\(file):\(line): the preprocessed Info.plist grows past \(Self.maximumOutput) bytes")
        }
    }

    /// The logical lines of `text` with the number of the physical line each starts on, as the preprocessor sees
    /// them: a backslash at the end of a line joins the next to it, and `/* … */` comments are removed (clang and GCC
    /// in traditional mode, without `-C`). `//` does not start a comment in traditional mode (`https://…` in an
    /// Info.plist stays whole), and nothing is a comment inside "…" or '…' (which end at the end of the line when
    /// not closed, as in traditional mode).
    static func logicalLines(_ text: String) -> [(number: Int, text: String)] {
        var physical = XcconfigReader.splitLines(text)
        if physical.last == "" { physical.removeLast() }  // the end of the last line, not a line of its own
        var result: [(number: Int, text: String)] = []
        var inComment = false
        var index = 0
        while index < physical.count {
            let number = index + 1
            var bytes = Array(physical[index].utf8)
            index += 1
            while bytes.last == UInt8(ascii: "\\"), index < physical.count {
                bytes.removeLast()
                bytes += physical[index].utf8
                index += 1
            }
            var out: [UInt8] = []
            out.reserveCapacity(bytes.count)
            var quote: UInt8? = nil
            var i = 0
            while i < bytes.count {
                let byte = bytes[i]
                if inComment {
                    if byte == UInt8(ascii: "*"), i + 1 < bytes.count, bytes[i + 1] == UInt8(ascii: "/") { inComment = false; i += 2 } else { i += 1 }
                    continue
                }
                if let open = quote {
                    out.append(byte)
                    if byte == UInt8(ascii: "\\"), i + 1 < bytes.count { out.append(bytes[i + 1]); i += 2; continue }
                    if byte == open { quote = nil }
                    i += 1
                    continue
                }
                if byte == UInt8(ascii: "/"), i + 1 < bytes.count, bytes[i + 1] == UInt8(ascii: "*") {
                    inComment = true
                    i += 2
                    continue
                }
                if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") { quote = byte }
                out.append(byte)
                i += 1
            }
            result.append((number, String(decoding: out, as: UTF8.self)))
        }
        return result
    }

    private static func firstIdentifier(_ text: some StringProtocol) -> String {
        String(text.prefix { $0 == "_" || ($0.isASCII && ($0.isLetter || $0.isNumber)) })
    }

    /// Appends `text` to `out` with every defined object-like macro replaced by its value, itself expanded — except
    /// a macro inside its own expansion (`disabled`), which stays as written (`#define V V V` gives `V V`, as clang
    /// does; GCC stops with "detected recursion"). Nothing inside "…" or '…' is replaced, nor inside a number
    /// (`2V`). The output cap is checked as it grows, so an expansion that doubles at each level stops at the cap.
    private func expand(_ text: ArraySlice<UInt8>, into out: inout [UInt8], disabled: inout [String], depth: Int,
                        file: String, line: Int) throws(Failure) {
        guard !macros.isEmpty, depth < Self.maximumDepth else {
            out += text
            return try checkSize(out, file: file, line: line)
        }
        var i = text.startIndex
        while i < text.endIndex {
            let byte = text[i]
            if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
                // A literal, to its closing quote or the end of the text.
                var j = i + 1
                while j < text.endIndex, text[j] != byte { j += text[j] == UInt8(ascii: "\\") ? 2 : 1 }
                j = min(j + 1, text.endIndex)
                out += text[i..<j]
                i = j
            } else if ASCII.isDigit(byte) || (byte == UInt8(ascii: ".") && i + 1 < text.endIndex && ASCII.isDigit(text[i + 1])) {
                // A preprocessing number (`1.0`, `2V`, `1e+5`): no macro inside it.
                var j = i + 1
                while j < text.endIndex {
                    let b = text[j]
                    if ASCII.isIdentifier(b) || b == UInt8(ascii: ".") { j += 1 }
                    else if (b == UInt8(ascii: "+") || b == UInt8(ascii: "-")), (text[j - 1] | 0x20) == UInt8(ascii: "e") { j += 1 }
                    else { break }
                }
                out += text[i..<j]
                i = j
            } else if ASCII.isLetter(byte) || byte == UInt8(ascii: "_") {
                var j = i + 1
                while j < text.endIndex, ASCII.isIdentifier(text[j]) { j += 1 }
                let name = String(decoding: text[i..<j], as: UTF8.self)
                if let value = macros[name], !disabled.contains(name) {
                    try step(file: file, line: line)
                    disabled.append(name)
                    try expand(value[...], into: &out, disabled: &disabled, depth: depth + 1, file: file, line: line)
                    disabled.removeLast()
                } else {
                    out += text[i..<j]
                }
                i = j
            } else {
                out.append(byte)
                i += 1
            }
            if out.count > Self.maximumOutput { try checkSize(out, file: file, line: line) }
        }
    }

    // MARK: - #if expressions

    /// The value of an `#if` expression: integers, character constants, `defined(X)`/`defined X`, macros (expanded
    /// as in the text, through chains: `#define A B`, `#define B 3`; an identifier left over is 0), `! ~ - +`,
    /// `* / %`, `+ -`, `<< >>`, `< <= > >=`, `== !=`, `&`, `^`, `|`, `&&`, `||`, `?:`, and parentheses.
    private func evaluate(_ text: String, file: String, line: Int) throws(Failure) -> Int {
        // `defined` is answered before macros are replaced.
        var replaced = ""
        var raw = Self.tokens(text)[...]
        while let token = raw.popFirst() {
            if token == "defined" {
                var name = raw.popFirst()
                if name == "(" { name = raw.popFirst(); guard raw.popFirst() == ")" else { throw .invalid("\(file):\(line): cannot evaluate '#if \(text)'") } }
                replaced += (name.map { macros[$0] != nil } ?? false) ? " 1" : " 0"
            } else {
                replaced += " " + token
            }
        }
        var expanded: [UInt8] = []
        var disabled: [String] = []
        try expand(Array(replaced.utf8)[...], into: &expanded, disabled: &disabled, depth: 0, file: file, line: line)
        var parser = ExpressionParser(tokens: Self.tokens(String(decoding: expanded, as: UTF8.self)))
        guard let value = parser.parse(), parser.atEnd else {
            throw .invalid("\(file):\(line): cannot evaluate '#if \(text)'")
        }
        return value
    }

    /// The tokens of an expression: numbers, identifiers, character constants ('a', '\\n'), and operators.
    private static func tokens(_ text: String) -> [String] {
        var result: [String] = []
        let bytes = Array(text.utf8)
        var i = 0
        while i < bytes.count {
            let byte = bytes[i]
            if byte == 0x20 || byte == 0x09 { i += 1; continue }
            var j = i + 1
            if ASCII.isIdentifier(byte) {
                while j < bytes.count, ASCII.isIdentifier(bytes[j]) { j += 1 }
            } else if byte == UInt8(ascii: "'") {
                while j < bytes.count, bytes[j] != byte { j += bytes[j] == UInt8(ascii: "\\") ? 2 : 1 }
                j = min(j + 1, bytes.count)
            } else if j < bytes.count, ["&&", "||", "==", "!=", "<=", ">=", "<<", ">>"].contains(String(decoding: bytes[i...j], as: UTF8.self)) {
                j += 1
            }
            result.append(String(decoding: bytes[i..<j], as: UTF8.self))
            i = j
        }
        return result
    }

    /// A recursive-descent parser over the tokens (macros already replaced), C's precedence; nil on a syntax error.
    private struct ExpressionParser {
        var tokens: [String]
        var position = 0
        var depth = 0

        var atEnd: Bool { position == tokens.count }

        init(tokens: [String]) {
            self.tokens = tokens
        }

        mutating func parse() -> Int? { conditional() }

        private mutating func take(_ token: String) -> Bool {
            guard position < tokens.count, tokens[position] == token else { return false }
            position += 1
            return true
        }

        private mutating func binary(_ operators: [String], _ next: (inout ExpressionParser) -> Int?, _ apply: (String, Int, Int) -> Int?) -> Int? {
            guard var left = next(&self) else { return nil }
            while let op = operators.first(where: { position < tokens.count && tokens[position] == $0 }) {
                position += 1
                guard let right = next(&self), let value = apply(op, left, right) else { return nil }
                left = value
            }
            return left
        }

        private mutating func conditional() -> Int? {
            depth += 1
            defer { depth -= 1 }
            guard depth < InfoPlistPreprocessor.maximumDepth * 4, let condition = or() else { return nil }
            guard take("?") else { return condition }
            guard let yes = conditional(), take(":"), let no = conditional() else { return nil }
            return condition != 0 ? yes : no
        }
        private mutating func or() -> Int? { binary(["||"], { $0.and() }) { _, a, b in (a != 0 || b != 0) ? 1 : 0 } }
        private mutating func and() -> Int? { binary(["&&"], { $0.bitOr() }) { _, a, b in (a != 0 && b != 0) ? 1 : 0 } }
        private mutating func bitOr() -> Int? { binary(["|"], { $0.bitXor() }) { _, a, b in a | b } }
        private mutating func bitXor() -> Int? { binary(["^"], { $0.bitAnd() }) { _, a, b in a ^ b } }
        private mutating func bitAnd() -> Int? { binary(["&"], { $0.equality() }) { _, a, b in a & b } }
        private mutating func equality() -> Int? {
            binary(["==", "!="], { $0.relational() }) { op, a, b in (op == "==") == (a == b) ? 1 : 0 }
        }
        private mutating func relational() -> Int? {
            binary(["<=", ">=", "<", ">"], { $0.shift() }) { op, a, b in
                switch op { case "<": a < b ? 1 : 0; case ">": a > b ? 1 : 0; case "<=": a <= b ? 1 : 0; default: a >= b ? 1 : 0 }
            }
        }
        private mutating func shift() -> Int? {
            binary(["<<", ">>"], { $0.additive() }) { op, a, b in op == "<<" ? a &<< b : a &>> b }
        }
        private mutating func additive() -> Int? {
            binary(["+", "-"], { $0.multiplicative() }) { op, a, b in op == "+" ? a &+ b : a &- b }
        }
        private mutating func multiplicative() -> Int? {
            binary(["*", "/", "%"], { $0.unary() }) { op, a, b in
                switch op {
                case "*": a &* b
                case "/": b == 0 || (a == .min && b == -1) ? nil : a / b
                default: b == 0 || (a == .min && b == -1) ? nil : a % b
                }
            }
        }
        private mutating func unary() -> Int? {
            depth += 1
            defer { depth -= 1 }
            guard depth < InfoPlistPreprocessor.maximumDepth * 4 else { return nil }
            if take("!") { return unary().map { $0 == 0 ? 1 : 0 } }
            if take("-") { return unary().map { 0 &- $0 } }
            if take("+") { return unary() }
            if take("~") { return unary().map { ~$0 } }
            if take("(") {
                guard let value = conditional(), take(")") else { return nil }
                return value
            }
            guard position < tokens.count else { return nil }
            let token = tokens[position]
            position += 1
            if let number = Self.integer(token) { return number }
            if token.first == "'" { return Self.character(token) }
            // An identifier no macro replaced is 0, as in C.
            guard token.first == "_" || token.first?.isLetter == true else { return nil }
            return 0
        }

        /// A C integer literal: decimal, `0x` hex or octal, with `u`/`l` suffixes.
        static func integer(_ token: String) -> Int? {
            var text = Substring(token)
            while let last = text.last, "uUlL".contains(last) { text = text.dropLast() }
            if text.hasPrefix("0x") || text.hasPrefix("0X") { return Int(text.dropFirst(2), radix: 16) }
            if text.count > 1, text.hasPrefix("0") { return Int(text.dropFirst(), radix: 8) }
            return Int(text)
        }

        /// A character constant: `'a'`, `'\\n'`, `'\\x41'`, `'\\101'`; several characters combine as GCC does.
        static func character(_ token: String) -> Int? {
            var bytes = Array(token.utf8)[...]
            guard bytes.count >= 3, bytes.removeFirst() == UInt8(ascii: "'"), bytes.removeLast() == UInt8(ascii: "'") else { return nil }
            var value = 0
            while let byte = bytes.popFirst() {
                var char = Int(byte)
                if byte == UInt8(ascii: "\\") {
                    guard let escaped = bytes.popFirst() else { return nil }
                    switch escaped {
                    case UInt8(ascii: "n"): char = 10
                    case UInt8(ascii: "t"): char = 9
                    case UInt8(ascii: "r"): char = 13
                    case UInt8(ascii: "a"): char = 7
                    case UInt8(ascii: "b"): char = 8
                    case UInt8(ascii: "f"): char = 12
                    case UInt8(ascii: "v"): char = 11
                    case UInt8(ascii: "x"):
                        var digits = ""
                        while let next = bytes.first, let _ = Int(String(UnicodeScalar(next)), radix: 16) { digits.append(Character(UnicodeScalar(next))); bytes.removeFirst() }
                        guard let parsed = Int(digits, radix: 16) else { return nil }
                        char = parsed & 0xFF
                    case UInt8(ascii: "0")...UInt8(ascii: "7"):
                        var digits = String(UnicodeScalar(escaped))
                        while digits.count < 3, let next = bytes.first, next >= UInt8(ascii: "0"), next <= UInt8(ascii: "7") {
                            digits.append(Character(UnicodeScalar(next)))
                            bytes.removeFirst()
                        }
                        char = (Int(digits, radix: 8) ?? 0) & 0xFF
                    default: char = Int(escaped)
                    }
                }
                value = (value &<< 8) | char
            }
            return value
        }
    }
}

extension InfoPlistPreprocessor {
    /// `value`, read from a preprocessed Info.plist whose prefix header the checkout does not hold, with each word
    /// that may be one of the header's macros (an identifier of capitals, digits and `_`, such as
    /// `BUILD_STRING_INFOPLIST`) kept as an unknown setting, `$(BUILD_STRING_INFOPLIST)`: the rules decide on what
    /// the rest of the value proves and warn where the macro decides (issue 42: unknown is unknown everywhere).
    /// - Parameter unknowns: where each such word is added, with the sentence naming the missing header.
    static func macrosAsUnknown(_ value: String, header: String, unknowns: inout [String: String]) -> String {
        var out = ""
        var word = ""
        var previous: Character?
        func flush() {
            // A word right after `$(` or `${` is a setting's name, already expanded or kept as it is.
            let isMacro = word.count > 1 && word.first.map { !$0.isNumber } == true
                && word.allSatisfy { $0 == "_" || ($0.isASCII && ($0.isUppercase || $0.isNumber)) } && word.contains { $0.isLetter }
            if isMacro && previous != "(" && previous != "{" {
                out += BuildSettings.unknownSymbol(word)
                unknowns[word] = "\(word) is a macro of the Info.plist prefix header '\(header)' (INFOPLIST_PREFIX_HEADER), which the checkout does not hold: a build phase writes it."
            } else {
                out += word
            }
            word = ""
        }
        for character in value {
            if character == "_" || (character.isASCII && (character.isLetter || character.isNumber)) {
                word.append(character)
            } else {
                flush()
                out.append(character)
                previous = character
            }
        }
        flush()
        return out
    }
}
