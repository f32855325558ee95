import Foundation
import LockstepTestSupport

/// Mutates well-formed inputs into malformed ones: bit flips, byte noise, insertions and deletions, duplicated and
/// swapped ranges, truncation, format tokens spliced in (so the parser gets past its first check), and for binary
/// property lists the trailer's sizes and offsets, where a careless reader indexes out of bounds.
struct Mutator {
    /// Tokens of the input's format, spliced in whole (`<dict>`, `{`, `$(`, `#include "`).
    var tokens: [[UInt8]]

    init(tokens: [String]) {
        self.tokens = tokens.map { Array($0.utf8) }
    }

    /// Bytes parsers treat specially: NUL, high bits, quotes and brackets, UTF-8 lead bytes, and binary-plist object
    /// markers (0xA1 array, 0xC1 set, 0xD1 dictionary, of one element).
    static let interestingBytes: [UInt8] = [0x00, 0x01, 0x7F, 0x80, 0xFF, 0x0A, 0x22, 0x24, 0x28, 0x29, 0x3B, 0x3C, 0x3E, 0x5C, 0x7B, 0x7D, 0xC3, 0xE2, 0xA1, 0xC1, 0xD1]
    static let interestingNumbers = ["-1", "0", "18446744073709551616", "9223372036854775807", "-9223372036854775808", "1e308", "NaN", "0x7fffffff", "1.0.0.0.0", ""]

    /// One to four mutations of `seed`.
    func mutate(_ seed: [UInt8], using random: inout SeededGenerator) -> [UInt8] {
        var bytes = seed
        for _ in 0..<Int.random(in: 1...4, using: &random) {
            mutateOnce(&bytes, using: &random)
        }
        return bytes
    }

    private func mutateOnce(_ bytes: inout [UInt8], using random: inout SeededGenerator) {
        func position(_ extra: Int = 0) -> Int { Int.random(in: 0...max(0, bytes.count - 1 + extra), using: &random) }
        func range() -> Range<Int> {
            guard !bytes.isEmpty else { return 0..<0 }
            let start = position()
            let length = Int.random(in: 1...min(64, bytes.count - start), using: &random)
            return start..<(start + length)
        }
        switch Int.random(in: 0..<11, using: &random) {
        case 0 where !bytes.isEmpty:
            let index = position()
            bytes[index] ^= 1 << UInt8.random(in: 0..<8, using: &random)
        case 1 where !bytes.isEmpty:
            bytes[position()] = Mutator.interestingBytes.randomElement(using: &random)!
        case 2:
            let noise = (0..<Int.random(in: 1...16, using: &random)).map { _ in UInt8.random(in: 0...255, using: &random) }
            bytes.insert(contentsOf: noise, at: position(1))
        case 3 where !bytes.isEmpty:
            bytes.removeSubrange(range())
        case 4 where !bytes.isEmpty:
            let copied = Array(bytes[range()])
            bytes.insert(contentsOf: copied, at: position(1))
        case 5 where !bytes.isEmpty:
            bytes.removeSubrange(position()...)
        case 6 where !tokens.isEmpty:
            bytes.insert(contentsOf: tokens.randomElement(using: &random)!, at: position(1))
        case 7 where !bytes.isEmpty:
            bytes.replaceSubrange(range(), with: Array(Mutator.interestingNumbers.randomElement(using: &random)!.utf8))
        case 8 where bytes.count >= 32 && bytes.starts(with: Array("bplist".utf8)):
            // The 32-byte trailer: offset size, ref size, object count, top object, offset table offset.
            let index = bytes.count - 32 + Int.random(in: 6..<32, using: &random)
            bytes[index] = [0x00, 0x01, 0x02, 0x08, 0x7F, 0xFF].randomElement(using: &random)!
        case 9 where bytes.count > 8:
            let a = range(), b = range()
            if a.upperBound <= b.lowerBound {
                let first = Array(bytes[a]), second = Array(bytes[b])
                bytes.replaceSubrange(b, with: first)
                bytes.replaceSubrange(a, with: second)
            }
        case 10 where !bytes.isEmpty:
            // A nesting bomb: the same opening token many times.
            if let token = tokens.randomElement(using: &random) {
                bytes.insert(contentsOf: Array([[UInt8]](repeating: token, count: Int.random(in: 50...400, using: &random)).joined()), at: position(1))
            }
        default:
            bytes.insert(Mutator.interestingBytes.randomElement(using: &random)!, at: position(1))
        }
    }
}

/// The fuzz loop's settings: a fixed seed and case count by default, overridable for longer runs:
/// `LOCKSTEP_FUZZ_CASES=200000 LOCKSTEP_FUZZ_SEED=7 swift test --filter ProofTests.Fuzz`.
enum FuzzSettings {
    static var seed: UInt64 {
        ProcessInfo.processInfo.environment["LOCKSTEP_FUZZ_SEED"].flatMap { UInt64($0) } ?? 0x10C5_7E9
    }

    /// `LOCKSTEP_FUZZ_TRACE=FILE`: each case's input is written to FILE-FORMAT (and its format, index and seed to
    /// FILE-FORMAT.txt) before it runs, so after a crash or a hang that file holds the input that caused it.
    static var trace: String? { ProcessInfo.processInfo.environment["LOCKSTEP_FUZZ_TRACE"] }

    /// Cases per input format: `LOCKSTEP_FUZZ_CASES`, else 20,000 under `LOCKSTEP_STRESS=1`, else `standard`.
    static func cases(standard: Int) -> Int {
        let environment = ProcessInfo.processInfo.environment
        if let cases = environment["LOCKSTEP_FUZZ_CASES"].flatMap(Int.init) { return cases }
        return environment["LOCKSTEP_STRESS"] == "1" ? 20_000 : standard
    }
}

/// What a fuzz run found: inputs that threw an error of a type other than the module's own.
struct FuzzOutcome {
    var cases = 0
    var rejected = 0
    var accepted = 0
    var foreignErrors: [String] = []
}

/// Runs `cases` mutations of the seeds through `body`. An error of an `allowed` type is a clean rejection; any
/// other error is recorded (a trap would end the test process, which is the failure it is meant to find).
/// Each case's generator is derived from (seed, format, index), so a case is reproducible on its own.
func fuzz(_ format: String, seeds: [[UInt8]], tokens: [String], cases: Int,
          isClean: (any Error) -> Bool, _ body: ([UInt8]) throws -> Void) -> FuzzOutcome {
    let mutator = Mutator(tokens: tokens)
    var outcome = FuzzOutcome()
    let formatSalt = format.utf8.reduce(UInt64(1469598103934665603)) { ($0 ^ UInt64($1)) &* 1099511628211 }
    for index in 0..<cases {
        var random = SeededGenerator(seed: FuzzSettings.seed ^ formatSalt ^ (UInt64(index) &* 0x2545_F491_4F6C_DD1D))
        let seed = seeds[Int.random(in: 0..<seeds.count, using: &random)]
        let input = mutator.mutate(seed, using: &random)
        outcome.cases += 1
        if let trace = FuzzSettings.trace {
            // Written before the case runs, so a trap or a hang leaves the input that caused it behind; one file
            // per format, as the formats' loops run in parallel.
            let file = "\(trace)-\(format.replacingOccurrences(of: " ", with: "-"))"
            try? Data(input).write(to: URL(fileURLWithPath: file))
            try? Data("\(format) case \(index) seed \(FuzzSettings.seed)\n".utf8).write(to: URL(fileURLWithPath: file + ".txt"))
        }
        do {
            try body(input)
            outcome.accepted += 1
        } catch where isClean(error) {
            outcome.rejected += 1
        } catch {
            if outcome.foreignErrors.count < 10 {
                outcome.foreignErrors.append("\(format) case \(index) (seed \(FuzzSettings.seed)): \(type(of: error)): \(error)")
            }
        }
    }
    return outcome
}

/// Writes a fuzz case where the reader will find it. No fsync: a case lives for microseconds and durability is
/// not what is being tested (`AtomicFile.write` would make the loop a hundred times slower).
func writeCase(_ bytes: [UInt8], to path: String) throws {
    try Data(bytes).write(to: URL(fileURLWithPath: path))
}
