import CLinux
import Synchronization

/// Where a library reports an error that must end the process but that no caller can catch: a failure on one of
/// the library's own threads (the widget's timer, the stale-build watcher, a WatchConnectivity delivery to the
/// app). Libraries never exit; the executable says what happens, and the simulated executables install
/// `{ exit(withError: $0) }` first thing. With nothing installed (plain library use, tests), the error is printed on
/// stderr and the thread that hit it goes on or stops, as its library documents.
public enum ProcessStop {
    private static let installed = Mutex<(@Sendable (any Error) -> Void)?>(nil)

    /// Installs what happens to such an error, replacing any previous handler.
    public static func install(_ handler: @escaping @Sendable (any Error) -> Void) {
        installed.withLock { $0 = handler }
    }

    /// Installs `handler` when nothing is installed yet: what a library does for an executable that has no `main` of
    /// Lockstep's (a plain executable a launcher started), leaving an executable's own choice alone.
    public static func installUnlessInstalled(_ handler: @escaping @Sendable (any Error) -> Void) {
        installed.withLock { if $0 == nil { $0 = handler } }
    }

    /// Hands `error` to the installed handler (which usually does not return), or prints it.
    public static func report(_ error: any Error) {
        if let handler = installed.withLock({ $0 }) {
            handler(error)
        } else {
            Standard.error(error)
        }
    }

    /// Whether `error` must end the process wherever it happens: a version mismatch or a stale build (exit 78,
    /// rule `runtime.stale`), which iOS answers by stopping the process.
    public static func isFatal(_ error: any Error) -> Bool {
        (error as? any ReportableError)?.exitStatus == .versionMismatch
    }

    /// What an API that cannot throw (one shaped as Apple's) does with a failure: a fatal error is reported (the
    /// process stops), any other is one sentence on stderr.
    public static func tell(_ error: any Error) {
        if isFatal(error) { report(error) } else { Standard.error(error) }
    }
}

extension TerminationSignals {
    /// Runs `body` with SIGTERM and SIGINT held back, process-wide, for work a teardown must not cut in half: one
    /// that arrives meanwhile ends the process (or runs its previous handler) once `body` returns, as it would
    /// have a moment earlier. SIGKILL is not held back, so a supervisor's bounded teardown still ends a `body`
    /// that hangs.
    package static func deferred<R>(_ body: () throws -> R) rethrows -> R {
        let held = lockstep_defer_termination() == 0
        defer { if held { lockstep_allow_termination() } }
        return try body()
    }
}
