import Foundation
import LockstepSystem

/// The bench's other processes: `lockstep-bench __worker KIND ARGS…` runs one side of a figure or baseline.
/// Throughput workers set up, warm up, print `ready`, wait for `go` on stdin, run, and print `done START END`
/// (monotonic seconds). Observers print `ready`, then `VALUE T` (monotonic seconds) each time they are woken.
///
/// The bare Foundation process the widget's memory and `up`'s start are compared with is its own executable,
/// `lockstep-idle`.
enum Workers {
    static func run(_ arguments: [String]) throws {
        let rest = Array(arguments.dropFirst())
        switch arguments.first {
        case "observe-inotify": try InotifyBaseline.observe(rest)
        case "increment-sqlite": try SQLiteBaseline.incrementWorker(rest)
        case "increment-flock": try FlockAppendBaseline.incrementWorker(rest)
        case "observe-defaults": try OurFigures.observeWorker(rest)
        case "increment-defaults": try OurFigures.incrementWorker(rest)
        case "check-project": try OurFigures.checkWorker(rest)
        default: throw BenchError.usage("lockstep-bench __worker: unknown kind '\(arguments.first ?? "")'.")
        }
    }

    /// Parses the integer argument at `index`.
    static func integer(_ arguments: [String], _ index: Int) throws -> Int {
        guard index < arguments.count, let value = Int(arguments[index]) else {
            throw BenchError.usage("lockstep-bench __worker: argument \(index + 1) must be an integer.")
        }
        return value
    }
}
