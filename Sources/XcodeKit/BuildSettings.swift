import BundleKit
import Foundation
import LockstepSystem

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
    /// added to `unresolved`, unless a `default=` modifier or a condition that does not hold explains it (a `default=`
    /// does not when a file that may define the name is missing).
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
            let defaulted = modifiers.contains(where: { $0.hasPrefix("default=") })
            if defaulted, hasUnknownSources, !conditionallyDefined.contains(name) {
                // `$(PAID:default=NO)` where a missing `#include?` file may set PAID (Provenance's CodeSigning.xcconfig):
                // the default is what this checkout builds, not what the file's owner builds, so it is unknown too.
                unresolved.insert(name)
                return Self.unknownSymbol(name)
            }
            if !defaulted && !conditionallyDefined.contains(name) {
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
    static func reference(in bytes: UnsafeBufferPointer<UInt8>, at i: Int) -> (end: Int, name: Range<Int>)? {
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
    static func nameAndModifiers(_ reference: String) -> (name: String, modifiers: [String]) {
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
