import LockstepSystem

/// Every path under a groups root, each made by one function here: the on-disk protocol of `groups/README.md`
/// (whose layout block a test checks against this type). Nothing else spells a path under the root.
public struct GroupsLayout: Equatable, Sendable {
    /// The groups root.
    public let root: String

    public init(root: String) { self.root = root }

    // MARK: the root's own bookkeeping

    /// `<root>/.lockstep/installed.json`: the installed manifest.
    public var installedManifest: String { "\(root)/.lockstep/installed.json" }
    /// `<root>/.lockstep/install.lock`: the flock an install holds while it writes, and a starting bundle while it reads.
    public var installLock: String { "\(root)/.lockstep/install.lock" }
    /// `<root>/.lockstep`: the folder a process watches for a reinstall (rule `runtime.stale`).
    public var installDirectory: String { "\(root)/.lockstep" }
    /// `<root>/.lockstep/clock`: the simulated clock's offset from the real one, in seconds (decimal text).
    public var clockOffset: String { "\(root)/.lockstep/clock" }
    /// `<root>/.lockstep/clock.lock`.
    public var clockLock: String { "\(root)/.lockstep/clock.lock" }
    /// `<root>/gallery.html`: the page `lockstep gallery` writes by default, every widget's latest pictures.
    public var gallery: String { "\(root)/gallery.html" }

    // MARK: devices and their containers

    /// `<root>/<device>`.
    public func device(_ device: Device) -> String { "\(root)/\(device.rawValue)" }
    /// `<root>/<device>/AppGroup`: every group container of the device.
    public func groupContainers(on device: Device) -> String { "\(self.device(device))/AppGroup" }
    /// `<root>/<device>/AppGroup/<group-id>` (rule `group.layout`).
    public func groupContainer(_ group: String, on device: Device) -> String { "\(groupContainers(on: device))/\(group)" }
    /// `<root>/<device>/Data/<bundle-id>` (rule `container.private`).
    public func privateContainer(_ bundleIdentifier: String, on device: Device) -> String {
        "\(self.device(device))/Data/\(bundleIdentifier)"
    }
    /// `<root>/phone/.lockstep/activities/<app-bundle-id>`: the system's Live Activities of one app, `<id>.json` each
    /// with its rendering beside it (`<id>.txt`), under `activities.lock` (rule `activity.lifecycle`). They are
    /// the system's, in no container: the app writes them through ActivityKit, the widget extension renders them.
    public func activities(app bundleIdentifier: String) -> String {
        "\(device(.phone))/.lockstep/activities/\(bundleIdentifier)"
    }
    /// `<activities>/<id>.json`: one Live Activity as the system keeps it.
    public static func activityRecord(_ id: String, in activities: String) -> String { "\(activities)/\(id).json" }
    /// `<activities>/<id>.txt`: its current rendering, written by the widget extension.
    public static func activityRendering(_ id: String, in activities: String) -> String { "\(activities)/\(id).txt" }
    /// `<activities>/activities.lock`: the flock a request, update or end holds.
    public static func activitiesLock(in activities: String) -> String { "\(activities)/activities.lock" }
    /// `<root>/<device>/.lockstep/notify`: the device's Darwin notification counters.
    public func notifications(on device: Device) -> String { "\(self.device(device))/.lockstep/notify" }
    /// `<notify>/<name>.count`: one notification's counter (decimal text).
    public static func notificationCounter(_ name: String, in notifications: String) -> String { "\(notifications)/\(name).count" }
    /// `<notify>/<name>.lock`: the flock guarding that counter.
    public static func notificationLock(_ name: String, in notifications: String) -> String { "\(notifications)/\(name).lock" }

    /// `<root>/link/<host-bundle-id>`: the WatchConnectivity channel between phone and watch, outside every container
    /// (rule `group.watch-separate`: they share none).
    public func link(host: String) -> String { "\(root)/link/\(host)" }

    /// The files of one WatchConnectivity link folder (`link(host:)`). A side is `phone` or `watch`; what a side
    /// receives is in `to-<side>/`.
    public struct Link: Equatable, Sendable {
        /// `<root>/link/<host-bundle-id>`.
        public let directory: String
        public init(directory: String) { self.directory = directory }

        /// `<link>/<side>.alive`: the flock an activated session holds (reachability).
        public func alive(_ side: String) -> String { "\(directory)/\(side).alive" }
        /// `<link>/to-<side>`: everything `side` receives.
        public func inbox(_ side: String) -> String { "\(directory)/to-\(side)" }
        /// `<link>/to-<side>/<queue>`: `messages`, `replies`, `userinfo` or `files`.
        public func queue(_ queue: String, to side: String) -> String { "\(inbox(side))/\(queue)" }
        /// `<link>/to-<side>/<queue>.seq`: the last sequence number given out in `userinfo` or `files`.
        public func sequence(_ queue: String, to side: String) -> String { "\(inbox(side))/\(queue).seq" }
        /// `<link>/to-<side>/context.plist`: the latest application context, not yet delivered.
        public func context(to side: String) -> String { "\(inbox(side))/context.plist" }
        /// `<link>/to-<side>/context.lock`.
        public func contextLock(to side: String) -> String { "\(inbox(side))/context.lock" }
        /// `<link>/<side>.complication`: when `side` sent complication user info, one simulated time per line (the
        /// daily allowance of `transferCurrentComplicationUserInfo`), replaced under `.complication.lock`.
        public func complicationTransfers(from side: String) -> String { "\(directory)/\(side).complication" }
    }

    // MARK: inside a container

    /// `<container>/Library/Preferences`: the defaults suites' plists.
    public static func preferences(container: String) -> String { "\(container)/Library/Preferences" }
    /// `<container>/.lockstep`: the container's bookkeeping, never reachable through a container-relative path.
    public static func bookkeeping(container: String) -> String { "\(container)/\(bookkeepingFolderName)" }
    /// The bookkeeping folder's name inside a container, which no bundle may reach (`Container.resolve`).
    public static let bookkeepingFolderName = ".lockstep"
    /// `<container>/.lockstep/defaults`: the suites' journals and locks.
    public static func defaults(container: String) -> String { "\(bookkeeping(container: container))/defaults" }
    /// `<container>/Library/Preferences/<suite>.plist`: a defaults suite's property list.
    public static func suitePlist(_ suite: String, container: String) -> String { "\(preferences(container: container))/\(suite).plist" }
    /// `<container>/.lockstep/defaults/<suite>.journal`: the suite's writes not yet folded into its plist.
    public static func suiteJournal(_ suite: String, container: String) -> String { "\(defaults(container: container))/\(suite).journal" }
    /// `<container>/.lockstep/defaults/<suite>.lock`: the flock guarding the suite's plist and journal.
    public static func suiteLock(_ suite: String, container: String) -> String { "\(defaults(container: container))/\(suite).lock" }
    /// `<container>/.lockstep/files.lock`: the flock guarding the container's files.
    public static func filesLock(container: String) -> String { "\(bookkeeping(container: container))/files.lock" }
    /// `<container>/.lockstep/presence`: which bundles run, and in what state.
    public static func presence(container: String) -> String { "\(bookkeeping(container: container))/presence" }
    /// `<container>/.lockstep/widgetkit/reload`: the widget reload requests, one counter per kind.
    public static func widgetReloads(container: String) -> String { "\(widgets(container: container))/reload" }
    /// `<container>/.lockstep/widgetkit`: every widget kind's folder, and `reload/`.
    public static func widgets(container: String) -> String { "\(bookkeeping(container: container))/widgetkit" }
    /// `<container>/.lockstep/widgetkit/<kind>/<family>.txt`: a family's current rendering.
    public static func widgetRendering(_ kind: String, family: String, container: String) -> String {
        "\(widget(kind, container: container))/\(family).txt"
    }
    /// `<container>/.lockstep/widgetkit/<kind>`: one widget kind's renders and reload budget.
    public static func widget(_ kind: String, container: String) -> String { "\(widgets(container: container))/\(kind)" }
    /// `<container>/.lockstep/widgetkit/renders`: the latest picture of each widget kind in each family
    /// (`<kind>/<family>.svg`, and `<kind>/<family>.<mode>.svg` in each other rendering mode WidgetKit draws the
    /// family in) and of each Live Activity presentation (`<attributes>/<presentation>.svg`).
    public static func widgetRenders(container: String) -> String { "\(widgets(container: container))/renders" }
    /// `<container>/.lockstep/widgetkit/<kind>/budget`: the kind's daily reload budget.
    public static func widgetBudget(_ kind: String, container: String) -> String { "\(widget(kind, container: container))/budget" }
    /// `<container>/.lockstep/widgetkit/<kind>/log`: the kind's timeline log, a line per event.
    public static func widgetLog(_ kind: String, container: String) -> String { "\(widget(kind, container: container))/log" }
    /// `<container>/.lockstep/intents`: the App Intents mailbox (requests, taken, responses).
    public static func intents(container: String) -> String { "\(bookkeeping(container: container))/intents" }
    /// `<intents>/requests`, `<intents>/taken` and `<intents>/responses` of that mailbox.
    public static func intentRequests(container: String) -> String { "\(intents(container: container))/requests" }
    public static func intentsTaken(container: String) -> String { "\(intents(container: container))/taken" }
    public static func intentResponses(container: String) -> String { "\(intents(container: container))/responses" }

    /// The folders iOS gives a container (rule `group.layout`, `container.private`): `Library/Preferences`,
    /// `Library/Application Support`, `Library/Caches`, and for a private container `Documents` and `tmp` too.
    public static func standardFolders(container: String, isPrivate: Bool) -> [String] {
        [preferences(container: container), "\(container)/Library/Application Support", "\(container)/Library/Caches"]
            + (isPrivate ? ["\(container)/Documents", "\(container)/tmp"] : [])
    }
}

/// The root folder of the simulated devices' containers (the layout is documented in `groups/README.md`).
public struct GroupsRoot: Equatable, Sendable {
    public var path: String

    public init(path: String) { self.path = path }

    /// The variable a launcher sets to the groups root of the processes it starts.
    public static let environmentVariable = "LOCKSTEP_GROUPS"
    /// The groups root when neither `--groups` nor `LOCKSTEP_GROUPS` names one: `./groups`.
    public static let defaultPath = "groups"

    /// `--groups DIR` when given, else `$LOCKSTEP_GROUPS`, else `./groups`.
    public static func resolve(explicit: String?) -> GroupsRoot {
        if let explicit, !explicit.isEmpty { return GroupsRoot(path: explicit) }
        if let env = ProcessEnvironment.value(environmentVariable) { return GroupsRoot(path: env) }
        return GroupsRoot(path: defaultPath)
    }

    /// The paths under it.
    public var layout: GroupsLayout { GroupsLayout(root: path) }
}
