import BundleKit
import Foundation
import LockstepSystem

/// How much a problem met while reading settings loses: `error` when settings are missing (a file that does not
/// exist, an include cycle), `warning` when the checkout only does not hold them. `check` reports each at that
/// severity (rule `settings.unresolved`); a `damaged` file (a binary property list that cannot be read) is no finding:
/// `check` refuses the input with exit 2, naming the file (`DamagedPropertyList`).
package enum ProblemWeight: Sendable {
    case warning, error, damaged
}

/// Where one build-setting assignment is written: an xcconfig line, or a configuration in project.pbxproj.
package struct SettingSource: Hashable {
    package var file: String
    /// The xcconfig line (1-based), or the spec's line for a setting an XcodeGen spec writes; nil for
    /// project.pbxproj (found when a finding needs it, `SourcePosition.pbxprojSetting`) and Xcode's defaults.
    package var line: Int?
    /// The pbxproj `XCBuildConfiguration` id, for `bump`.
    package var configurationID: String?
    /// "target 'Widget' [Release]", "the project [Release]", "Xcode's default".
    var owner: String
    /// Whether this is the target's own level (its xcconfig or its buildSettings), not the project's.
    package var targetLevel = false
    /// For a setting an XcodeGen spec writes: the bytes of its value in `file`, for `bump`.
    package var specRange: Range<Int>? = nil
    /// The column (1-based, in bytes) of the key (xcconfig) or the value (spec) on `line`.
    var column: Int? = nil

    var isDefault: Bool { file.isEmpty }
}

/// One `NAME[cond=value]… = value` assignment.
///
/// Immutable and shared, not a struct: every target of a configuration holds the same project-level assignments,
/// and a struct of seven strings costs seven reference counts each time a target's list is built or freed.
package final class SettingAssignment {
    /// The key as written, conditions included (`CURRENT_PROJECT_VERSION[sdk=iphoneos*]`), for `bump`.
    package let key: String
    let name: String
    let conditions: [(key: String, value: String)]
    package let value: String
    package let source: SettingSource
    /// Whether the value references no setting (has no `$`), so expands to itself.
    let isLiteral: Bool

    init(key: String, name: String, conditions: [(key: String, value: String)], value: String, source: SettingSource) {
        self.key = key
        self.name = name
        self.conditions = conditions
        self.value = value
        self.source = source
        isLiteral = !ASCII.contains(byte: UInt8(ascii: "$"), in: value)
    }

    /// Whether the value may use the assignment below it: it mentions `inherited` or its own name. Kept once per
    /// assignment, as the project's and Xcode's default assignments are expanded again for every target.
    private(set) lazy var buildsOnLower = !isLiteral && (ASCII.contains("inherited", in: value) || ASCII.contains(name, in: value))

    /// The value split at its references, read once per assignment (the project's and Xcode's defaults are expanded
    /// again for every target); nil for a literal, and for a value whose reference names are made of references.
    private(set) lazy var template = isLiteral ? nil : SettingTemplate(value)

    /// Whether the value was expanded before: a value expanded once (a target's own) is cheaper to scan than to
    /// split into a template.
    private var expandedBefore = false

    /// The template, from the second expansion on.
    fileprivate func repeatedTemplate() -> SettingTemplate? {
        guard expandedBefore else {
            expandedBefore = true
            return nil
        }
        return template
    }

    /// The numbers of the template's reference names in the project's `SettingNames`, kept with the names they are in.
    private var numbered: (names: SettingNames, numbers: [Int])?

    fileprivate func referenceNumbers(in names: SettingNames) -> [Int] {
        if let numbered, numbered.names === names { return numbered.numbers }
        let numbers = (template?.references ?? []).map { names.number(adding: $0.name) }
        numbered = (names, numbers)
        return numbers
    }

    /// `X` when the value is exactly `$(X)`, `${X}` or `$X` (`BuildSettings.soleReference`), and whether it uses
    /// `$(inherited)`: asked of the same project-level assignments for every target.
    package private(set) lazy var soleReference = isLiteral ? nil : BuildSettings.soleReference(value)
    package private(set) lazy var usesInherited = !isLiteral && ASCII.contains("$(inherited)", in: value)

    /// Where the assignment is written, as findings name it: the xcconfig and line, or the pbxproj and configuration
    /// (whose line `PbxprojPositions.located` finds when a finding needs it). Made once per assignment: the
    /// project's are reported for every target that inherits them.
    package private(set) lazy var location = source.line.map { SourceLocation(file: source.file, detail: "\(name), line \($0)", line: $0, column: source.column) }
        ?? {
            var location = SourceLocation(file: source.file, detail: ASCII.joined(name, " in ", source.owner))
            location.pbxprojSetting = source.configurationID.map { PbxprojSetting(key: key, object: $0) }
            return location
        }()

    /// Whether `other` assigns the same value to the same name under the same conditions, from the same kind of place
    /// (Xcode's default or not, the target's level or not): it differs at most in where it is written.
    func equalsButForWhereWritten(_ other: SettingAssignment) -> Bool {
        guard self !== other else { return true }
        return name == other.name && value == other.value && source.isDefault == other.source.isDefault
            && source.targetLevel == other.source.targetLevel && conditions.count == other.conditions.count
            && zip(conditions, other.conditions).allSatisfy { $0.key == $1.key && $0.value == $1.value }
    }

    /// The same assignment, at the target's own level or the project's.
    func atTargetLevel(_ targetLevel: Bool) -> SettingAssignment {
        guard source.targetLevel != targetLevel else { return self }
        var source = source
        source.targetLevel = targetLevel
        return SettingAssignment(key: key, name: name, conditions: conditions, value: value, source: source)
    }
}

/// A setting's value as text between references, for expanding it again and again without scanning it: what
/// `BuildSettings` reads byte by byte in any other text, read once. A class: it is handed around per target.
final class SettingTemplate {
    struct Reference {
        var name: String
        var modifiers: [String]
    }

    enum Piece {
        case text(String)
        /// A reference, and its place in `references`.
        case reference(Reference, Int)
    }

    let pieces: [Piece]
    let references: [Reference]

    /// nil when a reference's name is itself made of references (`$(A_$(B))`): its name is known only when expanded.
    init?(_ value: String) {
        func split(_ bytes: UnsafeBufferPointer<UInt8>) -> (pieces: [Piece], references: [Reference])? {
            var pieces: [Piece] = [], references: [Reference] = []
            var i = 0, text = 0
            while i < bytes.count {
                guard let (end, nameBytes) = BuildSettings.reference(in: bytes, at: i) else { i += 1; continue }
                if text < i { pieces.append(.text(String(decoding: bytes[text..<i], as: UTF8.self))) }
                let reference = String(decoding: bytes[nameBytes], as: UTF8.self)
                guard !ASCII.contains(byte: UInt8(ascii: "$"), in: reference) else { return nil }
                let (name, modifiers) = BuildSettings.nameAndModifiers(reference)
                pieces.append(.reference(Reference(name: name, modifiers: modifiers), references.count))
                references.append(Reference(name: name, modifiers: modifiers))
                i = end
                text = end
            }
            if text < bytes.count { pieces.append(.text(String(decoding: bytes[text...], as: UTF8.self))) }
            return (pieces, references)
        }
        guard let split = value.utf8.withContiguousStorageIfAvailable(split) ?? Array(value.utf8).withUnsafeBufferPointer(split) else {
            return nil
        }
        (pieces, references) = split
    }
}

/// A text that is expanded again and again (a string of an Info.plist that many targets share), with its template
/// and the numbers of its reference names in one project's `SettingNames`. A class: it is handed around per target.
final class ExpandableText {
    let text: String
    fileprivate let template: SettingTemplate?
    fileprivate let names: SettingNames
    fileprivate let numbers: [Int]

    init(_ text: String, names: SettingNames) {
        self.text = text
        self.names = names
        template = ASCII.contains(byte: UInt8(ascii: "$"), in: text) ? SettingTemplate(text) : nil
        numbers = (template?.references ?? []).map { names.number(adding: $0.name) }
    }
}

/// An xcconfig the checkout does not hold: an `#include` or `#include?` whose file does not exist, or a missing base
/// configuration file (`baseConfigurationReference`). Its settings are unknown, not empty (<doc:ReadingProjects> "What the
/// checkout does not hold").
package struct MissingInclude {
    var path: String
    /// The file that includes it, or the owner whose base configuration it is ("target 'App' [Release]").
    var includer: String
    var optional: Bool
    /// Whether it is a base configuration file rather than an include.
    var isBase = false

    /// The include to name for an unresolved setting: a missing required include is the likelier culprit
    /// than an optional local override, and a tool's generated file likelier than either.
    package static func likeliest(_ includes: [MissingInclude]) -> MissingInclude? {
        includes.first { $0.generator != nil && !$0.optional } ?? includes.first { $0.generator != nil }
            ?? includes.first { !$0.optional } ?? includes.first
    }

    /// The command that writes the file, when a tool generates it and git ignores it: CocoaPods' support files,
    /// Flutter's Generated.xcconfig. A checkout never holds these before that command runs.
    var generator: String? { Self.generator(of: path) }

    static func generator(of path: String) -> String? {
        if ASCII.contains("Pods/Target Support Files/", in: path) || ASCII.contains("/Pods/Pods-", in: path) { return "pod install" }
        if PathText.lastComponent(of: path) == "Generated.xcconfig" { return "flutter pub get" }
        if PathText.lastComponent(of: path) == "Flutter-Generated.xcconfig" { return "flutter pub get" }
        return nil
    }

    /// "It would have come from …": rule `settings.unresolved` asks to name the file (and the command).
    package var hint: String { "It would have come from \(source)." }

    /// The file, how it is referenced, and what writes it.
    var source: String {
        let written = generator.map { ", which `\($0)` writes" } ?? ""
        if isBase { return "'\(path)', the base configuration file of \(includer), which the checkout does not hold\(written)" }
        return "'\(path)', which \(includer) includes with \(optional ? "#include?" : "#include") but which the checkout does not hold\(written)"
    }
}

/// The setting names of one project, numbered as they are met: each target's `BuildSettings` indexes its
/// assignments by these numbers, in arrays, instead of hashing its own dictionary of every name it has.
final class SettingNames {
    /// An `IDTable`, not a dictionary: every target's own level is numbered, and SipHash of each name was most of it.
    private var numbers = IDTable<Int>(capacity: 256)

    var count: Int { numbers.count }

    func number(_ name: String) -> Int? { numbers[name] }

    func number(adding name: String) -> Int {
        if let number = numbers[name] { return number }
        let number = numbers.count
        numbers[name] = number
        return number
    }

    /// By `CheckedKey`: the number of its standard setting (`CheckedKey.standardSetting`), which the resolver and
    /// the rules ask every target for.
    private(set) lazy var standardSettings: [Int?] = CheckedKey.allCases.map { $0.standardSetting.map(number(adding:)) }
}

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

/// The build settings of one target in one configuration, with Xcode's precedence (<doc:ReadingProjects> "Reading real
/// projects"): defaults < project xcconfig < project < target xcconfig < target; `$(inherited)` and a
/// self-reference mean the next lower assignment; other references are late-bound over the whole stack.
package final class BuildSettings {
    /// Names that stay symbolic when expanded: signing-time values (rule `group.shared`).
    static let signingTimeNames: Set<String> = ["AppIdentifierPrefix", "TeamIdentifierPrefix"]

    /// Settings each developer sets for themselves, usually in a git-ignored file: left empty or undefined in a
    /// checkout, they are unknown, not empty (<doc:ReadingProjects> "What the checkout does not hold").
    /// (A list, not a set: it is asked of every empty value a target expands, and one comparison costs less than
    /// hashing the name.)
    static let perDeveloperNames: [String] = ["DEVELOPMENT_TEAM"]

    /// Whether a setting nothing here defines may be defined by a file the checkout does not hold (a missing base
    /// configuration or include): then it expands to its own unknown symbol `$(NAME)`, not to "".
    let hasUnknownSources: Bool

    /// The unknown symbol of `name`: its reference, kept in the expanded value so that rules can compare values
    /// built from the same unknown (<doc:ReadingProjects> "What the checkout does not hold").
    package static func unknownSymbol(_ name: String) -> String { "$(\(name))" }

    /// The assignments, low → high, kept as three runs: a target's own defaults, the defaults and project level its
    /// configuration shares with every target, and the target's own level. Indices run across the three. The shared
    /// run is the configuration's array, not a copy: copying it for each target retained and released each of its
    /// assignments (a fifth of resolving a target, with the shared index). A flat list is all in `own`.
    private let first: [SettingAssignment]
    private let shared: [SettingAssignment]
    private let own: [SettingAssignment]
    /// Where `shared` and `own` start.
    private let sharedStart: Int, ownStart: Int
    /// How many assignments there are.
    package let count: Int

    /// Assignment `index`, low → high.
    @inline(__always)
    package func assignment(at index: Int) -> SettingAssignment {
        index >= ownStart ? own[index - ownStart] : index >= sharedStart ? shared[index - sharedStart] : first[index]
    }

    /// The numbers of the setting names, shared with the other targets of the project.
    private let names: SettingNames
    /// By name number: the index of the last assignment of that name (-1 for none); `previous[i]` is the one before
    /// assignment `i` of the same name (-1 for none). A chain, not an array per name: one allocation per target, not
    /// one per setting. Names numbered after this target's settings were made are not defined here.
    private let last: [Int]
    private let previous: [Int]
    /// By assignment: its expansion's place in `expansions`, or `Self.unexpanded` or `Self.expanding`. Numbers, not
    /// optional values: most assignments of a target are never expanded, and an array of numbers costs nothing to free.
    private var expansion: [Int]
    private var expansions: [(value: String, unresolved: Set<String>)] = []
    private static let unexpanded = -1, expanding = -2
    /// The assignments whose expansion grew past `maximumLength`, in the order found: each now expands to "".
    private(set) var oversized: [SettingAssignment] = []
    /// How many expansions of other settings are under way (`A = $(B)`, `B = $(C)`, …).
    private var nesting = 0
    /// Real projects chain a handful of references; this bounds the stack for a generated or hostile one.
    private static let maximumNesting = 128

    /// The longest expanded value kept (64 KiB; real Xcode values are far shorter). A definition that uses
    /// `$(inherited)` twice doubles the value at each line, so a few dozen such lines would otherwise need gigabytes.
    static let maximumLength = 64 * 1024

    /// Settings defined only under conditions that do not hold here (`SUFFIX[config=Debug] = .debug` in Release):
    /// empty on purpose, so not unresolved.
    private let conditionallyDefined: Set<String>

    /// Every name looked up so far: what a resolution read, so that `TargetResolver` can tell whether another
    /// configuration's settings would have given it the same values (`readsTheSame`). Kept only when asked, for three runs.
    private let lookups: Lookups?

    /// The names a `BuildSettings` was asked for: one bit per name number, set through a pointer (an array property
    /// of a class is checked for exclusivity at every access, and a target looks up some fifty names), and the
    /// names asked for that had no number then.
    private final class Lookups {
        let words: Int
        let bits: UnsafeMutablePointer<UInt64>
        /// Whether a name numbered beyond the words made for these settings was looked up: then `readsTheSame` cannot
        /// tell. (The last word has room for up to 63 names numbered after these settings were made; those get their
        /// bit: such a name is in neither configuration's shared run, or `differing` marks it.)
        var numberedLater = false
        var unnumbered: [String] = []

        init(names: Int) {
            words = names / 64 + 1
            bits = .allocate(capacity: words)
            bits.initialize(repeating: 0, count: words)
        }

        deinit { bits.deallocate() }

        @inline(__always)
        func note(_ number: Int) {
            let word = number >> 6
            if word < words { bits[word] |= 1 << UInt64(number & 63) } else { numberedLater = true }
        }
    }

    /// - Parameters:
    ///   - assignments: low → high, already filtered to those whose conditions hold.
    ///   - conditionallyDefined: names whose assignments were filtered out.
    ///   - names: the numbers of setting names, shared by the targets of a project.
    ///   - hasUnknownSources: whether a file that would define settings is missing (`hasUnknownSources`).
    convenience init(assignments: [SettingAssignment], conditionallyDefined: Set<String> = [], names: SettingNames = SettingNames(),
                     hasUnknownSources: Bool = false) {
        self.init(first: [], shared: [], own: assignments, index: nil, conditionallyDefined: conditionallyDefined, names: names,
                  hasUnknownSources: hasUnknownSources)
    }

    /// Settings in three runs (`first`, `shared`, `own`), whose conditions all hold.
    /// - Parameter index: the name index of `first` followed by `shared`, made with the same `names` (every target of a
    ///   configuration has the same names in `first`: its defaults that depend on the target).
    /// - Parameter recordingLookups: whether to record the names looked up, for `readsTheSame` (three runs only).
    init(first: [SettingAssignment], shared: [SettingAssignment], own: [SettingAssignment], index: NameIndex?,
         conditionallyDefined: Set<String> = [], names: SettingNames, hasUnknownSources: Bool, recordingLookups: Bool = false) {
        self.first = first
        self.shared = shared
        self.own = own
        sharedStart = first.count
        ownStart = first.count + shared.count
        count = ownStart + own.count
        self.conditionallyDefined = conditionallyDefined
        self.hasUnknownSources = hasUnknownSources
        self.names = names
        expansion = Array(repeating: Self.unexpanded, count: count)
        // The index of the first two runs is the configuration's; only the target's own level is numbered here.
        // Built in locals, not in the properties (each access to a class's property is checked for exclusivity).
        precondition(ownStart == 0 || index?.names.count == ownStart, "a shared name index covers the first two runs")
        let numbers = own.map { names.number(adding: $0.name) }
        var last = index?.last ?? []
        last.append(contentsOf: repeatElement(-1, count: names.count - last.count))
        var previous = index?.previous ?? []
        previous.append(contentsOf: repeatElement(-1, count: count - previous.count))
        for (index, number) in zip(ownStart..., numbers) {
            previous[index] = last[number]
            last[number] = index
        }
        self.last = last
        self.previous = previous
        lookups = index != nil && recordingLookups ? Lookups(names: names.count) : nil
    }

    /// Whether every setting these settings looked up has the same assignments in `other`, but for where they are
    /// written: then whatever was read from these, expanded, would read the same from `other`. Both must be made of
    /// three runs with the same first run (the target's defaults); `differing` says, by name number, which names the
    /// shared runs assign differently.
    /// - Returns: false also when these settings did not record what they looked up.
    func readsTheSame(in other: BuildSettings, differing: [Bool]) -> Bool {
        guard let lookups, !lookups.numberedLater, first.count == other.first.count, hasOwnRun(alike: other.own) else { return false }
        for word in 0..<lookups.words {
            var rest = lookups.bits[word]
            while rest != 0 {
                let number = word * 64 + rest.trailingZeroBitCount
                rest &= rest - 1
                if number < differing.count, differing[number] { return false }
            }
        }
        // A name nothing numbered when it was looked up was defined nowhere then; the other may define it.
        return !lookups.unnumbered.contains { other.isDefined($0) }
    }

    /// Whether `own` is this target level's run but for where its assignments are written.
    func hasOwnRun(alike own: [SettingAssignment]) -> Bool {
        self.own.count == own.count && zip(self.own, own).allSatisfy { $0.equalsButForWhereWritten($1) }
    }

    /// Which assignment of a list is the last of each name, and which one each assignment builds on: numbering every
    /// name of every target costs more than copying this for the names targets share.
    struct NameIndex {
        fileprivate var names: [String] = []
        fileprivate var last: [Int] = []
        fileprivate var previous: [Int] = []

        init(_ assignments: some Sequence<SettingAssignment>, names numbers: SettingNames) {
            for assignment in assignments {
                let number = numbers.number(adding: assignment.name)
                if number >= last.count { last += Array(repeating: -1, count: number + 1 - last.count) }
                previous.append(last[number])
                last[number] = names.count
                names.append(assignment.name)
            }
        }
    }

    /// Whether `[config=…][sdk=…][arch=…]` hold for `configuration` on `sdk` (arm64). Unknown keys match only `*`.
    static func conditionsHold(_ conditions: [(key: String, value: String)], configuration: String, sdk: String) -> Bool {
        conditions.allSatisfy { condition in
            switch condition.key {
            case "config": return FileSystem.matches(condition.value, configuration)
            case "sdk": return FileSystem.matches(condition.value, sdk)
            case "arch": return FileSystem.matches(condition.value, "arm64")
            case "variant": return FileSystem.matches(condition.value, "normal")
            default: return condition.value == "*"
            }
        }
    }

    /// The index of the winning assignment of `name` below `limit`.
    package func winner(_ name: String, below limit: Int = .max) -> Int? {
        var index = lastIndex(name)
        while index >= limit { index = previous[index] }
        return index >= 0 ? index : nil
    }

    /// The index of the winning assignment of the name numbered `number` in `names`.
    private func winner(number: Int) -> Int? {
        lookups?.note(number)
        return number < last.count && last[number] >= 0 ? last[number] : nil
    }

    /// The index of the last assignment of `name`, or -1.
    private func lastIndex(_ name: String) -> Int {
        guard let number = names.number(name) else {
            lookups?.unnumbered.append(name)
            return -1
        }
        lookups?.note(number)
        return number < last.count ? last[number] : -1
    }

    /// The indices of every assignment of `name`, low → high.
    private func indices(of name: String) -> [Int] {
        var result: [Int] = []
        var index = lastIndex(name)
        while index >= 0 { result.append(index); index = previous[index] }
        return result.reversed()
    }

    /// Whether anything (a default included) defines `name`.
    func isDefined(_ name: String) -> Bool { lastIndex(name) >= 0 }

    /// The index of the winning assignment of `checked`'s standard setting (`CheckedKey.standardSetting`).
    package func winner(standardOf checked: CheckedKey) -> Int? {
        names.standardSettings[checked.rawValue].flatMap(winner(number:))
    }

    /// `isDefined(_:)` of the name numbered `number` in these settings' `SettingNames`.
    func isDefined(number: Int) -> Bool { winner(number: number) != nil }

    /// The expanded value of `name`, and the names it referenced that nothing defines.
    package func value(_ name: String) -> (value: String, unresolved: Set<String>) {
        guard let index = winner(name) else { return ("", []) }
        return value(winning: index)
    }

    /// `value(_:)` of the name numbered `number` in these settings' `SettingNames`.
    func value(number: Int) -> (value: String, unresolved: Set<String>) {
        guard let index = winner(number: number) else { return ("", []) }
        return value(winning: index)
    }

    /// The expanded value of assignment `index` (the winning one of a setting, or a lower one that `$(inherited)`
    /// names), computed once per assignment: expanding `$(inherited)$(inherited)` afresh at each use would double
    /// the work at each line.
    private func value(winning index: Int) -> (value: String, unresolved: Set<String>) {
        // Most values are literals, which expand to themselves: nothing to keep. (Past the nesting bound, or too
        // long to keep, `expandOnce` decides as for any value.)
        let assignment = self.assignment(at: index)
        if assignment.isLiteral, nesting < Self.maximumNesting, assignment.value.utf8.count <= Self.maximumLength {
            return (assignment.value, [])
        }
        if expansion[index] >= 0 { return expansions[expansion[index]] }
        // The lower assignments this one builds on, lowest first and one at a time: recursing down thousands of
        // `$(inherited)` lines would overflow the stack.
        var chain: [Int] = []
        var top = index
        while self.assignment(at: top).buildsOnLower, previous[top] >= 0, expansion[previous[top]] == Self.unexpanded {
            top = previous[top]
            chain.append(top)
        }
        for lower in chain.reversed() { _ = expandOnce(lower) }
        return expandOnce(index)
    }

    private func expandOnce(_ index: Int) -> (value: String, unresolved: Set<String>) {
        if expansion[index] >= 0 { return expansions[expansion[index]] }
        // A cycle, or a chain of references between different settings too deep to follow: empty, no crash.
        guard expansion[index] != Self.expanding, nesting < Self.maximumNesting else { return ("", []) }
        expansion[index] = Self.expanding
        nesting += 1
        var unresolved: Set<String> = []
        let assignment = self.assignment(at: index)
        var value = assignment.isLiteral ? assignment.value
            : assignment.repeatedTemplate().map { expand($0, numbers: assignment.referenceNumbers(in: names), at: index, unresolved: &unresolved) }
                ?? expand(assignment.value, at: index, unresolved: &unresolved)
        nesting -= 1
        if value.utf8.count > Self.maximumLength {
            oversized.append(self.assignment(at: index))
            value = ""
        }
        expansion[index] = expansions.count
        // A target expands a few settings (its product and executable names, …): room for them at once, not
        // one reallocation after another.
        if expansions.isEmpty { expansions.reserveCapacity(8) }
        expansions.append((value, unresolved))
        return (value, unresolved)
    }

    /// Expands `text` over these settings; `overlay` adds values (e.g. `CFBundleIdentifier` in entitlements).
    func expand(_ text: String, overlay: [String: String] = [:], keepSymbolic: Bool = false, unresolved: inout Set<String>) -> String {
        expand(text, at: nil, overlay: overlay, keepSymbolic: keepSymbolic, unresolved: &unresolved)
    }

    private func expand(_ text: String, at index: Int?, overlay: [String: String] = [:], keepSymbolic: Bool = false, unresolved: inout Set<String>, depth: Int = 0) -> String {
        guard ASCII.contains(byte: UInt8(ascii: "$"), in: text), depth < 32 else { return text }
        // Scanned as UTF-8 bytes: every delimiter is ASCII, and a multi-byte UTF-8 sequence never contains an ASCII
        // byte, so slicing at delimiters keeps every non-ASCII character whole (and costs no Unicode lookups).
        func run(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
            expand(bytes: bytes, at: index, overlay: overlay, keepSymbolic: keepSymbolic, unresolved: &unresolved, depth: depth)
        }
        return text.utf8.withContiguousStorageIfAvailable(run) ?? Array(text.utf8).withUnsafeBufferPointer(run)
    }

    private func expand(bytes: UnsafeBufferPointer<UInt8>, at index: Int?, overlay: [String: String], keepSymbolic: Bool, unresolved: inout Set<String>, depth: Int) -> String {
        var out: [UInt8] = []
        // Not for a text that may be one whole reference, which needs no copy.
        if bytes.first != UInt8(ascii: "$") { out.reserveCapacity(bytes.count) }
        var i = 0, text = 0
        while i < bytes.count {
            guard let (end, nameBytes) = Self.reference(in: bytes, at: i) else { i += 1; continue }
            out.append(contentsOf: bytes[text..<i])
            var reference = String(decoding: bytes[nameBytes], as: UTF8.self)
            // Nested references in the name: `$(A_$(B))`.
            if ASCII.contains(byte: UInt8(ascii: "$"), in: reference) {
                reference = expand(reference, at: index, overlay: overlay, keepSymbolic: keepSymbolic, unresolved: &unresolved, depth: depth + 1)
            }
            let (name, modifiers) = Self.nameAndModifiers(reference)
            if keepSymbolic && Self.signingTimeNames.contains(name) {
                out.append(contentsOf: bytes[i..<end])
            } else {
                let value = substitute(name, number: nil, modifiers: modifiers, at: index, overlay: overlay, unresolved: &unresolved)
                // The whole text is one reference (`$(PRODUCT_BUNDLE_IDENTIFIER)`, the commonest value): its value as is.
                if i == 0 && end == bytes.count { return value }
                out.append(contentsOf: value.utf8)
                // A setting's value already too long to keep: `value(winning:)` discards it, so stop copying.
                if index != nil, out.count > Self.maximumLength { return String(decoding: out, as: UTF8.self) }
            }
            i = end
            text = end
        }
        out.append(contentsOf: bytes[text...])
        return String(decoding: out, as: UTF8.self)
    }

    /// `expand(text.text, unresolved:)`, from the text's template when it has one.
    func expand(_ text: ExpandableText, unresolved: inout Set<String>) -> String {
        guard let template = text.template, text.names === names else { return expand(text.text, unresolved: &unresolved) }
        return expand(template, numbers: text.numbers, at: nil, unresolved: &unresolved)
    }

    /// A text (assignment `index`'s value, when it has an index) expanded from its template: as `expand(bytes:)`
    /// would, without reading the text again. `numbers` are the numbers of the template's reference names.
    private func expand(_ template: SettingTemplate, numbers: [Int], at index: Int?, unresolved: inout Set<String>) -> String {
        var out: [UInt8] = []
        for piece in template.pieces {
            switch piece {
            case .text(let text):
                out.append(contentsOf: text.utf8)
            case .reference(let reference, let position):
                let value = substitute(reference.name, number: numbers[position], modifiers: reference.modifiers, at: index,
                                       overlay: [:], unresolved: &unresolved)
                if template.pieces.count == 1 { return value }
                out.append(contentsOf: value.utf8)
                if index != nil, out.count > Self.maximumLength { return String(decoding: out, as: UTF8.self) }
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// What one reference stands for: its setting's value (for `$(inherited)` and a self-reference in the expansion
    /// of assignment `index`, the next lower assignment's), with `modifiers` applied. A name nothing defines is
    /// added to `unresolved`, unless a `default=` modifier or a condition that does not hold explains it.
    /// - Parameter number: the name's number in `names`, when known.
    private func substitute(_ name: String, number: Int?, modifiers: [String], at index: Int?, overlay: [String: String], unresolved: inout Set<String>) -> String {
        var value: String
        if let overlaid = overlay[name] {
            value = overlaid
        } else if let index, name == "inherited" || name == self.assignment(at: index).name {
            // The next lower assignment of the same setting. Only a setting's own expansion has an index, and that
            // never has an overlay or keeps names symbolic, so the memo of the lower assignment is its value here.
            if previous[index] >= 0 {
                let resolved = self.value(winning: previous[index])
                value = resolved.value
                unresolved.formUnion(resolved.unresolved)
            } else {
                value = ""
            }
        } else if name == "inherited" {
            value = ""
        } else if let winning = number.map(winner(number:)) ?? winner(name) {
            let resolved = self.value(winning: winning)
            value = resolved.value
            unresolved.formUnion(resolved.unresolved)
            if value.isEmpty, Self.perDeveloperNames.contains(name), !modifiers.contains(where: { $0.hasPrefix("default=") }) {
                // Left empty for each developer to fill in: unknown, not empty.
                unresolved.insert(name)
                return Self.unknownSymbol(name)
            }
        } else {
            value = ""
            if !modifiers.contains(where: { $0.hasPrefix("default=") }) && !conditionallyDefined.contains(name) {
                unresolved.insert(name)
                // A file the checkout does not hold may define it, or each developer does: unknown, kept as its
                // symbol (no modifier applies to what is not known).
                // Signing-time values (`$(AppIdentifierPrefix)` in an Info.plist) are Xcode's own, set when it signs.
                if hasUnknownSources || Self.perDeveloperNames.contains(name) || Self.signingTimeNames.contains(name) {
                    return Self.unknownSymbol(name)
                }
            }
        }
        for modifier in modifiers { value = Self.apply(modifier, to: value) }
        return value
    }

    /// The names of `unresolved` that stayed unknown symbols in `value`, rather than expanding to "".
    package static func unknownNames(in value: String, among unresolved: Set<String>) -> [String] {
        // Nearly every value resolves: no filtered set and no sort for it (1.2 M instructions of a 200-target check).
        guard !unresolved.isEmpty else { return [] }
        return unresolved.filter { ASCII.contains(unknownSymbol($0), in: value) }.sorted()
    }

    /// The reference starting at `i` — `$(NAME…)`, `${NAME…}` (up to the bracket that closes the first) or `$NAME` —
    /// as where it ends and the bytes of its name; nil when `i` starts none (a lone or unclosed `$` is text).
    fileprivate static func reference(in bytes: UnsafeBufferPointer<UInt8>, at i: Int) -> (end: Int, name: Range<Int>)? {
        guard bytes[i] == UInt8(ascii: "$"), i + 1 < bytes.count else { return nil }
        let next = bytes[i + 1]
        if next == UInt8(ascii: "(") || next == UInt8(ascii: "{") {
            var level = 0
            var j = i + 1
            while j < bytes.count {
                let b = bytes[j]
                if b == UInt8(ascii: "(") || b == UInt8(ascii: "{") { level += 1 }
                if b == UInt8(ascii: ")") || b == UInt8(ascii: "}") { level -= 1; if level == 0 { break } }
                j += 1
            }
            return j < bytes.count ? (j + 1, (i + 2)..<j) : nil
        }
        guard next == UInt8(ascii: "_") || ASCII.isLetter(next) else { return nil }
        var j = i + 1
        while j < bytes.count, bytes[j] == UInt8(ascii: "_") || ASCII.isLetter(bytes[j]) || ASCII.isDigit(bytes[j]) { j += 1 }
        return (j, (i + 1)..<j)
    }

    /// `NAME:lower:rfc1034identifier` → ("NAME", ["lower", "rfc1034identifier"]).
    fileprivate static func nameAndModifiers(_ reference: String) -> (name: String, modifiers: [String]) {
        guard ASCII.contains(byte: UInt8(ascii: ":"), in: reference) else { return (reference, []) }
        var parts = reference.split(separator: ":", maxSplits: 1).map(String.init)
        let name = parts.isEmpty ? "" : parts.removeFirst()
        return (name, parts.first.map(Self.modifiers) ?? [])
    }

    /// `lower:rfc1034identifier` → ["lower", "rfc1034identifier"]; `default=a:b` stays whole.
    private static func modifiers(_ text: String) -> [String] {
        var result: [String] = []
        var rest = Substring(text)
        while !rest.isEmpty {
            if rest.hasPrefix("default=") { result.append(String(rest)); break }
            let piece = rest.prefix(while: { $0 != ":" })
            result.append(String(piece))
            rest = rest.dropFirst(piece.count).drop(while: { $0 == ":" })
        }
        return result
    }

    private static func apply(_ modifier: String, to value: String) -> String {
        switch modifier {
        case "lower": return value.lowercased()
        case "upper": return value.uppercased()
        case "rfc1034identifier":
            return String(value.map { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == ".") ? $0 : "-" })
        case "c99extidentifier", "identifier":
            var out = String(value.map { $0.isASCII && ($0.isLetter || $0.isNumber) || $0 == "_" ? $0 : "_" })
            if let first = out.first, first.isNumber { out = "_" + out }
            return out
        case "base":
            let file = PathText.lastComponent(of: value)
            return file.firstIndex(of: ".").map { String(file[..<$0]) } ?? file
        case "file": return PathText.lastComponent(of: value)
        case "dir": return PathText.parent(of: value)
        case "suffix":
            let file = PathText.lastComponent(of: value)
            return file.lastIndex(of: ".").map { String(file[$0...]) } ?? ""
        default:
            if modifier.hasPrefix("default="), value.isEmpty { return String(modifier.dropFirst("default=".count)) }
            return value
        }
    }

    /// The assignments that a change of `name` would have to edit: every non-default assignment of it, and —
    /// when one is only a reference (`CURRENT_PROJECT_VERSION = $(BUILD_NUMBER)`) — those of the setting it names.
    package func definitions(of name: String, seen: Set<String> = []) -> [SettingAssignment] {
        guard !seen.contains(name) else { return [] }
        var result: [SettingAssignment] = []
        for index in indices(of: name) where !self.assignment(at: index).source.isDefault {
            let assignment = self.assignment(at: index)
            result.append(assignment)
            if let referenced = assignment.soleReference, referenced != name, referenced != "inherited" {
                result += definitions(of: referenced, seen: seen.union([name]))
            }
        }
        return result
    }

    /// The assignment that decided `name`'s value, following a value that is only a reference to another setting.
    /// - Parameter number: `name`'s number in these settings' `SettingNames`, when the caller knows it.
    func origin(of name: String, number: Int? = nil, depth: Int = 0) -> SettingAssignment? {
        guard let index = number.map(winner(number:)) ?? winner(name), depth < 16 else { return nil }
        let assignment = self.assignment(at: index)
        if let referenced = assignment.soleReference, referenced != name, referenced != "inherited",
           let deeper = origin(of: referenced, depth: depth + 1) {
            return deeper
        }
        // The next lower assignment of the same name.
        if assignment.usesInherited || assignment.soleReference == name, previous[index] >= 0 {
            return self.assignment(at: previous[index])
        }
        return assignment
    }

    /// `X` when `text` is exactly `$(X)`, `${X}` or `$X`.
    package static func soleReference(_ text: String) -> String? {
        if ASCII.isASCII(text), let name = text.utf8.withContiguousStorageIfAvailable({ buffer -> String? in
            // The same test on bytes: in ASCII text only a space and a tab are `.whitespaces`.
            var bytes = buffer[...]
            while let first = bytes.first, first == 0x20 || first == 0x09 { bytes = bytes.dropFirst() }
            while let last = bytes.last, last == 0x20 || last == 0x09 { bytes = bytes.dropLast() }
            guard bytes.first == UInt8(ascii: "$") else { return nil }
            var inner = bytes.dropFirst()
            if inner.first == UInt8(ascii: "("), inner.count >= 2, inner.last == UInt8(ascii: ")") { inner = inner.dropFirst().dropLast() }
            else if inner.first == UInt8(ascii: "{"), inner.count >= 2, inner.last == UInt8(ascii: "}") { inner = inner.dropFirst().dropLast() }
            return !inner.isEmpty && inner.allSatisfy(ASCII.isIdentifier) ? String(decoding: inner, as: UTF8.self) : nil
        }) {
            return name
        }
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        var inner: Substring
        if trimmed.hasPrefix("$("), trimmed.hasSuffix(")") { inner = trimmed.dropFirst(2).dropLast() }
        else if trimmed.hasPrefix("${"), trimmed.hasSuffix("}") { inner = trimmed.dropFirst(2).dropLast() }
        else if trimmed.hasPrefix("$") { inner = trimmed.dropFirst() }
        else { return nil }
        return !inner.isEmpty && inner.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" }) ? String(inner) : nil
    }

    /// The names `text` references directly (not through other settings), for "which setting made this value".
    /// - Parameter limit: the most names wanted (the first one says where a value came from).
    package static func references(in text: String, limit: Int = .max) -> [String] {
        if ASCII.isASCII(text), let names = text.utf8.withContiguousStorageIfAvailable({ bytes -> [String] in
            // The same scan on bytes (ASCII letters and digits are the only ASCII `isLetter`/`isNumber`).
            var names: [String] = []
            var i = 0
            while names.count < limit, let dollar = bytes[i...].firstIndex(of: UInt8(ascii: "$")) {
                i = dollar + 1
                if i < bytes.count, bytes[i] == UInt8(ascii: "(") || bytes[i] == UInt8(ascii: "{") { i += 1 }
                let start = i
                while i < bytes.count, ASCII.isIdentifier(bytes[i]) { i += 1 }
                if i > start { names.append(String(decoding: bytes[start..<i], as: UTF8.self)) }
            }
            return names
        }) {
            return names
        }
        var names: [String] = []
        var rest = Substring(text)
        while names.count < limit, let dollar = rest.firstIndex(of: "$") {
            rest = rest[rest.index(after: dollar)...]
            let open = rest.first
            if open == "(" || open == "{" { rest = rest.dropFirst() }
            let name = rest.prefix(while: { $0.isLetter || $0.isNumber || $0 == "_" })
            if !name.isEmpty { names.append(String(name)) }
            rest = rest.dropFirst(name.count)
        }
        return names
    }
}

/// ASCII character classes on UTF-8 bytes: build-setting names and references are ASCII, and testing a byte is
/// far cheaper than a Unicode property lookup on a `Character` (which `check` would do for every byte of every
/// setting of every target).
package enum ASCII {
    package static func isLetter(_ byte: UInt8) -> Bool { (byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "z") }
    package static func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }
    /// `[A-Za-z0-9_]`.
    static func isIdentifier(_ byte: UInt8) -> Bool { isLetter(byte) || isDigit(byte) || byte == UInt8(ascii: "_") }
    package static func isASCII(_ text: some StringProtocol) -> Bool {
        let fast = text.utf8.withContiguousStorageIfAvailable { buffer -> Bool in
            // Eight bytes at a time: no byte has its top bit set.
            let raw = UnsafeRawBufferPointer(buffer)
            var i = 0
            while i + 8 <= raw.count {
                if raw.loadUnaligned(fromByteOffset: i, as: UInt64.self) & 0x8080_8080_8080_8080 != 0 { return false }
                i += 8
            }
            while i < raw.count {
                if raw[i] >= 0x80 { return false }
                i += 1
            }
            return true
        }
        return fast ?? text.utf8.allSatisfy { $0 < 0x80 }
    }

    /// `text.utf8.contains(byte)`, searched in the contiguous UTF-8: iterating a `String.UTF8View` generically costs
    /// many times more, and `check` asks this of every setting of every target.
    package static func contains(byte: UInt8, in text: some StringProtocol) -> Bool {
        text.utf8.withContiguousStorageIfAvailable { $0.contains(byte) } ?? text.utf8.contains(byte)
    }

    /// `text.utf8.allSatisfy(test)`, tested in the contiguous UTF-8 (iterating a `String.UTF8View` generically costs
    /// many times more).
    package static func allSatisfy(_ text: String, _ test: (UInt8) -> Bool) -> Bool {
        text.utf8.withContiguousStorageIfAvailable { $0.allSatisfy(test) } ?? text.utf8.allSatisfy(test)
    }

    /// ASCII without a carriage return: one `Character` per byte ("\r\n" is one Character), so counts, prefixes and
    /// offsets in bytes are the same as in Characters. Both tests in one pass of eight bytes a step, on a `String`:
    /// the rules ask it of every bundle path and identifier, from other modules, where a generic version ran
    /// unspecialized.
    package static func isOneBytePerCharacter(_ text: String) -> Bool {
        var text = text
        return text.withUTF8 { buffer in
            let raw = UnsafeRawBufferPointer(buffer)
            var i = 0
            while i + 8 <= raw.count {
                let word = raw.loadUnaligned(fromByteOffset: i, as: UInt64.self)
                // A zero byte of `word ^ 0x0D…` is a carriage return (the classic has-zero-byte test, exact when
                // no byte has its top bit set, which the first test rules out).
                let carriageReturns = word ^ 0x0D0D_0D0D_0D0D_0D0D
                let hasCarriageReturn = (carriageReturns &- 0x0101_0101_0101_0101) & ~carriageReturns & 0x8080_8080_8080_8080
                if word & 0x8080_8080_8080_8080 != 0 || hasCarriageReturn != 0 { return false }
                i += 8
            }
            while i < raw.count {
                if raw[i] >= 0x80 || raw[i] == 0x0D { return false }
                i += 1
            }
            return true
        }
    }

    /// The strings one after another, made at their final size: an interpolation grows its buffer as it goes, an
    /// allocation and a copy each time (a name between two literals cost 2,000 instructions; the names of every
    /// target, bundle path and setting source were a sixteenth of a 200-target check).
    @inlinable
    package static func joined(_ parts: String...) -> String {
        var count = 0
        for part in parts { count += part.utf8.count }
        return String(unsafeUninitializedCapacity: count) { buffer in
            var offset = 0
            for var part in parts {
                // Native and small strings have contiguous UTF-8; a bridged one is made so.
                part.withUTF8 { bytes in
                    if let source = bytes.baseAddress { (buffer.baseAddress! + offset).update(from: source, count: bytes.count) }
                    offset += bytes.count
                }
            }
            return offset
        }
    }

    /// `text.replacingOccurrences(of: target, with: replacement)`, done on bytes when both are ASCII (where
    /// Foundation's comparison is byte equality); Foundation's otherwise.
    package static func replacing(_ target: String, with replacement: String, in text: String) -> String {
        guard isASCII(text), isASCII(target), !target.isEmpty else {
            return text.replacingOccurrences(of: target, with: replacement)
        }
        let bytes = Array(text.utf8), needle = Array(target.utf8)
        guard bytes.count >= needle.count else { return text }
        var out: [UInt8] = []
        var i = 0, copied = 0
        while i + needle.count <= bytes.count {
            if bytes[i] == needle[0] && bytes[i..<(i + needle.count)].elementsEqual(needle) {
                if out.isEmpty { out.reserveCapacity(bytes.count) }
                out += bytes[copied..<i]
                out += replacement.utf8
                i += needle.count
                copied = i
            } else {
                i += 1
            }
        }
        guard copied > 0 else { return text }
        out += bytes[copied...]
        return String(decoding: out, as: UTF8.self)
    }

    /// `text.utf8.starts(with: prefix.utf8)`, compared in the contiguous UTF-8.
    package static func hasPrefix(_ prefix: String, _ text: String) -> Bool {
        guard prefix.utf8.count <= text.utf8.count else { return false }
        let fast = text.utf8.withContiguousStorageIfAvailable { bytes in
            prefix.utf8.withContiguousStorageIfAvailable { UnsafeBufferPointer(rebasing: bytes[..<$0.count]).elementsEqual($0) }
        }
        return (fast ?? nil) ?? text.utf8.starts(with: prefix.utf8)
    }

    /// `text.contains(target)` (Foundation's), done on bytes when both are ASCII, in place (no copy of either): the
    /// C library's `memchr` finds each place the first byte is, `memcmp` compares the rest. `check` asks this of
    /// every setting it expands and of every finding's message.
    package static func contains(_ target: String, in text: String) -> Bool {
        guard isASCII(text), isASCII(target), !target.isEmpty else { return text.contains(target) }
        var text = text, target = target
        return text.withUTF8 { bytes in
            target.withUTF8 { needle in
                guard bytes.count >= needle.count, let base = bytes.baseAddress, let first = needle.baseAddress else { return false }
                let last = base + (bytes.count - needle.count)
                var start = base
                while start <= last, let found = memchr(start, Int32(first.pointee), last - start + 1) {
                    let candidate = UnsafePointer(found.assumingMemoryBound(to: UInt8.self))
                    if memcmp(candidate, first, needle.count) == 0 { return true }
                    start = candidate + 1
                }
                return false
            }
        }
    }

    /// `text.allSatisfy(unicode)`, tested on bytes with `ascii` when the text is ASCII. Only for predicates that
    /// agree on ASCII (`isLetter`/`isNumber` are exactly `[A-Za-z]`/`[0-9]` there; "\r\n", one `Character`, fails both).
    static func allSatisfy(_ text: Substring, _ ascii: (UInt8) -> Bool, else unicode: (Character) -> Bool) -> Bool {
        isASCII(text) ? text.utf8.allSatisfy(ascii) : text.allSatisfy(unicode)
    }
}

extension BundleRecord {
    /// The unknown settings `value` is built from, by name.
    package func unknownNames(in value: String?) -> [String] {
        guard let value, !unknowns.isEmpty, ASCII.contains(byte: UInt8(ascii: "$"), in: value) else { return [] }
        return unknowns.keys.filter { ASCII.contains(BuildSettings.unknownSymbol($0), in: value) }.sorted()
    }
}
