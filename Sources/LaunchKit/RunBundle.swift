import AppGroupKit
import BundleKit
import Foundation
import LockstepRuntime
import LockstepSystem

/// `lockstep run`: one bundle with its identity and sandbox, sharing the terminal; exits with its status.
public enum RunBundle {
    /// Installs the manifest, launches `target` (a role, label, name or bundle id) with `arguments`, forwards
    /// SIGINT/SIGTERM/SIGHUP to it, and waits.
    /// - Returns: the bundle's exit status, or 128 + the signal that killed it.
    /// - Throws: `LaunchError`/`BundleError` before anything is launched (unknown bundle, bad manifest, no executable).
    public static func run(_ target: String, arguments: [String], manifest path: String?, groupsRoot: String,
                           timing: DeviceTiming = .strict) throws -> Int32 {
        TerminationSignals.block()

        let manifest = try Manifest.resolve(explicit: path, groupsRoot: groupsRoot)
        let (record, _) = try LaunchTargets(manifest: manifest, groupsRoot: groupsRoot).resolve(target)
        let name = record.bundleIdentifier ?? record.name
        let executable = try ExecutableLocator.locate(record.executable ?? "", bundle: name)
        try Installer.install(manifest, groupsRoot: groupsRoot)
        // The child stays in our process group, so it can read the terminal and gets a terminal's Ctrl-C itself.
        let child = try SpawnedProcess.start(path: executable, name: name, arguments: arguments,
                                       environment: LaunchEnvironment.child(for: record, groupsRoot: groupsRoot).merging(timing.environment) { $1 },
                                       ownGroup: false, pipes: false)
        Thread.detachNewThread {
            while true { child.signal(TerminationSignals.wait()) }
        }
        return child.wait().shellStatus
    }
}
