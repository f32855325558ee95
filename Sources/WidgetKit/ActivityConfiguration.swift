import ActivityKit
import AppGroupKit
import Foundation
import LockstepSystem
import Synchronization

/// What a Live Activity's view is given (Apple's `ActivityViewContext`).
public struct ActivityViewContext<Attributes: ActivityAttributes> {
    public let attributes: Attributes
    public let state: Attributes.ContentState
    public let isStale: Bool
    public let activityID: String
}

/// A Live Activity's presentation in the widget extension (Apple's `ActivityConfiguration(for:content:dynamicIsland:)`):
/// Lockstep draws the Lock Screen text lines your closure returns where iOS draws its SwiftUI view.
public struct ActivityConfiguration<Attributes: ActivityAttributes>: LiveActivityPresentation {
    let content: (ActivityViewContext<Attributes>) -> [String]

    public init(for attributesType: Attributes.Type = Attributes.self, content: @escaping (ActivityViewContext<Attributes>) -> [String]) {
        self.content = content
    }

    public var attributesType: String { String(describing: Attributes.self) }

    public func render(_ record: ActivityRecord, isStale: Bool) -> [String]? {
        let decoder = JSONDecoder()
        guard let attributes = try? decoder.decode(Attributes.self, from: Data(record.attributes.utf8)),
              let state = try? decoder.decode(Attributes.ContentState.self, from: Data(record.state.utf8)) else { return nil }
        return content(ActivityViewContext(attributes: attributes, state: state, isStale: isStale, activityID: record.id))
    }
}

/// Any `ActivityConfiguration`, whatever its attributes.
public protocol LiveActivityPresentation {
    var attributesType: String { get }
    func render(_ record: ActivityRecord, isStale: Bool) -> [String]?
}

/// The system side of Live Activities in the widget extension's process (RULES.md `activity.lifecycle`): renders each
/// activity of its app whose attributes it configures, again after each change the app makes and when the system
/// ends or dismisses it on the simulated clock, one line per change and the text in `<activities>/<id>.txt`.
public final class LiveActivityRenderer: @unchecked Sendable {  // @unchecked: `shown` is touched only by the watch thread; `running` is a Mutex.
    let system: ActivitySystem
    let presentations: [any LiveActivityPresentation]
    let output: @Sendable (String) -> Void
    private var shown: [String: (revision: Int, state: ActivityState)] = [:]
    private let running = Mutex(false)
    private let wakeup = NSCondition()
    private var woken = false
    private var observation: Observation?

    public init(system: ActivitySystem, presentations: [any LiveActivityPresentation], output: @escaping @Sendable (String) -> Void) {
        self.system = system
        self.presentations = presentations
        self.output = output
    }

    /// Renders what exists now, then watches on a thread of its own until `stop()`.
    public func start(notifications: DarwinNotificationCenter?, pollInterval: Double = 0.05) {
        guard !presentations.isEmpty else { return }
        // Activities from before this process started are shown quietly: only changes are news.
        let now = system.now()
        for record in system.all() { shown[record.id] = (record.revision, record.activityState(at: now)) }
        running.withLock { $0 = true }
        observation = try? notifications?.observe(ActivitySystem.changedNotification) { [self] _ in
            wakeup.withLock { woken = true; wakeup.signal() }
        }
        Thread.detachNewThread { [self] in
            while running.withLock({ $0 }) {
                tick()
                wakeup.withLock {
                    if !woken { _ = wakeup.wait(until: Date(timeIntervalSinceNow: pollInterval)) }
                    woken = false
                }
            }
        }
    }

    public func stop() {
        running.withLock { $0 = false }
        observation?.cancel()
    }

    /// One look: every activity whose revision or state changed since it was last shown.
    func tick() {
        let now = system.now()
        for record in system.all() {
            let state = record.activityState(at: now)
            if let seen = shown[record.id], seen.revision == record.revision, seen.state == state { continue }
            let isNewRevision = shown[record.id]?.revision != record.revision
            shown[record.id] = (record.revision, state)
            guard let presentation = presentations.first(where: { $0.attributesType == record.attributesType }),
                  let lines = presentation.render(record, isStale: state == .stale) else { continue }
            if state == .dismissed {
                try? FileSystem.removeIfPresent(system.renderPath(record.id))
            } else {
                try? AtomicFile.write(lines.joined(separator: "\n") + "\n", to: system.renderPath(record.id))
            }
            let what: String
            switch state {
            case .active: what = record.revision == 1 ? "started" : "updated"
            case .stale: what = "stale"
            case .ended: what = record.endReason(at: now)
            case .dismissed: what = "dismissed from the Lock Screen"
            case .pending: what = "pending"
            }
            // Latency only for what the app just did; the system's own ends follow the clock.
            let latency = isNewRevision ? ", \(Int(((Date().timeIntervalSince1970 - record.changedAt) * 1000).rounded())) ms after the app" : ""
            output("live activity \(record.attributesType) \(record.id.prefix(8)) \(what)\(latency): \(lines.joined(separator: " · "))")
        }
    }
}
