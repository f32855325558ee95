import WatchConnectivity

/// What the phone and the watch say to each other (the payloads are property-list dictionaries).
///
/// - application context: `{day, habits: [{name, emoji, completed}]}`: today's list, latest only.
/// - message `{action: "toggle", habit}` → reply `{ok: true, habit, completed, summary}` or `{ok: false, error}`.
/// - user info `{action: "setCompleted", habit, completed, day}`: a toggle made while the phone was unreachable,
///   as an absolute state so that applying it twice is harmless.
/// - message `{text}` → reply `{received: true}`: a note from the phone (`lockstep-host message TEXT`).
public struct TodayList: Sendable, Equatable {
    public struct Item: Sendable, Equatable {
        public var name: String
        public var emoji: String
        public var completed: Bool
    }

    public var day: String
    public var items: [Item]

    public init(day: String, items: [Item]) {
        self.day = day
        self.items = items
    }

    /// Today's list from the store's summary, in the app's order.
    public init(summary: TodaysSummary, order: [Habit]) {
        let done = Set(summary.completedHabits.map(\.id))
        day = summary.day.rawValue
        items = order.filter(\.isActive).map { Item(name: $0.name, emoji: $0.emoji, completed: done.contains($0.id)) }
    }

    /// Reads an application context; nil when it is not one.
    public init?(context: [String: Any]) {
        guard let day = context["day"] as? String, let habits = context["habits"] as? [[String: Any]] else { return nil }
        self.day = day
        items = habits.compactMap { habit in
            guard let name = habit["name"] as? String else { return nil }
            return Item(name: name, emoji: habit["emoji"] as? String ?? "", completed: habit["completed"] as? Bool ?? false)
        }
    }

    /// The application context carrying this list.
    public var context: [String: Any] {
        ["day": day, "habits": items.map { ["name": $0.name, "emoji": $0.emoji, "completed": $0.completed] as [String: Any] }]
    }

    /// `1/3`.
    public var fraction: String { "\(items.filter(\.completed).count)/\(items.count)" }

    /// `🧘 Meditate ✓, 📚 Read ·`.
    public var line: String {
        items.isEmpty ? "no habits" : items.map { "\($0.emoji) \($0.name) \($0.completed ? "✓" : "·")" }.joined(separator: ", ")
    }
}
