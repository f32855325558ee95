import AppIntents

/// "Complete Habit": marks a habit done today (the reference's `CompleteHabitIntent`), written as for iOS.
public struct CompleteHabit: AppIntent {
    public static let title: LocalizedStringResource = "Complete Habit"
    public static var description: IntentDescription? { "Mark a habit as completed for today" }
    @Parameter(title: "Habit") public var habit: String

    public init() {}

    /// The widget's button for one habit holds this instance (`Button(intent: CompleteHabit(habit: "Walk"))`).
    public init(habit: String) { self.habit = habit }

    public func perform() async throws -> some IntentResult & ProvidesDialog {
        let environment = HabitsEnvironment.current
        let done = try environment.openStore().setCompleted(named: habit, true, on: environment.today())
        try environment.storeDidChange()
        return .result(dialog: "Marked \(done.name) as completed!")
    }
}

/// "Log Value": adds an amount to a numeric habit today.
public struct LogValue: AppIntent {
    public static let title: LocalizedStringResource = "Log Value"
    public static var description: IntentDescription? { "Add an amount to a habit for today" }
    @Parameter(title: "Habit") public var habit: String
    @Parameter(title: "Value") public var value: Double

    public init() {}

    public func perform() async throws -> some IntentResult & ProvidesDialog & ReturnsValue<String> {
        let environment = HabitsEnvironment.current
        let (logged, total) = try environment.openStore().log(named: habit, value: value, on: environment.today())
        try environment.storeDidChange()
        let state = logged.isCompleted(by: total) ? "completed" : "not yet completed"
        return .result(value: format(total), dialog: "Logged \(format(value)) for \(logged.name): \(format(total)) of \(format(logged.dailyTarget)), \(state).")
    }
}

/// "List Incomplete": what is left today.
public struct ListIncomplete: AppIntent {
    public static let title: LocalizedStringResource = "List Incomplete Habits"
    public static var description: IntentDescription? { "Tell which habits are not done yet today" }

    public init() {}

    public func perform() async throws -> some IntentResult & ProvidesDialog & ReturnsValue<String> {
        let environment = HabitsEnvironment.current
        let summary = try environment.openStore().summary(on: environment.today())
        if summary.incompleteHabits.isEmpty {
            return .result(value: "0", dialog: summary.totalHabits == 0 ? "You have no habits yet." : "All done today!")
        }
        let names = summary.incompleteHabits.map(\.name).joined(separator: ", ")
        let count = summary.incompleteHabits.count
        return .result(value: String(count), dialog: "\(count) habit\(count == 1 ? "" : "s") left today: \(names).")
    }
}

/// Every Habits intent.
public let habitIntents = IntentRegistry([CompleteHabit.self, LogValue.self, ListIncomplete.self])

/// `2` rather than `2.0`.
func format(_ value: Double) -> String {
    value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
}
