import Foundation
import LockstepSystem
import Synchronization

/// Where one Habits process finds everything: its identity, its containers, the shared store, the link to the
/// watch, and the simulated clock.
public struct HabitsEnvironment: Sendable {
    /// The four bundles of the reference app.
    public enum Role: String, Sendable, CaseIterable {
        case host, widget, watch, intent
    }

    /// The App Group every Habits bundle claims.
    public static let groupIdentifier = "group.com.example.habits"
    /// The widget kind the app reloads.
    public static let widgetKind = "HabitsWidget"

    public var role: Role
    public var groupsRoot: String
    public var bundleIdentifier: String
    /// The containing app's bundle id: it names the link directory and owns the presence the widget consults.
    public var hostBundleIdentifier: String
    /// `phone` or `watch` (RULES.md `group.watch-separate`: the watch has its own containers).
    public var device: String

    public init(role: Role, groupsRoot: String, bundleIdentifier: String, hostBundleIdentifier: String) {
        self.role = role
        self.groupsRoot = groupsRoot
        self.bundleIdentifier = bundleIdentifier
        self.hostBundleIdentifier = hostBundleIdentifier
        device = role == .watch ? "watch" : "phone"
    }

    /// The environment of this process: `LOCKSTEP_GROUPS` (default `./groups`) and `LOCKSTEP_BUNDLE_ID`
    /// (default: the role's bundle in the embedded Habits manifest).
    public static func fromProcess(role: Role) -> HabitsEnvironment {
        let variables = ProcessInfo.processInfo.environment
        let host = "com.example.habits"
        let defaults: [Role: String] = [.host: host, .widget: "\(host).widget", .watch: "\(host).watchkitapp", .intent: "\(host).intents"]
        let bundle = variables["LOCKSTEP_BUNDLE_ID"].flatMap { $0.isEmpty ? nil : $0 } ?? defaults[role]!
        let hostID = role == .host ? bundle : String(bundle.split(separator: ".").dropLast().joined(separator: "."))
        return HabitsEnvironment(role: role, groupsRoot: variables["LOCKSTEP_GROUPS"] ?? "groups",
                                 bundleIdentifier: bundle, hostBundleIdentifier: hostID.isEmpty ? host : hostID)
    }

    /// `<groups>/<device>/AppGroup/<group-id>`.
    public var groupContainer: String { "\(groupsRoot)/\(device)/AppGroup/\(Self.groupIdentifier)" }
    /// `<groups>/<device>/Data/<bundle-id>`.
    public var privateContainer: String { "\(groupsRoot)/\(device)/Data/\(bundleIdentifier)" }
    /// `<groups>/link/<host-bundle-id>`: the WatchConnectivity channel, outside every container.
    public var linkDirectory: String { "\(groupsRoot)/link/\(hostBundleIdentifier)" }
    /// `<group container>/.lockstep/presence`.
    public var presenceDirectory: String { "\(groupContainer)/.lockstep/presence" }

    /// Today on the simulated clock.
    public func today() -> Day { Day(time: SimulatedClock(groupsRoot: groupsRoot).now()) }

    /// The shared store in the group container.
    public func openStore() throws -> HabitStore { try HabitStore(groupContainer: groupContainer) }

    /// The widget center, asking as this bundle.
    public var widgetCenter: WidgetCenterHandle { WidgetCenterHandle(environment: self) }

    private static let installed = Mutex<HabitsEnvironment?>(nil)

    /// The environment the intents use (App Intents have no arguments but their parameters).
    public static var current: HabitsEnvironment {
        get { installed.withLock { $0 } ?? fromProcess(role: .intent) }
        set { installed.withLock { $0 = newValue } }
    }
}
