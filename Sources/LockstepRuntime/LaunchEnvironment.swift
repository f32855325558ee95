import AppGroupKit
import BundleKit
import Foundation
import LockstepSystem

/// The environment a launcher gives a simulated process (<doc:Design> "Processes and identity").
public enum LaunchEnvironment {
    /// The groups root (`LOCKSTEP_GROUPS`).
    public static let groups = GroupsRoot.environmentVariable
    /// The process's bundle identifier.
    public static let bundleIdentifier = "LOCKSTEP_BUNDLE_ID"
    /// The CFBundleVersion the process was launched at (rule `runtime.stale`).
    public static let build = "LOCKSTEP_BUILD"
    /// A manifest to install before starting.
    public static let manifest = Manifest.environmentVariable
    /// Set to `1` when `lockstep up` launches an on-demand bundle (an intents extension) once to check that it can
    /// run: `SimulatedProcess.start` then prints the ready line after the identity and version checks and exits 0.
    public static let launchCheck = "LOCKSTEP_LAUNCH_CHECK"
    /// `LOCKSTEP_CHILD_X=v` in the launcher's environment becomes `X=v` in the child's (like `SIMCTL_CHILD_`).
    public static let childPrefix = "LOCKSTEP_CHILD_"

    /// The environment for `record`'s process: the launcher's own, with the `LOCKSTEP_CHILD_` variables
    /// unprefixed, and the identity variables set. `LOCKSTEP_MANIFEST` is dropped: the launcher has installed
    /// the manifest, and the child reads the installed one. So is `LOCKSTEP_LAUNCH_CHECK`: only the launcher sets it,
    /// for the one launch it means.
    public static func child(for record: BundleRecord, groupsRoot: String,
                             base: [String: String] = ProcessInfo.processInfo.environment) -> [String: String] {
        var environment: [String: String] = [:]
        for (key, value) in base where key != manifest && key != launchCheck && !key.hasPrefix(childPrefix) { environment[key] = value }
        for (key, value) in base where key.hasPrefix(childPrefix) && key.count > childPrefix.count {
            environment[String(key.dropFirst(childPrefix.count))] = value
        }
        environment[groups] = absolute(groupsRoot)
        environment[bundleIdentifier] = record.bundleIdentifier
        environment[build] = record.buildVersion
        // As on iOS, the temporary folder is inside the bundle's own container. The process makes it when it starts
        // as its bundle (`SimulatedProcess.start`, or a plain executable's first Lockstep call), not the launcher:
        // a process that refuses its arguments first must leave its container uncreated.
        environment["TMPDIR"] = temporaryDirectory(for: record, groupsRoot: groupsRoot) + "/"
        return environment
    }

    /// `<private container>/tmp`: the bundle's temporary folder, what `NSTemporaryDirectory()` gives it.
    public static func temporaryDirectory(for record: BundleRecord, groupsRoot: String) -> String {
        GroupsLayout(root: absolute(groupsRoot)).privateContainer(record.bundleIdentifier ?? record.name, on: record.device) + "/tmp"
    }

    /// `path` made absolute against the current directory, so a child in another directory finds the same root.
    public static func absolute(_ path: String) -> String {
        if path.hasPrefix("/") { return path }
        let cwd = FileManager.default.currentDirectoryPath
        return path == "." ? cwd : "\(cwd)/\(path)"
    }
}
