import AppGroupKit
import Foundation
import LockstepTestSupport
import Testing

/// What the proof tests share with the `__worker` processes they start (`lockstep-bench`, `lockstep-probe`).
enum Proof {
    /// `LOCKSTEP_STRESS=1` runs the full counts (8 × 1,000 increments, 200 SIGKILLs, 20,000 fuzz cases per format).
    static var stress: Bool { ProcessInfo.processInfo.environment["LOCKSTEP_STRESS"] == "1" }

    /// The identity the workers take (the bench bundle, `OurFigures` in `lockstep-bench`).
    static let bundleIdentifier = "com.example.bench"
    static let group = "group.com.example.bench"

    /// The workers' group defaults suite under `groupsRoot`, opened fresh (as another process would).
    static func suite(_ groupsRoot: String) throws -> GroupDefaults {
        let sandbox = try Sandbox(root: GroupsRoot(path: groupsRoot),
                                  identity: ProcessIdentity(bundleIdentifier: bundleIdentifier, appGroups: [group]))
        return try GroupDefaults(suiteName: group, sandbox: sandbox)!
    }
}

extension Proof {
    /// Starts `workers` throughput workers (they print `ready`, wait for `go`, run, print `done`), releases them
    /// together once all are ready — so they really run at once — and expects each to finish cleanly.
    static func runTogether(_ workers: [Child]) {
        for worker in workers { #expect(worker.waitForOutput("ready")) }
        for worker in workers { worker.send("go\n") }
        for worker in workers {
            let result = worker.wait()
            #expect(result.status == 0 && result.stdout.contains("done"), "\(result)")
        }
    }

    /// Kills a writer that prints `ack N` after each committed increment with SIGKILL, `rounds` times, each time
    /// after a random number of acknowledgements plus a random few hundred microseconds — so the kill lands anywhere
    /// in the write path — and holds the store to every acknowledgement: after each kill it must open, and hold the
    /// last acknowledged value, or one more (the increment in flight may have committed before its `ack`).
    static func killRepeatedly(rounds: Int, seed: UInt64, writer start: () throws -> Child, stored: () throws -> Int) throws {
        var random = SeededGenerator(seed: seed)
        var acknowledged = try stored()
        for round in 0..<rounds {
            let writer = try start()
            let target = acknowledged + Int.random(in: 1...40, using: &random)
            #expect(writer.waitForOutput("ack \(target)\n"), "round \(round): the writer never acknowledged \(target)")
            usleep(UInt32.random(in: 0...800, using: &random))
            writer.signal(SIGKILL)
            let result = writer.wait()
            #expect(result.status == 128 + SIGKILL, "round \(round): \(result)")
            let acks = result.stdout.split(separator: "\n").compactMap { $0.hasPrefix("ack ") ? Int($0.dropFirst(4)) : nil }
            let last = acks.last ?? acknowledged
            let value = try stored()
            #expect(value >= last && value <= last + 1, "round \(round): acknowledged \(last), the store holds \(value)")
            if value < last || value > last + 1 { return }
            acknowledged = value
        }
    }

    /// Kills `holder` (which printed `holding` with the lock taken) with SIGKILL once `waiter` (a throughput worker,
    /// see `runTogether`) is released to wait for the same lock, and expects the waiter to finish. Bounded well under
    /// the 10 s lock and busy timeouts, so the waiter got the lock because the kernel released the dead holder's.
    static func killHolderReleasesWaiter(holder: Child, waiter: Child) {
        #expect(waiter.waitForOutput("ready"))
        waiter.send("go\n")
        holder.signal(SIGKILL)
        #expect(holder.wait().status == 128 + SIGKILL)
        #expect(waiter.waitForOutput("done", timeout: 5), "the waiter did not proceed after the holder died")
        #expect(waiter.wait().status == 0)
    }
}
