import LockstepSystem

/// SwiftData's errors in Lockstep: one sentence naming the store, model or property, and the contract's status.
public typealias SwiftDataError = CodedError<SwiftDataErrorCode>

public enum SwiftDataErrorCode: ErrorCode {
    /// The store file exists but is not a SQLite database (or is damaged); it is left untouched.
    case notAStore
    /// The store was written by a newer Lockstep store format.
    case storeTooNew(found: Int32, known: Int32)
    /// A property's stored kind differs from the model's: the store belongs to another schema.
    case otherSchema
    /// A property type SwiftData cannot store (not a supported value, not Codable, not a model).
    case unsupportedType
    /// A `#Predicate` or sort that reads something the store does not hold (a computed or transient property).
    case unsupportedPredicate
    /// The predicate threw while it was evaluated.
    case predicateFailed
    /// A stored value that cannot be read back as the property's type.
    case unreadableValue
    /// `ModelConfiguration(groupContainer: .identifier(…))` for a group the process is not entitled to.
    case notEntitled
    /// A delete refused by a `.deny` relationship that still holds objects.
    case deleteDenied
    /// SQLITE_BUSY after the busy timeout.
    case busy
    /// A model type the container's schema does not list.
    case unknownModel
    /// Any other SQLite failure; `detail` carries SQLite's message.
    case database

    public func sentence(subject: String, detail: String) -> String {
        switch self {
        case .notAStore:
            return "The SwiftData store '\(subject)' is not a readable SQLite database (\(detail)); it was left untouched — move it away to start over."
        case .storeTooNew(let found, let known):
            return "The SwiftData store '\(subject)' has format version \(found), newer than this build's \(known); it was left untouched."
        case .otherSchema:
            return "The SwiftData store '\(subject)' was written by another schema: \(detail); it was left untouched."
        case .unsupportedType:
            return "SwiftData cannot store the property '\(subject)': \(detail)."
        case .unsupportedPredicate:
            return "The store cannot evaluate the fetch of \(subject): \(detail)."
        case .predicateFailed:
            return "The predicate of the fetch of \(subject) failed: \(detail)."
        case .unreadableValue:
            return "The SwiftData store holds a value of '\(subject)' that cannot be read: \(detail)."
        case .notEntitled:
            return "The SwiftData store's App Group '\(subject)' is not in this bundle's entitlements (\(detail)); rule group.entitlement."
        case .deleteDenied:
            return "The delete of \(subject) was refused: \(detail) (delete rule .deny); nothing was saved."
        case .busy:
            return "The SwiftData store '\(subject)' stayed locked by another process past the busy timeout; nothing was saved, retry later."
        case .unknownModel:
            return "The model '\(subject)' is not in the container's schema (\(detail))."
        case .database:
            return "The SwiftData store '\(subject)' failed: \(detail)."
        }
    }

    public var exitStatus: ExitStatus {
        switch self {
        case .notAStore, .unsupportedType, .unsupportedPredicate, .predicateFailed, .unreadableValue, .unknownModel, .database:
            return .invalidInput
        case .storeTooNew, .otherSchema: return .versionMismatch
        case .notEntitled: return .notEntitled
        case .deleteDenied: return .failure
        case .busy: return .busy
        }
    }
}
