import SwiftUI
import WidgetKit

struct TallyEntry: TimelineEntry {
    let date: Date
    let count: Int
}

struct TallyProvider: TimelineProvider {
    func placeholder(in context: Context) -> TallyEntry { TallyEntry(date: Date(), count: 0) }

    func getSnapshot(in context: Context, completion: @escaping (TallyEntry) -> ()) {
        completion(TallyEntry(date: Date(), count: TallyStore.count))
    }

    func getTimeline(in context: Context, completion: @escaping (Timeline<TallyEntry>) -> ()) {
        completion(Timeline(entries: [TallyEntry(date: Date(), count: TallyStore.count)], policy: .never))
    }
}

struct TallyWidget: Widget {
    var body: some WidgetConfiguration {
        StaticConfiguration(kind: "Tally", provider: TallyProvider()) { entry in
            VStack {
                Image("TallyIcon")
                Text("Tally \(entry.count)")
                    .foregroundStyle(Color("TallyInk"))
                // The key is looked up in the widget's string catalog, as Text does on a device.
                Text("tally.caption", comment: "Under the count.")
                Text(TallyStore.device)
                Text(TallyStore.build)
            }
            .containerBackground(.white, for: .widget)
            .widgetURL(TallyLinks.count)
        }
        .configurationDisplayName("Tally")
        .supportedFamilies([.systemSmall])
    }
}

#if os(iOS)
struct TallyLockScreenWidget: Widget {
    var body: some WidgetConfiguration {
        StaticConfiguration(kind: "TallyLockScreen", provider: TallyProvider()) { entry in
            // Foundation's NSLocalizedString, with no bundle named: the widget's own string catalog.
            Text("\(entry.count) " + NSLocalizedString("tally.inline", comment: "After the count on the Lock Screen."))
        }
        .configurationDisplayName("Tally on the Lock Screen")
        .supportedFamilies([.accessoryInline])
    }
}

// Xcode's older previews, under the same condition as the widget they show: `lockstep build` records them.
struct TallyLockScreenPreviews: PreviewProvider {
    static var previews: some View {
        Text("42 counted")
            .previewContext(WidgetPreviewContext(family: .accessoryInline))
            .previewDisplayName("Inline")
    }
}
#endif

@main
struct TallyWidgets: WidgetBundle {
    var body: some Widget {
        TallyWidget()
        TallyGoalWidget()
        #if os(iOS)
        TallyLockScreenWidget()
        #endif
    }
}
