import ActivityKit
import SwiftUI
import WidgetKit

/// The Habits Live Activity, declared in the shared module as on iOS: the app starts it for one habit, the widget
/// extension renders it on the Lock Screen (rule `activity.lifecycle`).
public struct HabitActivityAttributes: ActivityAttributes {
    public struct ContentState: Codable, Hashable, Sendable {
        public var done: Int
        public var total: Int
        public var habitCompleted: Bool
    }

    public var habitName: String
    public var emoji: String

}

/// The Habits Live Activity's views: the Lock Screen and the Dynamic Island (rule `activity.lifecycle`).
public struct HabitsLiveActivity: Widget {
    public init() {}

    public var body: some WidgetConfiguration {
        ActivityConfiguration(for: HabitActivityAttributes.self) { context in
            HStack {
                Text("\(context.attributes.emoji) \(context.attributes.habitName) \(context.state.habitCompleted ? "✓" : "·")").font(.headline)
                Spacer()
                Text("\(context.state.done)/\(context.state.total) habits done\(context.isStale ? " (stale)" : "")")
            }
            .padding()
        } dynamicIsland: { context in
            DynamicIsland {
                DynamicIslandExpandedRegion(.leading) { Text(context.attributes.emoji) }
                DynamicIslandExpandedRegion(.trailing) { Text("\(context.state.done)/\(context.state.total)") }
                DynamicIslandExpandedRegion(.center) { Text(context.attributes.habitName) }
                DynamicIslandExpandedRegion(.bottom) {
                    ProgressView(value: Double(context.state.done), total: Double(max(context.state.total, 1)))
                }
            } compactLeading: {
                Text(context.attributes.emoji)
            } compactTrailing: {
                Text("\(context.state.done)/\(context.state.total)")
            } minimal: {
                Text(context.attributes.emoji)
            }
            .keylineTint(.green)
        }
    }
}

extension HostApp {
    /// `activity start HABIT | update | end [now]`: the app's Live Activity for a habit, with today's progress.
    func liveActivity(_ arguments: [String]) throws -> String {
        let summary = try store.summary(on: environment.today())
        func content(for name: String) -> ActivityContent<HabitActivityAttributes.ContentState> {
            let completed = summary.completedHabits.contains { $0.name == name }
            return ActivityContent(state: .init(done: summary.completedHabitsCount, total: summary.totalHabits, habitCompleted: completed),
                                   staleDate: nil)
        }
        switch (arguments.first ?? "", arguments.count) {
        case ("start", 2):
            let habits = try store.habits()
            guard let habit = habits.first(where: { $0.name == arguments[1] }) else {
                throw HabitError(.unknownHabit, subject: arguments[1], detail: habits.isEmpty ? "none yet; add it first" : habits.map(\.name).joined(separator: ", "))
            }
            do {
                let activity = try Activity.request(attributes: HabitActivityAttributes(habitName: habit.name, emoji: habit.emoji),
                                                    content: content(for: habit.name))
                return "Live Activity started for \(habit.name) (\(activity.id.prefix(8)))"
            } catch let error as ActivityAuthorizationError {
                // The app's own handling: it reports the refusal and carries on, as an app would.
                return "Live Activity refused: \(error)"
            }
        case ("update", 1), ("end", 1), ("end", 2):
            if arguments.count == 2 && arguments[1] != "now" { fallthrough }
            let activities = Activity<HabitActivityAttributes>.activities.filter { $0.activityState == .active || $0.activityState == .stale }
            for activity in activities {
                if arguments[0] == "update" {
                    try activity.submit(content(for: activity.attributes.habitName))
                } else {
                    try activity.submitEnd(content(for: activity.attributes.habitName), dismissalPolicy: arguments.count == 2 ? .immediate : .default)
                }
            }
            return "\(arguments[0] == "update" ? "updated" : "ended") \(activities.count) Live Activit\(activities.count == 1 ? "y" : "ies")"
        default:
            throw HabitError(.usage, subject: (["activity"] + arguments).joined(separator: " "), detail: "activity start HABIT | update | end [now]")
        }
    }
}
