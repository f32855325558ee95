import BundleKit
import Foundation
import LockstepSystem

/// Hosts your own app (or any bundle without a framework of its own) as a simulated process: the Linux-only
/// `main.swift` of a bundle whose code is written against Apple's API.
///
/// ```swift
/// // Sources/HabitsApp/main.swift
/// import LockstepRuntime
/// import HabitsShared
///
/// AppProcess.main { command in            // one stdin line, split into words
///     try HabitsStore.shared.add(command[1])
///     return "added \(command[1])"         // one line on stdout
/// }
/// ```
///
/// It starts as the manifest's bundle of `role` (the version gate, rule `runtime.version-parity`), prints its
/// ready line, answers one line per stdin line until stdin ends or `quit`, and stops a stale build (rule
/// `runtime.stale`). An error thrown by `handle` is one sentence on stderr, and serving goes on.
public enum AppProcess {
    /// The entry point of the executable; like swift-argument-parser's `main()`, the one place that exits (0 when
    /// stdin ends; 2 for a bundle the manifest lacks; 78 for a version mismatch or a stale build).
    /// - Parameters:
    ///   - role: the role this executable plays when started by hand (`.host`, or `.watch` for a watch app).
    ///   - onStart: runs once the process knows who it is, before its ready line: where an app activates its
    ///     `WCSession.default`, as in `application(_:didFinishLaunchingWithOptions:)`.
    public static func main(role: BundleRole = .host, onStart: () throws -> Void = {}, handle: @escaping ([String]) throws -> String) -> Never {
        SimulatedProcess.main(role: role, usage: nil, arguments: []) { process, _ in
            try onStart()
            print("ready \(process.bundle.bundleIdentifier ?? process.bundle.name)")
            // As on a device, the main thread runs the main queue (so `@MainActor` code, an intent's `perform()` among
            // it, can run while the app serves); stdin is read on a thread of its own, and each command runs on the
            // main queue, one at a time.
            nonisolated(unsafe) let handle = handle
            Thread.detachNewThread {
                do {
                    try CommandInput.serve { words in try DispatchQueue.main.sync { try handle(words) } }
                    DispatchQueue.main.async { exit(.success) }
                } catch {
                    // A stale build stops the process (rule `runtime.stale`).
                    DispatchQueue.main.async { exit(withError: error) }
                }
            }
            dispatchMain()
        }
    }
}
