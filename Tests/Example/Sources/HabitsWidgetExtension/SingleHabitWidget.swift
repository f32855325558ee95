import AppIntents
import HabitsShared
import SwiftUI
import WidgetKit

struct SingleHabitView: View {
    var entry: SingleHabitEntry

    var body: some View {
        VStack(alignment: .leading, spacing: 8) {
            Text(entry.name).font(.headline)
            switch entry.isDone {
            case .some(true):
                Text("✓ done")
            case .some(false):
                Text("○ to do")
                Button(intent: CompleteHabitIntent(habit: HabitEntity(id: entry.name))) {
                    Label("Complete", systemImage: "checkmark.circle")
                }
            case .none:
                Text("not found")
            }
        }
        .containerBackground(.white, for: .widget)
    }
}

struct SingleHabitWidget: Widget {
    var body: some WidgetConfiguration {
        AppIntentConfiguration(kind: "SingleHabit", intent: SingleHabitConfiguration.self, provider: SingleHabitProvider()) { entry in
            SingleHabitView(entry: entry)
        }
        .configurationDisplayName("One habit")
        .supportedFamilies([.systemSmall])
    }
}
