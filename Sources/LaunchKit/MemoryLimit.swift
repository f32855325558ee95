import BundleKit

/// The memory limits the supervisor enforces (rule `extension.memory`, `widget.memory`). Apple publishes no
/// numbers: each kind's observed one is in `BundleRole.Kind`, and a manifest's `memoryLimitMB` overrides it.
public enum MemoryLimit {
    /// The limit for `record` in MB: its `memoryLimitMB`, else its kind's: 30 for a widget (and, unconfirmed, a
    /// watch complication), 24 for a notification service extension, 120 for a share extension (both unconfirmed),
    /// else none.
    public static func megabytes(for record: BundleRecord) -> Int? {
        record.memoryLimitMB ?? kind(of: record).memoryLimitMB
    }

    /// The device's text when a bundle is killed above its limit.
    public static func report(limitMB: Int, record: BundleRecord) -> String {
        kind(of: record).memoryReport.text(limitMB: limitMB)
    }

    /// The bundle's kind: its role's, or for a bundle of role `extension` the one its extension point names.
    private static func kind(of record: BundleRecord) -> BundleRole.Kind {
        (record.role == .extension ? BundleRole(extensionPoint: record.extensionPoint) : record.role).kind
    }
}
