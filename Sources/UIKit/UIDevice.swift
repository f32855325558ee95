import AppGroupKit
import Foundation
import LockstepRuntime
import LockstepSystem

/// The simulated device: an iPhone simulator.
public final class UIDevice: NSObject, Sendable {
    public enum UserInterfaceIdiom: Int, Sendable { case unspecified = -1, phone, pad, tv, carPlay, mac = 5, vision }
    public enum BatteryState: Int, Sendable { case unknown, unplugged, charging, full }

    public static let current = UIDevice()

    public var name: String { "iPhone" }
    public var model: String { "iPhone" }
    public var localizedModel: String { "iPhone" }
    public var systemName: String { "iOS" }
    /// The iOS version Lockstep's frameworks follow.
    public var systemVersion: String { "18.0" }
    public var userInterfaceIdiom: UserInterfaceIdiom { .phone }
    /// Stable per bundle, as the vendor identifier is per app on a device.
    public var identifierForVendor: UUID? {
        let seed = SimulatedProcess.current?.manifest.app.bundleIdentifier ?? "lockstep"
        var bytes = [UInt8](repeating: 0, count: 16)
        for (index, byte) in seed.utf8.enumerated() { bytes[index % 16] = bytes[index % 16] &* 31 &+ byte }
        return UUID(uuid: (bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
                           bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]))
    }
    public var isBatteryMonitoringEnabled: Bool { get { false } set {} }
    public var batteryLevel: Float { -1 }
    public var batteryState: BatteryState { .unknown }
}

/// The screen of the simulated iPhone (iPhone 15: 393 × 852 points at 3x).
public final class UIScreen: NSObject, Sendable {
    public static let main = UIScreen()
    public var bounds: CGRect { CGRect(x: 0, y: 0, width: 393, height: 852) }
    public var nativeBounds: CGRect { CGRect(x: 0, y: 0, width: 1179, height: 2556) }
    public var scale: CGFloat { 3 }
    public var nativeScale: CGFloat { 3 }
    public var brightness: CGFloat { get { 0.5 } set {} }
    public var traitCollection: UITraitCollection { .current }
}

/// The app, as its own process and its extensions see it (`UIApplication.shared`).
public final class UIApplication: NSObject, Sendable {
    public enum State: Int, Sendable { case active, inactive, background }
    public struct OpenExternalURLOptionsKey: Hashable, RawRepresentable, Sendable {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        public static let universalLinksOnly = OpenExternalURLOptionsKey(rawValue: "UIApplicationOpenURLOptionUniversalLinksOnly")
    }

    public static let shared = UIApplication()
    public static let openSettingsURLString = "app-settings:"

    /// The Dynamic Type size the person chose: the current traits' (see `UITraitCollection.current`).
    public var preferredContentSizeCategory: UIContentSizeCategory { UITraitCollection.current.preferredContentSizeCategory }

    /// The simulated app's state: active while its process runs in the foreground (it announces itself in its App
    /// Group, as `up` shows), background otherwise.
    public var applicationState: State {
        guard let process = SimulatedProcess.current, let app = process.manifest.app.bundleIdentifier,
              let group = process.bundle.appGroups.first(where: process.manifest.app.appGroups.contains),
              let container = try? process.sandbox().groupContainer(group) else {
            return SimulatedProcess.current?.bundle.role == .host ? .active : .background
        }
        if process.bundle.role == .host { return .active }
        let seen = Presence.observe(directory: GroupsLayout.presence(container: container.path), bundleIdentifier: app)
        guard seen.isRunning, !seen.isSuspended else { return .background }
        return seen.state == .foreground ? .active : .background
    }

    /// Opens a URL: the simulated device has no other apps, so the request is printed (`opened URL …`), which a
    /// scenario can `wait` for, and reported done.
    public func open(_ url: URL, options: [OpenExternalURLOptionsKey: Any] = [:], completionHandler: (@MainActor @Sendable (Bool) -> Void)? = nil) {
        print("opened URL \(url.absoluteString)")
        if let completionHandler { Task { @MainActor in completionHandler(true) } }
    }

    public func open(_ url: URL, options: [OpenExternalURLOptionsKey: Any] = [:]) async -> Bool {
        print("opened URL \(url.absoluteString)")
        return true
    }

    /// Whether a URL can be opened: web and the app's own settings, as a device without other apps has.
    public func canOpenURL(_ url: URL) -> Bool {
        ["http", "https", "app-settings", "mailto", "tel", "sms"].contains(url.scheme?.lowercased() ?? "")
    }

    public var applicationIconBadgeNumber: Int { get { 0 } set {} }
    public func registerForRemoteNotifications() {}
    public var isRegisteredForRemoteNotifications: Bool { false }
}
