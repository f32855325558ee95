import AppGroupKit
import Foundation
import LockstepSystem
import LockstepTestSupport
import Testing

/// Many processes, SIGKILLs and dead lock holders against the group defaults suite: nothing is lost, nothing hangs.
///
/// The workers are the `lockstep` executable's hidden `__bench-worker` verbs (the same code `lockstep bench`
/// measures). Counts are modest by default; `LOCKSTEP_STRESS=1` runs the full ones.
@Suite struct GroupDefaultsStressTests {
    @Test func eightProcessesIncrementExactly() throws {
        let groups = TestSupport.temporaryDirectory("proof-increment")
        defer { TestSupport.cleanUp(groups) }
        let each = Proof.stress ? 1_000 : 150
        let workers = try (0..<8).map { _ in
            try Child("lockstep", ["__bench-worker", "increment-defaults", groups.path, String(each), "0"], keepStdinOpen: true)
        }
        // The barrier: every worker is set up before any starts, so all eight really run at once.
        for worker in workers { #expect(worker.waitForOutput("ready")) }
        for worker in workers { worker.send("go\n") }
        for worker in workers {
            let result = worker.wait()
            #expect(result.status == 0, "\(result)")
            #expect(result.stdout.contains("done"))
        }
        let defaults = try Proof.suite(groups.path)
        #expect(try defaults.integer(forKey: "counter") == 8 * each)
    }

    @Test func acknowledgedIncrementsSurviveSIGKILL() throws {
        let groups = TestSupport.temporaryDirectory("proof-crash")
        defer { TestSupport.cleanUp(groups) }
        var random = SeededGenerator(seed: 42)
        var acknowledged = 0
        for round in 0..<(Proof.stress ? 200 : 30) {
            let writer = try Child("lockstep", ["__bench-worker", "increment-loop", groups.path])
            // Kill after a random number of acknowledgements, plus a random few hundred microseconds, so the
            // SIGKILL lands anywhere in the write path (before, inside or after the journal append).
            let target = acknowledged + Int.random(in: 1...40, using: &random)
            #expect(writer.waitForOutput("ack \(target)\n"), "round \(round): the writer never acknowledged \(target)")
            usleep(UInt32.random(in: 0...800, using: &random))
            writer.signal(SIGKILL)
            let result = writer.wait()
            #expect(result.status == 128 + SIGKILL, "round \(round): \(result)")
            let acks = result.stdout.split(separator: "\n").compactMap { $0.hasPrefix("ack ") ? Int($0.dropFirst(4)) : nil }
            let last = acks.last ?? acknowledged
            // The suite always opens, and holds every acknowledged increment; at most the one in flight more.
            let value = try Proof.suite(groups.path).integer(forKey: "counter") ?? 0
            #expect(value >= last && value <= last + 1, "round \(round): acknowledged \(last), suite holds \(value)")
            acknowledged = value
        }
    }

    @Test func aKilledLockHolderReleasesTheWaiterPromptly() throws {
        let groups = TestSupport.temporaryDirectory("proof-holder")
        defer { TestSupport.cleanUp(groups) }
        let holder = try Child("lockstep", ["__bench-worker", "hold-transaction", groups.path], keepStdinOpen: true)
        #expect(holder.waitForOutput("holding"))
        let waiter = try Child("lockstep", ["__bench-worker", "increment-defaults", groups.path, "1", "0"], keepStdinOpen: true)
        #expect(waiter.waitForOutput("ready"))
        waiter.send("go\n")
        holder.signal(SIGKILL)
        #expect(holder.wait().status == 128 + SIGKILL)
        // Bounded: well under the 10 s lock timeout, so the waiter got the lock because the kernel released it.
        #expect(waiter.waitForOutput("done", timeout: 5), "the waiter did not proceed after the holder died")
        #expect(waiter.wait().status == 0)
        let defaults = try Proof.suite(groups.path)
        #expect(try defaults.integer(forKey: "counter") == 1)
        // The holder's unfinished transaction never landed.
        #expect(try defaults.value(forKey: "held") == nil)
    }
}
