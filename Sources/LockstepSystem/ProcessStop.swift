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

    /// Hands `error` to the installed handler (which usually does not return), or prints it.
    public static func report(_ error: any Error) {
        if let handler = installed.withLock({ $0 }) {
            handler(error)
        } else {
            Standard.error("\(Program.name): \((error as? any ReportableError)?.description ?? "\(error)")")
        }
    }
}
