import AppGroupKit
import BundleKit
import Foundation
import LockstepRuntime
import LockstepSystem
import AppIntents
import Synchronization

/// Where one Habits process finds everything: its identity, its containers, the shared store, the link to the
/// watch, the preferences suite, and the simulated clock.
public struct HabitsEnvironment: Sendable {
    /// The bundles of the reference app.
    public enum Role: String, Sendable, CaseIterable {
        case host, widget, watch, intent, complication, notification, share, clip

        /// The manifest role an executable plays when started by hand: the role of the same name (each case names one).
        public var bundleRole: BundleRole { BundleRole(rawValue: rawValue) ?? .extension }
    }

    /// The widget kind the app reloads.
    public static let widgetKind = "HabitsWidget"

    /// Posted on the phone after each change to the shared store (a name only: rule `darwin.name-only`). The
    /// running app observes it to send the watch the new list, as an iOS app observes the Darwin notification its
    /// extensions post (it learns nothing else of a change made in another process).
    public static let storeChangedNotification = "com.example.habits.store-changed"

    public let role: Role
    /// The simulated OS's view of this process: its device, private container and entitled groups.
    public let sandbox: Sandbox
    public let groupsRoot: String
    public let bundleIdentifier: String
    /// The containing app's bundle id: it names the link directory and owns the presence the widget consults.
    public let hostBundleIdentifier: String
    /// The app's App Group (the first the containing app claims).
    public let groupIdentifier: String
    /// The group container on this process's device (rule `group.watch-separate`: the watch's is watch-local).
    public let groupContainer: String
    /// This bundle's private container's path (rule `container.private`); not created at start (each start-up
    /// mkdir costs time on the way to ready): what writes into it (WatchConnectivity) creates the folders it needs,
    /// and `sandbox.privateContainer()` creates the whole layout.
    public let privateContainer: String

    /// The environment of a simulated process (`SimulatedProcess.start(defaultRole:)`).
    /// - Throws: `AppGroupError.notEntitled` (exit 77) when the bundle does not claim the app's group.
    public init(process: SimulatedProcess, role: Role) throws {
        let app = process.manifest.app
        let host = app.bundleIdentifier ?? process.identity.bundleIdentifier
        let group = app.appGroups.first ?? process.bundle.appGroups.first ?? "group.\(host)"
        try self.init(role: role, sandbox: try process.sandbox(), hostBundleIdentifier: host, groupIdentifier: group)
    }

    /// An environment from its parts (tests, tools).
    public init(role: Role, sandbox: Sandbox, hostBundleIdentifier: String, groupIdentifier: String) throws {
        self.role = role
        self.sandbox = sandbox
        groupsRoot = sandbox.root.path
        bundleIdentifier = sandbox.identity.bundleIdentifier
        self.hostBundleIdentifier = hostBundleIdentifier
        self.groupIdentifier = groupIdentifier
        // rule `group.entitlement`: a bundle that does not claim the group gets no container (exit 77).
        groupContainer = try sandbox.requireGroupContainer(groupIdentifier).path
        privateContainer = sandbox.privateContainerPath
    }

    /// `<groups>/link/<host-bundle-id>`: the WatchConnectivity channel, outside every container.
    public var linkDirectory: String { GroupsLayout(root: groupsRoot).link(host: hostBundleIdentifier) }
    /// `<group container>/.lockstep/presence`.
    public var presenceDirectory: String { GroupsLayout.presence(container: groupContainer) }

    /// Today on the simulated clock.
    public func today() -> Day { Day(time: SimulatedClock(groupsRoot: groupsRoot).now()) }

    /// The shared store in the group container.
    public func openStore() throws -> HabitStore { try HabitStore(groupContainer: groupContainer) }

    /// The shared store to read, or nil while no process of the app has created it: a reader (the widget) has an
    /// empty day to show and does not create the app's database. A store appears complete or not at all (it is
    /// built aside and linked into place).
    public func openStoreIfCreated() throws -> HabitStore? {
        FileSystem.exists(HabitStore.path(groupContainer: groupContainer)) ? try openStore() : nil
    }

    /// The widget center, asking as this bundle.
    public var widgetCenter: WidgetCenterHandle { WidgetCenterHandle(environment: self) }

    /// After a write to the shared store: asks WidgetKit to reload the widget and posts `storeChangedNotification`
    /// on this device.
    public func storeDidChange() throws {
        try widgetCenter.reloadHabitsWidget()
        try widgetCenter.reloadHabitControl()
        try DarwinNotificationCenter(sandbox: sandbox).post(Self.storeChangedNotification)
    }

    /// Where intents run (rule `intent.where`): in the app while it runs, else here.
    public var intentRouter: IntentRouter {
        IntentRouter(registry: habitIntents, groupContainer: groupContainer, appBundleIdentifier: hostBundleIdentifier,
                     notifications: try? DarwinNotificationCenter(sandbox: sandbox))
    }

    /// The app's preferences: the group's defaults suite, shared by every bundle of the group on this device.
    public func preferences() throws -> HabitPreferences { try HabitPreferences(environment: self) }

    private static let installed = Mutex<HabitsEnvironment?>(nil)

    /// The environment the intents and the widgets use (App Intents receive nothing but their parameters, a
    /// widget nothing but `init()`); set by each executable, else made for the started simulated process.
    public static var current: HabitsEnvironment {
        get {
            installed.withLock { installed in
                if let environment = installed { return environment }
                guard let process = SimulatedProcess.current,
                      let role = Role.allCases.first(where: { $0.bundleRole == process.bundle.role }) else {
                    preconditionFailure("HabitsEnvironment.current is read before the executable set it.")
                }
                do {
                    let environment = try HabitsEnvironment(process: process, role: role)
                    installed = environment
                    return environment
                } catch {
                    // A Habits bundle that does not claim the app's group (exit 77): its process ends saying so.
                    ProcessStop.report(error)
                    preconditionFailure("\(error)")
                }
            }
        }
        set { installed.withLock { $0 = newValue } }
    }
}

/// The Habits preferences, in the group's defaults suite (`UserDefaults(suiteName: "group.com.example.habits")`).
public struct HabitPreferences: Sendable {
    /// Whether the large widget lists the habits already done today (default on). A dotted key, as defaults allow.
    public static let showCompletedKey = "widget.showCompleted"

    let defaults: GroupDefaults

    init(environment: HabitsEnvironment) throws {
        guard let defaults = try GroupDefaults(suiteName: environment.groupIdentifier, sandbox: environment.sandbox) else {
            throw HabitError(.usage, subject: environment.groupIdentifier, detail: "the preferences suite is the app group, not a bundle id")
        }
        self.defaults = defaults
    }

    /// `widget.showCompleted`, default true.
    public var showCompleted: Bool { ((try? defaults.bool(forKey: Self.showCompletedKey)) ?? nil) ?? true }

    public func setShowCompleted(_ value: Bool) throws {
        try defaults.set(value, forKey: Self.showCompletedKey)
    }
}
