import AppIntents
import Foundation
import SwiftUI
import WidgetKit

/// The focus widget's settings (rule `widget.configurable`): which habit one small widget shows.
public struct FocusHabit: WidgetConfigurationIntent {
    public static let title: LocalizedStringResource = "Choose a Habit"
    public static var description: IntentDescription? { "The habit this widget shows" }

    @Parameter(title: "Habit", default: "") public var habit: String

    public init() {}
}

public struct FocusEntry: TimelineEntry {
    public let date: Date
    /// The chosen habit's name; empty while none is chosen.
    public let name: String
    public let emoji: String
    /// nil: the store has no habit of that name.
    public let isDone: Bool?
}

/// Each focus widget shows the habit its configuration names, from the shared store.
public struct FocusProvider: AppIntentTimelineProvider {
    public init() {}

    public func placeholder(in context: Context) -> FocusEntry {
        FocusEntry(date: Date(timeIntervalSince1970: 0), name: "Meditate", emoji: "🧘", isDone: false)
    }

    public func snapshot(for configuration: FocusHabit, in context: Context) async -> FocusEntry {
        entry(for: configuration)
    }

    public func timeline(for configuration: FocusHabit, in context: Context) async -> Timeline<FocusEntry> {
        Timeline(entries: [entry(for: configuration)], policy: .never)
    }

    private func entry(for configuration: FocusHabit) -> FocusEntry {
        let environment = HabitsEnvironment.current
        let now = SimulatedTime.now(groupsRoot: environment.groupsRoot)
        let summary = try? environment.openStoreIfCreated()?.summary(on: environment.today())
        let done = summary?.completedHabits.first { $0.name == configuration.habit }
        let open = summary?.incompleteHabits.first { $0.name == configuration.habit }
        return FocusEntry(date: now, name: configuration.habit, emoji: (done ?? open)?.emoji ?? "",
                          isDone: done != nil ? true : open != nil ? false : nil)
    }
}

/// A small widget for one habit, with its complete button.
public struct HabitFocusWidget: Widget {
    public static let kind = "HabitFocus"

    public init() {}

    public var body: some WidgetConfiguration {
        AppIntentConfiguration(kind: Self.kind, intent: FocusHabit.self, provider: FocusProvider()) { entry in
            FocusView(entry: entry)
        }
        .configurationDisplayName("Habit focus")
        .description("One habit, and a button to complete it.")
        .supportedFamilies([.systemSmall])
    }
}

struct FocusView: View {
    let entry: FocusEntry

    var body: some View {
        VStack(alignment: .leading, spacing: 6) {
            if entry.name.isEmpty {
                Text("Choose a habit").font(.headline)
            } else {
                Text("\(entry.emoji) \(entry.name)").font(.headline)
                switch entry.isDone {
                case .some(true): Text("✓ done")
                case .some(false):
                    Text("○ to do")
                    Button(intent: CompleteHabit(habit: entry.name)) { Text("Complete") }
                case .none: Text("not found")
                }
            }
        }
        .containerBackground(.background, for: .widget)
    }
}
