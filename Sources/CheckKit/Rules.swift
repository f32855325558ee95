import BundleKit
import XcodeKit

/// The rule engine of <doc:Rules> "Bundles and versions": every violation in a containing app and its embedded bundles, each with
/// Apple's own wording (Xcode's line, then the App Store Connect / installer text).
///
/// Rules never stop at the first finding: all of them run, and the caller decides the exit status once.
public enum Rules {
    /// The rule ids `check` evaluates for every bundle, in report order.
    public static let ids: [RuleID] = [
        "version.missing", "version.build-format", "version.short-format", "version.build-mismatch", "version.short-mismatch",
        "bundle-id.charset", "bundle-id.duplicate", "bundle-id.prefix", "bundle-id.single-component", "watch.companion", "watch.prefix",
        "extension.point", "group.shared",
    ]

    /// The platforms a rule applies to (<doc:ReadingProjects> "Platforms"), as its description in the catalogue states them.
    /// - Parameter rule: a rule id (`group.id-format` for the `group.` prefix that `group.shared` reports).
    public static func platforms(of rule: RuleID) -> Set<Platform> {
        RuleCatalog.rule(rule)?.platforms ?? Set(Platform.allCases)
    }

    /// Whether `rule` applies to `bundle`, by the platform it is built for.
    static func applies(_ rule: RuleID, to bundle: BundleRecord) -> Bool { platforms(of: rule).contains(bundle.platform) }

    /// Every finding for `set`, bundle by bundle (the app first, then the embedded bundles in order), each
    /// bundle's findings in the order of `ids`.
    public static func check(_ set: AppBundleSet) -> [Finding] {
        var findings: [Finding] = []
        var seen = [String: String](minimumCapacity: set.embedded.count + 1)
        let asciiPaths = set.embedded.map { ASCII.isOneBytePerCharacter($0.bundlePath) }
        // When every path has one byte per Character, the container is found by looking up the bundle's parent
        // folders: testing every bundle of the set as a prefix of every other is quadratic in the number of targets.
        var byPath: ContainerIndex?
        if asciiPaths.allSatisfy({ $0 }) { byPath = ContainerIndex(set.embedded) }
        // The app, then the embedded bundles (as `set.all`, without copying every record into a new array).
        // Each record is passed where it is stored (`set.app`, `set.embedded[index]`, the container likewise):
        // binding one to a name copies every field of it, and freeing the copy releases them again.
        func checkBundle(_ bundle: BundleRecord) {
            let first = findings.count
            func run(container: BundleRecord) {
                versionFindings(bundle, app: set.app, container: container, rule: nil, into: &findings)
                identifierFindings(bundle, app: container, seen: &seen, into: &findings)
                extensionFindings(bundle, into: &findings)
                groupFindings(bundle, app: container, into: &findings)
                privacyFindings(bundle, app: set.app, into: &findings)
                storeFindings(bundle, app: container, into: &findings)
                signingFindings(bundle, app: set.app, into: &findings)
                clipFindings(bundle, app: set.app, into: &findings)
            }
            // Versions are compared with the iOS app (App Store Connect does); identifiers and groups with the
            // bundle that directly contains this one (a watch app's own widget is prefixed with the watch app's id).
            if let byPath, ASCII.isOneBytePerCharacter(bundle.bundlePath) {
                if let index = containerIndex(of: bundle, in: set, byPath: byPath) {
                    run(container: set.embedded[index])
                } else {
                    run(container: set.app)
                }
            } else {
                run(container: container(of: bundle, in: set, asciiPaths: asciiPaths))
            }
            locate(&findings, from: first, in: bundle, positions: set.pbxproj)
        }
        checkBundle(set.app)
        for index in set.embedded.indices { checkBundle(set.embedded[index]) }
        // Only a built app has frameworks; without any there is nothing to compare (and no list of every record to copy).
        if !set.frameworks.isEmpty { frameworkFindings(set, into: &findings) }
        return findings
    }

    /// Whether `check(b)` finds what `check(a)` finds and nothing else, but for lines and columns: the two sets hold
    /// the same bundles, with the same values from the same files, and differ at most in where in those files
    /// the values are written — a project's Debug and Release, whose settings each have their own line, or their
    /// own `[Debug]` in a source's detail. The rules read a value's source only for its file (`file(_:_:)`) and, in
    /// `locate`, for its line: what this leaves out of the comparison.
    static func findsTheSame(in b: AppBundleSet, as a: AppBundleSet) -> Bool {
        guard a.embedded.count == b.embedded.count, a.pbxproj === b.pbxproj, a.frameworks == b.frameworks,
              a.app.equalsButForWhereWritten(b.app) else { return false }
        // By index: enumerating or zipping the records would copy each.
        return a.embedded.indices.allSatisfy { a.embedded[$0].equalsButForWhereWritten(b.embedded[$0]) }
    }

    /// Gives the findings from `first` on that point at a file of `bundle`'s values the line (and column) of the
    /// value they are about: the one whose key the finding names (a finding about the bundle as a whole, or about
    /// a key it lacks, keeps no line). (Issue 27: findings with lines in every format.)
    /// - Parameter positions: the lines of the project.pbxproj settings among the values, when they came from one.
    static func locate(_ findings: inout [Finding], from first: Int, in bundle: BundleRecord, positions: PbxprojPositions?) {
        guard first < findings.count else { return }
        let (keys, sources) = (bundle.valueSources.keys, bundle.valueSources.sources)
        for index in first..<findings.count where findings[index].line == nil {
            // The longest key the message names (CFBundleShortVersionString before CFBundleVersion), among the
            // values with a line (or a pbxproj setting's, found below) from the file the finding points at. (The
            // keys are Info.plist and entitlement keys: ASCII, so their lengths in bytes are their lengths in
            // Characters.) The sources are walked in place by index, once per finding: a bundle has few, and
            // copying out its located sources first cost more than the walks.
            var named: Int?
            var namedLength = -1
            for candidate in keys.indices {
                let source = sources[candidate]
                guard source.line != nil || (positions != nil && source.pbxprojSetting != nil) else { continue }
                let key = keys[candidate]
                if key.utf8.count > namedLength, source.file == findings[index].path, ASCII.contains(key, in: findings[index].message) {
                    named = candidate
                    namedLength = key.utf8.count
                }
            }
            guard let named else { continue }
            // `with(line:column:)` in place: the located sources all have a line, or are a pbxproj setting's.
            let source = positions.map { $0.located(sources[named]) } ?? sources[named]
            findings[index].line = source.line
            findings[index].column = source.column
        }
    }

    /// The bundle that directly contains `bundle`: the one with the longest bundle path that is a folder prefix of
    /// its path (`X.app/Watch/W.app` for `X.app/Watch/W.app/PlugIns/Z.appex`), else the app.
    /// - Parameter asciiPaths: for each of `set.embedded`, whether its bundle path is `ASCII.isOneBytePerCharacter`.
    static func container(of bundle: BundleRecord, in set: AppBundleSet, asciiPaths: [Bool]) -> BundleRecord {
        // This runs for every bundle of the set, so it is quadratic in a project with hundreds of targets: the path
        // test comes first, on bytes when both paths have one byte per Character (ASCII, no "\r\n"), and
        // rules out nearly every candidate before a whole record is compared.
        let path = bundle.bundlePath
        let pathIsASCII = ASCII.isOneBytePerCharacter(path)
        func isFolderPrefix(_ index: Int) -> Bool {
            let prefix = set.embedded[index].bundlePath
            guard pathIsASCII, asciiPaths[index] else { return path.hasPrefix(prefix + "/") }
            return path.utf8.count > prefix.utf8.count && path.utf8.starts(with: prefix.utf8)
                && path.utf8.dropFirst(prefix.utf8.count).first == UInt8(ascii: "/")
        }
        return set.embedded.indices
            .lazy
            .filter { isFolderPrefix($0) && set.embedded[$0] != bundle }
            .map { set.embedded[$0] }
            .max { $0.bundlePath.count < $1.bundlePath.count } ?? set.app
    }

    /// `container(of:in:asciiPaths:)` when the bundle's path and every path of `set.embedded` have one byte per
    /// Character: its parent folders, longest first, looked up in `byPath` (the indices of `set.embedded` by path).
    static func container(of bundle: BundleRecord, in set: AppBundleSet, byPath: ContainerIndex) -> BundleRecord {
        containerIndex(of: bundle, in: set, byPath: byPath).map { set.embedded[$0] } ?? set.app
    }

    /// The index in `set.embedded` of what `container(of:in:byPath:)` returns; nil for the app.
    static func containerIndex(of bundle: BundleRecord, in set: AppBundleSet, byPath: ContainerIndex) -> Int? {
        let path = bundle.bundlePath.utf8
        var length = path.count
        for slash in path.indices.reversed() {
            length -= 1
            guard path[slash] == UInt8(ascii: "/"), byPath.hasPath(ofLength: length),
                  let index = byPath.indices[bundle.bundlePath[..<slash]]?.first(where: { set.embedded[$0] != bundle }) else { continue }
            return index
        }
        return nil
    }

    /// The indices of a set's embedded bundles by bundle path, and which lengths (in bytes) their paths have: most
    /// parent folders of a bundle are no bundle (`X.app/PlugIns`), and their length says so without hashing them.
    struct ContainerIndex {
        var indices: [Substring: [Int]]
        private var lengths: [Bool] = []

        init(_ bundles: [BundleRecord]) {
            indices = [Substring: [Int]](minimumCapacity: bundles.count)
            // By index: enumerating the records would copy each.
            for index in bundles.indices {
                let path = bundles[index].bundlePath
                indices[path[...], default: []].append(index)
                let length = path.utf8.count
                if length >= lengths.count { lengths += repeatElement(false, count: length + 1 - lengths.count) }
                lengths[length] = true
            }
        }

        func hasPath(ofLength length: Int) -> Bool { length < lengths.count && lengths[length] }
    }

    /// The settings the checkout cannot supply that one value is built from (<doc:ReadingProjects> "What the checkout does not
    /// hold"), and the sentence saying where the first would have come from.
    struct Unknown: Equatable {
        var all: [String]
        var hint: String
        var first: String { all[0] }
        /// "$(DEVELOPMENT_TEAM)", "$(A) and $(B)".
        var names: String { all.map(BuildSettings.unknownSymbol).joined(separator: " and ") }

        /// Nil when `value` is known. Inlined, so that a bundle with no unknown settings (most) is told by reading
        /// one field where its record is stored: called, the specialized initializer took a copy of the record.
        @inline(__always)
        init?(_ bundle: BundleRecord, _ value: String?) {
            guard !bundle.unknowns.isEmpty else { return nil }
            let names = bundle.unknownNames(in: value)
            guard let first = names.first else { return nil }
            all = names
            hint = bundle.unknowns[first] ?? ""
        }

        /// Whether `a` (a value of `x`) and `b` (of `y`) differ whatever their unknown parts hold (with `prefixOnly`:
        /// whether `a` cannot start with `b`): the known text before the first unknown part, or after the last, disagrees
        /// (`1.$(PATCH)` and `2.$(PATCH)`; `org.other.widget` under `com.$(DEVELOPMENT_TEAM).app`).
        static func differ(_ a: String, of x: BundleRecord, _ b: String, of y: BundleRecord, prefixOnly: Bool = false) -> Bool {
            let (headA, tailA, unknownA) = ends(a, of: x), (headB, tailB, unknownB) = ends(b, of: y)
            let heads: Bool
            switch (unknownA, unknownB) {
            case (false, false): heads = prefixOnly ? a.hasPrefix(b) : a == b
            case (false, true): heads = a.hasPrefix(headB)
            // The unknown part of `a` may complete `b` (prefixOnly), or `b` must hold `a`'s known start.
            case (true, false): heads = b.hasPrefix(headA) || (prefixOnly && headA.hasPrefix(b))
            case (true, true): heads = headA.hasPrefix(headB) || headB.hasPrefix(headA)
            }
            guard !prefixOnly else { return !heads }
            let tails: Bool
            switch (unknownA, unknownB) {
            case (false, false): tails = a == b
            case (false, true): tails = a.hasSuffix(tailB)
            case (true, false): tails = b.hasSuffix(tailA)
            case (true, true): tails = tailA.hasSuffix(tailB) || tailB.hasSuffix(tailA)
            }
            return !(heads && tails)
        }

        /// The known text of `value` before its first unknown part and after its last, and whether it has one.
        private static func ends(_ value: String, of bundle: BundleRecord) -> (head: Substring, tail: Substring, unknown: Bool) {
            let symbols = bundle.unknownNames(in: value).map(BuildSettings.unknownSymbol)
            let first = symbols.compactMap { value.range(of: $0)?.lowerBound }.min()
            let last = symbols.compactMap { value.range(of: $0, options: .backwards)?.upperBound }.max()
            guard let first, let last else { return (value[...], value[...], false) }
            return (value[..<first], value[last...], true)
        }

        /// `value` with each unknown part replaced by a letter: the part of it whose form the rules can check.
        @inline(__always)
        static func known(_ value: String, of bundle: BundleRecord) -> String {
            guard !bundle.unknowns.isEmpty else { return value }
            return bundle.unknownNames(in: value).reduce(value) { ASCII.replacing(BuildSettings.unknownSymbol($1), with: "X", in: $0) }
        }
    }

    /// The file a finding about `key` points at: where the value came from, else the bundle's own file.
    static func file(_ bundle: BundleRecord, _ key: String) -> String {
        bundle.valueSources[key]?.file ?? bundle.source.file
    }
}

