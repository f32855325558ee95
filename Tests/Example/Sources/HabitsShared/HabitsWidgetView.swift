#if canImport(SwiftUI)
import SwiftUI
import WidgetKit

// The iOS view: compiled on iOS, not on Linux, where `WidgetExtension.main` draws the text the Linux main.swift gives.
struct HabitsWidgetView: View {
    var entry: HabitsEntry

    var body: some View {
        VStack(alignment: .leading) {
            Text("Habits").font(.headline)
            Text("\(entry.done)/\(entry.total) done")
            if let note = entry.note { Text(note).font(.caption) }
        }
    }
}

struct HabitsWidget: Widget {
    var body: some WidgetConfiguration {
        StaticConfiguration(kind: "HabitsWidget", provider: HabitsProvider()) { entry in
            HabitsWidgetView(entry: entry)
        }
        .supportedFamilies([.systemSmall, .systemMedium, .accessoryInline])
    }
}
#endif
