import Intents
import SwiftUI
import WidgetKit

// A widget configured through SiriKit, as an iOS 14–16 widget extension declares it: an `IntentConfiguration` whose
// `IntentTimelineProvider` is served the instance's intent, of the class Xcode generates from the app's
// `.intentdefinition` (below, as the user keeps it on Linux: `@NSManaged` becomes `@IntentManaged`, `@objc(…)`
// goes). Built for the WidgetKit tests, not installed.

// MARK: - as generated from SelectHabit.intentdefinition

public class SelectHabitIntent: INIntent, @unchecked Sendable {
    @IntentManaged public var habit: Habit?
    @IntentManaged public var goal: NSNumber?
    @IntentManaged public var period: Period
}

public enum Period: Int {
    case unknown = 0
    case daily = 1
    case weekly = 2
}

public class Habit: INObject, @unchecked Sendable {}

// MARK: - the widget

struct HabitEntry: TimelineEntry {
    let date: Date
    let habit: String
    let goal: Int
    let period: Period
}

struct SelectHabitProvider: IntentTimelineProvider {
    func placeholder(in context: Context) -> HabitEntry {
        HabitEntry(date: Date(), habit: "Habit", goal: 1, period: .daily)
    }

    func getSnapshot(for configuration: SelectHabitIntent, in context: Context, completion: @escaping (HabitEntry) -> ()) {
        completion(entry(for: configuration))
    }

    func getTimeline(for configuration: SelectHabitIntent, in context: Context, completion: @escaping (Timeline<HabitEntry>) -> ()) {
        completion(Timeline(entries: [entry(for: configuration)], policy: .never))
    }

    func recommendations() -> [IntentRecommendation<SelectHabitIntent>] {
        let walk = SelectHabitIntent()
        walk.habit = Habit(identifier: "walk", display: "Walk")
        return [IntentRecommendation(intent: walk, description: "Walk")]
    }

    private func entry(for configuration: SelectHabitIntent) -> HabitEntry {
        HabitEntry(date: Date(timeIntervalSince1970: 0), habit: configuration.habit?.displayString ?? "no habit chosen",
                   goal: configuration.goal?.intValue ?? 1, period: configuration.period)
    }
}

struct SelectHabitWidget: Widget {
    var body: some WidgetConfiguration {
        IntentConfiguration(kind: "SelectHabit", intent: SelectHabitIntent.self, provider: SelectHabitProvider()) { entry in
            VStack {
                Text(entry.habit)
                Text("goal \(entry.goal) \(entry.period == .weekly ? "a week" : "a day")")
            }
            .containerBackground(.background, for: .widget)
        }
        .configurationDisplayName("Habit")
        .description("One habit you choose.")
        .supportedFamilies([.systemSmall])
    }
}

@main
struct SiriWidgetBundle: WidgetBundle {
    var body: some Widget {
        SelectHabitWidget()
    }
}

// MARK: - previews, as Xcode's templates end a widget file (`lockstep-siri-widget previews` draws them)

#Preview(as: .systemSmall) {
    SelectHabitWidget()
} timeline: {
    HabitEntry(date: Date(timeIntervalSince1970: 0), habit: "Walk", goal: 2, period: .daily)
    HabitEntry(date: Date(timeIntervalSince1970: 3600), habit: "Read", goal: 3, period: .weekly)
}

#Preview("Goal row") {
    Text("goal 5 a day")
}

struct SelectHabitWidget_Previews: PreviewProvider {
    static var previews: some View {
        Text("Walk").previewContext(WidgetPreviewContext(family: .systemSmall))
    }
}

/// A timeline the preview below takes from a provider instead of listing its entries.
struct SampleHabits: TimelineProvider {
    func placeholder(in context: Context) -> HabitEntry { HabitEntry(date: Date(timeIntervalSince1970: 0), habit: "Habit", goal: 1, period: .daily) }
    func getSnapshot(in context: Context, completion: @escaping (HabitEntry) -> ()) { completion(placeholder(in: context)) }
    func getTimeline(in context: Context, completion: @escaping (Timeline<HabitEntry>) -> ()) {
        completion(Timeline(entries: [HabitEntry(date: Date(timeIntervalSince1970: 0), habit: "Stretch", goal: 1, period: .daily)], policy: .never))
    }
}

#Preview("From its provider", as: .systemSmall) {
    SelectHabitWidget()
} timelineProvider: {
    SampleHabits()
}
