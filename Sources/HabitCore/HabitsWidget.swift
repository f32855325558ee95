import AppGroupKit
import Foundation
import LockstepSystem
import WidgetKit

/// Asks WidgetKit to reload the Habits widget after a change, as the app and the intents do.
public struct WidgetCenterHandle: Sendable {
    let environment: HabitsEnvironment

    /// `WidgetCenter.shared.reloadTimelines(ofKind: "HabitsWidget")`.
    public func reloadHabitsWidget() throws {
        try center.requestReload(ofKind: HabitsEnvironment.widgetKind)
    }

    /// The center for this bundle, posting its Darwin notification on this device.
    public var center: WidgetCenter {
        WidgetCenter(groupContainer: environment.groupContainer, requester: environment.bundleIdentifier,
                     notifications: try? DarwinNotificationCenter(sandbox: environment.sandbox))
    }
}

/// One rendering's data: today's summary and the week.
public struct HabitEntry: TimelineEntry {
    public let date: Date
    public let summary: TodaysSummary
    public let weekly: WeeklyProgress
    /// The `widget.showCompleted` preference when the entry was made (views read nothing but the entry).
    public var showCompleted = true
}

/// The Habits timeline provider: reads the shared store (RULES.md `widget.provider`).
public struct HabitsProvider: TimelineProvider {
    public let environment: HabitsEnvironment

    public init(environment: HabitsEnvironment) { self.environment = environment }

    /// Sample data, no store access (placeholders must not fetch).
    public func placeholder(in context: Context) -> HabitEntry {
        let sample = [Habit(id: "1", name: "Meditate", emoji: "🧘", kind: .binary, dailyTarget: 1),
                      Habit(id: "2", name: "Read", emoji: "📚", kind: .binary, dailyTarget: 1)]
        return HabitEntry(date: Date(timeIntervalSince1970: 0),
                          summary: TodaysSummary(day: Day(rawValue: "1970-01-01"), completed: [sample[0]], incomplete: [sample[1]]),
                          weekly: WeeklyProgress(daysCompleted: Array(repeating: false, count: 7), weeklyCompletionRate: 0))
    }

    public func getSnapshot(in context: Context, completion: @escaping (HabitEntry) -> Void) {
        let now = SimulatedTime.now(groupsRoot: environment.groupsRoot)
        let shown = Result { try environment.openStoreIfCreated() }
            .flatMap { store in Result { try entry(at: now, day: Day(time: now.timeIntervalSince1970), store: store, showCompleted: showCompleted) } }
        completion((try? shown.get()) ?? placeholder(in: context))
    }

    /// Now, and the next midnight (a fresh day), then `.atEnd`: the system comes back after midnight.
    public func getTimeline(in context: Context, completion: @escaping (Timeline<HabitEntry>) -> Void) {
        let now = SimulatedTime.now(groupsRoot: environment.groupsRoot)
        let today = Day(time: now.timeIntervalSince1970)
        let tomorrow = today.adding(days: 1)
        // The widget only reads the app's store; before the app has created it, the day is empty.
        guard case .success(let store) = Result(catching: { try environment.openStoreIfCreated() }) else {
            // An unreadable store (reported by the app) leaves the widget on its placeholder until the app asks again.
            completion(Timeline(entries: [], policy: .never))
            return
        }
        // One look at the preference for the whole timeline: every entry is made now.
        let showCompleted = showCompleted
        let entries = [try? entry(at: now, day: today, store: store, showCompleted: showCompleted),
                       try? entry(at: Date(timeIntervalSince1970: tomorrow.start), day: tomorrow, store: store, showCompleted: showCompleted)]
        completion(Timeline(entries: entries.compactMap { $0 }, policy: .atEnd))
    }

    /// The entry for `day`; with no store yet, a day without habits.
    private func entry(at date: Date, day: Day, store: HabitStore?, showCompleted: Bool) throws -> HabitEntry {
        HabitEntry(date: date,
                   summary: try store?.summary(on: day) ?? TodaysSummary(day: day, completed: [], incomplete: []),
                   weekly: try store?.weeklyProgress(endingOn: day) ?? WeeklyProgress(daysCompleted: Array(repeating: false, count: 7), weeklyCompletionRate: 0),
                   showCompleted: showCompleted)
    }

    /// The `widget.showCompleted` preference (default on, also when the suite cannot be read).
    private var showCompleted: Bool { (try? environment.preferences().showCompleted) ?? true }
}

/// The Habits widget: views for every family (stateless: all from the entry).
public struct HabitsWidget: Widget {
    public let provider: HabitsProvider
    public var kind: String { HabitsEnvironment.widgetKind }
    /// The iPhone's families: `systemExtraLarge` is iPad-only and `accessoryCorner` watch-only.
    public var supportedFamilies: [WidgetFamily] {
        [.systemSmall, .systemMedium, .systemLarge, .accessoryCircular, .accessoryRectangular, .accessoryInline]
    }

    public init(environment: HabitsEnvironment) { provider = HabitsProvider(environment: environment) }

    public func view(_ entry: HabitEntry, family: WidgetFamily) -> [String] {
        let s = entry.summary
        let percent = "\(Int((s.completionPercentage * 100).rounded()))%"
        switch family {
        case .systemSmall:
            return ["Habits · today", "", "\(s.fraction) done", bar(s.completionPercentage, width: 10) + " " + percent, "", s.motivationalMessage]
        case .systemMedium:
            return ["Today's Progress  \(s.fraction)  \(percent)", bar(s.completionPercentage, width: 20), ""]
                + (s.incompleteHabits.isEmpty ? [s.motivationalMessage] : s.incompleteHabits.prefix(3).map { "\($0.emoji) \($0.name)" })
        case .systemLarge, .systemExtraLarge:
            let week = entry.weekly.daysCompleted.map { $0 ? "●" : "○" }.joined(separator: " ")
            return ["Weekly Progress  \(Int((entry.weekly.weeklyCompletionRate * 100).rounded()))%", week, "", "Today \(s.fraction)  \(percent)"]
                + (entry.showCompleted ? s.completedHabits.prefix(6).map { "✓ \($0.emoji) \($0.name)" } : [])
                + s.incompleteHabits.prefix(6).map { "· \($0.emoji) \($0.name)" }
        case .accessoryCircular:
            return [s.fraction, percent]
        case .accessoryCorner:
            return [percent]
        case .accessoryRectangular:
            return ["Habits \(s.fraction)", bar(s.completionPercentage, width: 10), s.incompleteHabits.first.map { "next: \($0.name)" } ?? s.motivationalMessage]
        case .accessoryInline:
            return ["✓ \(s.fraction) habits done"]
        }
    }

    private func bar(_ fraction: Double, width: Int) -> String {
        let filled = Int((fraction * Double(width)).rounded())
        return String(repeating: "█", count: filled) + String(repeating: "░", count: width - filled)
    }
}
