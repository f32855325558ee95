import Foundation
import LockstepSystem
import Synchronization

/// What a process keeps of one suite under realistic device timing (`DeviceTiming`): the writes it has not yet
/// flushed to the shared store, and its cache of the suite. One per suite and process, shared by every
/// `GroupDefaults` (every `UserDefaults(suiteName:)`) of that suite, as a device keeps one per process: a write
/// through one is read through the others at once.
final class DeviceView: @unchecked Sendable {  // @unchecked: every mutable property only under `lock`.
    let timing: DeviceTiming
    let bundle: String
    /// Seeds this suite's delays in this bundle: the same bundle and suite draw the same delays in every run.
    private let stream: String
    private let lock = NSLock()
    private var draws = 0

    /// rule `defaults.device-flush`: written in this process, not yet in the shared store.
    private var pendingSets: [DefaultsKey: Any] = [:]
    private var pendingRemoves: Set<DefaultsKey> = []
    /// The delayed flush on its way, if any: a flush point that comes first cancels it.
    private var scheduled: Int?
    private var generation = 0

    /// rule `defaults.device-cache`: the suite as this process last took it from the shared store, with its own
    /// writes since, and until when it is served without looking again.
    private var cache: [DefaultsKey: Any]?
    private var cacheExpiry = 0.0

    private static let views = Mutex<[String: DeviceView]>([:])

    /// This process's view of the suite whose plist is `path`.
    static func shared(path: String, timing: DeviceTiming, bundle: String, suite: String) -> DeviceView {
        views.withLock { views in
            if let view = views[path], view.timing == timing, view.bundle == bundle { return view }
            let view = DeviceView(timing: timing, bundle: bundle, suite: suite)
            views[path] = view
            return view
        }
    }

    private init(timing: DeviceTiming, bundle: String, suite: String) {
        self.timing = timing
        self.bundle = bundle
        stream = "\(bundle)\u{0}\(suite)"
    }

    /// A write of this process: seen by this process at once ("changed synchronously within your process"), by
    /// the others once flushed.
    /// - Returns: the delay and generation of a flush to schedule, or nil when one is on its way already.
    func write(_ value: Any?, forKey key: DefaultsKey) -> (delay: Double, generation: Int)? {
        lock.withLock {
            if let value {
                pendingSets[key] = value
                pendingRemoves.remove(key)
                cache?[key] = value
            } else {
                pendingSets.removeValue(forKey: key)
                pendingRemoves.insert(key)
                cache?.removeValue(forKey: key)
            }
            guard scheduled == nil else { return nil }
            generation += 1
            scheduled = generation
            return (nextDelay(DeviceTiming.flushDelay), generation)
        }
    }

    func isScheduled(_ generation: Int) -> Bool { lock.withLock { scheduled == generation } }

    /// Takes the pending writes out as one journal record (nil when there are none), and cancels the delayed flush:
    /// the caller appends it, or gives it back with `restore(_:)` when the append fails.
    func takePending() -> JournalRecord? {
        lock.withLock {
            scheduled = nil
            guard !pendingSets.isEmpty || !pendingRemoves.isEmpty else { return nil }
            defer {
                pendingSets = [:]
                pendingRemoves = []
            }
            return JournalRecord(pid: JournalRecord.currentProcess, sets: pendingSets, removes: Array(pendingRemoves))
        }
    }

    /// Puts back writes `takePending()` took and could not append; a write made since wins over them.
    func restore(_ record: JournalRecord) {
        lock.withLock {
            for (key, value) in record.sets where pendingSets[key] == nil && !pendingRemoves.contains(key) { pendingSets[key] = value }
            for key in record.removes where pendingSets[key] == nil { pendingRemoves.insert(key) }
        }
    }

    /// The cached suite while it is fresh, else nil: the caller reads the shared store and calls `took(_:)`.
    var freshCache: [DefaultsKey: Any]? {
        lock.withLock {
            guard let cache, Monotonic.now < cacheExpiry else { return nil }
            return cache
        }
    }

    /// Caches `shared`, the suite as the shared store holds it now, with this process's pending writes on top.
    /// - Returns: what this process reads.
    @discardableResult
    func took(_ shared: [DefaultsKey: Any]) -> [DefaultsKey: Any] {
        lock.withLock {
            var values = shared
            for key in pendingRemoves { values.removeValue(forKey: key) }
            values.merge(pendingSets) { $1 }
            cache = values
            cacheExpiry = Monotonic.now + nextDelay(DeviceTiming.cacheLifetime)
            return values
        }
    }

    /// The next delay of this suite, in `range`. Call under `lock`.
    private func nextDelay(_ range: ClosedRange<Double>) -> Double {
        defer { draws += 1 }
        return timing.delay(range, stream: stream, index: draws)
    }
}

/// rule `defaults.device-coalesce`: gathers another process's changes over a seeded window and hands them over as
/// one call, the latest value of each key once, as a device's change notifications arrive.
final class ChangeCoalescer: @unchecked Sendable {  // @unchecked: `gathered` and `draws` only under `lock`.
    private let lock = NSLock()
    private var gathered: [GroupDefaults.Change] = []
    private let timing: DeviceTiming
    private let stream: String
    private var draws = 0
    private let handler: @Sendable ([GroupDefaults.Change]) -> Void

    init(timing: DeviceTiming, bundle: String, suite: String, handler: @escaping @Sendable ([GroupDefaults.Change]) -> Void) {
        self.timing = timing
        stream = "observe\u{0}\(bundle)\u{0}\(suite)"
        self.handler = handler
    }

    /// Adds `changes`; the first of a window schedules the window's one delivery.
    func add(_ changes: [GroupDefaults.Change]) {
        let window: Double? = lock.withLock {
            let first = gathered.isEmpty
            gathered += changes
            guard first else { return nil }
            defer { draws += 1 }
            return timing.delay(DeviceTiming.coalescingWindow, stream: stream, index: draws)
        }
        guard let window else { return }
        DispatchQueue.global().asyncAfter(deadline: .now() + window) { [self] in
            let changes = lock.withLock { () -> [GroupDefaults.Change] in
                defer { gathered = [] }
                return gathered
            }
            // The latest value of each key, once, in the order the keys first changed.
            var latest: [String: Int] = [:]
            var merged: [GroupDefaults.Change] = []
            for change in changes {
                if let index = latest[change.key] { merged[index] = change } else {
                    latest[change.key] = merged.count
                    merged.append(change)
                }
            }
            handler(merged)
        }
    }
}
