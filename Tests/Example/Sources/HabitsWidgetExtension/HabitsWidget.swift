import SwiftUI
import WidgetKit
import HabitsShared

struct HabitsWidgetView: View {
    var entry: HabitsEntry
    @Environment(\.widgetFamily) var family

    var body: some View {
        switch family {
        case .accessoryInline:
            Text("\(entry.done)/\(entry.total) habits")
        default:
            VStack(alignment: .leading) {
                Text("Habits").font(.headline)
                Text("\(entry.done)/\(entry.total) done")
                if let note = entry.note { Text(note).font(.caption) }
            }
            .containerBackground(.white, for: .widget)
        }
    }
}

struct HabitsWidget: Widget {
    var body: some WidgetConfiguration {
        StaticConfiguration(kind: "HabitsWidget", provider: HabitsProvider()) { entry in
            HabitsWidgetView(entry: entry)
        }
        .configurationDisplayName("Habits")
        .description("Today's habits.")
        .supportedFamilies([.systemSmall, .systemMedium, .accessoryInline])
    }
}
