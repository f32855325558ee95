import BundleKit
import Foundation
import LockstepSystem
import XcodeGenKit
import XcodeKit


/// The inputs `lockstep check` reads, whatever they are: a manifest, a built `.app`, a folder of built apps, an
/// `.xcarchive`, an `.ipa`, or an Xcode project (read by `XcodeProjectInput`).
public enum CheckInput {
    /// Reads `path` and runs every rule of <doc:Rules> "Bundles and versions" on what it holds.
    /// - Parameters:
    ///   - configuration: for an Xcode project, the build configuration to read (all of them when `nil`).
    /// - Throws: `BundleError` (exit 2) when the input cannot be read: one sentence naming the file.
    public static func check(_ path: String, configuration: String? = nil) throws -> CheckResult {
        let project = XcodeProjectInput.projectPath(for: path)
        let spec = project == nil ? XcodeGenSpec.specPath(for: path) : nil
        if project != nil || spec != nil {
            let loaded = try project.map { try XcodeProjectInput.load($0, configuration: configuration) }
                ?? XcodeProjectInput.load(spec: spec!, configuration: configuration)
            // One set per configuration: a finding Debug and Release share is reported once, at the first place
            // it points to (each configuration's setting has its own line in project.pbxproj).
            var findings = FirstOfEach(capacity: loaded.findings.count + loaded.sets.reduce(0) { $0 + $1.embedded.count + 1 })
            for finding in loaded.findings { findings.add(finding) }
            for (index, set) in loaded.sets.enumerated() {
                // A configuration whose bundles are an earlier one's but for where their values are written finds
                // only what that one found, each finding then dropped as the same but for its line.
                if loaded.sets[..<index].contains(where: { Rules.findsTheSame(in: set, as: $0) }) { continue }
                for finding in Rules.check(set) { findings.add(finding) }
            }
            return CheckResult(sets: loaded.sets, findings: findings.kept)
        }
        let sets = try bundleSets(path)
        return CheckResult(sets: sets, findings: sets.flatMap(Rules.check))
    }

    /// What to do with a Tuist manifest, which `check` does not read: generate the project first.
    static func generatedProject(_ spec: String) -> String {
        "\(spec) is a Tuist manifest, which Lockstep does not read; run `tuist generate --no-open` and check the .xcodeproj it writes"
    }

    /// What to do with an Xcode workspace: check the projects it lists, named as a command to run.
    static func workspaceAdvice(_ workspace: String) -> String {
        guard let projects = XcodeWorkspace.projects(in: workspace) else {
            guard !FileManager.default.fileExists(atPath: workspace + "/contents.xcworkspacedata") else {
                return "an Xcode workspace is not read itself, and its contents.xcworkspacedata cannot be read; check each .xcodeproj it lists"
            }
            // element-ios commits only Riot.xcworkspace/xcshareddata: `pod install` writes the list, from the project
            // XcodeGen writes from project.yml. What the folder holds is what can be checked.
            let folder = PathText.parent(of: workspace)
            let specs = ["project.yml", "xcodegen.yml"].map { PathText.join(folder, $0) }.filter { FileManager.default.fileExists(atPath: $0) }
            let projects = ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).sorted()
                .filter { $0.hasSuffix(".xcodeproj") }.map { PathText.join(folder, $0) }
            let here = specs.isEmpty ? projects : [specs[0]]
            return "an Xcode workspace is not read itself, and the checkout holds no contents.xcworkspacedata for this one (a tool such as `pod install` writes it); "
                + (here.isEmpty ? "check each .xcodeproj it would list" : "check what is here: `lockstep check \(shellWords(here))`")
        }
        guard !projects.isEmpty else { return "an Xcode workspace is not read itself, and this one lists no .xcodeproj" }
        return "an Xcode workspace is not read itself; " + listedProjects(projects)
    }

    /// The command that checks the projects a workspace lists, naming apart those not here (a `Pods/` project
    /// before `pod install`), which `check` would refuse.
    /// Each path is checked once (80,000 listed projects are 80,000 look-ups, not their square), and the command is
    /// safe to paste: see `shellWords`.
    static func listedProjects(_ projects: [String]) -> String {
        var present: [String] = [], missing: [String] = []
        for project in projects {
            if FileManager.default.fileExists(atPath: project + "/project.pbxproj") { present.append(project) } else { missing.append(project) }
        }
        // A sentence, not a listing: a workspace of 80,000 projects names the first few and counts the rest.
        func more(_ list: [String]) -> String { list.count > shownProjects ? " and \(list.count - shownProjects) more" : "" }
        let missingText = missing.prefix(shownProjects).map { Standard.printable($0).replacingOccurrences(of: "\n", with: "\\n") }
            .joined(separator: ", ") + more(missing)
        guard !present.isEmpty else { return "none of the projects it lists is here: \(missingText)" }
        let notHere = missing.isEmpty ? "" : " (not here: \(missingText))"
        return "check the projects it lists: `lockstep check \(shellWords(Array(present.prefix(shownProjects))))`\(more(present))" + notHere
    }

    /// How many projects a workspace's advice names.
    static let shownProjects = 20

    /// Why a folder with no `.app` bundle is not read, and what to pass instead.
    static func folderAdvice(_ folder: String) -> String {
        let manager = FileManager.default
        if manager.fileExists(atPath: "\(folder)/Project.swift") { return generatedProject("Project.swift") }
        let entries = ((try? manager.contentsOfDirectory(atPath: folder)) ?? []).sorted()
        let projects = entries.filter { $0.hasSuffix(".xcodeproj") && manager.fileExists(atPath: "\(folder)/\($0)/project.pbxproj") }
        if projects.count > 1 {
            return "the folder holds \(projects.count) Xcode projects and no .app bundle; check each: `lockstep check \(shellWords(projects.map { PathText.join(folder, $0) }))`"
        }
        // A checkout whose projects sit in subfolders beside the workspace that lists them (CocoaPods, modular apps).
        let workspaces = entries.filter { $0.hasSuffix(".xcworkspace") }
        if projects.isEmpty, workspaces.count == 1, let listed = XcodeWorkspace.projects(in: PathText.join(folder, workspaces[0])), !listed.isEmpty {
            return "the folder holds no .app bundle or .xcodeproj, but the workspace \(workspaces[0]); " + listedProjects(listed)
        }
        return "the folder holds no .app bundle or .xcodeproj (pass a manifest, .xcarchive or .ipa itself)"
    }

    /// `paths` as words of a shell command, safe to paste: quoted where the shell would split or expand them, a
    /// relative path that starts with `-` written `./-…` (pasted bare, `--config=x.xcodeproj` is an option), and a
    /// path holding a control character (a workspace's `&#10;`) written in `$'…'` with the character escaped, so the
    /// command stays on one line and pastes as the path it names.
    static func shellWords(_ paths: [String]) -> String {
        paths.map { written in
            let path = written.hasPrefix("-") ? "./" + written : written
            let plain = !path.isEmpty && path.unicodeScalars.allSatisfy {
                $0.isASCII && (CharacterSet.alphanumerics.contains($0) || "._-/+@%=:,".unicodeScalars.contains($0))
            }
            if plain { return path }
            guard path.unicodeScalars.contains(where: { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) }) else {
                return "'" + path.replacingOccurrences(of: "'", with: "'\\''") + "'"
            }
            var quoted = "$'"
            for scalar in path.unicodeScalars {
                switch scalar {
                case "\\": quoted += "\\\\"
                case "'": quoted += "\\'"
                case "\n": quoted += "\\n"
                case "\t": quoted += "\\t"
                case _ where scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value):
                    // `\u` with four digits: bash's and zsh's escape of a character (`\x9F` would be a byte, not U+009F).
                    quoted += String(format: "\\u%04X", scalar.value)
                default: quoted.unicodeScalars.append(scalar)
                }
            }
            return quoted + "'"
        }.joined(separator: " ")
    }

    /// The containing apps at `path` (not an Xcode project), each with its embedded bundles.
    public static func bundleSets(_ path: String) throws -> [AppBundleSet] {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw BundleError(.unreadable, path: path, detail: "no such file or folder")
        }
        let trimmed = path.hasSuffix("/") && path.count > 1 ? String(path.dropLast()) : path
        if isDirectory.boolValue {
            // Not NSString's path methods: on Linux its `deletingLastPathComponent` traps on a one-character path
            // (`lockstep check .`).
            let parent = PathText.parent(of: trimmed)
            let name = PathText.lastComponent(of: trimmed)
            if name.hasSuffix(".app") {
                return [try BuiltApp.read(FileTree(root: parent.isEmpty ? "." : parent), app: name)]
            }
            if name.hasSuffix(".xcarchive") {
                // An archive holds the app at Products/Applications/X.app (<doc:ReadingProjects> "Packaging of a built app").
                return try apps(in: FileTree(root: "\(trimmed)/Products/Applications"), path: path,
                                otherwise: "the archive holds no Products/Applications/*.app")
            }
            if name.hasSuffix(".xcworkspace") {
                throw BundleError(.unsupportedInput, path: path, detail: Self.workspaceAdvice(trimmed))
            }
            return try apps(in: FileTree(root: trimmed), path: path, otherwise: Self.folderAdvice(trimmed))
        }
        if try InputFile.kind(path) == .pipe {
            // A pipe (`lockstep check <(…)`) can be read only once: read it whole, then tell a zip from a manifest.
            let bytes = try InputFile.read(path, allowPipe: true)
            guard !bytes.starts(with: [0x50, 0x4B]) else {
                throw BundleError(.notAnIPA, path: path, detail: "an .ipa is read in place, so it must be a file, not a pipe")
            }
            return [try Manifest.parse(bytes, path: path).bundleSet]
        }
        let name = PathText.lastComponent(of: trimmed)
        if name == "Project.swift" {
            throw BundleError(.unsupportedInput, path: path, detail: Self.generatedProject(name))
        }
        let head = try readPrefix(path, count: 4)
        if path.hasSuffix(".ipa") || head.starts(with: [0x50, 0x4B]) {
            let tree = try ZipTree(ZipArchive(path: path))
            let apps = tree.children("Payload").filter { $0.hasSuffix(".app") }
            guard !apps.isEmpty else { throw BundleError(.notAnIPA, path: path, detail: "it has no Payload/X.app") }
            return try apps.map { try BuiltApp.read(tree, app: "Payload/\($0)") }
        }
        return [try Manifest.load(path).bundleSet]
    }
}

/// Findings in order, each kept only if no earlier one is the same but for its line and column. The kept ones are
/// found by a hash of what a position does not change, and compared in place: a set of line-less copies retained
/// every field of each finding again, and a dictionary of index arrays hashed each key with SipHash and made an
/// array per finding.
private struct FirstOfEach {
    private(set) var kept: [Finding] = []
    /// Open addressing, at most half full: an index in `kept` + 1 (0 is a free slot), and by the same index the hash
    /// of that finding's rule, bundle and file.
    private var slots: [Int]
    private var hashes: [UInt64] = []
    private let seed = StringHash.newSeed()

    init(capacity: Int) {
        kept.reserveCapacity(capacity)
        hashes.reserveCapacity(capacity)
        var count = 8
        while count < 2 * capacity { count *= 2 }
        slots = Array(repeating: 0, count: count)
    }

    mutating func add(_ finding: Finding) {
        let hash = StringHash.hash(finding.rule.rawValue, seed: seed) &* 31 &+ StringHash.hash(finding.bundle, seed: seed) &* 17
            &+ StringHash.hash(finding.path, seed: seed)
        let mask = slots.count - 1
        var slot = Int(truncatingIfNeeded: hash) & mask
        while slots[slot] != 0 {
            let index = slots[slot] - 1
            if hashes[index] == hash, kept[index].equalsIgnoringPosition(finding) { return }
            slot = (slot + 1) & mask
        }
        kept.append(finding)
        hashes.append(hash)
        slots[slot] = kept.count
        // Never more than half full (the capacity is an estimate).
        if kept.count * 2 > slots.count { grow() }
    }

    private mutating func grow() {
        slots = Array(repeating: 0, count: slots.count * 2)
        let mask = slots.count - 1
        for (index, hash) in hashes.enumerated() {
            var slot = Int(truncatingIfNeeded: hash) & mask
            while slots[slot] != 0 { slot = (slot + 1) & mask }
            slots[slot] = index + 1
        }
    }
}

/// Every `X.app` directly inside `tree`, read with its embedded bundles.
/// - Throws: `.unsupportedInput` for `path` with the sentence `otherwise` when there is none.
private func apps(in tree: FileTree, path: String, otherwise: String) throws -> [AppBundleSet] {
    let apps = tree.children("").filter { $0.hasSuffix(".app") }
    guard !apps.isEmpty else { throw BundleError(.unsupportedInput, path: path, detail: otherwise) }
    return try apps.map { try BuiltApp.read(tree, app: $0) }
}

/// The first `count` bytes of the file at `path` (fewer if it is shorter), to tell a zip from a manifest.
private func readPrefix(_ path: String, count: Int) throws -> [UInt8] {
    do {
        let fd = try FileDescriptor.openWithoutBlocking(path)
        defer { fd.close() }
        return try fd.read(upTo: count, path: path)
    } catch {
        throw InputFile.unreadable(path, error)
    }
}
