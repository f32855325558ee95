import AppGroupKit
import Foundation
import LockstepRuntime
import LockstepSystem
import Synchronization

/// Asks the system to reload widget timelines, from any process of the app group (rule `widget.reload`).
///
/// On disk (`<group container>/.lockstep/widgetkit/reload/`): one counter file per kind, and `_all` for
/// `reloadAllTimelines()`, each holding one line `<count> <requested-at> <requester-bundle-id>` (`requested-at` in
/// real seconds since 1970, for latency). A request increments the counter under `<file>.lock`, replaces the
/// file atomically, then posts the Darwin notification `WidgetCenter.reloadNotification` on the device, which
/// wakes the widget process (it also looks at the counters on its own, so a missed post only delays it). Nothing
/// comes back: a throttled reload is not acknowledged (Apple's `reloadTimelines(ofKind:)` returns nothing either).
public struct WidgetCenter: Sendable {
    /// The file that stands for "every kind" (kinds may not start with `_`).
    public static let allKinds = "_all"
    /// The Darwin notification posted after each request (a name only: rule `darwin.name-only`).
    public static let reloadNotification = DarwinNotificationCenter.widgetReload

    public let groupContainer: String
    /// The bundle asking, recorded in the request for the widget's log.
    public let requester: String
    /// The device's Darwin notification center, to wake the widget process; nil: the widget finds the request
    /// when it next looks.
    public let notifications: DarwinNotificationCenter?

    /// A center for the App Group container at `groupContainer`, asking as `requester` (Lockstep's own code and
    /// tests; a bundle's code uses `shared`).
    public init(groupContainer: String, requester: String, notifications: DarwinNotificationCenter? = nil) {
        self.groupContainer = groupContainer
        self.requester = requester
        self.notifications = notifications
        unavailable = nil
    }

    /// Apple's `WidgetCenter.shared`: the center of the simulated process this code runs in. Reload requests travel
    /// through the App Group this bundle shares with the app's widget extension (the first such group; the first
    /// group it claims when no widget is installed). A process with no App Group, or code that runs in no simulated
    /// process (a plain `swift test`), gets a center whose requests go nowhere, said once on stderr.
    public static var shared: WidgetCenter {
        // Made once per process: finding the group container creates its folders.
        if let made = sharedCenter.withLock({ $0 }) { return made }
        guard let process = SimulatedProcess.current, let sandbox = try? process.sandbox() else {
            return WidgetCenter(unavailable: "this code runs in no simulated process (SimulatedProcess.start was not called)")
        }
        let widgetGroups = Set(process.manifest.bundles.filter { $0.role == .widget }.flatMap(\.appGroups))
        let groups = process.bundle.appGroups
        guard let group = groups.first(where: widgetGroups.contains) ?? groups.first,
              let container = try? sandbox.groupContainer(group) else {
            return WidgetCenter(unavailable: "\(process.bundle.bundleIdentifier ?? process.bundle.name) claims no App Group, which Lockstep's widget reloads travel through")
        }
        let center = WidgetCenter(groupContainer: container.path, requester: sandbox.identity.bundleIdentifier,
                                  notifications: try? DarwinNotificationCenter(sandbox: sandbox))
        sharedCenter.withLock { $0 = center }
        return center
    }

    private static let sharedCenter = Mutex<WidgetCenter?>(nil)

    /// Why this center's requests go nowhere (nil: they are delivered).
    private let unavailable: String?

    private init(unavailable: String) {
        groupContainer = ""
        requester = ""
        notifications = nil
        self.unavailable = unavailable
    }

    /// Requests a new timeline for every widget of `kind` (rule `widget.reload`). As on iOS nothing comes back:
    /// a request the budget throttles is not acknowledged. A process of a stale build is stopped, as iOS stops it
    /// (rule `runtime.stale`); a request that cannot be written is said on stderr.
    public func reloadTimelines(ofKind kind: String) {
        deliver { try requestReload(ofKind: kind) }
    }

    /// Requests a new timeline for every widget of the containing app.
    public func reloadAllTimelines() {
        deliver { try requestReload(ofKind: Self.allKinds) }
    }

    /// `reloadTimelines(ofKind:)` that says why it failed, for Lockstep's own code and tests.
    /// - Throws: the stale-build error (rule `runtime.stale`) or a `WidgetKitError.storage`.
    public func requestReload(ofKind kind: String) throws {
        guard unavailable == nil else { return }
        try request(kind)
    }

    /// The widgets of this app the system shows (Apple's `getCurrentConfigurations`): every kind and family the
    /// widget extension has rendered in this App Group, in kind and family order.
    public func getCurrentConfigurations(_ completion: @escaping (Result<[WidgetInfo], any Error>) -> Void) {
        completion(Result { try configurations() })
    }

    /// `getCurrentConfigurations` as Apple's async API.
    public func currentConfigurations() async throws -> [WidgetInfo] {
        try configurations()
    }

    private func configurations() throws -> [WidgetInfo] {
        guard unavailable == nil else { return [] }
        let folder = GroupsLayout.widgets(container: groupContainer)
        let kinds = ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).filter { !$0.hasPrefix(".") && $0 != "reload" }.sorted()
        return kinds.flatMap { kind in
            WidgetFamily.allCases.filter { FileManager.default.fileExists(atPath: GroupsLayout.widgetRendering(kind, family: $0.rawValue, container: groupContainer)) }
                .map { WidgetInfo(kind: kind, family: $0) }
        }
    }

    func deliver(_ request: () throws -> Void) {
        if let unavailable {
            Self.warnOnce("WidgetCenter: \(unavailable); the reload request goes nowhere.")
            return
        }
        do {
            try request()
        } catch {
            ProcessStop.tell(error)
        }
    }

    private static let warned = Mutex(false)
    private static func warnOnce(_ sentence: String) {
        let first = warned.withLock { warned in
            defer { warned = true }
            return !warned
        }
        if first { Standard.error(sentence) }
    }

    func request(_ name: String) throws {
        try SharedWriteGate.check()
        let path = Self.requestPath(groupContainer: groupContainer, name: name)
        do {
            try LockedFile.update(path) { current in
                let count = current.flatMap(Self.parseRequest)?.count ?? 0
                return ("\(count + 1) \(Self.realNow()) \(requester)\n", ())
            }
        } catch let error as SystemError {
            throw WidgetKitError(.storage, subject: path, detail: error.description)
        }
        try notifications?.post(Self.reloadNotification)
    }

    /// A reload request as read from its counter file.
    public struct Request: Sendable, Equatable {
        public var count: Int
        /// Real seconds since 1970.
        public var requestedAt: Double
        public var requester: String
    }

    static func requestPath(groupContainer: String, name: String) -> String {
        "\(GroupsLayout.widgetReloads(container: groupContainer))/\(name)"
    }

    static func readRequest(at path: String) -> Request? {
        guard let bytes = try? AtomicFile.read(path) else { return nil }
        return parseRequest(String(decoding: bytes, as: UTF8.self))
    }

    static func parseRequest(_ text: String) -> Request? {
        let fields = text.split(whereSeparator: \.isWhitespace).map(String.init)
        guard fields.count >= 2, let count = Int(fields[0]), let at = Double(fields[1]) else { return nil }
        return Request(count: count, requestedAt: at, requester: fields.count > 2 ? fields[2] : "?")
    }

    static func realNow() -> Double { Date().timeIntervalSince1970 }
}

/// The daily reload budget of one widget kind (rule `widget.budget`), on the simulated clock.
///
/// On disk: `<group container>/.lockstep/widgetkit/<kind>/budget`, one simulated timestamp per counted reload,
/// pruned to the last 24 hours, replaced atomically under `budget.lock`.
public struct ReloadBudget: Sendable {
    /// Apple: "typically includes from 40 to 70 refreshes" a day. Override with `LOCKSTEP_WIDGET_BUDGET`.
    public static var dailyLimit: Int {
        ProcessEnvironment.value("LOCKSTEP_WIDGET_BUDGET").flatMap { Int($0) }.map { max(0, $0) } ?? 70
    }

    public let path: String
    public let limit: Int

    public init(groupContainer: String, kind: String, limit: Int = ReloadBudget.dailyLimit) {
        path = GroupsLayout.widgetBudget(kind, container: groupContainer)
        self.limit = limit
    }

    /// Spends one reload at `now` if the window allows it.
    /// - Returns: whether the reload may happen, and how many were counted in the window afterwards.
    public func spend(at now: Double) throws -> (allowed: Bool, used: Int) {
        try SharedWriteGate.check()
        return try LockedFile.update(path) { current in
            var stamps = Self.window(current ?? "", at: now)
            guard stamps.count < limit else { return (nil, (false, stamps.count)) }
            stamps.append(now)
            return (stamps.map { "\($0)\n" }.joined(), (true, stamps.count))
        }
    }

    /// Reloads counted in the 24 hours before `now`.
    public func used(at now: Double) -> Int { window(at: now).count }

    private func window(at now: Double) -> [Double] {
        guard let bytes = try? AtomicFile.read(path) else { return [] }
        return Self.window(String(decoding: bytes, as: UTF8.self), at: now)
    }

    private static func window(_ text: String, at now: Double) -> [Double] {
        text.split(separator: "\n").compactMap { Double($0) }.filter { $0 > now - 86_400 && $0 <= now }
    }
}

/// A widget the system shows (Apple's `WidgetInfo`): its kind and family.
public struct WidgetInfo: Sendable, Equatable, CustomStringConvertible {
    public let kind: String
    public let family: WidgetFamily

    public init(kind: String, family: WidgetFamily) {
        self.kind = kind
        self.family = family
    }

    public var description: String { "\(kind) (\(family.rawValue))" }
}
