#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A C `errno` value, with the message `strerror(3)` gives for it.
public struct Errno: Error, Equatable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: Int32
    public init(rawValue: Int32) { self.rawValue = rawValue }

    /// The calling thread's current `errno`.
    public static var current: Errno { Errno(rawValue: errno) }

    public static let interrupted = Errno(rawValue: EINTR)
    public static let wouldBlock = Errno(rawValue: EWOULDBLOCK)
    public static let noSuchFile = Errno(rawValue: ENOENT)
    public static let fileExists = Errno(rawValue: EEXIST)

    /// Whether the disk is full (`ENOSPC`, `EDQUOT`) or the process's file-size limit was reached (`EFBIG`; every
    /// Lockstep process ignores SIGXFSZ, `Standard.setUp`): a write that may succeed once there is room.
    public var isNoSpace: Bool { [ENOSPC, EDQUOT, EFBIG].contains(rawValue) }

    public var description: String { String(cString: strerror(rawValue)) }
}

/// Calls a C function that returns -1 and sets `errno` on failure, retrying on `EINTR` when asked.
///
/// The one "returns −1 ⇒ errno" door, as in swift-system. `close(2)` must never be retried
/// (Linux releases the descriptor even when it reports EINTR), so callers pass `retryOnInterrupt: false` there.
@inline(__always)
public func valueOrErrno<T: FixedWidthInteger>(
    retryOnInterrupt: Bool = true, _ body: () -> T
) -> Result<T, Errno> {
    while true {
        let value = body()
        if value != -1 { return .success(value) }
        let error = Errno.current
        if retryOnInterrupt && error == .interrupted { continue }
        return .failure(error)
    }
}
