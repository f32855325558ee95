import Foundation

/// The static data of a Live Activity and the type of its dynamic state, declared in the shared module so the app
/// (which starts it) and the widget extension (which renders it) agree on both — as on iOS:
///
/// ```swift
/// struct HabitActivityAttributes: ActivityAttributes {
///     struct ContentState: Codable, Hashable { var done: Int; var total: Int }
///     var habitName: String
/// }
/// ```
public protocol ActivityAttributes: Decodable, Encodable {
    associatedtype ContentState: Codable & Hashable
}

/// A Live Activity's dynamic state, with when it goes stale and how relevant it is.
public struct ActivityContent<State: Codable & Hashable>: Hashable {
    public var state: State
    public var staleDate: Date?
    public var relevanceScore: Double

    public init(state: State, staleDate: Date?, relevanceScore: Double = 0) {
        self.state = state
        self.staleDate = staleDate
        self.relevanceScore = relevanceScore
    }
}

extension ActivityContent: Sendable where State: Sendable {}

/// Where a Live Activity is in its life (rule `activity.lifecycle`).
public enum ActivityState: String, Sendable, Hashable, Codable {
    /// Shown and updatable.
    case active
    /// Ended, still on the Lock Screen until it is dismissed (at most four hours).
    case ended
    /// Removed from the Lock Screen.
    case dismissed
    /// Past its content's `staleDate` without an update.
    case stale
    /// Scheduled, not yet shown (Lockstep never schedules one).
    case pending
}

/// When an ended Live Activity leaves the Lock Screen.
public struct ActivityUIDismissalPolicy: Sendable, Hashable {
    enum Kind: Hashable { case standard, immediate, after(Date) }
    let kind: Kind

    /// The system keeps it up to four hours.
    public static let `default` = ActivityUIDismissalPolicy(kind: .standard)
    /// Removed at once.
    public static let immediate = ActivityUIDismissalPolicy(kind: .immediate)
    /// Removed at `date`, or four hours after the end if that comes first.
    public static func after(_ date: Date) -> ActivityUIDismissalPolicy { ActivityUIDismissalPolicy(kind: .after(date)) }
}

/// How a Live Activity receives updates by push: Lockstep takes the argument and ignores it (it has no APNs).
public struct PushType: Sendable, Hashable {
    public static let token = PushType()
}

/// Whether this app may start Live Activities now: it declares `NSSupportsLiveActivities` and the person has not
/// turned them off (`LOCKSTEP_LIVE_ACTIVITIES=off` plays that Settings switch).
public struct ActivityAuthorizationInfo: Sendable {
    public init() {}

    public var areActivitiesEnabled: Bool {
        (try? ActivitySystem.current().checkEnabled()) != nil
    }
}
