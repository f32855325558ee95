import Foundation
#if canImport(AppIntents)
import AppIntents
import WidgetKit

/// The configurable widget's settings: which habit one small widget shows.
public struct SingleHabitConfiguration: WidgetConfigurationIntent {
    public static let title: LocalizedStringResource = "Choose a Habit"

    @Parameter(title: "Habit", default: "") public var habit: String

    public init() {}
}

public struct SingleHabitEntry: TimelineEntry {
    public let date: Date
    public let name: String
    public let isDone: Bool?
}

/// Each instance of the widget shows the habit its configuration names.
public struct SingleHabitProvider: AppIntentTimelineProvider {
    public init() {}

    public func placeholder(in context: Context) -> SingleHabitEntry {
        SingleHabitEntry(date: Date(), name: "Habit", isDone: false)
    }

    public func snapshot(for configuration: SingleHabitConfiguration, in context: Context) async -> SingleHabitEntry {
        entry(for: configuration)
    }

    public func timeline(for configuration: SingleHabitConfiguration, in context: Context) async -> Timeline<SingleHabitEntry> {
        Timeline(entries: [entry(for: configuration)], policy: .never)
    }

    private func entry(for configuration: SingleHabitConfiguration) -> SingleHabitEntry {
        let habit = HabitsStore.shared.habits.first { $0.name == configuration.habit }
        return SingleHabitEntry(date: Date(), name: configuration.habit.isEmpty ? "No habit chosen" : configuration.habit, isDone: habit?.isDone)
    }
}
#endif
