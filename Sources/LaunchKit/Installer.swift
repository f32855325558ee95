import BundleKit
import Foundation
import LockstepSystem

/// Installs a manifest on the simulated device: `<groups>/.lockstep/installed.json`, written atomically with an
/// install generation, read by every process at start and before each shared write (RULES.md §7).
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
    /// - Throws: `SystemError` when the file cannot be written (the previous install is then unchanged).
    @discardableResult
    public static func install(_ manifest: Manifest, groupsRoot: String) throws -> Outcome {
        let path = Manifest.installedPath(groupsRoot: groupsRoot)
        let lock = try FileLock(path: "\(groupsRoot)/.lockstep/install.lock")
        return try lock.withLock {
            var object = json(manifest)
            var generation = 1
            if let bytes = try AtomicFile.read(path),
               var existing = try? JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any] {
                let previous = existing.removeValue(forKey: generationKey) as? Int ?? 0
                // Compared as canonical JSON text: the same bundles serialize to the same bytes.
                if try canonical(existing) == canonical(object) {
                    return Outcome(generation: previous, changed: false)
                }
                generation = previous + 1
            }
            object[generationKey] = generation
            try AtomicFile.write(canonical(object) + [0x0A], to: path)
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

    /// The installed manifest, or nil when nothing is installed.
    /// - Throws: `BundleError` when the installed file is damaged.
    public static func installed(groupsRoot: String) throws -> Manifest? {
        let path = Manifest.installedPath(groupsRoot: groupsRoot)
        guard access(path, F_OK) == 0 else { return nil }
        return try Manifest.load(path)
    }

    /// The generation installed now (0 when nothing is installed).
    public static func generation(groupsRoot: String) -> Int {
        guard let bytes = try? AtomicFile.read(Manifest.installedPath(groupsRoot: groupsRoot)),
              let object = try? JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any] else { return 0 }
        return object[generationKey] as? Int ?? 0
    }

    private static func canonical(_ object: [String: Any]) throws -> [UInt8] {
        Array(try JSONSerialization.data(withJSONObject: object, options: [.prettyPrinted, .sortedKeys]))
    }

    private static func json(_ manifest: Manifest) -> [String: Any] {
        let directory = manifest.path.map { ($0 as NSString).deletingLastPathComponent } ?? ""
        func bundle(_ record: BundleRecord, isApp: Bool) -> [String: Any] {
            var object: [String: Any] = ["name": record.name, "appGroups": record.appGroups]
            if !isApp { object["role"] = record.role.rawValue }
            let values: [(String, String?)] = [
                ("bundleIdentifier", record.bundleIdentifier), ("shortVersion", record.shortVersion),
                ("buildVersion", record.buildVersion), ("extensionPoint", record.extensionPoint),
                ("companionAppBundleIdentifier", record.companionAppBundleIdentifier),
            ]
            for (key, value) in values { if let value { object[key] = value } }
            if var executable = record.executable {
                if executable.contains("/") && !executable.hasPrefix("/") {
                    executable = LaunchEnvironment.absolute(directory.isEmpty ? executable : "\(directory)/\(executable)")
                }
                object["executable"] = executable
            }
            if let limit = record.memoryLimitMB { object["memoryLimitMB"] = limit }
            return object
        }
        return [
            "manifestVersion": 1,
            "app": bundle(manifest.app, isApp: true),
            "embedded": manifest.embedded.map { bundle($0, isApp: false) },
        ]
    }
}
