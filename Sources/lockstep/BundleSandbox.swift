import AppGroupKit
import BundleKit
import LockstepRuntime

/// `--as BUNDLE-ID` with `--manifest` and `--groups`: the sandbox the simulated OS gives that bundle, from the
/// manifest's entitlements (shared by `defaults`, `container` and `notify`).
enum BundleSandbox {
    /// The options every runtime verb takes.
    static let options: Set<String> = ["--as", "--manifest", "--groups"]

    static func resolve(_ arguments: Arguments, command: String) throws -> Sandbox {
        guard let bundleIdentifier = arguments.value("--as") else {
            throw UsageError("lockstep \(command): '--as BUNDLE-ID' is required; see 'lockstep \(command) --help'.")
        }
        let root = GroupsRoot.resolve(explicit: arguments.value("--groups"))
        let manifest = try Manifest.resolve(explicit: arguments.value("--manifest"), groupsRoot: root.path)
        guard let bundle = manifest.bundle(identifier: bundleIdentifier) else {
            let known = manifest.bundles.compactMap(\.bundleIdentifier).joined(separator: ", ")
            throw AppGroupError(.unknownBundle, subject: bundleIdentifier, detail: "'\(manifest.path ?? Manifest.embeddedDefaultName)' (it lists \(known))")
        }
        return try Sandbox(root: root, identity: ProcessIdentity(bundle: bundle))
    }
}
