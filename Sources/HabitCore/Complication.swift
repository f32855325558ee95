import AppGroupKit
import Foundation
import LockstepRuntime
import LockstepSystem
import WatchConnectivity
import WidgetKit

/// The watch complication (RULES.md `watch.complication`): a watch-side widget extension that reads the **watch's**
/// group container — never the phone's — where the watch app keeps the latest progress the phone sent with
/// `transferCurrentComplicationUserInfo`.
public struct ComplicationEntry: TimelineEntry {
    public let date: Date
    public let done: Int
    public let total: Int
}

/// The complication's data in the watch's App Group: a defaults suite, as a watch app shares it with its widgets.
public struct ComplicationData: Sendable {
    /// The suite key holding `[done, total]`.
    public static let key = "complication.progress"
    public static let kind = "HabitsComplication"

    let environment: HabitsEnvironment

    public func progress() -> (done: Int, total: Int)? {
        guard let defaults = try? GroupDefaults(suiteName: environment.groupIdentifier, sandbox: environment.sandbox),
              let pair = (try? defaults.value(forKey: Self.key)) as? [Any], pair.count == 2,
              let done = pair[0] as? Int, let total = pair[1] as? Int else { return nil }
        return (done, total)
    }

    /// The watch app stores what the phone sent, then asks WidgetKit on the watch to reload the complication.
    public func store(done: Int, total: Int) throws {
        guard let defaults = try GroupDefaults(suiteName: environment.groupIdentifier, sandbox: environment.sandbox) else { return }
        try defaults.set([done, total], forKey: Self.key)
        try WidgetCenter(groupContainer: environment.groupContainer, requester: environment.bundleIdentifier,
                         notifications: try? DarwinNotificationCenter(sandbox: environment.sandbox)).requestReload(ofKind: Self.kind)
    }
}

public struct ComplicationProvider: TimelineProvider {
    let data: ComplicationData

    public func placeholder(in context: Context) -> ComplicationEntry { ComplicationEntry(date: Date(timeIntervalSince1970: 0), done: 1, total: 3) }

    public func getSnapshot(in context: Context, completion: @escaping (ComplicationEntry) -> Void) {
        completion(entry())
    }

    /// One entry; the watch app's reload request brings the next.
    public func getTimeline(in context: Context, completion: @escaping (Timeline<ComplicationEntry>) -> Void) {
        completion(Timeline(entries: [entry()], policy: .never))
    }

    private func entry() -> ComplicationEntry {
        let progress = data.progress() ?? (0, 0)
        return ComplicationEntry(date: SimulatedTime.now(groupsRoot: data.environment.groupsRoot), done: progress.done, total: progress.total)
    }
}

/// The watch face's families, `accessoryCorner` among them.
public struct ComplicationWidget: Widget {
    public let provider: ComplicationProvider
    public var kind: String { ComplicationData.kind }
    public var supportedFamilies: [WidgetFamily] { [.accessoryCircular, .accessoryRectangular, .accessoryInline, .accessoryCorner] }

    public init(environment: HabitsEnvironment) { provider = ComplicationProvider(data: ComplicationData(environment: environment)) }

    public func view(_ entry: ComplicationEntry, family: WidgetFamily) -> [String] {
        let percent = entry.total == 0 ? "–" : "\(entry.done * 100 / entry.total)%"
        switch family {
        case .accessoryCircular: return ["\(entry.done)/\(entry.total)", percent]
        case .accessoryCorner: return [percent]
        case .accessoryRectangular: return ["Habits on the wrist", "\(entry.done)/\(entry.total) done"]
        default: return ["⌚ \(entry.done)/\(entry.total) habits"]
        }
    }
}

/// The complication process (`lockstep-widget` as the manifest's complication bundle): the same widget system as the
/// phone's widget, on the watch's container, with its own reload budget there.
public struct ComplicationApp: Sendable {
    public let environment: HabitsEnvironment
    public let system: WidgetSystem<ComplicationWidget>

    public init(environment: HabitsEnvironment, watchBundleIdentifier: String) {
        self.environment = environment
        system = WidgetSystem(widget: ComplicationWidget(environment: environment), groupsRoot: environment.groupsRoot,
                              groupContainer: environment.groupContainer, hostBundleIdentifier: watchBundleIdentifier,
                              notifications: try? DarwinNotificationCenter(sandbox: environment.sandbox), output: { print($0) })
    }

    public func serve() throws {
        try system.start()
        print("ready \(environment.bundleIdentifier): \(system.status())")
        try CommandInput.serve(execute)
    }

    public func execute(_ words: [String]) throws -> String {
        switch (words.first ?? "", words.count) {
        case ("render", 2): return system.render(family: try WidgetFamily(parsing: words[1])).joined(separator: "\n")
        case ("status", 1): return system.status()
        default: throw HabitError(.usage, subject: words.joined(separator: " "), detail: "render FAMILY | status | quit")
        }
    }
}
