import AppGroupKit
import BundleKit

extension BundleRecord {
    /// The device the bundle runs on: the watch app on the watch, everything else on the phone
    /// (RULES.md `group.watch-separate`: the watch has its own containers and notifications).
    public var device: Device { role == .watch ? .watch : .phone }
}

extension BundleProcess {
    /// Who this process is for AppGroupKit: its bundle identifier, the App Groups its entitlements list (the
    /// manifest's `appGroups`), and its device.
    public var identity: ProcessIdentity {
        ProcessIdentity(bundleIdentifier: bundle.bundleIdentifier ?? bundle.name, appGroups: bundle.appGroups, device: bundle.device)
    }

    /// What the simulated OS gives this process: its private container and the group containers it is entitled to.
    /// - Throws: `AppGroupError` when the bundle identifier is not a valid one.
    public func sandbox() throws -> Sandbox {
        try Sandbox(root: GroupsRoot(path: groupsRoot), identity: identity)
    }
}
