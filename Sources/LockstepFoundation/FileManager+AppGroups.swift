import AppGroupKit
import Foundation
import LockstepRuntime

extension FileManager {
    /// Foundation's `containerURL(forSecurityApplicationGroupIdentifier:)` (absent from Foundation on Linux): the App
    /// Group container of the simulated process this code runs in, created with its conventional layout, or nil when
    /// the bundle is not entitled to the group — or when this code runs in no simulated process (rule
    /// `group.entitlement`, `group.layout`).
    public func containerURL(forSecurityApplicationGroupIdentifier groupIdentifier: String) -> URL? {
        guard let sandbox = try? SimulatedProcess.current?.sandbox(),
              let container = try? sandbox.groupContainer(groupIdentifier) else { return nil }
        return URL(fileURLWithPath: container.path, isDirectory: true)
    }
}
