import BundleKit
import LockstepRuntime

/// The bundles of the installed manifest as commands and scenario steps name them: by label (`widget`), role,
/// name or bundle identifier.
public struct LaunchTargets: Sendable {
    public let groupsRoot: String
    /// Each bundle's label, in manifest order: its role, or its name when two bundles share a role.
    public let labels: [String]
    private let manifest: Manifest

    /// The containing app's record.
    public var app: BundleRecord { manifest.app }

    public init(manifest: Manifest, groupsRoot: String) {
        self.manifest = manifest
        self.groupsRoot = groupsRoot
        let roles = manifest.bundles.map(\.role)
        labels = manifest.bundles.map { record in
            roles.filter { $0 == record.role }.count > 1 ? record.name.lowercased() : record.role.rawValue
        }
    }

    /// The bundles `lockstep up` keeps running (host, widget, watch: their kind's `launch`), from the manifest given
    /// at start (`up` launches them while it installs it); the others, such as an App Intents extension, are
    /// launched on demand and exit, as iOS does.
    public var longRunning: [(record: BundleRecord, label: String)] {
        zip(manifest.bundles, labels).filter { $0.0.role.kind.launch == .atUp }.map { ($0.0, $0.1) }
    }

    /// The bundles launched on demand (an App Intents extension, other extensions): `lockstep up` launches each
    /// once at start as a launch check (`LaunchEnvironment.launchCheck`), so a bundle that cannot run is found
    /// before the scenario; scenario steps launch them for each task.
    public var onDemand: [(record: BundleRecord, label: String)] {
        zip(manifest.bundles, labels).filter { $0.0.role.kind.launch == .onDemand }.map { ($0.0, $0.1) }
    }

    /// The bundle named by `target` (a label, role, name or bundle identifier), as installed now — so a bundle
    /// relaunched after `reinstall` gets the new build.
    /// - Throws: `LaunchError.unknownBundle` listing what the manifest has.
    public func resolve(_ target: String) throws(LaunchError) -> (record: BundleRecord, label: String) {
        let bundles = current.bundles
        for (index, record) in bundles.enumerated() where labels[index] == target || record.bundleIdentifier == target
            || record.name == target || (record.role.rawValue == target && bundles.filter { $0.role == record.role }.count == 1) {
            return (record, labels[index])
        }
        let known = zip(bundles, labels).map { "\($0.1) (\($0.0.bundleIdentifier ?? $0.0.name))" }.joined(separator: ", ")
        throw LaunchError(.unknownBundle, subject: target, detail: "it has \(known)")
    }

    /// The installed manifest now (it changes on `reinstall`), or the one given at start.
    private var current: Manifest {
        (try? Installer.installed(groupsRoot: groupsRoot)) .flatMap { $0 } ?? manifest
    }
}
