#if canImport(Glibc)
import Glibc
#endif

/// How a running bundle tells other processes it is alive, and whether it is in the foreground, without a daemon.
///
/// On disk, in a directory the cooperating processes share (Habits: `<group container>/.lockstep/presence/`):
/// - `<bundle-id>.lock`: held with an exclusive `flock` for as long as the process runs. Whoever can take it
///   (shared, non-blocking) knows the bundle is not running; the kernel releases it when the process dies.
/// - `<bundle-id>.state`: `pid <n>\nstate foreground|background\n`, replaced atomically on each change.
///
/// A process stopped with SIGSTOP (suspended) still holds its lock; `isSuspended` reads `/proc/<pid>/stat`.
public final class Presence: Sendable {
    /// The application state a running bundle announces.
    public enum State: String, Sendable {
        case foreground
        case background
    }

    public let directory: String
    public let bundleIdentifier: String
    private let lock: FileLock

    /// Announces `bundleIdentifier` as running in `state`, holding its presence lock until the object is released.
    /// - Throws: `SystemError.busy` when another process of the same bundle is already running.
    public init(directory: String, bundleIdentifier: String, state: State) throws(SystemError) {
        self.directory = directory
        self.bundleIdentifier = bundleIdentifier
        lock = try FileLock(path: "\(directory)/\(bundleIdentifier).lock")
        try lock.lock(.exclusive, timeout: 2)
        try set(state)
    }

    /// Changes the announced state.
    public func set(_ state: State) throws(SystemError) {
        try AtomicFile.write("pid \(getpid())\nstate \(state.rawValue)\n", to: "\(directory)/\(bundleIdentifier).state")
    }

    /// What other processes see of a bundle.
    public struct Observed: Sendable, Equatable {
        /// Holding its presence lock.
        public var isRunning: Bool
        /// Running but stopped (SIGSTOP), e.g. suspended by the launcher.
        public var isSuspended: Bool
        /// The announced state, when running.
        public var state: State?
        public var pid: Int32?
    }

    /// Looks at a bundle from outside.
    public static func observe(directory: String, bundleIdentifier: String) -> Observed {
        var result = Observed(isRunning: false, isSuspended: false, state: nil, pid: nil)
        guard FileLock.isHeld(path: "\(directory)/\(bundleIdentifier).lock") else { return result }
        result.isRunning = true
        if let bytes = try? AtomicFile.read("\(directory)/\(bundleIdentifier).state") {
            for line in String(decoding: bytes, as: UTF8.self).split(separator: "\n") {
                let parts = line.split(separator: " ", maxSplits: 1).map(String.init)
                guard parts.count == 2 else { continue }
                if parts[0] == "pid" { result.pid = Int32(parts[1]) }
                if parts[0] == "state" { result.state = State(rawValue: parts[1]) }
            }
        }
        if let pid = result.pid, let stat = try? AtomicFile.read("/proc/\(pid)/stat") {
            // The state letter follows the parenthesised command name: T = stopped, t = traced.
            let text = String(decoding: stat, as: UTF8.self)
            if let close = text.lastIndex(of: ")") {
                let rest = text[text.index(after: close)...].drop(while: { $0 == " " })
                result.isSuspended = rest.first == "T" || rest.first == "t"
            }
        }
        return result
    }
}
