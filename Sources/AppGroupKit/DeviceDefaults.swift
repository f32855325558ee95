import Foundation
import LockstepSystem

/// What one `GroupDefaults` keeps in a process under realistic device timing (`DeviceTiming`): the writes it has
/// not yet flushed to the shared store, and its cache of the suite.
///
/// Touched only under its `GroupDefaults`'s in-process lock.
final class DeviceView {
    let timing: DeviceTiming
    let bundle: String
    /// Seeds this suite's delays in this bundle: the same bundle and suite draw the same delays in every run.
    private let stream: String
    private var draws = 0

    /// rule `defaults.device-flush`: written in this process, not yet in the shared store.
    private(set) var pendingSets: [String: Any] = [:]
    private(set) var pendingRemoves: Set<String> = []
    /// The delayed flush on its way, if any: a flush point that comes first cancels it.
    private var scheduled: Int?
    private var generation = 0

    /// rule `defaults.device-cache`: the suite as this process last took it from the shared store, with its own
    /// writes since, and until when it is served without looking again.
    private var cache: [String: Any]?
    private var cacheExpiry = 0.0

    init(timing: DeviceTiming, bundle: String, suite: String) {
        self.timing = timing
        self.bundle = bundle
        stream = "\(bundle)\u{0}\(suite)"
    }

    /// After a write: the delay and generation of a flush to schedule, or nil when one is on its way already.
    func scheduleFlush() -> (delay: Double, generation: Int)? {
        guard scheduled == nil else { return nil }
        generation += 1
        scheduled = generation
        return (nextDelay(DeviceTiming.flushDelay), generation)
    }

    func isScheduled(_ generation: Int) -> Bool { scheduled == generation }

    func cancelScheduledFlush() { scheduled = nil }

    /// The next delay of this suite, in `range`.
    func nextDelay(_ range: ClosedRange<Double>) -> Double {
        defer { draws += 1 }
        return timing.delay(range, stream: stream, index: draws)
    }

    var hasPending: Bool { !pendingSets.isEmpty || !pendingRemoves.isEmpty }

    /// A write of this process: seen by this process at once ("changed synchronously within your process"), by
    /// the others once flushed.
    func write(_ value: Any?, forKey key: String) {
        if let value {
            pendingSets[key] = value
            pendingRemoves.remove(key)
            cache?[key] = value
        } else {
            pendingSets.removeValue(forKey: key)
            pendingRemoves.insert(key)
            cache?.removeValue(forKey: key)
        }
    }

    /// The pending writes as one journal record (nil when there are none); `flushed()` forgets them once it is
    /// appended.
    func pendingRecord() -> JournalRecord? {
        hasPending ? JournalRecord(pid: JournalRecord.currentProcess, sets: pendingSets, removes: Array(pendingRemoves)) : nil
    }

    func flushed() {
        pendingSets = [:]
        pendingRemoves = []
    }

    /// The cached suite while it is fresh, else nil: the caller reads the shared store and calls `took(_:)`.
    var freshCache: [String: Any]? {
        guard let cache, Monotonic.now < cacheExpiry else { return nil }
        return cache
    }

    /// Caches `shared`, the suite as the shared store holds it now, with this process's pending writes on top.
    /// - Returns: what this process reads.
    @discardableResult
    func took(_ shared: [String: Any]) -> [String: Any] {
        var values = shared
        for key in pendingRemoves { values.removeValue(forKey: key) }
        values.merge(pendingSets) { $1 }
        cache = values
        cacheExpiry = Monotonic.now + nextDelay(DeviceTiming.cacheLifetime)
        return values
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
