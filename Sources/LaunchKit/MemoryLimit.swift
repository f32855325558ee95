import BundleKit

/// The memory limits the supervisor enforces (rule `extension.memory`, `widget.memory`). Apple publishes no
/// numbers: these are the observed ones, and a manifest's `memoryLimitMB` overrides each.
public enum MemoryLimit {
    /// The limit for `record` in MB: its `memoryLimitMB`, else its kind's: 30 for a widget (and, unconfirmed, a
    /// watch complication), 24 for a notification service extension, 120 for a share extension (both unconfirmed),
    /// else none.
    public static func megabytes(for record: BundleRecord) -> Int? {
        if let explicit = record.memoryLimitMB { return explicit }
        switch kind(of: record) {
        case .notificationService: return 24
        case .share: return 120
        case .widget: return 30
        case nil: return nil
        }
    }

    /// The device's text when a bundle is killed above its limit.
    public static func report(limitMB: Int, record: BundleRecord) -> String {
        if kind(of: record) == .notificationService {
            return "exceeded mem limit: ActiveHard \(limitMB) MB (fatal)"
        }
        return "EXC_RESOURCE (RESOURCE_TYPE_MEMORY: high watermark memory limit exceeded) (limit=\(limitMB) MB)"
    }

    private enum Kind { case widget, notificationService, share }

    private static func kind(of record: BundleRecord) -> Kind? {
        switch (record.role, record.extensionPoint) {
        case (.notification, _), (_, "com.apple.usernotifications.service"): return .notificationService
        case (.share, _), (_, "com.apple.share-services"), (_, "com.apple.ui-services"): return .share
        case (.widget, _), (.complication, _), (_, "com.apple.widgetkit-extension"): return .widget
        default: return nil
        }
    }
}
