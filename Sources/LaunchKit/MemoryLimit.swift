import BundleKit

/// The memory limits the supervisor enforces (RULES.md `widget.memory`). Apple publishes no numbers: these are
/// the observed ones, and a manifest's `memoryLimitMB` overrides them.
public enum MemoryLimit {
    /// The limit for `record` in MB: its `memoryLimitMB`, else 30 for a widget and 24 for a notification
    /// service extension, else none.
    public static func megabytes(for record: BundleRecord) -> Int? {
        if let explicit = record.memoryLimitMB { return explicit }
        if record.extensionPoint == notificationService { return 24 }
        if record.role == .widget || record.extensionPoint == "com.apple.widgetkit-extension" { return 30 }
        return nil
    }

    /// The device's text when a bundle is killed above its limit.
    public static func report(limitMB: Int, record: BundleRecord) -> String {
        if record.extensionPoint == notificationService {
            return "exceeded mem limit: ActiveHard \(limitMB) MB (fatal)"
        }
        return "EXC_RESOURCE (RESOURCE_TYPE_MEMORY: high watermark memory limit exceeded) (limit=\(limitMB) MB)"
    }

    static let notificationService = "com.apple.usernotifications.service"
}
