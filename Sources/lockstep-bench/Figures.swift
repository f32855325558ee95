#if canImport(Glibc)
@preconcurrency import Glibc
#endif
import Foundation
import LockstepSystem

/// The figures of `lockstep bench`, each measured beside its baseline in the same run.
enum Figures {
    /// Every figure in order; `progress` is told which one starts (the text table shows it on stderr).
    static func all(_ plan: BenchPlan, progress: (String) -> Void) -> [BenchRow] {
        let figures: [(name: String, measure: (BenchPlan) -> [BenchRow])] = [
            ("change latency", changeLatency),
            ("increment throughput", incrementThroughput),
            ("write cost", writeCost),
            ("up to ready", upToReady),
            ("widget memory", widgetMemory),
            ("check \(plan.projectTargets) targets", checkProject),
        ]
        return figures.flatMap { figure in
            // Each figure starts with nothing left to write back: the megabytes the increment and write-cost figures
            // leave dirty would otherwise be flushed during the next figures, and slow whichever side waits on fsync.
            sync()
            progress(figure.name)
            return figure.measure(plan)
        }
    }

    /// A row from two measurements, either of which may have failed (its error becomes the row's note).
    static func row(_ name: String, unit: String, ours: Result<Double, any Error>, baseline: Result<Double, any Error>,
                    baselineName: String, goal: Goal, extra: ((Double) -> (text: String, met: Bool))? = nil) -> BenchRow {
        var row = BenchRow(name: name, unit: unit, ours: try? ours.get(), baseline: try? baseline.get(),
                           baselineName: baselineName, goal: goal)
        if case .failure(let error) = ours {
            row.note = "not measured: \(error)"
        } else if case .failure(let error) = baseline {
            row.note = "baseline not measured: \(error)"
        }
        if let extra, let value = row.ours { row.extra = extra(value) }
        return row
    }

    // MARK: change latency

    /// Where the woken observer runs decides most of a sample on a VM: on the writer's CPU it runs once the writer
    /// blocks (≈ 5 µs for the baseline here); on another, idle virtual CPU it first waits for that CPU to be woken
    /// (≈ 20 µs). The scheduler's choice tends to hold for an observer's whole life, so one observer per side made
    /// each median a coin toss (3.9× one run, 0.9× the next). So the placement is chosen, the same for both: the
    /// writer is held on one CPU, and each block starts fresh observers, on the writer's CPU in even blocks and on
    /// another in odd ones. The p50 row is the mean of the two placements' medians (each placement weighs the
    /// same); a row per placement shows both, the one beside the writer being where our own work shows most.
    static func changeLatency(_ plan: BenchPlan) -> [BenchRow] {
        let cpus = Placement.allowedCPUs()
        let writer = cpus.prefix(1).map { $0 }
        // With one CPU there is one placement.
        let placements: [(name: String, cpus: [Int])] = cpus.count > 1 ? [("same CPU", writer), ("other CPU", [cpus[1]])] : [("same CPU", writer)]
        var baseline = Array(repeating: [Double](), count: placements.count), ours = baseline
        var baselineError: (any Error)?, oursError: (any Error)?
        let block = plan.latencySamples / plan.latencyBlocks
        for index in 0..<plan.latencyBlocks {
            let placement = index % placements.count
            Placement.on(writer) {
                do { baseline[placement] += try inotifyLatencies(plan, samples: block, observerCPUs: placements[placement].cpus) } catch { baselineError = error }
                do { ours[placement] += try OurFigures.changeLatencies(plan, samples: block, observerCPUs: placements[placement].cpus) } catch { oursError = error }
            }
        }
        func result(_ samples: [[Double]], _ error: (any Error)?, _ statistic: ([[Double]]) -> Double) -> Result<Double, any Error> {
            if let error { return .failure(error) }
            return samples.contains(where: \.isEmpty) ? .failure(BenchError.notMeasured("no samples")) : .success(statistic(samples))
        }
        let medianOfPlacements: ([[Double]]) -> Double = { $0.map { Statistics.percentile($0, 50) }.reduce(0, +) / Double($0.count) }
        let baselineName = "raw inotify on a file, two processes"
        var rows = [
            row("change latency p50", unit: "µs", ours: result(ours, oursError, medianOfPlacements),
                baseline: result(baseline, baselineError, medianOfPlacements),
                baselineName: "\(baselineName) (mean of the placements' medians)", goal: .atMost(1.2)),
            row("change latency p99", unit: "µs", ours: result(ours, oursError) { Statistics.percentile($0.flatMap { $0 }, 99) },
                baseline: result(baseline, baselineError) { Statistics.percentile($0.flatMap { $0 }, 99) },
                baselineName: baselineName, goal: .report),
        ]
        for (index, placement) in placements.enumerated() {
            rows.append(row("change latency p50 \(placement.name)", unit: "µs",
                            ours: result([ours[index]], oursError) { Statistics.percentile($0[0], 50) },
                            baseline: result([baseline[index]], baselineError) { Statistics.percentile($0[0], 50) },
                            baselineName: "\(baselineName), observer on the \(placement.name == "same CPU" ? "writer's CPU" : "other CPU")", goal: .report))
        }
        return rows
    }

    static func inotifyLatencies(_ plan: BenchPlan, samples: Int, observerCPUs: [Int]) throws -> [Double] {
        let directory = try BenchPaths.scratch("inotify")
        defer { BenchPaths.remove(directory) }
        let path = "\(directory)/value"
        let writer = try InotifyBaseline.Writer(path: path)
        let observer = try Placement.on(observerCPUs) { try BenchProcess(BenchPaths.own, ["__worker", "observe-inotify", path]) }
        let latencies = try Harness.latency(observer: observer, samples: samples, warmup: plan.latencyWarmup) {
            try writer.write(String($0))
        }
        try writer.write("stop")
        try observer.finish()
        return latencies
    }

    // MARK: increment throughput

    static func incrementThroughput(_ plan: BenchPlan) -> [BenchRow] {
        var rows: [BenchRow] = []
        var limits: [BenchRow] = []
        for processes in plan.processCounts {
            var ours: [Double] = [], sqlite: [Double] = [], flock: [Double] = []
            var oursError: (any Error)?, sqliteError: (any Error)?, flockError: (any Error)?
            // Alternate the three kinds run by run, so a burst of load on the shared machine hits all of them.
            for _ in 0..<plan.repeats {
                do { ours.append(try OurFigures.incrementThroughput(plan, processes: processes)) } catch { oursError = error }
                do { sqlite.append(try sqliteThroughput(plan, processes: processes)) } catch { sqliteError = error }
                do { flock.append(try flockThroughput(plan, processes: processes)) } catch { flockError = error }
            }
            rows.append(row("increment x\(processes)", unit: "ops/s", ours: Statistics.median(ours, failure: oursError),
                            baseline: Statistics.median(sqlite, failure: sqliteError),
                            baselineName: "SQLite WAL, synchronous=NORMAL, BEGIN IMMEDIATE, read+update",
                            goal: processes == 4 ? .atLeast(3) : .report))
            limits.append(row("increment x\(processes) vs limit", unit: "ops/s", ours: Statistics.median(ours, failure: oursError),
                              baseline: Statistics.median(flock, failure: flockError),
                              baselineName: "bare flock + O_APPEND record loop (physical limit)",
                              goal: processes <= 4 ? .atLeast(0.8) : .report))
        }
        return rows + limits
    }

    static func sqliteThroughput(_ plan: BenchPlan, processes: Int) throws -> Double {
        let directory = try BenchPaths.scratch("sqlite")
        defer { BenchPaths.remove(directory) }
        let path = "\(directory)/counter.sqlite"
        try SQLiteBaseline.create(path)
        return try Harness.incrementThroughput(plan, processes: processes, worker: "increment-sqlite", counter: path,
                                               total: { try SQLiteBaseline.total(path) },
                                               lost: { BenchError.workerFailed("SQLite counted \($0), expected \($1)") })
    }

    static func flockThroughput(_ plan: BenchPlan, processes: Int) throws -> Double {
        let directory = try BenchPaths.scratch("flock")
        defer { BenchPaths.remove(directory) }
        return try Harness.incrementThroughput(plan, processes: processes, worker: "increment-flock", counter: directory,
                                               total: { FlockAppendBaseline.total(directory) },
                                               lost: { BenchError.workerFailed("the append log has \($0) records, expected \($1)") })
    }

    // MARK: write cost

    static func writeCost(_ plan: BenchPlan) -> [BenchRow] {
        let small = Result { try OurFigures.singleKeyWriteCost(plan, keys: 10) }
        let big = Result { try OurFigures.singleKeyWriteCost(plan, keys: plan.bigSuiteKeys) }
        let name = plan.bigSuiteKeys == 100_000 ? "100k" : String(plan.bigSuiteKeys)
        let compactSmall = Result { try OurFigures.compactionCost(plan, keys: 10) }
        let compactBig = Result { try OurFigures.compactionCost(plan, keys: plan.bigSuiteKeys) }
        let plistWrite = Result { try PlistWriteBaseline.time(keys: plan.bigSuiteKeys) }
        return [
            row("write cost \(name) keys", unit: "µs", ours: big, baseline: small,
                baselineName: "the same write with 10 keys in the suite (both amortize one compaction)", goal: .atMost(1.5)),
            row("compaction \(name) keys vs plist write", unit: "ms", ours: compactBig, baseline: plistWrite,
                baselineName: "Foundation's PropertyListSerialization encoding the same dictionary (binary), written durably", goal: .atMost(1.5)),
            row("compaction \(name) keys", unit: "ms", ours: compactBig, baseline: compactSmall,
                baselineName: "folding the journal into a 10-key plist (once per journal cycle)", goal: .report),
        ]
    }

    // MARK: up to ready

    /// Medians of `launchRepeats` runs of each, alternating `up` and the bare spawn run by run, so a burst of load on
    /// the shared machine hits both.
    static func upToReady(_ plan: BenchPlan) -> [BenchRow] {
        var ours: [Double] = [], bare: [Double] = []
        var oursError: (any Error)?, bareError: (any Error)?
        let up = Result { try OurFigures.UpRuns() }
        for _ in 0..<plan.launchRepeats {
            do { ours.append(try up.get().next()) } catch { oursError = error }
            do { bare.append(try bareSpawn()) } catch { bareError = error }
        }
        if case .success(let runs) = up { runs.remove() }
        return [row("up to ready", unit: "ms", ours: Statistics.median(ours, failure: oursError),
                    baseline: Statistics.median(bare, failure: bareError),
                    baselineName: "one bare Foundation process, then the same \(OurFigures.bundleExecutables.count) executables bare (--help)",
                    goal: .atMost(1.5))]
    }

    /// Milliseconds to start and reap one bare Foundation process (`lockstep-idle --help`: what any launcher written in
    /// Swift pays before it can spawn anything, as `lockstep` is linked dynamically), then to start the executables
    /// `up` waits for bare (`--help`: load, print usage, exit), in parallel as `up` starts them, and reap them.
    static func bareSpawn() throws -> Double {
        try Harness.time {
            try BenchProcess(BenchPaths.sibling("lockstep-idle"), ["--help"], quiet: true).finish()
            let processes = try OurFigures.bundleExecutables.map {
                try BenchProcess(BenchPaths.sibling($0), ["--help"], quiet: true)
            }
            for process in processes { try process.finish() }
        } * 1000
    }

    // MARK: widget memory

    static func widgetMemory(_ plan: BenchPlan) -> [BenchRow] {
        let baseline = Result { () throws -> (rss: Double, anonymous: Double) in
            var samples: [(rss: Double, anonymous: Double)] = []
            for _ in 0..<plan.memoryRepeats {
                samples.append(try Harness.idleMemory(BenchPaths.sibling("lockstep-idle"), [], readyLine: "idle ready"))
            }
            return (Statistics.median(samples.map(\.rss)), Statistics.median(samples.map(\.anonymous)))
        }
        let ours = Result { try OurFigures.widgetMemory(plan) }
        let limit = OurFigures.widgetMemoryLimitMB
        return [
            row("widget memory", unit: "MB", ours: ours.map(\.rss), baseline: baseline.map(\.rss),
                baselineName: "a bare Foundation process (VmRSS)", goal: .atMost(1.2),
                extra: { ("< \(limit) MB", $0 < Double(limit)) }),
            row("widget memory anon", unit: "MB", ours: ours.map(\.anonymous), baseline: baseline.map(\.anonymous),
                baselineName: "a bare Foundation process (RssAnon)", goal: .report),
        ]
    }

    // MARK: check a generated project

    static func checkProject(_ plan: BenchPlan) -> [BenchRow] {
        OurFigures.checkProject(plan)
    }
}

/// `python3` with the `pbxproj` library loading a project, when it is installed: a process that loads it once
/// unmeasured, prints `ready`, then for each `go` on stdin loads it again and prints the seconds the load took
/// (interpreter start-up excluded: the script times the load itself).
enum PbxprojBaseline {
    static let script = """
        import sys, time
        from pbxproj import XcodeProject
        XcodeProject.load(sys.argv[1])
        print("ready", flush=True)
        for line in sys.stdin:
            start = time.perf_counter()
            XcodeProject.load(sys.argv[1])
            print("seconds", time.perf_counter() - start, flush=True)
        """

    /// The running baseline, once it is ready; an error saying why it could not be measured otherwise.
    static func start(_ pbxproj: String) throws -> BenchProcess {
        guard let python = findOnPath("python3") else { throw BenchError.notMeasured("python3 is not installed") }
        let process = try BenchProcess(python, ["-c", script, pbxproj], quiet: true)
        do {
            _ = try process.expect("ready", timeout: 300)
            return process
        } catch {
            process.closeInput()
            process.wait()
            throw BenchError.notMeasured("python3 -c 'import pbxproj' does not work here (pip install pbxproj)")
        }
    }

    /// Seconds of one load.
    static func sample(_ process: BenchProcess) throws -> Double {
        try process.send("go")
        let seconds = try process.expect("seconds", timeout: 300)
        guard let value = Double(seconds) else { throw BenchError.workerFailed("python printed '\(seconds)'") }
        return value
    }

    static func findOnPath(_ name: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        return path.split(separator: ":").map { "\($0)/\(name)" }.first { access($0, X_OK) == 0 }
    }
}
