import LockstepSystem

/// The simulated device clock, shared by every process under one groups root, so a scenario can advance a day
/// in a second (widget timelines and the daily reload budget run on it).
///
/// On disk: `<groups>/.lockstep/clock` holds the offset in seconds from the real wall clock, as decimal text
/// (absent means 0). Written atomically under `<groups>/.lockstep/clock.lock`; read without a lock (atomic rename).
public struct SimulatedClock: Sendable {
    /// The groups root whose clock this is.
    public let groupsRoot: String

    public init(groupsRoot: String) { self.groupsRoot = groupsRoot }

    var offsetPath: String { GroupsLayout(root: groupsRoot).clockOffset }

    /// The offset from the real clock, in seconds.
    public func offset() throws(SystemError) -> Double {
        guard let bytes = try AtomicFile.read(offsetPath) else { return 0 }
        let text = String(decoding: bytes, as: UTF8.self).trimmingWhitespace
        return Double(text) ?? 0
    }

    /// The simulated time, in seconds since 1970.
    public func now() -> Double {
        WallClock.now + ((try? offset()) ?? 0)
    }

    /// Moves the simulated clock forward by `seconds` for every process under this root.
    public func advance(by seconds: Double) throws {
        try LockedFile.update(offsetPath, lock: GroupsLayout(root: groupsRoot).clockLock) { current in
            ("\((current.flatMap { Double($0.trimmingWhitespace) } ?? 0) + seconds)\n", ())
        }
    }
}
