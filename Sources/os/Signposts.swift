import Synchronization

// Signposts: the marks of intervals and events Instruments draws on a timeline. On a device nothing of them reaches
// the app or its log stream — they are recorded for a tool that is not attached here — so Lockstep records none: each
// call builds, takes its arguments and returns, and `signpostsEnabled`/`isEnabled` say so, as a device with no tool
// recording answers. The values an app keeps (IDs, interval states) behave as Apple's.

/// The kind of a signpost: a single event, or the beginning or end of an interval.
public struct OSSignpostType: Equatable, RawRepresentable, Sendable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    public static let event = OSSignpostType(rawValue: 0)
    public static let begin = OSSignpostType(rawValue: 1)
    public static let end = OSSignpostType(rawValue: 2)
}

/// What tells overlapping intervals of one name apart.
public struct OSSignpostID: Comparable, Hashable, Sendable {
    public let rawValue: UInt64

    public init(_ value: UInt64) { rawValue = value }

    /// A new ID, unique in the process.
    public init(log: OSLog) { rawValue = Self.next.add(1, ordering: .relaxed).newValue }

    /// The ID of `object`: the same for the same object while it lives, as Apple derives it from the object's address.
    public init(log: OSLog, object: AnyObject) { rawValue = UInt64(UInt(bitPattern: ObjectIdentifier(object))) }

    /// For intervals that never overlap (Apple's `OS_SIGNPOST_ID_EXCLUSIVE`).
    public static let exclusive = OSSignpostID(0xEEEE_B0B5_B2B2_EEEE)
    /// An ID that is no signpost's (`OS_SIGNPOST_ID_INVALID`).
    public static let invalid = OSSignpostID(~0)
    /// `OS_SIGNPOST_ID_NULL`.
    public static let null = OSSignpostID(0)

    public static func < (lhs: OSSignpostID, rhs: OSSignpostID) -> Bool { lhs.rawValue < rhs.rawValue }

    private static let next = Atomic<UInt64>(0)
}

/// Marks a signpost of `type` named `name` in `log` (recorded nowhere here: see the file's comment).
public func os_signpost(_ type: OSSignpostType, dso: UnsafeRawPointer = #dsohandle, log: OSLog, name: StaticString,
                        signpostID: OSSignpostID = .exclusive) {}

/// Marks a signpost with a message in a C format, as `os_log` takes one.
public func os_signpost(_ type: OSSignpostType, dso: UnsafeRawPointer = #dsohandle, log: OSLog, name: StaticString,
                        signpostID: OSSignpostID = .exclusive, _ format: StaticString, _ arguments: any CVarArg...) {}

/// A signpost's message: interpolated as a log message is, privacy included.
public typealias SignpostMetadata = OSLogMessage

/// An interval begun by `OSSignposter.beginInterval`, to hand to `endInterval`.
public final class OSSignpostIntervalState: Codable, Sendable {
    /// The interval's ID.
    let signpostID: UInt64

    init(id: OSSignpostID) { signpostID = id.rawValue }
}

/// Apple's `OSSignposter` (iOS 15): signposts through a log or a logger.
public struct OSSignposter: @unchecked Sendable {  // @unchecked: holds an immutable OSLog.
    let log: OSLog

    public init() { log = .default }
    public init(subsystem: String, category: String) { log = OSLog(subsystem: subsystem, category: category) }
    public init(subsystem: String, category: OSLog.Category) { log = OSLog(subsystem: subsystem, category: category) }
    public init(logger: Logger) { log = logger.log }
    public init(logHandle: OSLog) { log = logHandle }

    /// A signposter that records nothing.
    public static var disabled: OSSignposter { OSSignposter(logHandle: .disabled) }

    /// Whether signposts are recorded: never here, as on a device with no tool recording.
    public var isEnabled: Bool { log.signpostsEnabled }

    public func makeSignpostID() -> OSSignpostID { OSSignpostID(log: log) }
    public func makeSignpostID(from object: AnyObject) -> OSSignpostID { OSSignpostID(log: log, object: object) }

    public func emitEvent(_ name: StaticString, id: OSSignpostID = .exclusive) {}
    public func emitEvent(_ name: StaticString, id: OSSignpostID = .exclusive, _ message: SignpostMetadata) {}

    public func beginInterval(_ name: StaticString, id: OSSignpostID = .exclusive) -> OSSignpostIntervalState {
        OSSignpostIntervalState(id: id)
    }

    public func beginInterval(_ name: StaticString, id: OSSignpostID = .exclusive, _ message: SignpostMetadata) -> OSSignpostIntervalState {
        OSSignpostIntervalState(id: id)
    }

    public func beginAnimationInterval(_ name: StaticString, id: OSSignpostID = .exclusive, _ message: SignpostMetadata) -> OSSignpostIntervalState {
        OSSignpostIntervalState(id: id)
    }

    public func endInterval(_ name: StaticString, _ state: OSSignpostIntervalState) {}
    public func endInterval(_ name: StaticString, _ state: OSSignpostIntervalState, _ message: SignpostMetadata) {}

    /// Runs `task` inside an interval named `name`, returning what it returns and throwing what it throws.
    public func withIntervalSignpost<T>(_ name: StaticString, id: OSSignpostID = .exclusive, around task: () throws -> T) rethrows -> T {
        let state = beginInterval(name, id: id)
        defer { endInterval(name, state) }
        return try task()
    }

    /// Runs `task` inside an interval named `name` with a message.
    public func withIntervalSignpost<T>(_ name: StaticString, id: OSSignpostID = .exclusive, _ message: SignpostMetadata,
                                        around task: () throws -> T) rethrows -> T {
        let state = beginInterval(name, id: id, message)
        defer { endInterval(name, state) }
        return try task()
    }
}
