import BundleKit
import Foundation
import LockstepSystem

/// Reads xcconfig files, following `#include` / `#include?`, once per file.
package final class XcconfigReader {
    private enum Line {
        case include(path: String, optional: Bool, line: Int)
        case assignment(SettingAssignment)
    }

    /// What flattening one xcconfig (and its includes) produced.
    package struct Flattened {
        package var assignments: [SettingAssignment] = []
        /// Sentences for problems that lose settings: a missing required include, a cycle, an unreadable file.
        var problems: [(file: String, message: String, severity: ProblemWeight)] = []
        /// Included files that do not exist, with the file that includes them: what would have defined a setting
        /// that is now unresolved (often a git-ignored or generated file, like Flutter's Generated.xcconfig).
        var missingIncludes: [MissingInclude] = []
        /// Whether `maximumAssignments` cut it short (said once, by the file where it happened).
        var truncated = false
    }

    private var parsed: [String: [Line]?] = [:]
    /// Each file's flattening, by its resolved path: a file included from several places (an include "diamond") is
    /// read and flattened once, not once per path through the include graph.
    private var flattened: [String: Flattened] = [:]

    /// The most assignments one xcconfig may expand to through its includes. Xcode reads a file included twice
    /// twice (the later one wins), so a chain of files that each include the next twice doubles at each level: a
    /// real configuration has hundreds; past this the rest is ignored, with an error.
    static let maximumAssignments = 100_000
    /// Files read in all (an include reached by another path is read again, since where its own includes are
    /// searched depends on who included it): diamonds of includes across folders, in files with no settings, would
    /// otherwise double the walk with each layer while never reaching `maximumAssignments`.
    static let maximumWalks = 4_000
    private var walks = 0

    /// The project's source root (the folder holding the .xcodeproj, or an XcodeGen spec's folder): the last place
    /// a relative `#include` is searched.
    let sourceRoot: String?

    package init(sourceRoot: String? = nil) {
        self.sourceRoot = sourceRoot
    }

    /// The assignments of the xcconfig at `path`, includes expanded in place, in file order.
    package func flatten(_ path: String) -> Flattened {
        var stack: [String] = []
        return walk(path, stack: &stack)
    }

    /// The folders a relative `#include` of the file on top of `stack` is searched in, in order: beside the including
    /// file, then beside each file that included that one (innermost first), then the project's source root. The
    /// `#include` / `#include?` syntax is Xcode's "Configuration Settings File (xcconfig) format"
    /// (help.apple.com/xcode/mac/current/en.lproj/dev745c5c974.html); the fallback past the including file's folder
    /// is what Xcode does and real projects rely on (a `Common.xcconfig` in a target folder that includes
    /// `Config/AppVersion.xcconfig`, relative to the project's folder).
    private func searchFolders(_ stack: [String]) -> [String] {
        var folders: [String] = []
        for file in stack.reversed() {
            let folder = PathText.parent(of: file)
            if !folders.contains(folder) { folders.append(folder) }
        }
        if let sourceRoot, !folders.contains(sourceRoot) { folders.append(sourceRoot) }
        return folders
    }

    private func walk(_ path: String, stack: inout [String]) -> Flattened {
        let resolved = PathText.existing(path) ?? path
        // The places its includes are searched depend on the files that included it: cached per search path.
        let key = ([resolved] + searchFolders(stack)).joined(separator: "\u{0}")
        if let cached = flattened[key] { return cached }
        var result = Flattened()
        walks += 1
        guard walks <= Self.maximumWalks else {
            result.truncated = true
            result.problems.append((path, "reading '\(path)' would read more than \(Self.maximumWalks) xcconfig files in all (includes that include one another across folders); the rest is ignored", .error))
            return result
        }
        stack.append(resolved)
        defer { stack.removeLast() }
        defer { flattened[key] = result }
        guard let lines = lines(of: resolved) else {
            result.problems.append((path, "the xcconfig '\(path)' does not exist or cannot be read, so none of its settings apply", .error))
            return result
        }
        let folder = PathText.parent(of: resolved)
        for line in lines {
            switch line {
            case .assignment(let assignment):
                result.assignments.append(assignment)
            case .include(let relative, let optional, let number):
                let target = PathText.join(folder, relative)
                let found = relative.hasPrefix("/") ? PathText.existing(target)
                    : searchFolders(stack).lazy.compactMap { PathText.existing(PathText.join($0, relative)) }.first
                if let found, stack.contains(found) {
                    result.problems.append((resolved, "\(resolved):\(number): #include \"\(relative)\" forms a cycle of includes (\((stack + [found]).map { PathText.lastComponent(of: $0) }.joined(separator: " → "))); the include is ignored", .error))
                } else if let found {
                    let included = walk(found, stack: &stack)
                    guard result.assignments.count + included.assignments.count <= Self.maximumAssignments, !included.truncated else {
                        result.truncated = true
                        if included.truncated {
                            result.problems += included.problems.filter { problem in !result.problems.contains { $0.message == problem.message } }
                            return result
                        }
                        result.problems.append((resolved, "\(resolved):\(number): #include \"\(relative)\" would make its includes expand to more than \(Self.maximumAssignments) settings (files that include one another repeatedly); it and the rest of the file are ignored", .error))
                        return result
                    }
                    result.assignments += included.assignments
                    // Once each: a file reached by several paths reports its problems once.
                    for problem in included.problems where !result.problems.contains(where: { $0.message == problem.message }) {
                        result.problems.append(problem)
                    }
                    for missing in included.missingIncludes where !result.missingIncludes.contains(where: { $0.path == missing.path }) {
                        result.missingIncludes.append(missing)
                    }
                } else if optional {
                    // `#include?` of a missing file is silent in Xcode (often a git-ignored local override).
                    result.missingIncludes.append(MissingInclude(path: target, includer: resolved, optional: true))
                } else if let command = MissingInclude.generator(of: target) {
                    // A file a tool writes and git ignores (Flutter's Generated.xcconfig): Xcode needs it, but so does
                    // every build, which runs the tool first. Its settings are unknown, and that is a warning.
                    result.missingIncludes.append(MissingInclude(path: target, includer: resolved, optional: false))
                    result.problems.append((resolved, "\(resolved):\(number): #include \"\(relative)\" names a file the checkout does not hold ('\(target)'; `\(command)` writes it), so the settings it defines are unknown", .warning))
                } else {
                    result.missingIncludes.append(MissingInclude(path: target, includer: resolved, optional: false))
                    result.problems.append((resolved, "\(resolved):\(number): #include \"\(relative)\" names a file that does not exist (Xcode: could not find included file), so the settings it defines are missing", .error))
                }
            }
        }
        return result
    }

    private func lines(of path: String) -> [Line]? {
        if let cached = parsed[path] { return cached }
        var result: [Line]?
        if let bytes = InputFile.readIfPresent(path) {
            result = Self.parse(bytes, file: path)
        }
        parsed[path] = result
        return result
    }

    /// The lines of an xcconfig, read on bytes (a 50 MB line once took 10 s read as `Character`s); each assignment
    /// as `assignmentRanges` reads it, which `bump` uses too (`assignmentParts`).
    private static func parse(_ bytes: [UInt8], file: String) -> [Line] {
        var result: [Line] = []
        var number = 0
        var lineStart = 0
        func isBlank(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 }
        while lineStart < bytes.count || (lineStart == bytes.count && number == 0) {
            number += 1
            let lineEnd = bytes[lineStart...].firstIndex(of: 0x0A) ?? bytes.count
            defer { lineStart = lineEnd + 1 }
            var line = bytes[lineStart..<lineEnd]
            while let first = line.first, isBlank(first) || first == 0x0D { line = line.dropFirst() }
            while let last = line.last, isBlank(last) || last == 0x0D { line = line.dropLast() }
            if line.starts(with: "#include".utf8) {
                let optional = line.starts(with: "#include?".utf8)
                if let open = line.firstIndex(of: UInt8(ascii: "\"")),
                   let close = line[(open + 1)...].firstIndex(of: UInt8(ascii: "\"")) {
                    result.append(.include(path: String(decoding: line[(open + 1)..<close], as: UTF8.self), optional: optional, line: number))
                }
                continue
            }
            guard let ranges = assignmentRanges(line) else { continue }
            let rawKey = String(decoding: line[ranges.key], as: UTF8.self)
            guard let (name, conditions) = splitKey(rawKey) else { continue }
            let value = line[ranges.value]
            result.append(.assignment(SettingAssignment(
                key: rawKey, name: name, conditions: conditions, value: String(decoding: value, as: UTF8.self),
                source: SettingSource(file: file, line: number, configurationID: nil, owner: file,
                                      column: ranges.key.lowerBound - lineStart + 1))))
        }
        return result
    }

    /// The lines of `text`. In Swift "\r\n" is one Character, so splitting on "\n" alone would keep a file
    /// written with Windows line endings as one line.
    package static func splitLines(_ text: String) -> [String] {
        text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" }).map(String.init)
    }

    /// Splits `NAME[k=v][k2=v2] = value // comment;` (<doc:ReadingProjects> "xcconfig syntax"), or nil for a comment or blank line.
    package static func assignmentParts(_ line: String) -> (key: String, name: String, conditions: [(key: String, value: String)], value: String, valueRange: Range<String.Index>)? {
        let bytes = Array(line.utf8)
        guard let ranges = assignmentRanges(bytes[...]) else { return nil }
        let rawKey = String(decoding: bytes[ranges.key], as: UTF8.self)
        guard let (key, conditions) = splitKey(rawKey) else { return nil }
        // The ranges fall on ASCII bytes, so on scalar boundaries of `line`.
        let utf8 = line.utf8
        let start = utf8.index(utf8.startIndex, offsetBy: ranges.value.lowerBound), end = utf8.index(utf8.startIndex, offsetBy: ranges.value.upperBound)
        return (rawKey, key, conditions, String(line[start..<end]), start..<end)
    }

    /// Where the key (conditions included) and the value of one xcconfig line are, in bytes of `line`; nil for a
    /// comment or a line with no `=`. The `=` that ends the key is the first one outside `[config=…]` conditions. A
    /// trailing `//` comment is left out: Xcode's "Configuration Settings File (xcconfig) format" says a comment
    /// begins with `//` and runs to the end of the line, so `//` in a URL starts one too (such values are written
    /// `https:/$()/…`): `1.0://rc1` is `1.0:`. Then blanks and one `;` are left out.
    static func assignmentRanges(_ line: ArraySlice<UInt8>) -> (key: Range<Int>, value: Range<Int>)? {
        func isBlank(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 }
        var start = line.startIndex
        while start < line.endIndex, isBlank(line[start]) { start += 1 }
        guard !line[start...].starts(with: "//".utf8) else { return nil }
        var depth = 0
        guard let equals = line[start...].firstIndex(where: { byte in
            if byte == UInt8(ascii: "[") { depth += 1 } else if byte == UInt8(ascii: "]") { depth -= 1 }
            return byte == UInt8(ascii: "=") && depth == 0
        }) else { return nil }
        var keyEnd = equals
        while keyEnd > start, isBlank(line[keyEnd - 1]) { keyEnd -= 1 }
        var valueStart = equals + 1
        while valueStart < line.endIndex, isBlank(line[valueStart]) { valueStart += 1 }
        var end = line.endIndex
        var index = valueStart
        while index + 1 < line.endIndex {
            if line[index] == UInt8(ascii: "/") && line[index + 1] == UInt8(ascii: "/") { end = index; break }
            index += 1
        }
        while end > valueStart, isBlank(line[end - 1]) { end -= 1 }
        if end > valueStart, line[end - 1] == UInt8(ascii: ";") { end -= 1 }
        while end > valueStart, isBlank(line[end - 1]) { end -= 1 }
        return (start..<keyEnd, valueStart..<end)
    }

    /// `NAME[k=v][k2=v2]` → the name and its conditions; nil when it is not a setting name.
    static func splitKey(_ rawKey: String) -> (name: String, conditions: [(key: String, value: String)])? {
        // The common case, on bytes, in one pass: a plain ASCII name (identifier bytes are ASCII, and no `[`).
        if !rawKey.isEmpty && ASCII.allSatisfy(rawKey, ASCII.isIdentifier) { return (rawKey, []) }
        // ASCII without conditions, but not a name.
        if !ASCII.contains(byte: UInt8(ascii: "["), in: rawKey) && ASCII.isASCII(rawKey) { return nil }
        var key = Substring(rawKey)
        var conditions: [(key: String, value: String)] = []
        if let bracket = key.firstIndex(of: "[") {
            for condition in key[bracket...].split(separator: "]") {
                let body = condition.drop(while: { $0 == "[" })
                let pair = body.split(separator: "=", maxSplits: 1)
                if pair.count == 2 { conditions.append((String(pair[0]), String(pair[1]))) }
            }
            key = key[..<bracket]
        }
        guard !key.isEmpty, ASCII.allSatisfy(key, ASCII.isIdentifier, else: { $0.isLetter || $0.isNumber || $0 == "_" }) else { return nil }
        return (String(key), conditions)
    }
}
