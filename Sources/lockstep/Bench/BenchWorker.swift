#if canImport(Glibc)
@preconcurrency import Glibc
#endif
import CSQLite
import Foundation
import LockstepSystem

/// The hidden verbs the bench starts as its other processes (not listed in `lockstep --help`):
///
/// - `lockstep __bench-worker KIND ARGS…` runs one side of a figure or baseline. Throughput workers set up,
///   warm up, print `ready`, wait for `go` on stdin, run, and print `done START END` (monotonic seconds).
///   Observers print `ready`, then `VALUE T` (monotonic seconds) each time they are woken.
///
/// The bare Foundation process the widget's memory is compared with is its own executable, `lockstep-idle`.
enum BenchWorkerCommand: Command {
    static let name = "__bench-worker"
    static let summary = "(internal) one process of a benchmark"
    static let help = "Usage: lockstep __bench-worker KIND ARGS… (started by lockstep bench)"

    static func run(_ arguments: [String]) throws -> ExitStatus {
        let rest = Array(arguments.dropFirst())
        switch arguments.first {
        case "observe-inotify": try InotifyBaseline.observe(rest)
        case "increment-sqlite": try SQLiteBaseline.incrementWorker(rest)
        case "increment-flock": try FlockAppendBaseline.incrementWorker(rest)
        case "observe-defaults": try OurFigures.observeWorker(rest)
        case "increment-defaults": try OurFigures.incrementWorker(rest)
        case "increment-loop": try ProofWorkers.incrementLoop(rest)
        case "hold-transaction": try ProofWorkers.holdTransaction(rest)
        case "increment-habits": try HabitsWorkers.incrementWorker(rest)
        case "habits-loop": try HabitsWorkers.loop(rest)
        case "hold-sqlite": try HabitsWorkers.holdWriteLock(rest)
        default: throw UsageError("lockstep __bench-worker: unknown kind '\(arguments.first ?? "")'.")
        }
        return .success
    }

    /// Runs a throughput worker: `setUp` once, `warmup` untimed operations, then the barrier, then `count` timed ones.
    static func throughput(count: Int, warmup: Int, _ setUp: () throws -> () throws -> Void) throws {
        let operation = try setUp()
        for _ in 0..<warmup { try operation() }
        print("ready")
        guard Swift.readLine() == "go" else { return }
        let start = Monotonic.now
        for _ in 0..<count { try operation() }
        let end = Monotonic.now
        print("done \(start) \(end)")
    }

    /// Parses the integer argument at `index`.
    static func integer(_ arguments: [String], _ index: Int) throws -> Int {
        guard index < arguments.count, let value = Int(arguments[index]) else {
            throw UsageError("lockstep __bench-worker: argument \(index + 1) must be an integer.")
        }
        return value
    }
}
