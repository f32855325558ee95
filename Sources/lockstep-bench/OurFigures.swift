#if canImport(Glibc)
@preconcurrency import Glibc
#endif
import AppGroupKit
import BundleKit
import CheckKit
import Foundation
import LockstepSystem

/// Our side of each figure: Lockstep's own subsystems, measured exactly as their baselines are.
enum OurFigures {
    /// rule `widget.memory`: widget extensions are killed above 30 MB.
    static let widgetMemoryLimitMB = BundleRole.widget.kind.memoryLimitMB ?? 30

    /// The identity every bench process takes: one bundle entitled to one group.
    static let bundleIdentifier = "com.example.bench"
    static let group = "group.com.example.bench"

    /// Opens the bench's group defaults suite under `groupsRoot`, as the bench bundle.
    static func suite(_ groupsRoot: String) throws -> GroupDefaults {
        let sandbox = try Sandbox(root: GroupsRoot(path: groupsRoot),
                                  identity: ProcessIdentity(bundleIdentifier: bundleIdentifier, appGroups: [group]))
        guard let defaults = try GroupDefaults(suiteName: group, sandbox: sandbox) else {
            throw BenchError.notMeasured("GroupDefaults refused the suite \(group)")
        }
        return defaults
    }

    // MARK: change latency

    static func changeLatencies(_ plan: BenchPlan, samples: Int, observerCPUs: [Int]) throws -> [Double] {
        let groupsRoot = try BenchPaths.scratch("observe")
        defer { BenchPaths.remove(groupsRoot) }
        let defaults = try suite(groupsRoot)
        try defaults.set(0, forKey: "value")
        let observer = try Placement.on(observerCPUs) { try BenchProcess(BenchPaths.own, ["__worker", "observe-defaults", groupsRoot]) }
        let latencies = try Harness.latency(observer: observer, samples: samples, warmup: plan.latencyWarmup) {
            try defaults.set($0, forKey: "value")
        }
        try defaults.set(-1, forKey: "value")  // the observer's cue to exit
        try observer.finish()
        return latencies
    }

    /// `__worker observe-defaults GROUPS`: prints `VALUE T` whenever another process changes `value`;
    /// exits when it becomes -1.
    static func observeWorker(_ arguments: [String]) throws {
        let defaults = try suite(arguments.first ?? "")
        let done = DispatchSemaphore(value: 0)
        let observation = try defaults.observe { changes in
            let woken = Monotonic.now
            for change in changes where change.key == "value" {
                guard let value = change.value as? Int else { continue }
                if value == -1 { done.signal(); return }
                print("\(value) \(woken)")
            }
        }
        print("ready")
        done.wait()
        observation.cancel()
    }

    // MARK: increment throughput

    static func incrementThroughput(_ plan: BenchPlan, processes: Int) throws -> Double {
        let groupsRoot = try BenchPaths.scratch("increment")
        defer { BenchPaths.remove(groupsRoot) }
        return try Harness.incrementThroughput(plan, processes: processes, worker: "increment-defaults", counter: groupsRoot,
                                               total: { try suite(groupsRoot).integer(forKey: "counter") ?? 0 },
                                               lost: { BenchError.notMeasured("group defaults counted \($0), expected \($1): increments were lost") })
    }

    /// `__worker increment-defaults GROUPS COUNT WARMUP`.
    static func incrementWorker(_ arguments: [String]) throws {
        try ThroughputWorker.run(count: Workers.integer(arguments, 1),
                                 warmup: Workers.integer(arguments, 2)) {
            let defaults = try suite(arguments.first ?? "")
            return { try defaults.increment("counter") }
        }
    }

    /// `__worker check-project PROJECT`: checks the project once unmeasured, prints `ready`, then for each `go` on
    /// stdin checks it and reads it (`XcodeProjectInput.load`, the parse the check row is also compared with) and
    /// prints `seconds CHECK PARSE`; it exits when stdin closes.
    static func checkWorker(_ arguments: [String]) throws {
        guard let project = arguments.first else { throw BenchError.usage("lockstep-bench __worker check-project: name the project.") }
        _ = try CheckInput.check(project)
        print("ready")
        while readLine() == "go" {
            let check = try Harness.time { _ = try CheckInput.check(project) }
            let parse = try Harness.time { _ = try XcodeProjectInput.load(project) }
            print("seconds \(check) \(parse)")
        }
    }

    // MARK: write cost

    /// Microseconds per `set` of one key in a suite of `keys` keys, amortized honestly: the timed writes are one
    /// whole journal cycle, from a freshly compacted suite to the write that passes the compaction threshold
    /// and folds the journal into the plist of `keys` keys — the compaction a steady writer pays once per cycle.
    /// An untimed first cycle finds its length (the same values, so the same record sizes); the second is timed.
    static func singleKeyWriteCost(_ plan: BenchPlan, keys: Int) throws -> Double {
        let groupsRoot = try BenchPaths.scratch("writecost")
        defer { BenchPaths.remove(groupsRoot) }
        let defaults = try suite(groupsRoot)
        try fill(defaults, keys: keys)
        // The journal's place is part of the documented on-disk protocol (groups/README.md).
        let journal = GroupsLayout.suiteJournal(group, container: GroupsLayout(root: groupsRoot).groupContainer(group, on: .phone))
        var cycle: Int?
        var previous = fileSize(journal)
        // The journal is folded once it passes the threshold or the plist's size, whichever is larger; a record is
        // more than 4 bytes, so this bound is never what ends the loop.
        let limit = max(GroupDefaults.compactionThreshold, fileSize(defaults.plistPath)) / 4
        for index in 0..<limit {
            try defaults.set(index, forKey: "key-0")
            let size = fileSize(journal)
            if size < previous { cycle = index + 1; break }
            previous = size
        }
        guard let cycle, fileSize(journal) == 0 else {
            throw BenchError.notMeasured("the journal was never compacted, or not emptied by compaction")
        }
        let seconds = try Harness.time {
            for index in 0..<cycle { try defaults.set(index, forKey: "key-0") }
        }
        guard fileSize(journal) == 0 else { throw BenchError.notMeasured("the timed cycle did not end in a compaction") }
        return seconds * 1e6 / Double(cycle)
    }

    static func fileSize(_ path: String) -> Int {
        (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
    }

    /// Milliseconds to fold the journal into a plist of `keys` keys (`synchronize()`), the cost a write pays once
    /// per megabyte of journal.
    static func compactionCost(_ plan: BenchPlan, keys: Int) throws -> Double {
        let groupsRoot = try BenchPaths.scratch("compaction")
        defer { BenchPaths.remove(groupsRoot) }
        let defaults = try suite(groupsRoot)
        try fill(defaults, keys: keys)
        var times: [Double] = []
        for index in 0..<3 {
            try defaults.set(index, forKey: "key-0")
            times.append(try Harness.time { try defaults.synchronize() } * 1000)
        }
        return Statistics.median(times)
    }

    static func fill(_ defaults: GroupDefaults, keys: Int) throws {
        try defaults.transaction { transaction in
            for index in 0..<keys { try transaction.set("value \(index)", forKey: "key-\(index)") }
        }
        try defaults.synchronize()
    }

    // MARK: up to ready

    /// Runs of `lockstep up` (each in a fresh groups root, the embedded default manifest, a scenario with no steps),
    /// all in one scratch folder removed by `remove()`.
    final class UpRuns {
        let directory: String
        let scenario: String
        private var count = 0

        init() throws {
            directory = try BenchPaths.scratch("up")
            scenario = "\(directory)/empty.scenario"
            try AtomicFile.write("# no steps: the bench times launching until ready\n", to: scenario)
        }

        /// Milliseconds from starting one `lockstep up` to its line saying every bundle is ready; `up` then tears
        /// everything down, untimed.
        func next() throws -> Double {
            count += 1
            let groups = "\(directory)/groups-\(count)"
            let start = Monotonic.now
            let up = try BenchProcess(BenchPaths.sibling("lockstep"), ["up", "--groups", groups, "--scenario", scenario, "--no-color"],
                                      environment: [GroupsRoot.environmentVariable: groups])  // stderr shown: `up` says why it failed
            while true {
                let line = try up.readLine(timeout: 60)
                if line.contains("ready in") { break }
            }
            let milliseconds = (Monotonic.now - start) * 1000
            while (try? up.readLine(timeout: 60)) != nil {}
            try up.finish()
            return milliseconds
        }

        func remove() { BenchPaths.remove(directory) }
    }

    /// The executables of the bundles `up` waits for, one per kind of the table (`BundleRole.Kind.executable`): host,
    /// widget and watch keep running; the extensions that run on demand are launched once to check that they run.
    static let bundleExecutables = BundleRole.shippedExecutables

    // MARK: widget memory

    /// Resident memory of an idle `lockstep-widget` (started as the widget of the embedded default manifest, in a
    /// fresh groups root), read once it answered a `status` sent after its ready line: the widget draws its first
    /// timeline right after that line and serves commands only then, so the figure includes that drawing;
    /// medians of `memoryRepeats`.
    static func widgetMemory(_ plan: BenchPlan) throws -> (rss: Double, anonymous: Double) {
        var samples: [(rss: Double, anonymous: Double)] = []
        for _ in 0..<plan.memoryRepeats {
            let groups = try BenchPaths.scratch("widget")
            defer { BenchPaths.remove(groups) }
            samples.append(try Harness.idleMemory(BenchPaths.sibling("lockstep-widget"), [], readyLine: "ready",
                                                  settle: ("status", "HabitsWidget: clock"), environment: [GroupsRoot.environmentVariable: groups]))
        }
        return (Statistics.median(samples.map(\.rss)), Statistics.median(samples.map(\.anonymous)))
    }

    // MARK: check

    /// `check` of a generated project: its total time beside its own parse time, and beside the Python `pbxproj`
    /// library loading the same file (when `python3 -c 'import pbxproj'` works). Each side runs in processes of its
    /// own that time only the work (ours `__worker check-project`, the baseline a Python script), each after one
    /// unmeasured warm-up; their samples alternate, one of each in turn, so that a machine whose speed drifts
    /// slows both alike. `checkProcesses` pairs of processes, one after the other, `checkRepeats` samples each:
    /// on this VM one process of either side can run the same work at half the speed of the next, so one pair says
    /// little. Medians of all the samples.
    static func checkProject(_ plan: BenchPlan) -> [BenchRow] {
        let name = "check \(plan.projectTargets) targets"
        let measured = Result { () throws -> (check: Double, parse: Double, pbxproj: Result<Double, Error>) in
            let directory = try BenchPaths.scratch("xcode")
            defer { BenchPaths.remove(directory) }
            let project = try XcodeProjectInput.generateSampleProject(at: directory, targets: plan.projectTargets)
            var checks: [Double] = [], parses: [Double] = [], loads: [Double] = []
            var unmeasured: Error?
            for pair in 0..<plan.checkProcesses {
                let ours = try BenchProcess(BenchPaths.own, ["__worker", "check-project", project])
                defer { ours.closeInput(); ours.wait() }
                _ = try ours.expect("ready", timeout: 120)
                // A baseline that cannot start is not tried again.
                let baseline = unmeasured.map { Result<BenchProcess, Error>.failure($0) }
                    ?? Result { try PbxprojBaseline.start(project + "/project.pbxproj") }
                defer { if case .success(let python) = baseline { python.closeInput(); python.wait() } }
                if case .failure(let error) = baseline { unmeasured = error }
                for index in 0..<plan.checkRepeats {
                    // Ours first in even turns, the baseline first in odd ones.
                    for side in (pair + index) % 2 == 0 ? [0, 1] : [1, 0] {
                        if side == 0 {
                            try ours.send("go")
                            let times = try ours.expect("seconds", timeout: 120).split(separator: " ").compactMap { Double($0) }
                            guard times.count == 2 else { throw BenchError.workerFailed("the check worker's 'seconds' line has no times") }
                            checks.append(times[0] * 1000)
                            parses.append(times[1] * 1000)
                        } else if case .success(let python) = baseline {
                            loads.append(try PbxprojBaseline.sample(python) * 1000)
                        }
                    }
                }
            }
            let pbxproj = unmeasured.map { Result<Double, Error>.failure($0) } ?? .success(Statistics.median(loads))
            return (Statistics.median(checks), Statistics.median(parses), pbxproj)
        }
        let pbxproj = measured.flatMap { $0.pbxproj }
        return [
            Figures.row(name, unit: "ms", ours: measured.map(\.check), baseline: measured.map(\.parse),
                        baselineName: "its own parse of the project (XcodeProjectInput.load)", goal: .report),
            Figures.row("\(name) vs pbxproj", unit: "ms", ours: measured.map(\.check), baseline: pbxproj,
                        baselineName: "Python pbxproj loading the same project.pbxproj", goal: .atMost(0.1)),
        ]
    }
}
