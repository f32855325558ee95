import AppGroupKit
import BundleKit

extension BundleRecord {
    /// The device the bundle runs on: the watch app and its complications on the watch, everything else on the phone
    /// (rule `group.watch-separate`: the watch has its own containers and notifications; `watch.complication`).
    public var device: Device { role.kind.runsOnWatch ? .watch : .phone }
}

extension ProcessIdentity {
    /// Who a process of `bundle` is for AppGroupKit: its bundle identifier, the App Groups its entitlements list (the
    /// manifest's `appGroups`), and its device.
    public init(bundle: BundleRecord) {
        self.init(bundleIdentifier: bundle.bundleIdentifier ?? bundle.name, appGroups: bundle.appGroups, device: bundle.device)
    }
}

extension SimulatedProcess {
    /// Who this process is for AppGroupKit.
    public var identity: ProcessIdentity { ProcessIdentity(bundle: bundle) }

    /// What the simulated OS gives this process: its private container and the group containers it is entitled to.
    /// - Throws: `AppGroupError` when the bundle identifier is not a valid one.
    public func sandbox() throws -> Sandbox {
        try Sandbox(root: GroupsRoot(path: groupsRoot), identity: identity)
    }
}
