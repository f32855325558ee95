/// The worker's side of a throughput run, which `lockstep-bench` (its figures and baselines) and the proof tests
/// (through `lockstep-probe`) start in several processes at once and release together.
package enum ThroughputWorker {
    /// `setUp` once, `warmup` untimed operations, then `ready` on stdout; on `go` from stdin, `count` timed operations
    /// and `done START END` in seconds of `Monotonic`, the clock every process on the machine shares, so the driver
    /// can take the span from the first start to the last end. Anything but `go` ends the worker untimed.
    package static func run(count: Int, warmup: Int, _ setUp: () throws -> () throws -> Void) throws {
        let operation = try setUp()
        for _ in 0..<warmup { try operation() }
        print("ready")
        guard readLine() == "go" else { return }
        let start = Monotonic.now
        for _ in 0..<count { try operation() }
        print("done \(start) \(Monotonic.now)")
    }
}
