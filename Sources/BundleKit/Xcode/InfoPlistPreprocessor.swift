import Foundation

/// The C preprocessor Xcode runs over an Info.plist when `INFOPLIST_PREPROCESS = YES` (traditional mode, no
/// comments stripped): `#define`/`#undef`, `#if`/`#ifdef`/`#ifndef`/`#elif`/`#else`/`#endif`, `#include "…"`, and
/// object-like macros replaced in the text (`<string>APP_VERSION</string>` with `#define APP_VERSION 1.2`). Macros
/// come from `INFOPLIST_PREFIX_HEADER`, `INFOPLIST_PREPROCESSOR_DEFINITIONS` and the `-D`/`-U`/`-include` flags of
/// `INFOPLIST_OTHER_PREPROCESSOR_FLAGS`.
///
/// Bounded for hostile input: includes nest at most `maximumDepth` deep, a macro expands at most
/// `maximumDepth` levels, and the output stops growing past `maximumOutput` bytes (an error).
struct InfoPlistPreprocessor {
    enum Failure: Error, Equatable {
        /// A sentence naming the file and line.
        case invalid(String)
    }

    static let maximumDepth = 32
    static let maximumOutput = 8 * 1024 * 1024

    private(set) var macros: [String: String] = [:]
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
        macros[String(name)] = parts.count > 1 ? String(parts[1]) : "1"
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
        guard depth < Self.maximumDepth else { throw .invalid("\(file): #include nests more than \(Self.maximumDepth) files deep") }
        var output = ""
        // Each open conditional: whether its current branch is taken, and whether any branch was.
        var stack: [(active: Bool, taken: Bool, sawElse: Bool)] = []
        var active: Bool { stack.allSatisfy(\.active) }
        var lines = XcconfigReader.splitLines(text)
        if lines.last == "" { lines.removeLast() }  // the end of the last line, not a line of its own
        for (offset, rawLine) in lines.enumerated() {
            let number = offset + 1
            let line = rawLine.drop(while: { $0 == " " || $0 == "\t" })
            guard line.first == "#" else {
                if active {
                    output += expand(rawLine, depth: 0) + "\n"
                    guard output.utf8.count <= Self.maximumOutput else {
                        throw .invalid("\(file):\(number): the preprocessed Info.plist grows past \(Self.maximumOutput) bytes")
                    }
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
                macros[name] = rest.trimmingCharacters(in: .whitespaces)
            case "undef" where active:
                macros[Self.firstIdentifier(argument)] = nil
            case "include" where active:
                guard let open = argument.firstIndex(where: { $0 == "\"" || $0 == "<" }),
                      let close = argument[argument.index(after: open)...].firstIndex(where: { $0 == "\"" || $0 == ">" }) else {
                    throw .invalid("\(file):\(number): #include names no file")
                }
                let path = PathText.join(PathText.parent(of: file), String(argument[argument.index(after: open)..<close]))
                guard let included = read(path) else { throw .invalid("\(file):\(number): #include \"\(path)\" cannot be read") }
                output += try process(included, file: path, depth: depth + 1)
            default:
                // `#pragma`, `#error` in an inactive branch, `#line`, and directives of inactive branches.
                if directive == "error" && active { throw .invalid("\(file):\(number): #error \(argument)") }
            }
        }
        guard stack.isEmpty else { throw .invalid("\(file): #if without #endif") }
        return output
    }

    private static func firstIdentifier(_ text: some StringProtocol) -> String {
        String(text.prefix { $0 == "_" || ($0.isASCII && ($0.isLetter || $0.isNumber)) })
    }

    /// `text` with every defined object-like macro replaced by its value, itself expanded (to `maximumDepth`).
    private func expand(_ text: String, depth: Int) -> String {
        guard !macros.isEmpty, depth < Self.maximumDepth else { return text }
        var out = "", identifier = "", changed = false
        func flush() {
            if let value = macros[identifier] {
                out += expand(value, depth: depth + 1)
                changed = true
            } else {
                out += identifier
            }
            identifier = ""
        }
        for character in text {
            let isPart = character == "_" || (character.isASCII && (character.isLetter || (character.isNumber && !identifier.isEmpty)))
            if isPart && !(identifier.isEmpty && character.isNumber) {
                identifier.append(character)
            } else {
                if !identifier.isEmpty { flush() }
                out.append(character)
            }
        }
        if !identifier.isEmpty { flush() }
        return changed ? out : text
    }

    // MARK: - #if expressions

    /// The value of an `#if` expression: integers, `defined(X)`/`defined X`, macros (undefined ones are 0),
    /// `! ~ - +`, `* / %`, `+ -`, `< <= > >=`, `== !=`, `&&`, `||`, and parentheses.
    private func evaluate(_ text: String, file: String, line: Int) throws(Failure) -> Int {
        var parser = ExpressionParser(tokens: tokens(text), macros: macros)
        guard let value = parser.parse(), parser.atEnd else {
            throw .invalid("\(file):\(line): cannot evaluate '#if \(text)'")
        }
        return value
    }

    /// The tokens of an expression, `defined` answered before macros are replaced.
    private func tokens(_ text: String) -> [String] {
        var raw: [String] = []
        var characters = Array(text)[...]
        while let character = characters.first {
            if character == " " || character == "\t" { characters = characters.dropFirst(); continue }
            if character == "_" || character.isLetter || character.isNumber {
                let word = characters.prefix { $0 == "_" || ($0.isASCII && ($0.isLetter || $0.isNumber)) }
                raw.append(String(word.isEmpty ? [character] : Array(word)))
                characters = characters.dropFirst(max(word.count, 1))
                continue
            }
            let two = String(characters.prefix(2))
            if ["&&", "||", "==", "!=", "<=", ">="].contains(two) {
                raw.append(two)
                characters = characters.dropFirst(2)
            } else {
                raw.append(String(character))
                characters = characters.dropFirst()
            }
        }
        // `defined X` and `defined(X)` become 1 or 0; then macros are replaced by their values' tokens.
        var result: [String] = []
        var index = 0
        while index < raw.count {
            if raw[index] == "defined" {
                if index + 3 < raw.count, raw[index + 1] == "(", raw[index + 3] == ")" {
                    result.append(macros[raw[index + 2]] != nil ? "1" : "0")
                    index += 4
                    continue
                } else if index + 1 < raw.count {
                    result.append(macros[raw[index + 1]] != nil ? "1" : "0")
                    index += 2
                    continue
                }
            }
            result.append(raw[index])
            index += 1
        }
        return result
    }

    /// A recursive-descent parser over the tokens, C's precedence; nil on a syntax error.
    private struct ExpressionParser {
        var tokens: [String]
        let macros: [String: String]
        var position = 0
        var depth = 0

        var atEnd: Bool { position == tokens.count }

        init(tokens: [String], macros: [String: String]) {
            self.tokens = tokens
            self.macros = macros
        }

        mutating func parse() -> Int? { or() }

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

        private mutating func or() -> Int? { binary(["||"], { $0.and() }) { _, a, b in (a != 0 || b != 0) ? 1 : 0 } }
        private mutating func and() -> Int? { binary(["&&"], { $0.equality() }) { _, a, b in (a != 0 && b != 0) ? 1 : 0 } }
        private mutating func equality() -> Int? {
            binary(["==", "!="], { $0.relational() }) { op, a, b in (op == "==") == (a == b) ? 1 : 0 }
        }
        private mutating func relational() -> Int? {
            binary(["<=", ">=", "<", ">"], { $0.additive() }) { op, a, b in
                switch op { case "<": a < b ? 1 : 0; case ">": a > b ? 1 : 0; case "<=": a <= b ? 1 : 0; default: a >= b ? 1 : 0 }
            }
        }
        private mutating func additive() -> Int? {
            binary(["+", "-"], { $0.multiplicative() }) { op, a, b in op == "+" ? a &+ b : a &- b }
        }
        private mutating func multiplicative() -> Int? {
            binary(["*", "/", "%"], { $0.unary() }) { op, a, b in
                switch op { case "*": a &* b; case "/": b == 0 ? nil : a / b; default: b == 0 ? nil : a % b }
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
                guard let value = or(), take(")") else { return nil }
                return value
            }
            guard position < tokens.count else { return nil }
            let token = tokens[position]
            position += 1
            if let number = Self.integer(token) { return number }
            guard token.first == "_" || token.first?.isLetter == true else { return nil }
            // A macro is its value's number; an undefined identifier is 0, as in C.
            guard let value = macros[token], depth < InfoPlistPreprocessor.maximumDepth else { return 0 }
            return Self.integer(value.trimmingCharacters(in: .whitespaces)) ?? 0
        }

        /// A C integer literal: decimal, `0x` hex or octal, with `u`/`l` suffixes.
        static func integer(_ token: String) -> Int? {
            var text = Substring(token)
            while let last = text.last, "uUlL".contains(last) { text = text.dropLast() }
            if text.hasPrefix("0x") || text.hasPrefix("0X") { return Int(text.dropFirst(2), radix: 16) }
            if text.count > 1, text.hasPrefix("0") { return Int(text.dropFirst(), radix: 8) }
            return Int(text)
        }
    }
}
