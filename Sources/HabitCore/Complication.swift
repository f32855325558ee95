import AppGroupKit
import Foundation
import LockstepRuntime
import LockstepSystem
import WatchConnectivity
import SwiftUI
import WidgetKit

/// The watch complication (rule `watch.complication`): a watch-side widget extension that reads the **watch's**
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
        guard let defaults = try? GroupDefaults(suiteName: environment.groupIdentifier, sandbox: environment.sandbox) else { return nil }
        // rule `defaults.device-cache`: the complication reloads because the watch app changed the suite; its process
        // may still hold the suite as it read it for the last timeline, so it takes it afresh first.
        try? defaults.synchronize()
        guard let pair = (try? defaults.value(forKey: Self.key)) as? [Any], pair.count == 2,
              let done = pair[0] as? Int, let total = pair[1] as? Int else { return nil }
        return (done, total)
    }

    /// The watch app stores what the phone sent, then asks WidgetKit on the watch to reload the complication.
    public func store(done: Int, total: Int) throws {
        guard let defaults = try GroupDefaults(suiteName: environment.groupIdentifier, sandbox: environment.sandbox) else { return }
        try defaults.set([done, total], forKey: Self.key)
        // rule `defaults.device-flush`: the complication reads the suite in its own process as soon as it is asked
        // to reload; on a device the write may not have reached it yet (`--device-timing realistic` showed it).
        try defaults.synchronize()
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

/// The watch complication: the watch face's families, `accessoryCorner` among them (which is how the widget
/// extension, started as the manifest's complication bundle, knows it is a watch widget).
public struct HabitsComplication: Widget {
    public init() {}

    public var body: some WidgetConfiguration {
        StaticConfiguration(kind: ComplicationData.kind, provider: ComplicationProvider(data: ComplicationData(environment: .current))) { entry in
            ComplicationView(entry: entry)
        }
        .configurationDisplayName("Habits on the wrist")
        .supportedFamilies([.accessoryCircular, .accessoryRectangular, .accessoryInline, .accessoryCorner])
    }
}

struct ComplicationView: View {
    let entry: ComplicationEntry
    @Environment(\.widgetFamily) var family

    var percent: String { entry.total == 0 ? "–" : "\(entry.done * 100 / entry.total)%" }

    var body: some View {
        switch family {
        case .accessoryCircular:
            VStack(spacing: 0) {
                Text("\(entry.done)/\(entry.total)").font(.headline)
                Text(percent).font(.caption2)
            }
        case .accessoryCorner:
            Text(percent).font(.caption)
        case .accessoryRectangular:
            VStack(alignment: .leading) {
                Text("Habits on the wrist").font(.headline)
                Text("\(entry.done)/\(entry.total) done")
            }
        default:
            Text("⌚ \(entry.done)/\(entry.total) habits")
        }
    }
}
