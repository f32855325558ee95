// The widget extension as a simulated process: the provider from HabitsShared, unchanged, and the text Lockstep
// draws where iOS draws HabitsWidgetView.
import HabitsShared
import WidgetKit

WidgetExtension.main(kind: "HabitsWidget", provider: HabitsProvider(),
                     supportedFamilies: [.systemSmall, .systemMedium, .accessoryInline],
                     intents: [CompleteHabitIntent.self]) { entry, family in
    switch family {
    case .accessoryInline: return ["\(entry.done)/\(entry.total) habits"]
    default: return ["Habits", "\(entry.done)/\(entry.total) done"] + (entry.note.map { [$0] } ?? [])
    }
}
