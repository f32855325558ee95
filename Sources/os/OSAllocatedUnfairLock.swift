import Synchronization

/// Apple's `OSAllocatedUnfairLock` (iOS 16): a lock that owns the state it protects. Here it is a `Mutex`.
public final class OSAllocatedUnfairLock<State>: @unchecked Sendable {  // @unchecked: the state is only reached under the lock.
    private let mutex: Mutex<Void> = Mutex(())
    private nonisolated(unsafe) var state: State

    public init(initialState: State) { state = initialState }

    public convenience init() where State == Void { self.init(initialState: ()) }

    public func withLock<R>(_ body: @Sendable (inout State) throws -> R) rethrows -> R where R: Sendable {
        try mutex.withLock { _ in try body(&state) }
    }

    public func withLockUnchecked<R>(_ body: (inout State) throws -> R) rethrows -> R {
        try mutex.withLock { _ in try body(&state) }
    }

    public func withLock<R>(_ body: @Sendable () throws -> R) rethrows -> R where State == Void, R: Sendable {
        try mutex.withLock { _ in try body() }
    }

    public func withLockIfAvailable<R>(_ body: @Sendable (inout State) throws -> R) rethrows -> R? where R: Sendable {
        try mutex.withLockIfAvailable { _ in try body(&state) }
    }
}
