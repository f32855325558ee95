import Foundation
import HabitCore
import LockstepTestSupport
import Testing

/// The Habits store (HabitCore's SQLite database in the group container) from many processes and through SIGKILLs:
/// every logged value is counted exactly once, and every acknowledged one survives.
@Suite struct HabitsStressTests {
    /// A fresh store with the numeric habit the workers log to (`HabitsWorkers` in `lockstep-probe`).
    static func store(in directory: URL) throws -> (path: String, habit: Habit) {
        let path = directory.appendingPathComponent("Habits.sqlite").path
        let habit = try HabitStore(path: path).add(name: "Water", emoji: "💧", kind: .numeric, dailyTarget: 1_000_000)
        return (path, habit)
    }

    static let day = Day(rawValue: "2026-01-01")

    @Test func eightProcessesLogExactly() throws {
        let directory = TestSupport.temporaryDirectory("proof-habits")
        defer { TestSupport.cleanUp(directory) }
        let (path, habit) = try Self.store(in: directory)
        let each = Proof.stress ? 1_000 : 100
        Proof.runTogether(try (0..<8).map { _ in
            try Child("lockstep-probe", ["__worker", "increment-habits", path, String(each), "0"], keepStdinOpen: true)
        })
        #expect(try HabitStore(path: path).value(of: habit, on: Self.day) == Double(8 * each))
    }

    @Test func acknowledgedLogsSurviveSIGKILL() throws {
        let directory = TestSupport.temporaryDirectory("proof-habits-crash")
        defer { TestSupport.cleanUp(directory) }
        let (path, habit) = try Self.store(in: directory)
        try Proof.killRepeatedly(rounds: Proof.stress ? 200 : 30, seed: 43) {
            try Child("lockstep-probe", ["__worker", "habits-loop", path])
        } stored: {
            // The database opens after every kill (WAL recovery), and holds what was acknowledged.
            Int(try HabitStore(path: path).value(of: habit, on: Self.day))
        }
    }

    @Test func aKilledWriteLockHolderReleasesTheStorePromptly() throws {
        let directory = TestSupport.temporaryDirectory("proof-habits-holder")
        defer { TestSupport.cleanUp(directory) }
        let (path, habit) = try Self.store(in: directory)
        _ = try HabitStore(path: path).log(named: "Water", value: 1, on: Self.day)
        let holder = try Child("lockstep-probe", ["__worker", "hold-sqlite", path], keepStdinOpen: true)
        #expect(holder.waitForOutput("holding"))
        let waiter = try Child("lockstep-probe", ["__worker", "increment-habits", path, "1", "0"], keepStdinOpen: true)
        Proof.killHolderReleasesWaiter(holder: holder, waiter: waiter)
        // The holder's uncommitted +1000 never landed; the waiter's +1 did.
        #expect(try HabitStore(path: path).value(of: habit, on: Self.day) == 2)
    }
}
