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
    func repeatedTemplate() -> SettingTemplate? {
        guard expandedBefore else {
            expandedBefore = true
            return nil
        }
        return template
    }

    /// The numbers of the template's reference names in the project's `SettingNames`, kept with the names they are in.
    private var numbered: (names: SettingNames, numbers: [Int])?

    func referenceNumbers(in names: SettingNames) -> [Int] {
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
    let template: SettingTemplate?
    let names: SettingNames
    let numbers: [Int]

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
