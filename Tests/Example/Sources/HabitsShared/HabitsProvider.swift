import Foundation
import WidgetKit

public struct HabitsEntry: TimelineEntry {
    public let date: Date
    public let done: Int
    public let total: Int
    public let note: String?
}

public struct HabitsProvider: TimelineProvider {
    public init() {}

    public func placeholder(in context: Context) -> HabitsEntry {
        HabitsEntry(date: Date(), done: 1, total: 3, note: nil)
    }

    public func getSnapshot(in context: Context, completion: @escaping (HabitsEntry) -> ()) {
        completion(context.isPreview ? placeholder(in: context) : currentEntry())
    }

    public func getTimeline(in context: Context, completion: @escaping (Timeline<HabitsEntry>) -> ()) {
        let nextUpdate = Calendar.current.date(byAdding: .minute, value: 30, to: Date())!
        completion(Timeline(entries: [currentEntry()], policy: .after(nextUpdate)))
    }

    private func currentEntry() -> HabitsEntry {
        let store = HabitsStore.shared
        let habits = store.habits
        return HabitsEntry(date: Date(), done: habits.filter(\.isDone).count, total: habits.count, note: store.note)
    }
}
