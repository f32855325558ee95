import AppGroupKit
import Foundation
import LockstepSystem

/// Workers the proof tests (Tests/ProofTests) start to crash and block the runtime from outside
/// (`lockstep-probe __worker KIND ARGS…`), as the bench's bundle (`com.example.bench`, entitled to
/// `group.com.example.bench`, the identity the tests' `Proof.suite` and `lockstep-bench`'s workers take).
enum ProofWorkers {
    static func run(_ arguments: [String]) throws {
        let rest = Array(arguments.dropFirst())
        switch arguments.first {
        case "increment-loop": try incrementLoop(rest)
        case "synchronize-loop": try synchronizeLoop(rest)
        case "hold-transaction": try holdTransaction(rest)
        case "increment-habits": try HabitsWorkers.incrementWorker(rest)
        case "habits-loop": try HabitsWorkers.loop(rest)
        case "hold-sqlite": try HabitsWorkers.holdWriteLock(rest)
        case "defaults-session": try DefaultsWorkers.session(rest)
        case "observe": try DefaultsWorkers.observe(rest)
        case "http-serve": try httpServe(rest)
        default: throw ProbeError("lockstep-probe __worker: unknown kind '\(arguments.first ?? "")'.")
        }
    }

    /// `http-serve FILE CONTENT-TYPE`: "the network" for a notification's attachment — serves FILE over plain HTTP on
    /// the loopback address, printing `listening http://127.0.0.1:PORT/` and then `request LINE` for each request;
    /// it exits when its stdin ends.
    static func httpServe(_ arguments: [String]) throws {
        guard arguments.count == 2, let body = try AtomicFile.read(arguments[0]) else {
            throw ProbeError("lockstep-probe __worker http-serve: give FILE CONTENT-TYPE (a readable file).")
        }
        let server = try LoopbackServer()
        print("listening http://127.0.0.1:\(server.port)/")
        Thread.detachNewThread {
            while readLine() != nil {}
            exit(0)
        }
        server.serve(body: body, contentType: arguments[1]) { print("request \($0)") }
    }

    /// The bench bundle's group defaults suite under `groupsRoot`.
    static func suite(_ groupsRoot: String) throws -> GroupDefaults {
        let group = "group.com.example.bench"
        let sandbox = try Sandbox(root: GroupsRoot(path: groupsRoot),
                                  identity: ProcessIdentity(bundleIdentifier: "com.example.bench", appGroups: [group]))
        guard let defaults = try GroupDefaults(suiteName: group, sandbox: sandbox) else {
            throw ProbeError("GroupDefaults refused the suite \(group).")
        }
        return defaults
    }

    /// `synchronize-loop GROUPS`: sets `counter` one higher forever, as an app does, and acknowledges each once
    /// `synchronize()` has returned (`ack N`); between two, it leaves `pending` set and unflushed. Under realistic
    /// device timing (rule `defaults.device-flush`) what a SIGKILL may take is `pending`, never an acknowledged value.
    static func synchronizeLoop(_ arguments: [String]) throws {
        let defaults = try suite(arguments.first ?? "")
        var value = try defaults.integer(forKey: "counter") ?? 0
        while true {
            value += 1
            try defaults.set(value, forKey: "counter")
            try defaults.synchronize()
            print("ack \(value)")
            try defaults.set(value, forKey: "pending")
        }
    }

    /// `increment-loop GROUPS`: increments `counter` forever, printing `ack N` once each increment has returned —
    /// the acknowledgements a crash test holds the suite to after a SIGKILL.
    static func incrementLoop(_ arguments: [String]) throws {
        let defaults = try suite(arguments.first ?? "")
        while true {
            print("ack \(try defaults.increment("counter"))")
        }
    }

    /// `hold-transaction GROUPS`: sets `held` inside a transaction and stays there, holding the suite's lock, until
    /// its stdin closes (or it is killed): the lock holder a waiter must outlive.
    static func holdTransaction(_ arguments: [String]) throws {
        let defaults = try suite(arguments.first ?? "")
        try defaults.transaction { transaction in
            try transaction.set(true, forKey: "held")
            print("holding")
            while readLine() != nil {}
        }
    }

    /// The integer argument at `index`.
    static func integer(_ arguments: [String], _ index: Int) throws -> Int {
        guard index < arguments.count, let value = Int(arguments[index]) else {
            throw ProbeError("lockstep-probe __worker: argument \(index + 1) must be an integer.")
        }
        return value
    }
}

/// A worker's command line the probe does not take, or a suite it cannot open (exit 64 for the first: the tests
/// only ever see it when they pass a wrong argument).
struct ProbeError: ReportableError {
    let description: String
    init(_ description: String) { self.description = description }
    var exitStatus: ExitStatus { .usage }
}
