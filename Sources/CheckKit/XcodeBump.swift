import BundleKit
import Foundation
import LockstepSystem
import XcodeGenKit
import XcodeKit

extension XcodeProjectInput {
    /// Sets the build number (`build`) or marketing version (`version`) wherever the project defines it,
    /// editing text in place — what `agvtool new-version -all` should have been (<doc:Rules> "Bundles and versions").
    ///
    /// For every bundle of every containing app and configuration, the value its Info.plist uses is changed
    /// where it is written: a literal in the Info.plist, or the build setting it reads (at project level, and in
    /// every target or xcconfig that overrides it, following `CURRENT_PROJECT_VERSION = $(BUILD_NUMBER)`).
    /// Only those values change; every file is written atomically, and nothing is written unless every edit
    /// could be prepared. Test, framework and other targets no app embeds are left alone.
    /// - Parameters:
    ///   - build: the new CFBundleVersion, or `"next"` to increment the last number of the app's current one
    ///     (the highest across configurations).
    ///   - version: the new CFBundleShortVersionString.
    /// - Returns: the files changed, sorted.
    /// - Throws: `BundleError` (`.invalidBump`) naming the value or file, before anything is written.
    public static func bump(_ path: String, build: String?, version: String?) throws -> [String] {
        try bump(project: XcodeProject(path: path), build: build, version: version)
    }

    /// `bump` on an XcodeGen spec: the values are edited in the spec's text (<doc:ReadingProjects> "XcodeGen specs").
    public static func bump(spec path: String, build: String?, version: String?) throws -> [String] {
        try bump(project: XcodeGenSpec.load(path).project, build: build, version: version)
    }

    private static func bump(project: XcodeProject, build: String?, version: String?) throws -> [String] {
        let path = project.path
        let reading = try ProjectReading(project: project, configuration: nil)
        // Every build of every app: a bundle only another platform's build embeds is bumped too.
        let memberLists = reading.apps.flatMap { app in
            reading.configurations.flatMap { configuration in
                let own = reading.members(of: app, configuration: configuration).members
                return [own] + reading.otherBuilds(of: app, host: own[0].resolved).map { reading.members(of: app, configuration: configuration, build: $0).members }
            }
        }
        guard !memberLists.isEmpty else {
            throw BundleError(.invalidBump, path: path, detail: "the project has no application target to bump")
        }
        var changes: [(key: String, setting: String, value: String)] = []
        if var build {
            if build == "next" {
                // The highest of the app's builds across configurations (Debug may lag Release): never lowers one.
                let current = memberLists.compactMap { $0[0].resolved.values["CFBundleVersion"]?.value }
                    .max { Self.numbers($0).lexicographicallyPrecedes(Self.numbers($1)) }
                build = try next(after: current, path: path)
            }
            // rule `version.build-format`: at most three numbers (four are accepted in practice).
            try validate(build, components: 4, key: "CFBundleVersion", path: path)
            changes.append(("CFBundleVersion", "CURRENT_PROJECT_VERSION", build))
        }
        if let version {
            try validate(version, components: 3, key: "CFBundleShortVersionString", path: path)  // rule `version.short-format`
            changes.append(("CFBundleShortVersionString", "MARKETING_VERSION", version))
        }

        var edits = EditSet()
        for members in memberLists {
            for member in members {
                let resolved = member.resolved
                for change in changes {
                    var settings: [String] = []
                    if let value = resolved.values[change.key] {
                        if value.literalInPlist, project.specPath != nil {
                            // A plist XcodeGen generates: its value is written in the spec's `info.properties`.
                            let plist = PathText.join(project.sourceRoot, resolved.settings.value("INFOPLIST_FILE").value)
                            guard let mark = project.generated[plist]?.keyMarks[change.key] else {
                                throw BundleError(.invalidBump, path: path, detail: "\(change.key) of target '\(resolved.target.name)' is XcodeGen's default '\(value.value)', written nowhere in the spec; add \(change.key): $(\(change.setting)) to its info.properties first")
                            }
                            edits.spec[mark.file, default: [:]][mark.range] = change.value
                        } else if value.literalInPlist, let plist = resolved.plistPath {
                            edits.plist[plist, default: [:]][change.key] = change.value
                        } else if let name = BuildSettings.soleReference(value.template) {
                            settings.append(name)
                        } else if ASCII.contains(byte: UInt8(ascii: "$"), in: value.template) {
                            throw BundleError(.invalidBump, path: value.source.file, detail: "\(change.key) of target '\(resolved.target.name)' [\(resolved.configuration)] is '\(value.template)', which is not a single setting Lockstep can set; edit it by hand")
                        }
                    }
                    // Like agvtool, also the standard setting wherever it is written, even where the plist reads another.
                    settings.append(change.setting)
                    for name in Set(settings) {
                        let definitions = resolved.settings.definitions(of: name)
                        if definitions.isEmpty && name != change.setting {
                            throw BundleError(.invalidBump, path: resolved.plistPath ?? project.pbxprojPath, detail: "\(change.key) of target '\(resolved.target.name)' [\(resolved.configuration)] reads $(\(name)), which nothing defines; define it first")
                        }
                        for assignment in definitions where !ASCII.contains(byte: UInt8(ascii: "$"), in: assignment.value) {
                            edits.add(assignment, value: change.value)
                        }
                    }
                }
            }
        }
        return try edits.apply(project: project)
    }

    private static func validate(_ value: String, components: Int, key: String, path: String) throws(BundleError) {
        let parts = value.split(separator: ".", omittingEmptySubsequences: false)
        guard (1...components).contains(parts.count), parts.allSatisfy({ !$0.isEmpty && $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }) else {
            throw BundleError(.invalidBump, path: path, detail: "'\(value)' is not a valid \(key): it must be a period-separated list of at most \(min(components, 3)) non-negative integers")
        }
    }

    private static func numbers(_ version: String) -> [Int] {
        version.split(separator: ".").map { Int($0) ?? -1 }
    }

    private static func next(after current: String?, path: String) throws(BundleError) -> String {
        guard let current, !current.isEmpty else {
            throw BundleError(.invalidBump, path: path, detail: "the app has no CFBundleVersion to increment; give a number instead of 'next'")
        }
        var parts = current.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard let last = parts.last.flatMap({ Int($0) }) else {
            throw BundleError(.invalidBump, path: path, detail: "the app's CFBundleVersion '\(current)' does not end in a number, so 'next' cannot increment it")
        }
        parts[parts.count - 1] = String(last + 1)
        return parts.joined(separator: ".")
    }
}

/// The edits of one bump, prepared in memory, then written all together.
struct EditSet {
    /// pbxproj: configuration id → key as written → new value.
    var pbxproj: [String: [String: String]] = [:]
    /// xcconfig path → line → new value.
    var xcconfig: [String: [Int: String]] = [:]
    /// Info.plist path → key → new value.
    var plist: [String: [String: String]] = [:]
    /// XcodeGen spec file → the bytes of a value → new value.
    var spec: [String: [Range<Int>: String]] = [:]

    mutating func add(_ assignment: SettingAssignment, value: String) {
        if let range = assignment.source.specRange {
            spec[assignment.source.file, default: [:]][range] = value
        } else if let line = assignment.source.line {
            xcconfig[assignment.source.file, default: [:]][line] = value
        } else if let id = assignment.source.configurationID {
            pbxproj[id, default: [:]][assignment.key] = value
        }
    }

    func apply(project: XcodeProject) throws(BundleError) -> [String] {
        // One file reached under two names (`Release.xcconfig -> Shared.xcconfig`, `../x`, `/abs/x`) is edited once,
        // with every edit: edited from its original text under each name, the second write undid the first.
        let xcconfig = Self.byFile(self.xcconfig), plist = Self.byFile(self.plist), spec = Self.byFile(self.spec)
        var outputs: [(path: String, bytes: [UInt8])] = []
        if !pbxproj.isEmpty {
            var bytes = project.bytes
            // From the end of the file backwards, so earlier ranges stay valid.
            var located: [(String, Range<Int>, [String: String])] = []
            let ranges = Dictionary(project.objectRanges, uniquingKeysWith: { _, last in last })
            for (id, keys) in pbxproj {
                guard let range = ranges[id] else {
                    throw BundleError(.invalidBump, path: project.pbxprojPath, detail: "it is not in Xcode's text (OpenStep) format, so Lockstep cannot edit it in place; open and save the project in Xcode first")
                }
                located.append((id, range, keys))
            }
            for (id, range, keys) in located.sorted(by: { $0.1.lowerBound > $1.1.lowerBound }) {
                var object = Array(bytes[range])
                for (key, value) in keys {
                    guard let valueRange = SourcePosition.pbxprojValueRange(of: key, in: object) else {
                        throw BundleError(.invalidBump, path: project.pbxprojPath, detail: "the setting \(key) of configuration \(id) could not be found in the text")
                    }
                    let quoted = object[valueRange.lowerBound] == UInt8(ascii: "\"")
                    object.replaceSubrange(valueRange, with: Array((quoted ? "\"\(value)\"" : value).utf8))
                }
                bytes.replaceSubrange(range, with: object)
            }
            if bytes != project.bytes { outputs.append((project.pbxprojPath, bytes)) }
        }
        for (path, lines) in xcconfig.sorted(by: { $0.key < $1.key }) {
            guard let data = InputFile.readIfPresent(path) else {
                throw BundleError(.invalidBump, path: path, detail: "the xcconfig cannot be read")
            }
            let original = String(decoding: data, as: UTF8.self)
            var text = XcconfigReader.splitLines(original)
            for (number, value) in lines {
                guard number <= text.count, let parts = XcconfigReader.assignmentParts(text[number - 1]) else {
                    throw BundleError(.invalidBump, path: path, detail: "line \(number) is no longer a setting")
                }
                text[number - 1].replaceSubrange(parts.valueRange, with: value)
            }
            let bytes = Array(text.joined(separator: original.contains("\r\n") ? "\r\n" : "\n").utf8)
            if bytes != Array(data) { outputs.append((path, bytes)) }
        }
        for (path, keys) in plist.sorted(by: { $0.key < $1.key }) {
            guard let data = InputFile.readIfPresent(path) else {
                throw BundleError(.invalidBump, path: path, detail: "the Info.plist cannot be read")
            }
            guard !data.starts(with: Array("bplist".utf8)) else {
                throw BundleError(.invalidBump, path: path, detail: "it is a binary property list; Lockstep edits only XML Info.plists in place")
            }
            var text = String(decoding: data, as: UTF8.self)
            for (key, value) in keys {
                guard let keyRange = text.range(of: "<key>\(key)</key>"),
                      let open = text.range(of: "<string>", range: keyRange.upperBound..<text.endIndex),
                      text[keyRange.upperBound..<open.lowerBound].allSatisfy(\.isWhitespace),
                      let close = text.range(of: "</string>", range: open.upperBound..<text.endIndex) else {
                    throw BundleError(.invalidBump, path: path, detail: "the \(key) string could not be found in the text")
                }
                text.replaceSubrange(open.upperBound..<close.lowerBound, with: value)
            }
            if text.utf8.elementsEqual(data) == false { outputs.append((path, Array(text.utf8))) }
        }
        for (path, values) in spec.sorted(by: { $0.key < $1.key }) {
            guard let data = InputFile.readIfPresent(path) else {
                throw BundleError(.invalidBump, path: path, detail: "the spec cannot be read")
            }
            var bytes = data
            for (range, value) in values.sorted(by: { $0.key.lowerBound > $1.key.lowerBound }) {
                guard range.upperBound <= bytes.count else {
                    throw BundleError(.invalidBump, path: path, detail: "the spec changed while it was read")
                }
                bytes.replaceSubrange(range, with: Array(YAMLScalar.written(value, replacing: Array(data[range])).utf8))
            }
            if bytes != data { outputs.append((path, bytes)) }
        }
        // Every file is checked before any is written, so a read-only one leaves the whole project as it was, and
        // so does one outside the project's folder and the working directory, or a link leading out of its folder.
        let folders = [project.sourceRoot, FileManager.default.currentDirectoryPath]
        for output in outputs {
            try Bump.requireWritable(output.path)
            try SafeWrite.requireLinkInside(output.path, code: .invalidBump, outcome: "nothing was written")
            try SafeWrite.requireInside(output.path, folders: folders, code: .invalidBump, outcome: "nothing was written")
        }
        for output in outputs { try Bump.replace(output.path, with: output.bytes) }
        return outputs.map(\.path).sorted()
    }

    /// `edits` with the entries of names that reach the same file (links and `..` resolved) merged, under the first
    /// of those names that is no symbolic link (the file's own name, which bump reports as updated).
    static func byFile<Key: Hashable, Value>(_ edits: [String: [Key: Value]]) -> [String: [Key: Value]] {
        var merged: [String: [Key: Value]] = [:]
        var nameOfFile: [String: String] = [:]
        let ordered = edits.map { (link: FileSystem.isSymbolicLink($0.key) ? 1 : 0, name: $0.key, values: $0.value) }
            .sorted { ($0.link, $0.name) < ($1.link, $1.name) }
        for (_, name, values) in ordered {
            let file = FileSystem.realPath(name) ?? name
            let shown = nameOfFile[file, default: name]
            nameOfFile[file] = shown
            merged[shown, default: [:]].merge(values) { first, _ in first }
        }
        return merged
    }

}
