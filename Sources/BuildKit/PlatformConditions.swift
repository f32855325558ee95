import BundleKit

/// The platform conditions of a target's platform, written into the build copy of its Swift files
/// (<doc:RunningYourProject> "Platform conditions").
///
/// Swift evaluates `os(…)` and `targetEnvironment(…)` for the platform it compiles for, and no flag makes `os(iOS)`
/// true on Linux: `-D` defines only plain names. So the build copy of each file has every `os(…)` and
/// `targetEnvironment(…)` in a `#if`/`#elseif` line replaced by `true` or `false` as the target's platform on the
/// simulator would have it. Nothing else changes, and lines keep their numbers, so a diagnostic's line is the team's
/// line; the copy starts with a `#sourceLocation` naming the original file.
///
/// `canImport(…)`, `arch(…)`, `compiler(…)` and `swift(…)` are left to the compiler: every generated module depends on
/// every Apple-named module Lockstep provides, so `canImport(WidgetKit)` and `canImport(UIKit)` are true and
/// `canImport(AppKit)` false, exactly as Lockstep provides them; `canImport(Darwin)` stays false and
/// `canImport(Glibc)` true, the host's truth, so a file's choice of C library still builds.
public enum PlatformConditions {
    /// `source` with the conditions of `platform` written in. A line that is no compilation directive is kept as it
    /// is, and so is anything inside a string literal or comment.
    public static func rewrite(_ source: String, platform: Platform) -> String {
        var output = ""
        output.reserveCapacity(source.utf8.count + 64)
        var inBlockComment = 0
        var inMultilineString = false
        for line in source.split(separator: "\n", omittingEmptySubsequences: false) {
            let isDirective = inBlockComment == 0 && !inMultilineString && Self.isConditionLine(line)
            let written = isDirective ? rewriteDirective(line, platform: platform) : String(line)
            Self.track(line, blockComment: &inBlockComment, multilineString: &inMultilineString)
            output += written
            output += "\n"
        }
        output.removeLast()  // the split gave one line more than there are newlines
        return output
    }

    /// Whether `os(name)` holds on `platform`, as the simulator of that platform evaluates it.
    static func os(_ name: String, on platform: Platform) -> Bool {
        switch name {
        case "iOS": platform == .iOS
        case "watchOS": platform == .watchOS
        case "tvOS": platform == .tvOS
        case "visionOS", "xrOS": platform == .visionOS
        case "macOS", "OSX": platform == .macOS
        default: false  // Linux, Windows, Android, FreeBSD…: never an Apple device
        }
    }

    /// Whether `targetEnvironment(name)` holds: Lockstep is a simulator, never Mac Catalyst.
    static func targetEnvironment(_ name: String) -> Bool { name == "simulator" }

    /// `#if` or `#elseif`, after leading white space.
    static func isConditionLine(_ line: Substring) -> Bool {
        let trimmed = line.drop { $0 == " " || $0 == "\t" }
        return trimmed.hasPrefix("#if ") || trimmed.hasPrefix("#if(") || trimmed.hasPrefix("#elseif ") || trimmed.hasPrefix("#elseif(")
    }

    /// The directive with each `os(…)` and `targetEnvironment(…)` replaced; a trailing comment is kept as written.
    static func rewriteDirective(_ line: Substring, platform: Platform) -> String {
        let characters = Array(line)
        var result = ""
        var index = 0
        while index < characters.count {
            // A comment ends the condition.
            if characters[index] == "/", index + 1 < characters.count, characters[index + 1] == "/" || characters[index + 1] == "*" {
                result += String(characters[index...])
                break
            }
            if characters[index].isLetter || characters[index] == "_" {
                var end = index
                while end < characters.count, characters[end].isLetter || characters[end].isNumber || characters[end] == "_" { end += 1 }
                let word = String(characters[index..<end])
                let previous = index > 0 ? characters[index - 1] : " "
                if (word == "os" || word == "targetEnvironment") && previous != "." && previous != "#",
                   let (argument, close) = Self.argument(characters, from: end) {
                    let holds = word == "os" ? os(argument, on: platform) : targetEnvironment(argument)
                    result += holds ? "true" : "false"
                    index = close + 1
                    continue
                }
                result += word
                index = end
                continue
            }
            result.append(characters[index])
            index += 1
        }
        return result
    }

    /// The single name inside `(…)` right after `start` (white space allowed), and the index of `)`.
    private static func argument(_ characters: [Character], from start: Int) -> (String, Int)? {
        var index = start
        while index < characters.count, characters[index] == " " { index += 1 }
        guard index < characters.count, characters[index] == "(" else { return nil }
        guard let close = characters[index...].firstIndex(of: ")") else { return nil }
        let name = String(characters[(index + 1)..<close]).trimmingSpaces
        guard !name.isEmpty, name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" }) else { return nil }
        return (name, close)
    }

    /// Follows block comments (which nest in Swift) and multi-line string literals across lines, so a `#if` written
    /// inside one is not taken for a directive. Single-line strings and line comments end with their line.
    static func track(_ line: Substring, blockComment depth: inout Int, multilineString: inout Bool) {
        let characters = Array(line)
        var index = 0
        var inString = false
        while index < characters.count {
            let character = characters[index]
            let next: Character? = index + 1 < characters.count ? characters[index + 1] : nil
            if multilineString {
                if character == "\\" { index += 2; continue }
                if character == "\"", next == "\"", index + 2 < characters.count, characters[index + 2] == "\"" {
                    multilineString = false
                    index += 3
                    continue
                }
            } else if depth > 0 {
                if character == "*", next == "/" { depth -= 1; index += 2; continue }
                if character == "/", next == "*" { depth += 1; index += 2; continue }
            } else if inString {
                if character == "\\" { index += 2; continue }
                if character == "\"" { inString = false }
            } else {
                if character == "/", next == "/" { return }
                if character == "/", next == "*" { depth += 1; index += 2; continue }
                if character == "\"" {
                    if next == "\"", index + 2 < characters.count, characters[index + 2] == "\"" {
                        multilineString = true
                        index += 3
                        continue
                    }
                    inString = true
                }
            }
            index += 1
        }
    }
}

extension String {
    var trimmingSpaces: String {
        String(drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
    }
}
