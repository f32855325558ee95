import AppGroupKit
import BundleKit
import Foundation
import LockstepRuntime
import LockstepSystem

/// A Live Activity as the system keeps it (`<activities>/<id>.json`, `GroupsLayout.activities(app:)`): what the app
/// asked for, and when, on the simulated clock. The widget extension's process reads these to render them.
public struct ActivityRecord: Codable, Sendable, Equatable {
    public var id: String
    /// `String(describing:)` of the attributes type: a widget renders the activities of the types it configures.
    public var attributesType: String
    /// The attributes and the content state, as JSON text.
    public var attributes: String
    public var state: String
    public var staleDate: Double?
    public var relevanceScore: Double
    /// Simulated times: started, ended (by the app, or by the system after eight hours), off the Lock Screen.
    public var started: Double
    public var ended: Double?
    public var dismissal: Double?
    /// Counts changes; with `changedAt` (real time) a renderer knows what is new and how long it took to see it.
    public var revision: Int
    public var changedAt: Double

    /// Where it is at simulated time `now` (rule `activity.lifecycle`): the system ends an activity eight hours
    /// after it started, and takes an ended one off the Lock Screen at its dismissal time, twelve hours after the start
    /// at the latest.
    public func activityState(at now: Double) -> ActivityState {
        let end = min(ended ?? .infinity, started + ActivitySystem.activeLimit)
        if now >= end {
            return now >= min(dismissal ?? end + ActivitySystem.lockScreenLimit, started + ActivitySystem.totalLimit) ? .dismissed : .ended
        }
        if let staleDate, now >= staleDate { return .stale }
        return .active
    }

    /// Why it ended, for the renderer's line.
    public func endReason(at now: Double) -> String {
        ended.map { $0 < started + ActivitySystem.activeLimit } == true ? "ended by the app" : "ended by the system after 8 hours"
    }
}

/// The system side of ActivityKit for one app: the rules a request must pass and the store of its activities, shared
/// by the app (which starts, updates and ends them) and the widget extension (which renders them).
public struct ActivitySystem: Sendable {
    public let groupsRoot: String
    /// The app whose activities these are.
    public let appBundleIdentifier: String
    public let directory: String

    /// "The static attributes and dynamic content state together at most 4 KB."
    public static let maximumSize = 4096
    /// Ended by the system eight hours after the start; on the Lock Screen four more at most (twelve in all).
    public static let activeLimit: Double = 8 * 3600
    public static let lockScreenLimit: Double = 4 * 3600
    public static let totalLimit: Double = 12 * 3600
    /// The Darwin notification (phone) posted after each change, so a widget renders at once.
    public static let changedNotification = DarwinNotificationCenter.activitiesChanged

    /// How many ongoing activities one app may have: Apple publishes no figure (commonly cited: 5), so
    /// `LOCKSTEP_LIVE_ACTIVITY_LIMIT` sets it.
    public static var concurrencyLimit: Int {
        ProcessEnvironment.value("LOCKSTEP_LIVE_ACTIVITY_LIMIT").flatMap(Int.init).map { max(1, $0) } ?? 5
    }

    public init(groupsRoot: String, appBundleIdentifier: String) {
        self.groupsRoot = groupsRoot
        self.appBundleIdentifier = appBundleIdentifier
        directory = GroupsLayout(root: groupsRoot).activities(app: appBundleIdentifier)
    }

    /// The system of the app this process belongs to.
    static func current() throws(ActivityAuthorizationError) -> ActivitySystem {
        guard let process = SimulatedProcess.current else { throw .unsupportedTarget }
        return ActivitySystem(groupsRoot: process.groupsRoot, appBundleIdentifier: process.manifest.app.bundleIdentifier ?? process.manifest.app.name)
    }

    /// Now on the simulated clock.
    public func now() -> Double { SimulatedClock(groupsRoot: groupsRoot).now() }

    /// The person's Settings switch, `LOCKSTEP_LIVE_ACTIVITIES=off`, and the app's `NSSupportsLiveActivities`.
    /// - Returns: the process asking, which may start one.
    @discardableResult
    func checkEnabled() throws(ActivityAuthorizationError) -> SimulatedProcess {
        guard let process = SimulatedProcess.current else { throw .unsupportedTarget }
        if ProcessEnvironment.value("LOCKSTEP_LIVE_ACTIVITIES") == "off" { throw .denied }
        // rule `activity.lifecycle`: the key belongs to the app (an App Clip can start one too), not the extension.
        guard process.bundle.role.kind.startsLiveActivities, process.bundle.supportsLiveActivities else { throw .unsupportedTarget }
        return process
    }

    /// rule `activity.lifecycle`: the attributes and the content state together at most 4 KB, at a request and at
    /// every update.
    static func checkSize(attributes: String, state: String) throws(ActivityAuthorizationError) {
        guard attributes.utf8.count + state.utf8.count <= maximumSize else { throw .attributesTooLarge }
    }

    /// The checks of `Activity.request`, then the new activity on disk.
    func request(attributesType: String, attributes: String, state: String, staleDate: Date?, relevanceScore: Double) throws(ActivityAuthorizationError) -> ActivityRecord {
        let process = try checkEnabled()
        // rule `activity.lifecycle`: only while the app is in the foreground. An app that never announced a state
        // is in the foreground, as an app is when it launches.
        let identifier = process.bundle.bundleIdentifier ?? process.bundle.name
        for group in process.bundle.appGroups {
            guard let container = try? process.sandbox().groupContainer(group) else { continue }
            let seen = Presence.observe(directory: GroupsLayout.presence(container: container.path), bundleIdentifier: identifier)
            if seen.isRunning && seen.state == .background { throw .visibility }
        }
        try Self.checkSize(attributes: attributes, state: state)
        let now = now()
        do {
            return try locked {
                let ongoing = all().filter { [.active, .stale].contains($0.activityState(at: now)) }
                guard ongoing.count < Self.concurrencyLimit else { throw ActivityAuthorizationError.targetMaximumExceeded }
                let record = ActivityRecord(id: UUID().uuidString, attributesType: attributesType, attributes: attributes,
                                            state: state, staleDate: staleDate?.timeIntervalSince1970, relevanceScore: relevanceScore,
                                            started: now, ended: nil, dismissal: nil, revision: 1, changedAt: Date().timeIntervalSince1970)
                try write(record)
                return record
            }
        } catch let error as ActivityAuthorizationError {
            throw error
        } catch {
            throw .persistenceFailure
        }
    }

    /// Changes a stored activity (an update or an end); nothing for one that is gone or already ended.
    /// - Returns: whether it changed.
    @discardableResult
    func change(_ id: String, _ body: (inout ActivityRecord, Double) throws -> Void) throws -> Bool {
        let now = now()
        return try locked {
            guard var record = read(id), [.active, .stale].contains(record.activityState(at: now)) else { return false }
            try body(&record, now)
            record.revision += 1
            record.changedAt = Date().timeIntervalSince1970
            try write(record)
            return true
        }
    }

    /// Every stored activity of the app, oldest first.
    public func all() -> [ActivityRecord] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        return names.filter { $0.hasSuffix(".json") }.compactMap { read(String($0.dropLast(5))) }
            .sorted { ($0.started, $0.id) < ($1.started, $1.id) }
    }

    public func read(_ id: String) -> ActivityRecord? {
        guard let bytes = try? AtomicFile.read(GroupsLayout.activityRecord(id, in: directory)) else { return nil }
        return try? JSONDecoder().decode(ActivityRecord.self, from: Data(bytes))
    }

    /// Where the widget extension writes an activity's current rendering.
    public func renderPath(_ id: String) -> String { GroupsLayout.activityRendering(id, in: directory) }

    private func write(_ record: ActivityRecord) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        try AtomicFile.write(Array(try encoder.encode(record)), to: GroupsLayout.activityRecord(record.id, in: directory))
        // The widget polls too; the notification only saves it the wait.
        if let process = SimulatedProcess.current, let sandbox = try? process.sandbox() {
            _ = try? DarwinNotificationCenter(sandbox: sandbox).post(Self.changedNotification)
        }
    }

    private func locked<R>(_ body: () throws -> R) throws -> R {
        try AtomicFile.createDirectories(directory)
        return try FileLock(path: GroupsLayout.activitiesLock(in: directory)).withLock(.exclusive, body)
    }
}

extension ActivityRecord {
    /// An activity not yet requested: a preview's, drawn without ActivityKit's bookkeeping.
    package init(previewOf attributesType: String, attributes: String, state: String) {
        self.init(id: "preview", attributesType: attributesType, attributes: attributes, state: state, staleDate: nil, relevanceScore: 0,
                  started: 0, ended: nil, dismissal: nil, revision: 0, changedAt: 0)
    }
}
