import LockstepSystem

/// Why a request to start a Live Activity failed: Apple's cases, each with Apple's sentence and what Lockstep saw
/// (rule `activity.lifecycle`).
public enum ActivityAuthorizationError: Error, Sendable, Hashable, CustomStringConvertible, ReportableError {
    /// "The provided Live Activity attributes exceeded the maximum size of 4KB."
    case attributesTooLarge
    /// "A person deactivated Live Activities in Settings."
    case denied
    /// "The device reached the maximum number of ongoing Live Activities."
    case globalMaximumExceeded
    /// "The provided activity identifier is malformed."
    case malformedActivityIdentifier
    /// "The app doesn't have the required entitlement to start a Live Activity."
    case unentitled
    /// The app has already started the maximum number of ongoing Live Activities.
    case targetMaximumExceeded
    /// The process asking cannot start one: it is not the app, or the app does not declare `NSSupportsLiveActivities`.
    case unsupportedTarget
    /// The app asked while it was not in the foreground.
    case visibility
    /// The system could not store the Live Activity.
    case persistenceFailure

    /// The case and its sentence: `ActivityAuthorizationError.visibility: The app tried …`.
    public var description: String { "ActivityAuthorizationError.\(name): \(sentence)" }

    var name: String {
        switch self {
        case .attributesTooLarge: "attributesTooLarge"
        case .denied: "denied"
        case .globalMaximumExceeded: "globalMaximumExceeded"
        case .malformedActivityIdentifier: "malformedActivityIdentifier"
        case .unentitled: "unentitled"
        case .targetMaximumExceeded: "targetMaximumExceeded"
        case .unsupportedTarget: "unsupportedTarget"
        case .visibility: "visibility"
        case .persistenceFailure: "persistenceFailure"
        }
    }

    var sentence: String {
        switch self {
        case .attributesTooLarge: "The provided Live Activity attributes exceeded the maximum size of 4KB."
        case .denied: "A person deactivated Live Activities in Settings."
        case .globalMaximumExceeded: "The device reached the maximum number of ongoing Live Activities."
        case .malformedActivityIdentifier: "The provided activity identifier is malformed."
        case .unentitled: "The app doesn't have the required entitlement to start a Live Activity."
        case .targetMaximumExceeded: "The app has already started the maximum number of ongoing Live Activities."
        case .unsupportedTarget: "The target can't start Live Activities: only the app can, and its Info.plist must set NSSupportsLiveActivities to YES."
        case .visibility: "The app tried to start a Live Activity while it was not in the foreground."
        case .persistenceFailure: "The system couldn't store the Live Activity."
        }
    }

    public var exitStatus: ExitStatus { .failure }
}
