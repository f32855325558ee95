import Intents
import SwiftUI
import WidgetKit

// A SiriKit-configured widget, as an iOS 14–16 widget extension declares one: `ChooseGoalIntent` and the other
// types are the classes Xcode generates from TallyGoal.intentdefinition, which this target builds; no file of the
// project declares them.

struct GoalEntry: TimelineEntry {
    let date: Date
    let text: String
}

struct GoalProvider: IntentTimelineProvider {
    func placeholder(in context: Context) -> GoalEntry { GoalEntry(date: Date(), text: "Goal") }

    func getSnapshot(for configuration: ChooseGoalIntent, in context: Context, completion: @escaping (GoalEntry) -> ()) {
        completion(entry(for: configuration))
    }

    func getTimeline(for configuration: ChooseGoalIntent, in context: Context, completion: @escaping (Timeline<GoalEntry>) -> ()) {
        completion(Timeline(entries: [entry(for: configuration)], policy: .never))
    }

    private func entry(for configuration: ChooseGoalIntent) -> GoalEntry {
        let style: String
        switch configuration.style {
        case .compact: style = "compact"
        case .bold: style = "bold"
        case .unknown: style = "plain"
        }
        let total = configuration.showTotal?.boolValue == true ? " with total" : ""
        let counter = configuration.counter.map { " of \($0.displayString)" } ?? ""
        return GoalEntry(date: Date(), text: "\(configuration.label ?? "?"): goal \(configuration.goal?.intValue ?? 0), \(style)\(total)\(counter)")
    }
}

struct TallyGoalWidget: Widget {
    var body: some WidgetConfiguration {
        IntentConfiguration(kind: "TallyGoal", intent: ChooseGoalIntent.self, provider: GoalProvider()) { entry in
            Text(entry.text)
                .containerBackground(.white, for: .widget)
        }
        .configurationDisplayName("Goal")
        .supportedFamilies([.systemSmall])
    }
}

/// What an Intents extension's handler of the generated protocol looks like: each method it implements is one the
/// protocol declares (a completion or an async one), the others it leaves out.
final class GoalIntentHandler: NSObject, ChooseGoalIntentHandling {
    func provideCounterOptionsCollection(for intent: ChooseGoalIntent, with completion: @escaping (INObjectCollection<Counter>?, Error?) -> Void) {
        let cups = Counter(identifier: "cups", display: "Cups")
        cups.unit = "cup"
        cups.step = 1
        completion(INObjectCollection(items: [cups]), nil)
    }

    func resolveCounter(for intent: ChooseGoalIntent) async -> CounterResolutionResult {
        guard let counter = intent.counter else { return .needsValue() }
        return .success(with: counter)
    }

    func resolveStyle(for intent: ChooseGoalIntent, with completion: @escaping (CounterStyleResolutionResult) -> Void) {
        completion(intent.style == .unknown ? .confirmationRequired(with: .bold) : .success(with: intent.style))
    }

    func provideTagsOptionsCollection(for intent: ChooseGoalIntent, searchTerm: String?) async throws -> INObjectCollection<NSString> {
        INObjectCollection(items: ["water", "tea"].filter { searchTerm == nil || $0.contains(searchTerm!) }.map { $0 as NSString })
    }

    func handle(intent: ChooseGoalIntent, completion: @escaping (ChooseGoalIntentResponse) -> Void) {
        guard intent.counter != nil else { return completion(ChooseGoalIntentResponse(code: .failureNoCounter, userActivity: nil)) }
        completion(intent.weight == nil ? .failure(failureReason: "no weight") : ChooseGoalIntentResponse(code: .success, userActivity: nil))
    }
}
