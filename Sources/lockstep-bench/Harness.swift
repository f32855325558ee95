#if canImport(Glibc)
@preconcurrency import Glibc
#endif
import CLinux
import Foundation
import LockstepSystem

/// How much each figure measures: the full run (under ten minutes) or `--quick` (under a minute, for CI smoke use).
struct BenchPlan {
    var quick: Bool
    /// Change-latency samples (after `latencyWarmup` unmeasured ones), for ours and the baseline alike, taken in
    /// `latencyBlocks` blocks, each with a fresh observer process, ours and the baseline alternating.
    var latencySamples: Int
    var latencyWarmup: Int
    var latencyBlocks: Int
    /// Increments per process in one throughput run, and the untimed warm-up each worker does first.
    var incrementsPerProcess: Int
    var incrementWarmup: Int
    /// Throughput runs per (kind, process count); the figure is their median.
    var repeats: Int
    var processCounts: [Int]
    /// Keys in the big suite of the write-cost figure (the small one has 10).
    var bigSuiteKeys: Int
    /// Runs of `up` and of the bare spawn, and samples of idle memory; medians are reported.
    var launchRepeats: Int
    var memoryRepeats: Int
    /// Targets of the generated Xcode project.
    var projectTargets: Int
    /// Pairs of processes (ours and the baseline's) the check row starts, one pair after the other, and the samples
    /// it takes in each.
    var checkProcesses: Int
    var checkRepeats: Int

    static let full = BenchPlan(
        quick: false, latencySamples: 1_000, latencyWarmup: 20, latencyBlocks: 4, incrementsPerProcess: 10_000, incrementWarmup: 200,
        repeats: 3, processCounts: [1, 4, 8], bigSuiteKeys: 100_000, launchRepeats: 11,
        memoryRepeats: 3, projectTargets: 200, checkProcesses: 5, checkRepeats: 3)

    static let quick = BenchPlan(
        quick: true, latencySamples: 200, latencyWarmup: 10, latencyBlocks: 4, incrementsPerProcess: 2_000, incrementWarmup: 50,
        repeats: 1, processCounts: [1, 4, 8], bigSuiteKeys: 100_000, launchRepeats: 5,
        memoryRepeats: 1, projectTargets: 200, checkProcesses: 1, checkRepeats: 3)
}

/// The measuring loops every figure shares, so ours and its baseline are measured the same way.
enum Harness {
    /// Starts `processes` workers (each `lockstep-bench __worker ARGS…`), waits until all are `ready`, releases them
    /// together, and returns operations per second: all operations ÷ (last end − first start), as the workers
    /// stamped them on the shared monotonic clock.
    static func throughput(processes: Int, operationsEach: Int, worker: [String], environment: [String: String] = [:]) throws -> Double {
        let workers = try (0..<processes).map { _ in
            try BenchProcess(BenchPaths.own, ["__worker"] + worker, environment: environment)
        }
        for worker in workers { _ = try worker.expect("ready", timeout: 120) }
        for worker in workers { try worker.send("go") }
        var first = Double.infinity, last = -Double.infinity
        for worker in workers {
            let stamps = try worker.expect("done", timeout: 300).split(separator: " ").compactMap { Double($0) }
            guard stamps.count == 2 else { throw BenchError.workerFailed("a worker's 'done' line has no times") }
            first = min(first, stamps[0])
            last = max(last, stamps[1])
        }
        for worker in workers { try worker.finish() }
        return Double(processes * operationsEach) / (last - first)
    }

    /// A throughput run of `worker` processes that each add their warm-up and timed increments (`__worker KIND
    /// COUNTER COUNT WARMUP`) to one shared counter: operations per second, once `total()` finds every increment
    /// there; otherwise `lost(total, expected)` is thrown, as a figure from lost increments would be meaningless.
    static func incrementThroughput(_ plan: BenchPlan, processes: Int, worker kind: String, counter: String,
                                    total: () throws -> Int, lost: (Int, Int) -> BenchError) throws -> Double {
        let result = try throughput(processes: processes, operationsEach: plan.incrementsPerProcess,
                                    worker: [kind, counter, String(plan.incrementsPerProcess), String(plan.incrementWarmup)])
        let expected = processes * (plan.incrementsPerProcess + plan.incrementWarmup)
        let counted = try total()
        guard counted == expected else { throw lost(counted, expected) }
        return result
    }

    /// Measures change latency: for each sample, stamps the time, calls `change(i)` in this process, and waits for
    /// `observer` (another process) to report that it was woken with value `i`, stamped on the same monotonic clock.
    /// Waiting for each answer before the next change keeps samples independent (nothing is coalesced).
    /// `Monotonic.now` is CLOCK_MONOTONIC, one clock for every process on the machine, so stamps from two
    /// processes subtract.
    /// - Returns: the `samples` latencies in microseconds, after `warmup` unmeasured ones.
    static func latency(observer: BenchProcess, samples: Int, warmup: Int, change: (Int) throws -> Void) throws -> [Double] {
        _ = try observer.expect("ready", timeout: 60)
        var latencies: [Double] = []
        latencies.reserveCapacity(samples)
        for index in 1...(warmup + samples) {
            let sent = Monotonic.now
            try change(index)
            var woken: Double?
            while woken == nil {
                let parts = try observer.readLine(timeout: 10).split(separator: " ")
                if parts.count == 2, Int(parts[0]) == index { woken = Double(parts[1]) }
            }
            if index > warmup, let woken { latencies.append((woken - sent) * 1e6) }
        }
        return latencies
    }

    /// Starts `executable` (or this one with `arguments`), waits for `readyLine` on its stdout — and, with `settle`,
    /// for the answer to a command sent after it, so work a process does right after its ready line is counted —
    /// reads its resident memory, and stops it.
    static func idleMemory(_ executable: String, _ arguments: [String], readyLine: String,
                           settle: (command: String, answer: String)? = nil,
                           environment: [String: String] = [:]) throws -> (rss: Double, anonymous: Double) {
        let process = try BenchProcess(executable, arguments, environment: environment, quiet: true)
        _ = try process.expect(readyLine, timeout: 60)
        if let settle {
            try process.send(settle.command)
            _ = try process.expect(settle.answer, timeout: 60)
        }
        let memory = try ResidentMemory.of(process.pid)
        process.kill(SIGTERM)
        process.closeInput()
        process.wait()
        return memory
    }

    /// Times `body` (seconds).
    static func time(_ body: () throws -> Void) rethrows -> Double {
        let start = Monotonic.now
        try body()
        return Monotonic.now - start
    }
}

/// The CPUs this process may run on, and running on chosen ones: the change-latency figure places the observer
/// itself, identically for ours and the baseline (see `Figures.changeLatency`).
enum Placement {
    /// Bytes of an affinity mask: room for 1,024 CPUs.
    private static let maskBytes = 128

    /// The CPUs in this thread's affinity mask, lowest first (empty when it cannot be read).
    static func allowedCPUs() -> [Int] {
        var mask = [UInt8](repeating: 0, count: maskBytes)
        guard lockstep_affinity(0, &mask, Int32(maskBytes)) == 0 else { return [] }
        return (0..<(maskBytes * 8)).filter { mask[$0 / 8] & (1 << ($0 % 8)) != 0 }
    }

    /// Runs `body` with this thread restricted to `cpus` (processes it spawns meanwhile inherit that), then puts
    /// the previous mask back. An empty list, or a refused change, runs `body` where it is.
    static func on<R>(_ cpus: [Int], _ body: () throws -> R) rethrows -> R {
        var previous = [UInt8](repeating: 0, count: maskBytes)
        guard !cpus.isEmpty, lockstep_affinity(0, &previous, Int32(maskBytes)) == 0 else { return try body() }
        var mask = [UInt8](repeating: 0, count: maskBytes)
        for cpu in cpus where cpu / 8 < maskBytes { mask[cpu / 8] |= UInt8(1 << (cpu % 8)) }
        guard lockstep_affinity(1, &mask, Int32(maskBytes)) == 0 else { return try body() }
        defer { _ = lockstep_affinity(1, &previous, Int32(maskBytes)) }
        return try body()
    }
}
