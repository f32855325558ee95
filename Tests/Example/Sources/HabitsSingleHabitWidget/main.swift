// A configurable widget (AppIntentConfiguration on iOS) as a simulated process: `configure --habit NAME`, and
// `tap CompleteHabitIntent --habit NAME` for its button.
import HabitsShared
import WidgetKit

WidgetExtension.main(kind: "SingleHabit", provider: SingleHabitProvider(), supportedFamilies: [.systemSmall],
                     intents: [CompleteHabitIntent.self]) { entry, _ in
    [entry.name, entry.isDone.map { $0 ? "✓ done" : "○ to do" } ?? "not found"]
}
