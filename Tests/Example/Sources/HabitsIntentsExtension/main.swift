// The App Intents extension as a simulated process: the intents from HabitsShared, unchanged.
import AppIntents
import HabitsShared

AppIntentsExtension.main(intents: [AddHabitIntent.self, CompleteHabitIntent.self], shortcuts: HabitsShortcuts.self)
