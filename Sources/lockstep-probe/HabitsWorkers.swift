import CSQLite
import Foundation
import HabitCore
import LockstepSystem

/// Workers for the Habits store (HabitCore's SQLite database), as the proof tests drive it from many processes.
enum HabitsWorkers {
    /// The day and habit every worker logs to; the test adds the habit first (numeric, so each log adds 1).
    static let day = Day(rawValue: "2026-01-01")
    static let habit = "Water"

    /// `increment-habits DATABASE COUNT WARMUP`: logs 1 to the habit, COUNT times after the barrier.
    static func incrementWorker(_ arguments: [String]) throws {
        try ThroughputWorker.run(count: ProofWorkers.integer(arguments, 1), warmup: ProofWorkers.integer(arguments, 2)) {
            let store = try HabitStore(path: arguments.first ?? "")
            return { _ = try store.log(named: habit, value: 1, on: day) }
        }
    }

    /// `habits-loop DATABASE`: logs 1 forever, printing `ack TOTAL` once each log has returned.
    static func loop(_ arguments: [String]) throws {
        let store = try HabitStore(path: arguments.first ?? "")
        while true {
            print("ack \(Int(try store.log(named: habit, value: 1, on: day).total))")
        }
    }

    /// `hold-sqlite DATABASE`: opens the store's database directly, takes its write lock (`BEGIN IMMEDIATE`), logs
    /// 1000 inside, and stays there until its stdin closes or it is killed: the SQLite lock holder a waiter must
    /// outlive (its uncommitted log must never appear).
    static func holdWriteLock(_ arguments: [String]) throws {
        let path = arguments.first ?? ""
        var db: OpaquePointer?
        guard sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE, nil) == SQLITE_OK,
              sqlite3_busy_timeout(db, 10_000) == SQLITE_OK,  // SQLite's own busy handler, as an app configures it
              sqlite3_exec(db, "BEGIN IMMEDIATE; UPDATE logs SET value = value + 1000;", nil, nil, nil) == SQLITE_OK else {
            throw ProbeError("lockstep-probe: cannot take the write lock of \(path): \(String(cString: sqlite3_errmsg(db))).")
        }
        print("holding")
        while readLine() != nil {}
    }
}
