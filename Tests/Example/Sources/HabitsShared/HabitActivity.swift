import Foundation
#if canImport(ActivityKit)
import ActivityKit

/// A habit being tracked live: the app starts it, the widget extension shows it.
public struct HabitActivityAttributes: ActivityAttributes {
    public struct ContentState: Codable, Hashable {
        public var done: Int
        public var total: Int

        public init(done: Int, total: Int) {
            self.done = done
            self.total = total
        }
    }

    public var name: String

    public init(name: String) { self.name = name }
}
#endif
