import AppGroupKit
import Foundation

/// Workers the proof tests (Tests/ProofTests) start to crash and block the runtime from outside, as the bench bundle
/// (`OurFigures.bundleIdentifier`, entitled to `OurFigures.group`).
enum ProofWorkers {
    /// `__bench-worker increment-loop GROUPS`: increments `counter` forever, printing `ack N` once each increment has
    /// returned — the acknowledgements a crash test holds the suite to after a SIGKILL.
    static func incrementLoop(_ arguments: [String]) throws {
        let defaults = try OurFigures.suite(arguments.first ?? "")
        while true {
            print("ack \(try defaults.increment("counter"))")
        }
    }

    /// `__bench-worker hold-transaction GROUPS`: sets `held` inside a transaction and stays there, holding the suite's
    /// lock, until its stdin closes (or it is killed): the lock holder a waiter must outlive.
    static func holdTransaction(_ arguments: [String]) throws {
        let defaults = try OurFigures.suite(arguments.first ?? "")
        try defaults.transaction { transaction in
            try transaction.set(true, forKey: "held")
            print("holding")
            while readLine() != nil {}
        }
    }
}
