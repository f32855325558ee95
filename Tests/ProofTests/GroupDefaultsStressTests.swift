import AppGroupKit
import Foundation
import LockstepSystem
import LockstepTestSupport
import Testing

/// Many processes, SIGKILLs and dead lock holders against the group defaults suite: nothing is lost, nothing hangs.
///
/// The incrementing workers are `lockstep-bench __worker` (the same code `lockstep bench` measures); the crash and
/// lock-holding ones are `lockstep-probe __worker`. Counts are modest by default; `LOCKSTEP_STRESS=1` runs the full ones.
@Suite struct GroupDefaultsStressTests {
    @Test func eightProcessesIncrementExactly() throws {
        let groups = TestSupport.temporaryDirectory("proof-increment")
        defer { TestSupport.cleanUp(groups) }
        let each = Proof.stress ? 1_000 : 150
        Proof.runTogether(try (0..<8).map { _ in
            try Child("lockstep-bench", ["__worker", "increment-defaults", groups.path, String(each), "0"], keepStdinOpen: true)
        })
        #expect(try Proof.suite(groups.path).integer(forKey: "counter") == 8 * each)
    }

    @Test func acknowledgedIncrementsSurviveSIGKILL() throws {
        let groups = TestSupport.temporaryDirectory("proof-crash")
        defer { TestSupport.cleanUp(groups) }
        try Proof.killRepeatedly(rounds: Proof.stress ? 200 : 30, seed: 42) {
            try Child("lockstep-probe", ["__worker", "increment-loop", groups.path])
        } stored: {
            try Proof.suite(groups.path).integer(forKey: "counter") ?? 0
        }
    }

    /// Realistic device timing loses an unflushed write to a kill, as a device does, but never a flushed one
    /// (rule `defaults.device-flush`): the same proof, with values acknowledged once `synchronize()` returned.
    @Test func synchronizedWritesSurviveSIGKILLUnderRealisticTiming() throws {
        let groups = TestSupport.temporaryDirectory("proof-device")
        defer { TestSupport.cleanUp(groups) }
        let realistic = [DeviceTiming.modeVariable: "realistic", DeviceTiming.seedVariable: "42"]
        try Proof.killRepeatedly(rounds: Proof.stress ? 200 : 30, seed: 43) {
            try Child("lockstep-probe", ["__worker", "synchronize-loop", groups.path], environment: realistic)
        } stored: {
            try Proof.suite(groups.path).integer(forKey: "counter") ?? 0
        }
    }

    @Test func aKilledLockHolderReleasesTheWaiterPromptly() throws {
        let groups = TestSupport.temporaryDirectory("proof-holder")
        defer { TestSupport.cleanUp(groups) }
        let holder = try Child("lockstep-probe", ["__worker", "hold-transaction", groups.path], keepStdinOpen: true)
        #expect(holder.waitForOutput("holding"))
        let waiter = try Child("lockstep-bench", ["__worker", "increment-defaults", groups.path, "1", "0"], keepStdinOpen: true)
        Proof.killHolderReleasesWaiter(holder: holder, waiter: waiter)
        let defaults = try Proof.suite(groups.path)
        #expect(try defaults.integer(forKey: "counter") == 1)
        // The holder's unfinished transaction never landed.
        #expect(try defaults.value(forKey: "held") == nil)
    }
}
