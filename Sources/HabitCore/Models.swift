import LockstepSystem

/// Whether a habit is done or not (binary) or counts toward a daily target (numeric).
public enum HabitKind: String, Sendable, Codable, CaseIterable {
    case binary
    case numeric
}

/// A habit the user tracks.
public struct Habit: Sendable, Equatable, Codable, Identifiable {
    public var id: String
    public var name: String
    public var emoji: String
    public var kind: HabitKind
    /// The value that completes the day: 1 for a binary habit.
    public var dailyTarget: Double
    public var isActive: Bool

    public init(id: String, name: String, emoji: String, kind: HabitKind, dailyTarget: Double, isActive: Bool = true) {
        self.id = id
        self.name = name
        self.emoji = emoji
        self.kind = kind
        self.dailyTarget = dailyTarget
        self.isActive = isActive
    }

    /// Whether `value` logged on a day completes it.
    public func isCompleted(by value: Double) -> Bool { value >= dailyTarget }
}

/// A calendar day (UTC) on the simulated clock, as `YYYY-MM-DD`.
public struct Day: Sendable, Hashable, Comparable, Codable, CustomStringConvertible {
    public let rawValue: String

    public init(rawValue: String) { self.rawValue = rawValue }

    /// The day containing `time` (seconds since 1970, UTC).
    public init(time: Double) {
        let (year, month, day) = UTCCalendar.date(of: time)
        rawValue = "\(year)-\(month < 10 ? "0" : "")\(month)-\(day < 10 ? "0" : "")\(day)"
    }

    /// Midnight UTC starting this day, in seconds since 1970.
    public var start: Double {
        let fields = rawValue.split(separator: "-").compactMap { Int32($0) }
        return UTCCalendar.start(year: fields[0], month: fields[1], day: fields[2])
    }

    /// The day `count` days later (earlier when negative).
    public func adding(days count: Int) -> Day { Day(time: start + Double(count) * 86_400 + 1) }

    public static func < (lhs: Day, rhs: Day) -> Bool { lhs.rawValue < rhs.rawValue }
    public var description: String { rawValue }
}

/// Today at a glance: what the widget, the watch and ListIncomplete show.
public struct TodaysSummary: Sendable, Equatable, Codable {
    public var day: Day
    public var completedHabitsCount: Int
    public var totalHabits: Int
    /// 0…1.
    public var completionPercentage: Double
    /// Active habits not yet completed today, in creation order.
    public var incompleteHabits: [Habit]
    /// Active habits completed today.
    public var completedHabits: [Habit]

    public init(day: Day, completed: [Habit], incomplete: [Habit]) {
        self.day = day
        completedHabits = completed
        incompleteHabits = incomplete
        completedHabitsCount = completed.count
        totalHabits = completed.count + incomplete.count
        completionPercentage = totalHabits == 0 ? 0 : Double(completed.count) / Double(totalHabits)
    }

    /// "1/3".
    public var fraction: String { "\(completedHabitsCount)/\(totalHabits)" }

    /// A short line of encouragement, chosen from the progress.
    public var motivationalMessage: String {
        if totalHabits == 0 { return "Add a habit to begin" }
        if completedHabitsCount == totalHabits { return "All done today!" }
        if completedHabitsCount == 0 { return "A fresh start" }
        return "Keep going"
    }
}

/// The last seven days, ending today.
public struct WeeklyProgress: Sendable, Equatable, Codable {
    /// Seven flags, oldest first: every active habit completed that day.
    public var daysCompleted: [Bool]
    /// Completed habit-days over possible habit-days in the week, 0…1.
    public var weeklyCompletionRate: Double
    /// Index of today in `daysCompleted` (always 6).
    public var currentDayIndex: Int

    public init(daysCompleted: [Bool], weeklyCompletionRate: Double) {
        self.daysCompleted = daysCompleted
        self.weeklyCompletionRate = weeklyCompletionRate
        currentDayIndex = daysCompleted.count - 1
    }
}
