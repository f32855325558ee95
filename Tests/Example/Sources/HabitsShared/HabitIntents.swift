import Foundation
#if canImport(AppIntents)
import AppIntents
import WidgetKit

/// A habit, as Siri and Shortcuts name it.
public struct HabitEntity: AppEntity {
    public static let typeDisplayRepresentation: TypeDisplayRepresentation = "Habit"
    public static let defaultQuery = HabitQuery()

    public let id: String
    public var displayRepresentation: DisplayRepresentation { DisplayRepresentation(title: "\(id)") }

    public init(id: String) { self.id = id }
}

public struct HabitQuery: EntityQuery {
    public init() {}

    public func entities(for identifiers: [String]) async throws -> [HabitEntity] {
        let names = Set(HabitsStore.shared.habits.map(\.name))
        return identifiers.filter(names.contains).map(HabitEntity.init)
    }

    public func suggestedEntities() async throws -> [HabitEntity] {
        HabitsStore.shared.habits.map { HabitEntity(id: $0.name) }
    }
}

public struct AddHabitIntent: AppIntent {
    public static let title: LocalizedStringResource = "Add Habit"
    public static var description: IntentDescription? { IntentDescription("Start tracking a new habit.") }

    @Parameter(title: "Name") public var name: String
    @Parameter(title: "Already done today", default: false) public var done: Bool

    public init() {}

    @MainActor
    public func perform() async throws -> some IntentResult & ProvidesDialog {
        HabitsStore.shared.add(name)
        if done { try HabitsStore.shared.complete(name) }
        WidgetCenter.shared.reloadTimelines(ofKind: "HabitsWidget")
        return .result(dialog: "Added \(name).")
    }
}

public struct CompleteHabitIntent: AppIntent {
    public static let title: LocalizedStringResource = "Complete Habit"

    @Parameter(title: "Habit") public var habit: HabitEntity

    public init() {}

    public init(habit: HabitEntity) { self.habit = habit }

    public func perform() async throws -> some IntentResult & ProvidesDialog & ReturnsValue<Int> {
        try HabitsStore.shared.complete(habit.id)
        WidgetCenter.shared.reloadTimelines(ofKind: "HabitsWidget")
        let left = HabitsStore.shared.habits.filter { !$0.isDone }.count
        return .result(value: left, dialog: "Completed \(habit.id). \(left) left today.")
    }
}

public struct HabitsShortcuts: AppShortcutsProvider {
    public static var appShortcuts: [AppShortcut] {
        AppShortcut(intent: CompleteHabitIntent(), phrases: ["Complete a habit in \(.applicationName)",
                                                             "Mark a habit done with \(.applicationName)"],
                    shortTitle: "Complete Habit", systemImageName: "checkmark.circle")
        AppShortcut(intent: AddHabitIntent(), phrases: ["Add a habit to \(.applicationName)"],
                    shortTitle: "Add Habit", systemImageName: "plus")
    }
}
#endif
