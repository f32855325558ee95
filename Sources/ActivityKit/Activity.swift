import Foundation
import LockstepSystem

/// A Live Activity of this app, as ActivityKit declares it: the app requests it (in the foreground, with
/// `NSSupportsLiveActivities`), updates and ends it; the widget extension's process renders it
/// (`ActivityConfiguration` in WidgetKit) — rule `activity.lifecycle`.
///
/// ```swift
/// let activity = try Activity.request(attributes: HabitActivityAttributes(habitName: "Walk"),
///                                     content: .init(state: .init(done: 0, total: 3), staleDate: nil))
/// await activity.update(.init(state: .init(done: 1, total: 3), staleDate: nil))
/// await activity.end(nil, dismissalPolicy: .immediate)
/// ```
///
/// `update` and `end` are Apple's `async` forms, which report nothing; `submit(_:)` and `submitEnd(_:dismissalPolicy:)`
/// are Lockstep's synchronous, throwing forms beside them for code that wants to know.
public final class Activity<Attributes: ActivityAttributes>: Identifiable, @unchecked Sendable {  // @unchecked: immutable after init; state lives on disk.
    public let id: String
    public let attributes: Attributes
    private let system: ActivitySystem

    init(id: String, attributes: Attributes, system: ActivitySystem) {
        self.id = id
        self.attributes = attributes
        self.system = system
    }

    /// Starts a Live Activity.
    /// - Throws: `ActivityAuthorizationError`: `.unsupportedTarget` (not the app, or no `NSSupportsLiveActivities`),
    ///   `.denied` (turned off in Settings), `.visibility` (not in the foreground), `.attributesTooLarge` (over 4 KB),
    ///   `.targetMaximumExceeded` (too many ongoing), `.persistenceFailure`.
    public static func request(attributes: Attributes, content: ActivityContent<Attributes.ContentState>,
                               pushType: PushType? = nil) throws -> Activity<Attributes> {
        let system: ActivitySystem = try ActivitySystem.current()
        let record = try system.request(attributesType: typeName, attributes: try json(attributes), state: try json(content.state),
                                        staleDate: content.staleDate, relevanceScore: content.relevanceScore)
        return Activity(id: record.id, attributes: attributes, system: system)
    }

    /// The app's activities of this type that are not yet dismissed.
    public static var activities: [Activity<Attributes>] {
        guard let system = try? ActivitySystem.current() else { return [] }
        let now = system.now()
        return system.all().filter { $0.attributesType == typeName && $0.activityState(at: now) != ActivityState.dismissed }.compactMap { record in
            (try? JSONDecoder().decode(Attributes.self, from: Data(record.attributes.utf8)))
                .map { Activity(id: record.id, attributes: $0, system: system) }
        }
    }

    /// The content shown now.
    public var content: ActivityContent<Attributes.ContentState> {
        guard let record = system.read(id), let state = try? JSONDecoder().decode(Attributes.ContentState.self, from: Data(record.state.utf8)) else {
            preconditionFailure("the Live Activity \(id) has no stored content")
        }
        return ActivityContent(state: state, staleDate: record.staleDate.map(Date.init(timeIntervalSince1970:)), relevanceScore: record.relevanceScore)
    }

    /// Where it is in its life now.
    public var activityState: ActivityState {
        let now = system.now()
        return system.read(id)?.activityState(at: now) ?? .dismissed
    }

    /// Lockstep has no APNs: no push token is ever issued.
    public var pushToken: Data? { nil }

    /// Apple's update: a change the system cannot take (an ended activity, content over 4 KB) is dropped, and said on stderr.
    public func update(_ content: ActivityContent<Attributes.ContentState>) async {
        do { try submit(content) } catch { Standard.error("\(Program.name): the Live Activity update was dropped: \(error)") }
    }

    /// Apple's end: with final content (or nil to keep the last), and when it leaves the Lock Screen.
    public func end(_ content: ActivityContent<Attributes.ContentState>?, dismissalPolicy: ActivityUIDismissalPolicy = .default) async {
        do { try submitEnd(content, dismissalPolicy: dismissalPolicy) } catch { Standard.error("\(Program.name): the Live Activity end was dropped: \(error)") }
    }

    /// `update`, synchronous and throwing: `.attributesTooLarge` over 4 KB; `ActivityKitError.notActive` once it has ended.
    public func submit(_ content: ActivityContent<Attributes.ContentState>) throws {
        let state = try Self.json(content.state)
        let changed = try system.change(id) { record, _ in
            try ActivitySystem.checkSize(attributes: record.attributes, state: state)
            record.state = state
            record.staleDate = content.staleDate?.timeIntervalSince1970
            record.relevanceScore = content.relevanceScore
        }
        guard changed else { throw ActivityKitError(.notActive, subject: id) }
    }

    /// `end`, synchronous and throwing.
    public func submitEnd(_ content: ActivityContent<Attributes.ContentState>?, dismissalPolicy: ActivityUIDismissalPolicy = .default) throws {
        let state = try content.map { try Self.json($0.state) }
        let changed = try system.change(id) { record, now in
            if let state, let content {
                try ActivitySystem.checkSize(attributes: record.attributes, state: state)
                record.state = state
                record.staleDate = content.staleDate?.timeIntervalSince1970
            }
            record.ended = now
            switch dismissalPolicy.kind {
            case .standard: record.dismissal = nil  // four hours on the Lock Screen
            case .immediate: record.dismissal = now
            case .after(let date): record.dismissal = max(now, date.timeIntervalSince1970)
            }
        }
        guard changed else { throw ActivityKitError(.notActive, subject: id) }
    }

    static var typeName: String { String(describing: Attributes.self) }

    static func json<T: Encodable>(_ value: T) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }
}

/// What Lockstep's throwing forms report beyond Apple's errors: one sentence naming the Live Activity (`subject`).
public typealias ActivityKitError = CodedError<ActivityKitErrorCode>

/// What an `ActivityKitError` is.
public enum ActivityKitErrorCode: ErrorCode {
    /// The activity has ended or was dismissed (rule `activity.lifecycle`).
    case notActive

    public func sentence(subject: String, detail: String) -> String {
        switch self {
        case .notActive: "The Live Activity '\(subject)' has ended (or was dismissed), so it can no longer change."
        }
    }

    public var exitStatus: ExitStatus { .failure }
}
