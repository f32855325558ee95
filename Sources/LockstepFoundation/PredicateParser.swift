import Foundation

/// Parses `NSPredicate`'s format subset into a test (see `NSPredicate` for the grammar it takes).
struct PredicateParser {
    /// What the format says that the subset does not take, or a malformed format: the reason, in words.
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    private enum Token: Equatable {
        case word(String), text(String), number(Double), symbol(String), argument(Character), modifier(String)
    }

    /// A side of a comparison: the evaluated object, one of its key paths, or a constant.
    private enum Operand {
        case evaluated, keyPath([String]), constant(Any?)

        func value(_ object: Any?) -> Any? {
            switch self {
            case .evaluated: return object
            case .constant(let value): return value
            case .keyPath(let keys): return keys.reduce(object) { value, key in PredicateValues.member(key, of: value) }
            }
        }
    }

    private let format: String
    private var tokens: [Token] = []
    private var position = 0
    private var arguments: [Any]

    init(format: String, arguments: [Any]) {
        self.format = format
        self.arguments = arguments
    }

    /// The whole format as one test.
    mutating func parse() throws -> (Any?) -> Bool {
        tokens = try Self.tokenize(format)
        let test = try orExpression()
        guard position == tokens.count else { throw Failure(description: "unexpected \(describe(tokens[position]))") }
        return test
    }

    // MARK: grammar

    private mutating func orExpression() throws -> (Any?) -> Bool {
        var test = try andExpression()
        while take(word: "OR") || take(symbol: "||") {
            let left = test, right = try andExpression()
            test = { left($0) || right($0) }
        }
        return test
    }

    private mutating func andExpression() throws -> (Any?) -> Bool {
        var test = try notExpression()
        while take(word: "AND") || take(symbol: "&&") {
            let left = test, right = try notExpression()
            test = { left($0) && right($0) }
        }
        return test
    }

    private mutating func notExpression() throws -> (Any?) -> Bool {
        if take(word: "NOT") || take(symbol: "!") {
            let inner = try notExpression()
            return { !inner($0) }
        }
        if take(symbol: "(") {
            let inner = try orExpression()
            guard take(symbol: ")") else { throw Failure(description: "a parenthesis is not closed") }
            return inner
        }
        if take(word: "TRUEPREDICATE") { return { _ in true } }
        if take(word: "FALSEPREDICATE") { return { _ in false } }
        return try comparison()
    }

    private mutating func comparison() throws -> (Any?) -> Bool {
        let left = try operand()
        guard position < tokens.count else { throw Failure(description: "a comparison has no operator") }
        let op: String
        switch tokens[position] {
        case .symbol(let symbol) where ["==", "=", "!=", "<>", "<", "<=", "=<", ">", ">=", "=>"].contains(symbol): op = symbol
        case .word(let word) where ["CONTAINS", "BEGINSWITH", "ENDSWITH", "LIKE", "MATCHES", "IN"].contains(word.uppercased()): op = word.uppercased()
        case let other: throw Failure(description: "\(describe(other)) is not an operator Lockstep evaluates")
        }
        position += 1
        var options = PredicateValues.Options()
        if position < tokens.count, case .modifier(let letters) = tokens[position] {
            options.caseInsensitive = letters.contains("c")
            options.diacriticInsensitive = letters.contains("d")
            position += 1
        }
        let right = try operand()
        return { object in PredicateValues.compare(left.value(object), op, right.value(object), options) }
    }

    private mutating func operand() throws -> Operand {
        guard position < tokens.count else { throw Failure(description: "the format ends where a value should be") }
        let token = tokens[position]
        position += 1
        switch token {
        case .text(let text): return .constant(text)
        case .number(let number): return .constant(number)
        case .argument(let kind):
            guard !arguments.isEmpty else { throw Failure(description: "there are fewer arguments than format specifiers") }
            let argument = arguments.removeFirst()
            if kind == "K" { return .keyPath("\(argument)".split(separator: ".").map(String.init)) }
            return .constant(argument)
        case .word(let word):
            switch word.uppercased() {
            case "SELF": return .evaluated
            case "TRUE", "YES": return .constant(true)
            case "FALSE", "NO": return .constant(false)
            case "NIL", "NULL": return .constant(nil)
            case "ANY", "ALL", "SOME", "NONE", "BETWEEN", "SUBQUERY", "FUNCTION":
                throw Failure(description: "\(word) is outside the subset Lockstep evaluates")
            default:
                guard !word.hasPrefix("@"), !word.hasPrefix("$"), !word.contains(".@") else {
                    throw Failure(description: "\(word) is outside the subset Lockstep evaluates")
                }
                let keys = word.split(separator: ".").map(String.init)
                return keys.first?.uppercased() == "SELF" ? .keyPath(Array(keys.dropFirst())) : .keyPath(keys)
            }
        case .symbol("{"):
            var items: [Any?] = []
            while !take(symbol: "}") {
                if !items.isEmpty, !take(symbol: ",") { throw Failure(description: "a list's items are separated by commas") }
                items.append(try operand().value(nil))
            }
            return .constant(items)
        default:
            throw Failure(description: "\(describe(token)) is not a value")
        }
    }

    private mutating func take(word: String) -> Bool {
        guard position < tokens.count, case .word(let found) = tokens[position], found.uppercased() == word else { return false }
        position += 1
        return true
    }

    private mutating func take(symbol: String) -> Bool {
        guard position < tokens.count, tokens[position] == .symbol(symbol) else { return false }
        position += 1
        return true
    }

    private func describe(_ token: Token) -> String {
        switch token {
        case .word(let text), .symbol(let text): return "'\(text)'"
        case .text(let text): return "the string '\(text)'"
        case .number(let number): return "the number \(number)"
        case .argument(let kind): return "'%\(kind)'"
        case .modifier(let letters): return "'[\(letters)]'"
        }
    }

    // MARK: tokens

    private static func tokenize(_ format: String) throws -> [Token] {
        var tokens: [Token] = []
        let characters = Array(format)
        var index = 0
        func peek(_ offset: Int = 0) -> Character? { index + offset < characters.count ? characters[index + offset] : nil }
        while let character = peek() {
            if character.isWhitespace { index += 1; continue }
            if character == "'" || character == "\"" {
                var text = ""
                index += 1
                while let next = peek(), next != character {
                    if next == "\\", let escaped = peek(1) { text.append(escaped); index += 2; continue }
                    text.append(next)
                    index += 1
                }
                guard peek() == character else { throw Failure(description: "a string is not closed") }
                index += 1
                tokens.append(.text(text))
            } else if character == "%" {
                var specifier = ""
                index += 1
                while let next = peek(), next.isLetter || next == "@" {
                    specifier.append(next)
                    index += 1
                    if next == "@" || next == "K" || "difsu".contains(next) { break }
                }
                guard let kind = specifier.last else { throw Failure(description: "a '%' has no specifier") }
                tokens.append(.argument(kind))
            } else if character == "[" {
                var letters = ""
                index += 1
                while let next = peek(), next != "]" { letters.append(next); index += 1 }
                index += 1
                tokens.append(.modifier(letters.lowercased()))
            } else if character.isNumber || (character == "-" && peek(1)?.isNumber == true) {
                var text = String(character)
                index += 1
                while let next = peek(), next.isNumber || next == "." { text.append(next); index += 1 }
                guard let number = Double(text) else { throw Failure(description: "'\(text)' is not a number") }
                tokens.append(.number(number))
            } else if character.isLetter || character == "_" || character == "@" || character == "$" {
                var word = ""
                while let next = peek(), next.isLetter || next.isNumber || next == "_" || next == "." || next == "@" || next == "$" {
                    word.append(next)
                    index += 1
                }
                tokens.append(.word(word))
            } else {
                let pair = String(character) + (peek(1).map(String.init) ?? "")
                if ["==", "!=", "<>", "<=", "=<", ">=", "=>", "&&", "||"].contains(pair) {
                    tokens.append(.symbol(pair))
                    index += 2
                } else if "=<>!(){},".contains(character) {
                    tokens.append(.symbol(String(character)))
                    index += 1
                } else {
                    throw Failure(description: "'\(character)' is not part of a predicate format")
                }
            }
        }
        return tokens
    }
}
