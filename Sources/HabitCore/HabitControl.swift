import AppIntents
import Foundation
import SwiftUI
import WidgetKit

/// Which habit a Habit control turns on and off: each control instance's setting (iOS 18's controls).
public struct ControlHabit: ControlConfigurationIntent {
    public static let title: LocalizedStringResource = "Choose a Habit"
    public static var description: IntentDescription? { "The habit this control marks done" }

    @Parameter(title: "Habit", default: "") public var habit: String

    public init() {}
}

/// Marks a habit done or not done today: the control's toggle hands it the state the person chose as `value`.
public struct SetHabitDone: SetValueIntent {
    public static let title: LocalizedStringResource = "Set Habit Done"
    public static var description: IntentDescription? { "Mark a habit as done or not done for today" }

    @Parameter(title: "Habit") public var habit: String
    @Parameter(title: "Done") public var value: Bool

    public init() {}

    public init(habit: String) { self.habit = habit }

    public func perform() async throws -> some IntentResult & ProvidesDialog {
        let environment = HabitsEnvironment.current
        let done = try environment.openStore().setCompleted(named: habit, value, on: environment.today())
        try environment.storeDidChange()
        return .result(dialog: value ? "Marked \(done.name) as completed!" : "Marked \(done.name) as not done.")
    }
}

/// What a Habit control shows: the chosen habit, and whether it is done today.
public struct HabitControlValue: Sendable {
    public let name: String
    public let emoji: String
    public let isDone: Bool
}

/// Reads the chosen habit's state from the shared store, in the widget extension's process.
public struct HabitControlProvider: AppIntentControlValueProvider {
    public init() {}

    public func previewValue(configuration: ControlHabit) -> HabitControlValue {
        HabitControlValue(name: configuration.habit.isEmpty ? "Meditate" : configuration.habit, emoji: "🧘", isDone: false)
    }

    public func currentValue(configuration: ControlHabit) async throws -> HabitControlValue {
        let environment = HabitsEnvironment.current
        let summary = try environment.openStoreIfCreated()?.summary(on: environment.today())
        let done = summary?.completedHabits.first { $0.name == configuration.habit }
        let open = summary?.incompleteHabits.first { $0.name == configuration.habit }
        guard let habit = done ?? open else { return HabitControlValue(name: "", emoji: "", isDone: false) }
        return HabitControlValue(name: habit.name, emoji: habit.emoji, isDone: done != nil)
    }
}

/// A Control Center toggle for one habit: on when it is done today; a tap marks it done or not done.
public struct HabitControl: ControlWidget {
    // Nonisolated: the app asks for its reload by this name off the main actor.
    nonisolated public static let kind = "HabitControl"

    public init() {}

    public var body: some ControlWidgetConfiguration {
        AppIntentControlConfiguration(kind: Self.kind, provider: HabitControlProvider()) { value in
            ControlWidgetToggle(isOn: value.isDone, action: SetHabitDone(habit: value.name)) {
                Label(value.name.isEmpty ? "No habit" : "\(value.emoji) \(value.name)", systemImage: "checkmark.circle")
            } valueLabel: { isOn in
                Label(isOn ? "Done" : "To do", systemImage: isOn ? "checkmark.circle.fill" : "circle")
            }
            .tint(.green)
        }
        .displayName("Habit")
        .description("Marks one habit done or not done today.")
        .promptsForUserConfiguration()
    }
}
