import AppGroupKit
import Foundation
import LockstepSystem
import SwiftUI
import WidgetKit

/// Asks WidgetKit to reload the Habits widget after a change, as the app and the intents do.
public struct WidgetCenterHandle: Sendable {
    let environment: HabitsEnvironment

    /// `WidgetCenter.shared.reloadTimelines(ofKind: "HabitsWidget")`.
    public func reloadHabitsWidget() throws {
        try center.requestReload(ofKind: HabitsEnvironment.widgetKind)
    }

    /// `ControlCenter.shared.reloadControls(ofKind: "HabitControl")`: the control asks the store again.
    public func reloadHabitControl() throws {
        try ControlCenter(groupContainer: environment.groupContainer, requester: environment.bundleIdentifier,
                          notifications: try? DarwinNotificationCenter(sandbox: environment.sandbox)).requestReload(ofKind: HabitControl.kind)
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

/// The Habits timeline provider: reads the shared store (rule `widget.provider`).
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

/// The Habits widget (rule `widget.families`): a SwiftUI view per family, all from the entry.
public struct HabitsWidget: Widget {
    public init() {}

    public var body: some WidgetConfiguration {
        StaticConfiguration(kind: HabitsEnvironment.widgetKind, provider: HabitsProvider(environment: .current)) { entry in
            HabitsWidgetView(entry: entry)
        }
        .configurationDisplayName("Habits")
        .description("Today's progress, the week, and a button to complete the next habit.")
        // The iPhone's families: `systemExtraLarge` is iPad-only and `accessoryCorner` watch-only.
        .supportedFamilies([.systemSmall, .systemMedium, .systemLarge, .accessoryCircular, .accessoryRectangular, .accessoryInline])
    }
}

/// The widget's view: what each family shows of the entry.
public struct HabitsWidgetView: View {
    public let entry: HabitEntry
    @Environment(\.widgetFamily) var family

    public init(entry: HabitEntry) { self.entry = entry }

    var summary: TodaysSummary { entry.summary }
    var percent: String { "\(Int((summary.completionPercentage * 100).rounded()))%" }

    public var body: some View {
        switch family {
        case .systemSmall:
            VStack(alignment: .leading, spacing: 4) {
                Text("Habits · today").font(.headline)
                Spacer()
                Text("\(summary.fraction) done").font(.title2).bold()
                ProgressView(value: summary.completionPercentage)
                Text(percent).font(.caption).foregroundStyle(.secondary)
                Text(summary.motivationalMessage).font(.caption2).lineLimit(2)
            }
            .containerBackground(.background, for: .widget)
        case .systemMedium:
            HStack(alignment: .top, spacing: 12) {
                VStack(alignment: .leading, spacing: 4) {
                    Text("Today's Progress").font(.headline)
                    Text("\(summary.fraction)  \(percent)").font(.title2)
                    ProgressView(value: summary.completionPercentage)
                }
                VStack(alignment: .leading, spacing: 6) {
                    if summary.incompleteHabits.isEmpty {
                        Text(summary.motivationalMessage).font(.caption)
                    } else {
                        // Rule widget.interactive: each button runs CompleteHabit in the widget's process.
                        ForEach(Array(summary.incompleteHabits.prefix(3)), id: \.id) { habit in
                            Button(intent: CompleteHabit(habit: habit.name)) {
                                Text("\(habit.emoji) \(habit.name)")
                            }
                        }
                    }
                }
            }
            .containerBackground(.background, for: .widget)
        case .systemLarge, .systemExtraLarge:
            VStack(alignment: .leading, spacing: 4) {
                Text("Weekly Progress  \(Int((entry.weekly.weeklyCompletionRate * 100).rounded()))%").font(.headline)
                Text(entry.weekly.daysCompleted.map { $0 ? "●" : "○" }.joined(separator: " "))
                Divider()
                Text("Today \(summary.fraction)  \(percent)").font(.subheadline)
                if entry.showCompleted {
                    ForEach(Array(summary.completedHabits.prefix(6)), id: \.id) { habit in
                        Text("✓ \(habit.emoji) \(habit.name)").foregroundStyle(.secondary)
                    }
                }
                ForEach(Array(summary.incompleteHabits.prefix(6)), id: \.id) { habit in
                    Text("· \(habit.emoji) \(habit.name)")
                }
                Spacer()
            }
            .containerBackground(.background, for: .widget)
        case .accessoryCircular, .accessoryCorner:
            VStack(spacing: 0) {
                Text(summary.fraction).font(.headline)
                Text(percent).font(.caption2)
            }
        case .accessoryRectangular:
            VStack(alignment: .leading, spacing: 2) {
                Text("Habits \(summary.fraction)").font(.headline)
                ProgressView(value: summary.completionPercentage)
                Text(summary.incompleteHabits.first.map { "next: \($0.name)" } ?? summary.motivationalMessage).font(.caption)
            }
        case .accessoryInline:
            Text("✓ \(summary.fraction) habits done")
        }
    }
}
