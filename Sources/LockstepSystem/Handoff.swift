import Foundation

/// A value handed over once, perhaps from another thread, and waited for with a bound: what a completion handler
/// delivers (a widget provider's entry, a notification service's content). The first value set is kept, as a system
/// keeps the first call of a completion handler. Values need not be `Sendable`: the handoff is under its condition.
public final class Handoff<T>: @unchecked Sendable {  // @unchecked: guarded by `condition`.
    private let condition = NSCondition()
    private var value: T?

    public init() {}

    public func set(_ new: T) {
        condition.withLock {
            if value == nil { value = new }
            condition.broadcast()
        }
    }

    /// The value, or nil when `timeout` seconds pass first.
    public func wait(timeout: Double) -> T? {
        let deadline = Date(timeIntervalSinceNow: max(0, timeout))
        condition.lock(); defer { condition.unlock() }
        while value == nil { if !condition.wait(until: deadline) { break } }
        return value
    }
}
