import CSQLite
import Foundation
import HabitCore

/// Workers for the Habits store (HabitCore's SQLite database), as the proof tests drive it from many processes.
enum HabitsWorkers {
    /// The day and habit every worker logs to; the test adds the habit first (numeric, so each log adds 1).
    static let day = Day(rawValue: "2026-01-01")
    static let habit = "Water"

    /// `__bench-worker increment-habits DATABASE COUNT WARMUP`: logs 1 to the habit, COUNT times after the barrier.
    static func incrementWorker(_ arguments: [String]) throws {
        try BenchWorkerCommand.throughput(count: BenchWorkerCommand.integer(arguments, 1),
                                          warmup: BenchWorkerCommand.integer(arguments, 2)) {
            let store = try HabitStore(path: arguments.first ?? "")
            return { _ = try store.log(named: habit, value: 1, on: day) }
        }
    }

    /// `__bench-worker habits-loop DATABASE`: logs 1 forever, printing `ack TOTAL` once each log has returned.
    static func loop(_ arguments: [String]) throws {
        let store = try HabitStore(path: arguments.first ?? "")
        while true {
            print("ack \(Int(try store.log(named: habit, value: 1, on: day).total))")
        }
    }

    /// `__bench-worker hold-sqlite DATABASE`: opens the store's database directly, takes its write lock
    /// (`BEGIN IMMEDIATE`), logs 1000 inside, and stays there until its stdin closes or it is killed: the SQLite lock
    /// holder a waiter must outlive (its uncommitted log must never appear).
    static func holdWriteLock(_ arguments: [String]) throws {
        let path = arguments.first ?? ""
        let db = try SQLiteBaseline.open(path)
        try SQLiteBaseline.exec(db, "BEGIN IMMEDIATE; UPDATE logs SET value = value + 1000;", path)
        print("holding")
        while readLine() != nil {}
    }
}
