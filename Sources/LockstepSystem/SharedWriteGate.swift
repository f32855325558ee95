import Synchronization

/// The check a simulated process runs before each write to shared data (rule `runtime.stale`).
///
/// LaunchKit installs the check when a bundle process starts (is the installed app still at my build?); the
/// libraries that write shared data — group defaults, coordinated files, the Habits store — call
/// `SharedWriteGate.check()` first, so an extension from an old build stops before its next write instead of
/// writing data a newer build owns. With no check installed (plain library use, tests) it does nothing.
public enum SharedWriteGate {
    private static let installed = Mutex<(@Sendable () throws -> Void)?>(nil)

    /// Installs the check run before every shared write, replacing any previous one.
    public static func install(_ check: @escaping @Sendable () throws -> Void) {
        installed.withLock { $0 = check }
    }

    /// Runs the installed check. - Throws: whatever the check throws (LaunchKit's stale-build error, exit 78).
    public static func check() throws {
        let check = installed.withLock { $0 }
        try check?()
    }
}
