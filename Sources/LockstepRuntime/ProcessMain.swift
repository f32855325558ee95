import BundleKit
import LockstepSystem

extension SimulatedProcess {
    /// The start-up every simulated executable shares, and the one place it exits: line-buffered stdout, `--help`,
    /// the stale-build stop (rule `runtime.stale`), `start(defaultRole:)` with `up`'s launch check, then `body`;
    /// 0 when `body` returns, else its error's sentence and status (2 for a bundle the manifest lacks, 78 for a
    /// version mismatch or a stale build).
    ///
    /// The entry points (`AppProcess.main`, `AppIntentsProcess.main`, a notification service's or share
    /// extension's `main`) are built on it, so an executable is its entry-point call only.
    /// - Parameters:
    ///   - role: the role the executable plays when started by hand.
    ///   - usage: what `--help` prints after "usage: "; nil when the executable takes no `--help`.
    ///   - arguments: the command line after the executable's name.
    ///   - beforeStart: runs before the process starts (before its containers are made): where a usage error is
    ///     found without leaving anything behind.
    ///   - body: the executable's work, given the started process and its arguments.
    public static func main(role: BundleRole, usage: String?, arguments: [String] = Array(CommandLine.arguments.dropFirst()),
                            beforeStart: ([String]) throws -> Void = { _ in },
                            _ body: (SimulatedProcess, [String]) throws -> Void) -> Never {
        Standard.setUp()
        if let usage, arguments.first == "--help" {
            print("usage: \(usage)")
            exit(.success)
        }
        // A stale build found on a library's own thread (rule `runtime.stale`) ends this process, as iOS ends it.
        ProcessStop.install { exit(withError: $0) }
        do {
            try beforeStart(arguments)
            guard let process = try start(defaultRole: role) else { exit(.success) }  // `up`'s launch check
            try body(process, arguments)
            exit(.success)
        } catch {
            exit(withError: error)
        }
    }
}
