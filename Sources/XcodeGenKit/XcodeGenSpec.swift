import BundleKit
import Foundation
import XcodeKit

/// An XcodeGen spec (`project.yml`), read into the project `xcodegen generate` would write from it, so that `check`
/// and `bump` apply the same resolver and rules as to an `.xcodeproj` (<doc:ReadingProjects> "Reading real projects").
///
/// What is modelled is XcodeGen 2.x's own behaviour (its `SpecFile`, `SettingsBuilder`, `PBXProjGenerator` and
/// `InfoPlistGenerator`): `include:` with `relativePaths`, `${ENV}` expansion, the `:REPLACE` merge, target
/// templates, multi-platform targets, setting presets, `bundleIdPrefix`, the embed defaults of `dependencies`, and
/// the Info.plist and entitlements files XcodeGen writes from `info:` and `entitlements:`.
package enum XcodeGenSpec {
    /// The spec at `path`: a `*.yml`/`*.yaml` file, a `*.json` XcodeGen spec (not a manifest), or a folder holding
    /// `project.yml` or `xcodegen.yml` and no `.xcodeproj`. Nil when `path` is none of these.
    package static func specPath(for path: String) -> String? {
        var trimmed = path
        while trimmed.count > 1 && trimmed.hasSuffix("/") { trimmed.removeLast() }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: trimmed, isDirectory: &isDirectory) else { return nil }
        if isDirectory.boolValue {
            return ["project.yml", "project.yaml", "xcodegen.yml", "xcodegen.yaml"].lazy
                .map { PathText.join(trimmed, $0) }.first { FileManager.default.fileExists(atPath: $0) }
        }
        let lower = trimmed.lowercased()
        if lower.hasSuffix(".yml") || lower.hasSuffix(".yaml") { return trimmed }
        if lower.hasSuffix(".json"), let bytes = InputFile.readIfPresent(trimmed),
           case .object(let object)? = try? JSONValue.parse(bytes, path: trimmed),
           object["targets"] != nil, object["app"] == nil, object["manifestVersion"] == nil {
            return trimmed
        }
        return nil
    }

    /// Reads the spec at `path` with the environment `${NAME}` references expand to.
    /// - Throws: `BundleError.invalidSpec` naming the file (and line and column) for anything XcodeGen would refuse.
    package static func load(_ path: String, environment: [String: String] = ProcessInfo.processInfo.environment) throws(BundleError) -> SpecProject {
        var loader = SpecLoader(environment: environment)
        let root = try loader.load(path)
        return try SpecProject(path: path, root: root)
    }
}

// MARK: - Loading: files, includes, variables, merging

private struct SpecLoader {
    let environment: [String: String]
    /// Files being read, to refuse an include cycle; XcodeGen reads a file included twice once.
    var reading: [String] = []
    var cache: [String: YAMLNode] = [:]

    init(environment: [String: String]) { self.environment = environment }

    /// The spec at `path`, its includes merged under it (they are the base, the including file wins).
    ///
    /// XcodeGen's `SpecFile`: each file has a base folder and a relative folder. An include is read from
    /// `base + include.path`; with `relativePaths` (the default) its base becomes `base + relative` and its relative
    /// folder the include's own folder, and its paths are rewritten relative to the root (`accumulated`).
    mutating func load(_ path: String, base: String? = nil, relative: String = "", accumulated: String = "") throws(BundleError) -> YAMLNode {
        let key = PathText.existing(path) ?? path
        if let cached = cache[key] { return cached }
        guard !reading.contains(key) else {
            throw BundleError(.invalidSpec, path: path, detail: "it includes itself through \(reading.map { PathText.lastComponent(of: $0) }.joined(separator: " → "))")
        }
        reading.append(key)
        defer { reading.removeLast() }
        let base = base ?? PathText.parent(of: path)
        let bytes = try InputFile.read(path)
        var node = try YAML.parse(bytes, path: path)
        guard node.pairs != nil else {
            throw BundleError(.invalidSpec, path: path, detail: "line \(node.mark.line), column \(node.mark.column): a spec is a mapping of keys (name, targets, …), not a \(node.sequence != nil ? "list" : "single value")")
        }
        node = SpecNode.expand(node, variables: environment)
        if !accumulated.isEmpty { node = SpecNode.rebasingPaths(node, onto: accumulated) }

        var merged = YAMLNode(kind: .mapping([]), mark: node.mark)
        for include in try includes(node["include"], in: path) where include.enable {
            let includeBase = include.relativePaths ? PathText.join(base, relative) : base
            let includeRelative = include.relativePaths ? Self.folder(of: include.path) : ""
            let includedPath = PathText.join(includeBase, include.path)
            // XcodeGen refuses a spec whose include is missing, often a git-ignored local file: say what to do.
            guard PathText.existing(includedPath) != nil else {
                throw BundleError(.invalidSpec, path: path, detail: "it includes '\(include.path)' ('\(includedPath)'), which does not exist; XcodeGen refuses that too, so create it (an empty file will do) before `lockstep check`, as before `xcodegen generate`")
            }
            let included = try load(includedPath, base: includeBase, relative: includeRelative,
                                    accumulated: PathText.joinRelative(accumulated, includeRelative))
            merged = SpecNode.merge(included, onto: merged)
        }
        merged = SpecNode.merge(node, onto: merged)
        cache[key] = merged
        return merged
    }

    /// The folder part of a relative path ("" for a bare file name).
    static func folder(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "" }
        return String(path[..<slash])
    }

    struct Include {
        var path: String
        var relativePaths = true
        var enable = true
    }

    func includes(_ node: YAMLNode?, in file: String) throws(BundleError) -> [Include] {
        guard let node else { return [] }
        let items = node.sequence ?? [node]
        var result: [Include] = []
        for item in items {
            if let text = item.string, !text.isEmpty {
                result.append(Include(path: text))
            } else if let path = item["path"]?.string {
                var include = Include(path: path)
                if let relative = item["relativePaths"] { include.relativePaths = SpecNode.bool(relative) ?? true }
                if let enable = item["enable"] { include.enable = SpecNode.bool(enable) ?? true }
                result.append(include)
            } else {
                throw BundleError(.invalidSpec, path: file, detail: "line \(item.mark.line), column \(item.mark.column): an include is a path or {path: …}")
            }
        }
        return result
    }
}

/// Operations on spec nodes that mirror XcodeGen's on its JSON dictionaries.
enum SpecNode {
    /// `${NAME}` replaced by `variables[NAME]` in every key and string; an unknown name is left as written.
    /// A scalar whose text changed is a string from then on (XcodeGen expands after YAML typed it).
    static func expand(_ node: YAMLNode, variables: [String: String]) -> YAMLNode {
        var node = node
        switch node.kind {
        case .scalar(let text, let plain):
            let expanded = expand(text, variables: variables)
            if expanded != text { node.kind = .scalar(expanded, plain: false) } else { node.kind = .scalar(text, plain: plain) }
        case .sequence(let items):
            node.kind = .sequence(items.map { expand($0, variables: variables) })
        case .mapping(let pairs):
            node.kind = .mapping(pairs.map { (expand($0.key, variables: variables), expand($0.value, variables: variables)) })
        }
        return node
    }

    /// XcodeGen's `${name}` expansion: a name it has no value for stays, and a `${` without `}` ends the scan.
    static func expand(_ text: String, variables: [String: String]) -> String {
        guard text.contains("${") else { return text }
        var result = ""
        var rest = text[...]
        while let open = rest.range(of: "${") {
            result += rest[..<open.lowerBound]
            let afterOpen = rest[open.upperBound...]
            guard let close = afterOpen.firstIndex(of: "}") else {
                result += rest[open.lowerBound...]
                return result
            }
            let name = String(afterOpen[..<close])
            if !name.isEmpty, let value = variables[name] {
                result += value
            } else {
                result += rest[open.lowerBound...close]
            }
            rest = afterOpen[afterOpen.index(after: close)...]
        }
        return result + rest
    }

    /// XcodeGen's merge: mappings merge key by key, lists are concatenated (base first), anything else is
    /// replaced, and `key:REPLACE` replaces the base's `key` whole.
    ///
    /// Linear in the keys: each key's places are kept in a dictionary (a spec of 70,000 top-level keys merged onto
    /// its includes used to scan the merged pairs once per key).
    static func merge(_ top: YAMLNode, onto base: YAMLNode) -> YAMLNode {
        guard let topPairs = top.pairs, let basePairs = base.pairs else { return top }
        var slots: [(key: String, value: YAMLNode)?] = basePairs
        var places: [String: [Int]] = [:]
        for (offset, pair) in basePairs.enumerated() { places[pair.key, default: []].append(offset) }
        /// Every pair of `key` removed, and `value` appended: the key moves to the end, as XcodeGen's dictionary merge
        /// is written back in order.
        func set(_ key: String, _ value: YAMLNode) {
            for offset in places[key] ?? [] { slots[offset] = nil }
            places[key] = [slots.count]
            slots.append((key, value))
        }
        for (key, value) in topPairs {
            if key.hasSuffix(":REPLACE") {
                set(String(key.dropLast(8)), value)
            } else if let offset = places[key]?.last, let existing = slots[offset]?.value {
                if existing.pairs != nil && value.pairs != nil {
                    set(key, merge(value, onto: existing))
                } else if let old = existing.sequence, let new = value.sequence {
                    var node = value
                    node.kind = .sequence(old + new)
                    set(key, node)
                } else {
                    set(key, value)
                }
            } else {
                places[key, default: []].append(slots.count)
                slots.append((key, value))
            }
        }
        var node = top
        node.kind = .mapping(slots.compactMap { $0 })
        return node
    }

    static func set(_ pairs: inout [(key: String, value: YAMLNode)], _ key: String, _ value: YAMLNode) {
        pairs.removeAll { $0.key == key }
        pairs.append((key, value))
    }

    /// The paths of an included spec made relative to the root spec's folder, as XcodeGen does for
    /// `relativePaths: true`: `configFiles`, `info.path`, `entitlements.path` and `sources` of targets and templates.
    static func rebasingPaths(_ node: YAMLNode, onto folder: String) -> YAMLNode {
        func rebase(_ scalar: YAMLNode) -> YAMLNode {
            guard let text = scalar.string, !text.isEmpty, !text.hasPrefix("/") else { return scalar }
            var copy = scalar
            copy.kind = .scalar(PathText.joinRelative(folder, text), plain: false)
            return copy
        }
        func mapValues(_ node: YAMLNode, _ transform: (String, YAMLNode) -> YAMLNode) -> YAMLNode {
            guard let pairs = node.pairs else { return node }
            var copy = node
            copy.kind = .mapping(pairs.map { ($0.key, transform($0.key, $0.value)) })
            return copy
        }
        func target(_ node: YAMLNode) -> YAMLNode {
            mapValues(node) { key, value in
                switch key {
                case "configFiles": return mapValues(value) { _, path in rebase(path) }
                case "info", "entitlements": return mapValues(value) { key, path in key == "path" ? rebase(path) : path }
                case "sources":
                    if value.string != nil { return rebase(value) }
                    guard let items = value.sequence else { return value }
                    var copy = value
                    copy.kind = .sequence(items.map { item in
                        item.string != nil ? rebase(item) : mapValues(item) { key, path in key == "path" ? rebase(path) : path }
                    })
                    return copy
                default: return value
                }
            }
        }
        return mapValues(node) { key, value in
            switch key {
            case "configFiles": return mapValues(value) { _, path in rebase(path) }
            case "targets", "targetTemplates": return mapValues(value) { _, node in target(node) }
            default: return value
            }
        }
    }

    /// A YAML value as XcodeGen reads a boolean option (`relativePaths`, `enable`): a YAML bool, or a string that
    /// `NSString.boolValue` calls true.
    static func bool(_ node: YAMLNode) -> Bool? {
        guard case .scalar(let text, let plain) = node.kind else { return nil }
        if plain, case .bool(let value) = YAMLScalar.resolve(text) { return value }
        let trimmed = text.drop { $0 == " " }
        guard let first = trimmed.first else { return false }
        return "YyTt".contains(first) || ("1"..."9").contains(first)
    }
}

/// How XcodeGen's YAML reader (Yams 5.0.1, YAML 1.1 types) types an unquoted scalar.
package enum YAMLScalar: Equatable {
    case bool(Bool)
    case integer(Int)
    case double(Double)
    case string(String)
    /// `~`, `null`, `Null`, `NULL`: Yams gives NSNull.
    case null
    /// `2024-01-01`, `2024-01-01T10:00:00Z`: Yams gives a Date.
    case timestamp(Date)

    private static let patterns: [(NSRegularExpression, Int)] = [
        (#"^(?:yes|Yes|YES|no|No|NO|true|True|TRUE|false|False|FALSE|on|On|ON|off|Off|OFF)$"#, 0),
        (#"^(?:[-+]?0b[0-1_]+|[-+]?0o?[0-7_]+|[-+]?(?:0|[1-9][0-9_]*)|[-+]?0x[0-9a-fA-F_]+|[-+]?[1-9][0-9_]*(?::[0-5]?[0-9])+)$"#, 1),
        (#"^(?:[-+]?(?:[0-9][0-9_]*)(?:\.[0-9_]*)?(?:[eE][-+]?[0-9]+)?|\.[0-9_]+(?:[eE][-+][0-9]+)?|[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+\.[0-9_]*|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$"#, 2),
    ].map { (try! NSRegularExpression(pattern: $0.0), $0.1) }

    private static let timestampPattern = try! NSRegularExpression(pattern:
        #"^([0-9]{4})-([0-9]{1,2})-([0-9]{1,2})(?:(?:[Tt]|[ \t]+)([0-9]{1,2}):([0-9]{2}):([0-9]{2})(?:\.([0-9]*))?(?:[ \t]*(Z|([-+])([0-9]{1,2})(?::?([0-9]{2}))?))?)?$"#)

    static func resolve(_ text: String) -> YAMLScalar {
        // Most values are names and paths: only text that starts like a number, a boolean or null is matched.
        guard let first = text.unicodeScalars.first, "0123456789+-.yYnNtTfFoO~".unicodeScalars.contains(first) else { return .string(text) }
        if ["~", "null", "Null", "NULL"].contains(text) { return .null }
        let range = NSRange(location: 0, length: text.utf16.count)
        if let date = timestamp(text, range: range) { return .timestamp(date) }
        for (pattern, kind) in patterns where pattern.firstMatch(in: text, range: range) != nil {
            switch kind {
            case 0: return .bool(["yes", "true", "on"].contains(text.lowercased()))
            case 1: if let value = integer(text) { return .integer(value) }
            default: if let value = double(text) { return .double(value) }
            }
            return .string(text)
        }
        return .string(text)
    }

    /// Yams' integer construction: `_` ignored; `0x`, `0b`, `0o` and a leading `0` (octal) set the radix.
    private static func integer(_ text: String) -> Int? {
        let plain = text.replacingOccurrences(of: "_", with: "")
        if plain == "0" { return 0 }
        let negative = plain.hasPrefix("-")
        let digits = plain.hasPrefix("-") || plain.hasPrefix("+") ? plain.dropFirst() : plain[...]
        if digits.contains(":") {
            // Base 60 (YAML 1.1, read by Yams): `1:20` is 80.
            var value = 0
            for part in digits.split(separator: ":", omittingEmptySubsequences: false) {
                guard let number = Int(part) else { return nil }
                let (shifted, overflow) = value.multipliedReportingOverflow(by: 60)
                let (sum, carry) = shifted.addingReportingOverflow(number)
                guard !overflow, !carry else { return nil }
                value = sum
            }
            return negative ? -value : value
        }
        for (prefix, radix) in [("0x", 16), ("0b", 2), ("0o", 8), ("0", 8)] where digits.hasPrefix(prefix) {
            return Int((negative ? "-" : "") + digits.dropFirst(prefix.count), radix: radix)
        }
        return Int(plain)
    }

    private static func double(_ text: String) -> Double? {
        let plain = text.replacingOccurrences(of: "_", with: "")
        switch plain.lowercased() {
        case ".inf", "+.inf": return .infinity
        case "-.inf": return -.infinity
        case ".nan": return .nan
        default:
            guard plain.contains(":") else { return Double(plain) }
            // Base 60: `1:20.5` is 80.5.
            let negative = plain.hasPrefix("-")
            let digits = plain.hasPrefix("-") || plain.hasPrefix("+") ? plain.dropFirst() : plain[...]
            var value = 0.0
            for part in digits.split(separator: ":", omittingEmptySubsequences: false) {
                guard let number = Double(part) else { return nil }
                value = value * 60 + number
            }
            return negative ? -value : value
        }
    }

    /// YAML 1.1's timestamp, as Yams constructs it: a date alone is midnight UTC; a time without a zone is UTC.
    private static func timestamp(_ text: String, range: NSRange) -> Date? {
        guard let first = text.utf8.first, ASCII.isDigit(first), text.utf8.count >= 8,
              let match = timestampPattern.firstMatch(in: text, range: range) else { return nil }
        func group(_ index: Int) -> String? {
            let range = match.range(at: index)
            guard range.location != NSNotFound, let bounds = Range(range, in: text) else { return nil }
            return String(text[bounds])
        }
        var components = DateComponents()
        components.calendar = Calendar(identifier: .gregorian)
        components.timeZone = TimeZone(secondsFromGMT: 0)
        components.year = group(1).flatMap { Int($0) }
        components.month = group(2).flatMap { Int($0) }
        components.day = group(3).flatMap { Int($0) }
        components.hour = group(4).flatMap { Int($0) } ?? 0
        components.minute = group(5).flatMap { Int($0) } ?? 0
        components.second = group(6).flatMap { Int($0) } ?? 0
        if let fraction = group(7), !fraction.isEmpty, let value = Double("0." + fraction) {
            components.nanosecond = Int(value * 1_000_000_000)
        }
        if let sign = group(9), let hours = group(10).flatMap({ Int($0) }) {
            let minutes = group(11).flatMap { Int($0) } ?? 0
            components.timeZone = TimeZone(secondsFromGMT: (sign == "-" ? -1 : 1) * (hours * 3600 + minutes * 60))
        }
        return components.date
    }

    /// `value` written where `old` was in a spec, for `bump`: in the same quotes, or plain when YAML reads it back
    /// as the same text (`1.4.0`, `43`), else double-quoted (`"2.10"`, which plain would be the number 2.1).
    package static func written(_ value: String, replacing old: [UInt8]) -> String {
        if old.first == UInt8(ascii: "'") { return "'\(value)'" }
        if old.first == UInt8(ascii: "\"") { return "\"\(value)\"" }
        return resolve(value).settingText == value ? value : "\"\(value)\""
    }

    /// The text XcodeGen writes for it in a build setting (`BuildSetting(any:)`): YES/NO, or Swift's description.
    var settingText: String {
        switch self {
        case .bool(let value): value ? "YES" : "NO"
        case .integer(let value): String(value)
        case .double(let value): "\(value)"
        case .string(let text): text
        // What Swift's string interpolation gives for Yams' NSNull and Date, which XcodeGen's `BuildSetting(any:)`
        // writes (read from its source; not run on a Mac here).
        case .null: "<null>"
        case .timestamp(let date): "\(date)"
        }
    }
}

extension YAMLNode {
    /// The scalar as XcodeGen types it: quoted text is always a string.
    var typed: YAMLScalar? {
        guard case .scalar(let text, let plain) = kind else { return nil }
        return plain ? YAMLScalar.resolve(text) : .string(text)
    }

    /// The value as a build setting's text: a list joined with spaces, a scalar as `YAMLScalar.settingText`.
    var settingText: String {
        switch kind {
        case .scalar: typed?.settingText ?? ""
        case .sequence(let items): items.map(\.settingText).joined(separator: " ")
        case .mapping: ""
        }
    }

    /// The value as a property list value in a file XcodeGen writes (`info.properties`, `entitlements.properties`).
    var propertyListValue: Any {
        switch kind {
        case .scalar:
            switch typed! {
            case .bool(let value): return value
            case .integer(let value): return value
            case .double(let value): return value
            case .string(let text): return text
            case .timestamp(let date): return date
            case .null: return "<null>"
            }
        case .sequence(let items): return items.map(\.propertyListValue)
        case .mapping(let pairs):
            var dictionary: [String: Any] = [:]
            for (key, value) in pairs { dictionary[key] = value.propertyListValue }
            return dictionary
        }
    }
}
