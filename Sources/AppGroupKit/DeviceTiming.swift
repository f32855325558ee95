import LockstepSystem

/// How faithfully shared defaults reproduce a device's timing: `strict` (the default, stricter than any device: rule
/// `defaults.visibility`) or `realistic` (rules `defaults.device-flush`, `defaults.device-cache` and
/// `defaults.device-coalesce`), with the seed every delay is drawn from.
///
/// A launcher (`lockstep up`/`run --device-timing realistic --seed N`, LockstepTesting) passes both to each process
/// it starts in `LOCKSTEP_DEVICE_TIMING` and `LOCKSTEP_SEED`. Every delay is a pure function of the seed, the
/// bundle, the suite and how many delays that suite drew before in the process, so a run is reproducible: the same
/// seed draws the same delays in the same order, run after run.
public struct DeviceTiming: Sendable, Equatable, CustomStringConvertible {
    public enum Mode: String, Sendable, CaseIterable {
        case strict
        case realistic
    }

    public var mode: Mode
    public var seed: UInt64

    /// The environment variable naming the mode.
    public static let modeVariable = "LOCKSTEP_DEVICE_TIMING"
    /// The environment variable holding the seed (a non-negative integer).
    public static let seedVariable = "LOCKSTEP_SEED"

    /// The seed when none is given.
    public static let defaultSeed: UInt64 = 1

    /// Seconds before a write not flushed by the process reaches the shared store (rule `defaults.device-flush`).
    /// A device takes from a moment to minutes (ArcMini #98); bounded here so that a run stays short, and above
    /// any `within` of under two seconds, so that a missing flush is caught every time, not by luck.
    public static let flushDelay = 2.0...4.0
    /// Seconds a process serves a suite from its own cache before it looks at the shared store again (rule
    /// `defaults.device-cache`).
    public static let cacheLifetime = 1.0...2.0
    /// Seconds over which another process's changes are gathered into one callback (rule `defaults.device-coalesce`).
    public static let coalescingWindow = 0.05...0.25

    public static let strict = DeviceTiming(mode: .strict, seed: defaultSeed)

    public init(mode: Mode, seed: UInt64 = DeviceTiming.defaultSeed) {
        self.mode = mode
        self.seed = seed
    }

    public var isRealistic: Bool { mode == .realistic }

    public var description: String { mode == .strict ? "strict" : "realistic, seed \(seed)" }

    /// Reads a mode and a seed as the command line and the environment spell them.
    /// - Returns: the timing, or the sentence saying what is wrong (the caller gives it its status).
    public static func parse(mode: String?, seed: String?) -> Result<DeviceTiming, ParseFailure> {
        var timing = DeviceTiming.strict
        if let mode {
            guard let known = Mode(rawValue: mode) else {
                return .failure(ParseFailure("'\(mode)' is not a device timing: use strict (the default) or realistic"))
            }
            timing.mode = known
        }
        if let seed {
            guard let number = UInt64(seed) else {
                return .failure(ParseFailure("'\(seed)' is not a seed: use a non-negative integer below 2^64"))
            }
            timing.seed = number
        }
        return .success(timing)
    }

    /// Why a mode or seed was refused: one clause, for the caller's sentence.
    public struct ParseFailure: Error, Sendable {
        public let reason: String
        init(_ reason: String) { self.reason = reason }
    }

    /// This process's timing, from `LOCKSTEP_DEVICE_TIMING` and `LOCKSTEP_SEED` (strict when unset).
    /// - Throws: `.invalidTiming` (exit 2) when either is set to something else.
    public static func current() throws(AppGroupError) -> DeviceTiming {
        let mode = ProcessEnvironment.value(modeVariable)
        let seed = ProcessEnvironment.value(seedVariable)
        if case .failure(let failure) = parse(mode: mode, seed: nil) {
            throw AppGroupError(.invalidTiming, subject: "\(modeVariable)=\(mode ?? "")", detail: failure.reason)
        }
        switch parse(mode: mode, seed: seed) {
        case .success(let timing): return timing
        case .failure(let failure): throw AppGroupError(.invalidTiming, subject: "\(seedVariable)=\(seed ?? "")", detail: failure.reason)
        }
    }

    /// The environment that gives a launched process this timing (nothing for the default, strict).
    public var environment: [String: String] {
        isRealistic ? [Self.modeVariable: mode.rawValue, Self.seedVariable: String(seed)] : [:]
    }

    /// The `index`th delay of `stream` (a bundle and suite), in `range`: the same for the same seed, every run.
    func delay(_ range: ClosedRange<Double>, stream: String, index: Int) -> Double {
        // FNV-1a over the stream's bytes (Swift's own hashing is seeded anew in every process), then SplitMix64.
        var state: UInt64 = 0xCBF2_9CE4_8422_2325 ^ seed
        for byte in stream.utf8 { state = (state ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 }
        state &+= UInt64(truncatingIfNeeded: index) &* 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        z ^= z >> 31
        let unit = Double(z >> 11) / Double(1 << 53)
        return range.lowerBound + unit * (range.upperBound - range.lowerBound)
    }
}
