import BundleKit
import XcodeKit

// Issue 42 item 3: a version a Run Script phase writes into the built Info.plist (VersionScript) is unknown to a static
// reader, as a setting the checkout does not hold is (<doc:ReadingProjects> "What the checkout does not hold"): the
// version rules warn where their verdict depends on it, naming the phase, and judge parity only where they can.

extension ProjectReading {
    /// Each distinct script of the project that writes a version, by its text: the name its unknown value is
    /// written with, `Run Script 'Set Build Number'` (numbered when two different scripts share a phase name). The
    /// same text in the app and its extensions is one name, so their values are the same unknown and equal.
    static func scriptNames(_ project: XcodeProject) -> [String: String] {
        var names: [String: String] = [:]
        // By phase name, how many different scripts have it: the next one's number.
        var counts: [String: Int] = [:]
        for target in project.targets {
            for script in target.versionScripts where names[script.text] == nil {
                let count = counts[script.name, default: 0] + 1
                counts[script.name] = count
                names[script.text] = count == 1 ? "Run Script '\(script.name)'" : "Run Script '\(script.name)' #\(count)"
            }
        }
        return names
    }

    /// `record` with every version one of `resolved`'s Run Script phases writes made unknown: its value is the
    /// script's name as a setting nothing supplies, its source the phase's `shellScript`, its hint the sentence
    /// that says which phase writes it with which command.
    func withScriptedVersions(_ record: BundleRecord, _ resolved: ResolvedTarget) -> BundleRecord {
        let scripts = resolved.target.versionScripts
        guard !scripts.isEmpty else { return record }
        var record = record
        for script in scripts {
            guard let name = scriptNames[script.text] else { continue }
            for key in script.keys {
                let written = key == "CFBundleVersion" ? record.buildVersion : record.shortVersion
                let symbol = BuildSettings.unknownSymbol(name)
                if key == "CFBundleVersion" { record.buildVersion = symbol } else { record.shortVersion = symbol }
                record.unknowns[name] = "The Run Script phase '\(script.name)' of target '\(resolved.target.name)' writes \(key) into the built Info.plist (\(script.command)), so the value that ships is computed at build time\(written.map { " (the project gives '\($0)')" } ?? ""); parity with the containing app is judged only where both come from the same script."
                var source = SourceLocation(file: project.pbxprojPath, detail: "\(script.name) (Run Script phase of target '\(resolved.target.name)')")
                source.pbxprojSetting = PbxprojSetting(key: "shellScript", object: script.objectID)
                record.valueSources[key] = source
            }
        }
        return record
    }

    /// Whether a Run Script phase of the target writes `key`: its project value is not what ships, so the findings
    /// about that value (a target override, an undefined setting) do not apply.
    static func scriptWrites(_ key: CheckedKey, _ resolved: ResolvedTarget) -> Bool {
        resolved.target.versionScripts.contains { $0.keys.contains(key.key) }
    }
}
