import BundleKit
import Foundation

/// A Run Script phase (`PBXShellScriptBuildPhase`) that writes a version into the Info.plist Xcode builds: the
/// build number is then what the script computes at build time (`git rev-list --count`, a CI counter), which no
/// reader of the checkout knows (<doc:ReadingProjects> "What the checkout does not hold", issue 42).
///
/// What counts as writing a key: `PlistBuddy -c "Set :CFBundleVersion …"` (or `Add`), `plutil -replace
/// CFBundleVersion` (or `-insert`), `defaults write … CFBundleVersion`, and `agvtool new-version`, `next-version` or
/// `bump` (CFBundleVersion) and `new-marketing-version` (CFBundleShortVersionString). A script in a file of the
/// checkout that the phase runs is read too.
package struct VersionScript: Sendable, Equatable {
    /// The phase's name as Xcode shows it ("Run Script" when it has none).
    package var name: String
    /// The phase's object id in the project.pbxproj, where findings point (its `shellScript`).
    package var objectID: String
    /// The Info.plist keys it writes: `CFBundleVersion`, `CFBundleShortVersionString`.
    package var keys: [String]
    /// What writes them, as one example for the sentence (`PlistBuddy -c "Set :CFBundleVersion $appBuild"`).
    package var command: String
    /// The script's text: two phases with the same text compute the same value from the same checkout.
    package var text: String

    package init(name: String, objectID: String, keys: [String], command: String, text: String) {
        self.name = name
        self.objectID = objectID
        self.keys = keys
        self.command = command
        self.text = text
    }

    /// Reads the version scripts of a project's targets, each phase and each script file once (targets share
    /// phases, and a hostile project lists one phase or one file for thousands of targets), and at most
    /// `fileBudget` bytes of script files in all.
    struct Reader {
        let objects: ObjectIndex
        /// The folder holding the `.xcodeproj`, against which a script file a phase runs is found.
        let sourceRoot: String
        private var phases: [String: VersionScript?] = [:]
        private var files: [String: String] = [:]
        private var fileBudget = 16 << 20

        init(objects: ObjectIndex, sourceRoot: String) {
            self.objects = objects
            self.sourceRoot = sourceRoot
        }

        /// The version scripts among a target's phases (`buildPhases` ids).
        mutating func read(phases ids: [String]) -> [VersionScript] {
            var result: [VersionScript] = []
            for id in ids {
                // Most phases are not scripts: told by their isa, with no table of them.
                guard let phase = objects[id]?.dictionary, phase["isa"]?.string == "PBXShellScriptBuildPhase" else { continue }
                if let known = phases[id] {
                    if let known { result.append(known) }
                    continue
                }
                let script = versionScript(id, phase)
                phases[id] = .some(script)
                if let script { result.append(script) }
            }
            return result
        }

        private mutating func versionScript(_ id: String, _ phase: OpenStepDictionary) -> VersionScript? {
            guard let script = phase["shellScript"]?.string else { return nil }
            var text = script
            // A phase that runs a script file of the checkout ("${SRCROOT}/scripts/set_build_number.sh").
            for path in VersionScript.scriptFiles(in: script, sourceRoot: sourceRoot) { text += "\n" + file(path) }
            guard let (keys, command) = VersionScript.writes(text) else { return nil }
            return VersionScript(name: phase["name"]?.string ?? "Run Script", objectID: id, keys: keys, command: command, text: text)
        }

        private mutating func file(_ path: String) -> String {
            if let known = files[path] { return known }
            var text = ""
            if fileBudget > 0, let bytes = InputFile.readIfPresent(path), bytes.count <= fileBudget {
                fileBudget -= bytes.count
                text = String(decoding: bytes, as: UTF8.self)
            }
            files[path] = text
            return text
        }
    }

    /// The version keys `script` writes and the first command that does, or nil when it writes none.
    static func writes(_ script: String) -> (keys: [String], command: String)? {
        var keys: [String] = []
        var command: String?
        for line in script.split(whereSeparator: { $0 == "\n" || $0 == ";" }) {
            let line = line.trimmingCharacters(in: .whitespaces)
            guard !line.hasPrefix("#"), !line.hasPrefix("echo ") else { continue }
            var found: [String] = []
            for key in ["CFBundleShortVersionString", "CFBundleVersion"] {
                let plistBuddy = line.contains("PlistBuddy") && (line.contains("Set :\(key) ") || line.contains("Add :\(key) "))
                let plutil = line.contains("plutil") && (line.contains("-replace \(key) ") || line.contains("-insert \(key) "))
                let defaults = line.contains("defaults write") && line.contains(" \(key) ")
                if plistBuddy || plutil || defaults { found.append(key) }
            }
            if line.contains("agvtool") {
                if line.contains("new-marketing-version") { found.append("CFBundleShortVersionString") }
                if line.contains("new-version") && !line.contains("new-marketing-version") || line.contains("next-version") || line.contains(" bump") {
                    found.append("CFBundleVersion")
                }
            }
            guard !found.isEmpty else { continue }
            for key in found where !keys.contains(key) { keys.append(key) }
            if command == nil { command = line.count > 120 ? String(line.prefix(117)) + "…" : line }
        }
        return command.map { (keys.sorted(), $0) }
    }

    /// The paths of script files a phase's text runs, made absolute against `sourceRoot`: words ending in `.sh`,
    /// `.bash` or `.zsh` that start with `$SRCROOT`, `${SRCROOT}`, `$(SRCROOT)` (or PROJECT_DIR) or are relative.
    static func scriptFiles(in script: String, sourceRoot: String) -> [String] {
        var paths: [String] = []
        for word in script.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "\t" }) {
            var path = word.trimmingCharacters(in: CharacterSet(charactersIn: "\"'"))
            guard [".sh", ".bash", ".zsh"].contains(where: path.hasSuffix) else { continue }
            for root in ["${SRCROOT}", "$(SRCROOT)", "$SRCROOT", "${PROJECT_DIR}", "$(PROJECT_DIR)", "$PROJECT_DIR"] where path.hasPrefix(root) {
                path = "." + path.dropFirst(root.count)
            }
            guard !path.hasPrefix("/"), !path.contains("$") else { continue }
            paths.append(PathText.join(sourceRoot, path))
        }
        return paths
    }
}
