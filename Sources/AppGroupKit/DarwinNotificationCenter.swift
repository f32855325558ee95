import Foundation
import LockstepSystem

/// `CFNotificationCenterGetDarwinNotifyCenter()` for one simulated device: notifications that carry only a name
/// (rule `darwin.name-only`) between processes on the same device. A post on the phone never reaches the watch.
///
/// Each name has a counter file, `<root>/<device>/.lockstep/notify/<name>.count` (decimal text), that `post`
/// increments under `<name>.lock`. Observers are woken by inotify (polling every 50 ms where inotify is
/// unavailable) and compare the counter with the last one they saw, so posts in rapid succession may be
/// coalesced (as notify(3) does), and a process that was not running can catch up from a saved counter.
public struct DarwinNotificationCenter: Sendable {
    private let directory: String

    /// The center of the sandbox's device.
    public init(sandbox: Sandbox) throws(AppGroupError) {
        try self.init(directory: sandbox.notificationsPath)
    }

    /// The center of `device` under the groups root at `groupsRoot`, as the system itself sees it (the launcher,
    /// which observes what wakes a suspended widget extension).
    public init(groupsRoot: String, device: Device) throws(AppGroupError) {
        try self.init(directory: GroupsLayout(root: groupsRoot).notifications(on: device))
    }

    private init(directory: String) throws(AppGroupError) {
        self.directory = directory
        do { try AtomicFile.createDirectories(directory) } catch { throw AppGroupError(error) }
    }

    /// WidgetKit's: an app asked for timelines or controls to be reloaded (`WidgetCenter`, `ControlCenter`).
    public static let widgetReload = "com.lockstep.widgetkit.reload"
    /// ActivityKit's: a Live Activity started, changed or ended.
    public static let activitiesChanged = "com.lockstep.activitykit.changed"
    /// The system's own names that wake a suspended widget extension, as iOS wakes it for new work (rule
    /// `lock.dead10cc`; see `Supervisor`).
    public static let widgetWakes = [widgetReload, activitiesChanged]

    /// Posts `name` to every observer on this device. No payload: Darwin notifications have none.
    /// - Returns: the name's counter after this post.
    /// - Throws: `.invalidIdentifier` for a name that cannot be a file name.
    @discardableResult
    public func post(_ name: String) throws -> UInt64 {
        try Identifier.validateFileName(name, what: "notification name")
        do {
            return UInt64(try LockedFile.increment(counterPath(name), lock: GroupsLayout.notificationLock(name, in: directory)))
        } catch let error as SystemError {
            throw AppGroupError(error)
        }
    }

    /// How many times `name` has been posted on this device (0 if never): the position to save and catch up from.
    public func counter(_ name: String) throws -> UInt64 {
        try Identifier.validateFileName(name, what: "notification name")
        // Read without the lock: the counter is replaced by rename, so a reader sees the old or the new one.
        let bytes: [UInt8]?
        do { bytes = try AtomicFile.read(counterPath(name)) } catch { throw AppGroupError(error) }
        guard let bytes else { return 0 }
        return UInt64(String(decoding: bytes, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
    }

    /// Blocks until `name` is posted after `position` (default: its counter now), or `timeout` seconds pass.
    /// - Returns: the new counter, or nil on timeout.
    public func wait(_ name: String, after position: UInt64? = nil, timeout: Double? = nil) throws -> UInt64? {
        let watcher = try DirectoryWatcher(directories: [directory])
        // Watch first, then read: a post between the two is seen either way.
        let start = try position ?? counter(name)
        let begin = Monotonic.now
        while true {
            let now = try counter(name)
            if now > start { return now }
            let left = timeout.map { $0 - (Monotonic.now - begin) }
            if let left, left <= 0 { return nil }
            // A wake or the end of the wait: the counter is checked again either way.
            _ = watcher.wait(timeout: left)
        }
    }

    /// Calls `handler` on a background thread each time `name` is posted (coalesced posts call it once).
    ///
    /// - Parameter position: a saved counter to catch up from: if `name` was posted since, `handler` runs at
    ///   once. Default: the counter now.
    /// - Returns: the observation; keep it, and `cancel()` it to stop.
    public func observe(_ name: String, after position: UInt64? = nil, handler: @escaping @Sendable (UInt64) -> Void) throws -> Observation {
        let watcher = try DirectoryWatcher(directories: [directory])
        let start = try position ?? counter(name)
        let center = self
        let thread = Thread {
            var last = start
            repeat {
                guard let now = try? center.counter(name) else { continue }
                if now > last {
                    last = now
                    handler(now)
                }
            } while watcher.wait(timeout: nil)
        }
        thread.start()
        return Observation(watcher: watcher)
    }

    private func counterPath(_ name: String) -> String { GroupsLayout.notificationCounter(name, in: directory) }
}
