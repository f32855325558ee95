import Foundation

/// The App Group the app and its widget share.
public enum AppGroup {
    public static let identifier = "group.com.example.habits"
}

public struct Habit: Codable, Hashable, Sendable {
    public var name: String
    public var isDone: Bool

    public init(name: String, isDone: Bool = false) {
        self.name = name
        self.isDone = isDone
    }
}

public enum HabitsStoreError: Error, CustomStringConvertible {
    case noSuchHabit(String)
    case noGroupContainer

    public var description: String {
        switch self {
        case .noSuchHabit(let name): return "there is no habit named \(name)"
        case .noGroupContainer: return "the App Group container is not available"
        }
    }
}

/// The habits, in the App Group's defaults suite, and the day's note, in a file of the group container: what
/// the app writes and the widget reads.
public final class HabitsStore: @unchecked Sendable {
    public static let shared = HabitsStore()

    private let defaults = UserDefaults(suiteName: AppGroup.identifier)!
    private let habitsKey = "habits"

    public init() {
        defaults.register(defaults: ["showCompleted": true])
    }

    public var habits: [Habit] {
        get {
            guard let data = defaults.data(forKey: habitsKey) else { return [] }
            return (try? JSONDecoder().decode([Habit].self, from: data)) ?? []
        }
        set {
            defaults.set(try? JSONEncoder().encode(newValue), forKey: habitsKey)
        }
    }

    public var showCompleted: Bool {
        get { defaults.bool(forKey: "showCompleted") }
        set { defaults.set(newValue, forKey: "showCompleted") }
    }

    public func add(_ name: String) {
        habits.append(Habit(name: name))
    }

    public func complete(_ name: String) throws {
        var all = habits
        guard let index = all.firstIndex(where: { $0.name == name }) else { throw HabitsStoreError.noSuchHabit(name) }
        all[index].isDone = true
        habits = all
    }

    private var noteURL: URL? {
        FileManager.default.containerURL(forSecurityApplicationGroupIdentifier: AppGroup.identifier)?
            .appendingPathComponent("note.txt")
    }

    /// The day's note, shared through a file of the group container.
    public var note: String? {
        noteURL.flatMap { try? String(contentsOf: $0, encoding: .utf8) }
    }

    public func setNote(_ text: String) throws {
        guard let url = noteURL else { throw HabitsStoreError.noGroupContainer }
        try text.write(to: url, atomically: true, encoding: .utf8)
    }
}
