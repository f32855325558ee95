import AppGroupKit
import BundleKit
import Foundation
import LockstepSystem

/// Installs a manifest on the simulated device: `<groups>/.lockstep/installed.json`, written atomically with an
/// install generation, read by every process at start and before each shared write (<doc:Rules> "The stale extension").
///
/// The installed file is self-contained: every value inline (values that came from Info.plist or entitlements
/// files are copied in) and relative executable paths made absolute, so it reads the same from any directory.
public enum Installer {
    /// What an install did.
    public struct Outcome: Equatable, Sendable {
        /// The generation now installed (1 for the first install).
        public var generation: Int
        /// Whether anything was written (installing the manifest already installed changes nothing).
        public var changed: Bool
    }

    /// The top-level key holding the generation in `installed.json` (BundleKit ignores it when reading).
    public static let generationKey = "installGeneration"

    /// Installs `manifest` under `groupsRoot`. Idempotent: when the same bundles are installed already, nothing is
    /// written and the generation stays.
    /// - Throws: `AppGroupError.invalidIdentifier` for a bundle identifier that is no reverse-DNS name (nothing is
    ///   written); `SystemError` when the file cannot be written (the previous install is then unchanged).
    /// - Parameter whileLocked: runs first, holding the install lock, before anything is read or written. `up`
    ///   launches its bundles here, so their start-up overlaps the write: a starting bundle reads the installed
    ///   manifest under the same lock (`installed(groupsRoot:)`), so it waits for this install and reads it.
    @discardableResult
    public static func install(_ manifest: Manifest, groupsRoot: String, whileLocked: () throws -> Void = {}) throws -> Outcome {
        // Each bundle's identifier names its container folder (and its TMPDIR): one that could climb out of the
        // groups root is refused before anything is written or launched.
        for record in manifest.bundles { try Sandbox.validateBundleIdentifier(record.bundleIdentifier ?? record.name) }
        let path = Manifest.installedPath(groupsRoot: groupsRoot)
        var object = json(manifest)
        let lock = try FileLock(path: lockPath(groupsRoot: groupsRoot))
        return try lock.withLock {
            try whileLocked()
            var generation = 1
            if let bytes = try AtomicFile.read(path), case .object(var existing)? = try? JSONValue.parse(bytes, path: path) {
                let previous = existing.removeValue(forKey: generationKey)?.integer ?? 0
                if existing == object { return Outcome(generation: previous, changed: false) }
                generation = previous + 1
            }
            object[generationKey] = .integer(generation)
            try AtomicFile.write(Array(JSONValue.object(object).canonicalText.utf8) + [0x0A], to: path)
            return Outcome(generation: generation, changed: true)
        }
    }

    /// Reinstalls the installed app (or the embedded default when none is) with every bundle at `build` and,
    /// when given, `version` — as a developer does after `lockstep bump`.
    @discardableResult
    public static func reinstall(groupsRoot: String, build: String, version: String?) throws -> Outcome {
        var manifest = try installed(groupsRoot: groupsRoot) ?? Manifest.embeddedDefault
        manifest.app.buildVersion = build
        for index in manifest.embedded.indices { manifest.embedded[index].buildVersion = build }
        if let version {
            manifest.app.shortVersion = version
            for index in manifest.embedded.indices { manifest.embedded[index].shortVersion = version }
        }
        return try install(manifest, groupsRoot: groupsRoot)
    }

    /// The installed manifest, or nil when nothing is installed. Read under the install lock (shared), so an
    /// install in progress is waited for: a bundle `up` launched while installing reads the new install.
    /// - Throws: `BundleError` when the installed file is damaged; `SystemError` (`.busy`) when an install holds
    ///   the lock past the bounded wait.
    public static func installed(groupsRoot: String) throws -> Manifest? {
        let path = Manifest.installedPath(groupsRoot: groupsRoot)
        let lockPath = lockPath(groupsRoot: groupsRoot)
        // No lock file: nothing was ever installed here, and no install is under way (it creates the lock first).
        guard FileSystem.exists(lockPath) else { return nil }
        return try FileLock(path: lockPath).withLock(.shared) {
            FileSystem.exists(path) ? try Manifest.load(path) : nil
        }
    }

    /// `manifest` as installing records it: a relative executable path made absolute against the manifest's
    /// folder, so it reads the same from any directory.
    public static func resolvingExecutables(_ manifest: Manifest) -> Manifest {
        // A bare file name has no folder to prefix (NSString's `deletingLastPathComponent` traps on Linux on a
        // one-character path).
        let directory = manifest.path.map { $0.contains("/") ? AtomicFile.parentDirectory(of: $0) : "" } ?? ""
        var resolved = manifest
        func resolve(_ record: inout BundleRecord) {
            if let executable = record.executable, executable.contains("/") && !executable.hasPrefix("/") {
                record.executable = LaunchEnvironment.absolute(directory.isEmpty ? executable : "\(directory)/\(executable)")
            }
        }
        resolve(&resolved.app)
        for index in resolved.embedded.indices { resolve(&resolved.embedded[index]) }
        return resolved
    }

    static func lockPath(groupsRoot: String) -> String { GroupsLayout(root: groupsRoot).installLock }

    /// The generation installed now (0 when nothing is installed).
    public static func generation(groupsRoot: String) -> Int {
        let path = Manifest.installedPath(groupsRoot: groupsRoot)
        guard let bytes = try? AtomicFile.read(path), let object = try? JSONValue.parse(bytes, path: path) else { return 0 }
        return object[generationKey]?.integer ?? 0
    }

    private static func json(_ manifest: Manifest) -> [String: JSONValue] {
        let extraKeys = BundleInfo.extraKeys(of: manifest)
        let manifest = resolvingExecutables(manifest)
        func bundle(_ record: BundleRecord, isApp: Bool, info: [String: JSONValue]) -> JSONValue {
            var object: [String: JSONValue] = ["name": .string(record.name), "appGroups": .array(record.appGroups.map(JSONValue.string))]
            if !isApp { object["role"] = .string(record.role.rawValue) }
            let values: [(String, String?)] = [
                ("bundleIdentifier", record.bundleIdentifier), ("shortVersion", record.shortVersion),
                ("buildVersion", record.buildVersion), ("extensionPoint", record.extensionPoint),
                ("companionAppBundleIdentifier", record.companionAppBundleIdentifier), ("executable", record.executable),
            ]
            for (key, value) in values { if let value { object[key] = .string(value) } }
            if let limit = record.memoryLimitMB { object["memoryLimitMB"] = .integer(limit) }
            if record.supportsLiveActivities { object["supportsLiveActivities"] = .bool(true) }
            if !record.resources.isEmpty { object["resources"] = .array(record.resources.map(JSONValue.string)) }
            if !record.activationSupports.isEmpty {
                object["activationRule"] = .object(record.activationSupports.mapValues { .integer($0) })
            }
            // The Info.plist keys the fields above do not carry, for `Bundle.main` (BundleInfo).
            if !info.isEmpty { object[BundleInfo.field] = .object(info) }
            return .object(object)
        }
        return [
            "manifestVersion": .integer(1),
            "app": bundle(manifest.app, isApp: true, info: extraKeys[0]),
            "embedded": .array(manifest.embedded.enumerated().map { bundle($1, isApp: false, info: extraKeys[$0 + 1]) }),
        ]
    }
}
