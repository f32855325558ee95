import AppGroupKit
import Foundation
import LockstepTestSupport
import Testing

/// Mutated container files — the defaults suite's plist and its journal — as another process (or a disk) could
/// leave them: opening, reading and writing the suite either works or throws an `AppGroupError`, never traps.
///
/// Deterministic, like `BundleFuzzTests`; run longer with `LOCKSTEP_FUZZ_CASES` / `LOCKSTEP_FUZZ_SEED`.
@Suite struct ContainerFuzzTests {
    static let tokens = ["bplist00", "<dict>", "<key>", "<integer>", "\u{0}\u{0}\u{0}\u{0}", "\u{FF}\u{FF}\u{FF}\u{7F}",
                         "\u{8}\u{0}\u{0}\u{0}", "pid", "set", "remove"]

    /// A suite with values of every plist type folded into its plist, then more writes left in its journal.
    static func seeds(_ groups: String) throws -> (plist: String, journal: String, plistBytes: [UInt8], journalBytes: [UInt8]) {
        let defaults = try Proof.suite(groups)
        try defaults.set("Meditate", forKey: "habit.name")
        try defaults.set(3, forKey: "goal")
        try defaults.set(2.5, forKey: "ratio")
        try defaults.set(true, forKey: "enabled")
        try defaults.set(Date(timeIntervalSince1970: 1_700_000_000), forKey: "since")
        try defaults.set(Data([0, 1, 2]), forKey: "blob")
        try defaults.set(["a", "b"], forKey: "list")
        try defaults.set(["nested": ["x": 1]], forKey: "map")
        try defaults.synchronize()
        try defaults.increment("counter")
        try defaults.set("Read", forKey: "habit.name")
        try defaults.removeObject(forKey: "ratio")
        let journal = "\(groups)/phone/AppGroup/\(Proof.group)/.lockstep/defaults/\(Proof.group).journal"
        let plistBytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: defaults.plistPath)))
        let journalBytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: journal)))
        return (defaults.plistPath, journal, plistBytes, journalBytes)
    }

    static func isClean(_ error: any Error) -> Bool { error is AppGroupError }

    @Test func mutatedPlistsAndJournals() throws {
        let groups = TestSupport.temporaryDirectory("proof-container-fuzz")
        defer { TestSupport.cleanUp(groups) }
        let seed = try Self.seeds(groups.path)
        #expect(!seed.journalBytes.isEmpty, "the seed journal must hold records")
        for (format, mutatesPlist) in [("defaults plist", true), ("journal", false)] {
            let outcome = fuzz(format, seeds: [mutatesPlist ? seed.plistBytes : seed.journalBytes], tokens: Self.tokens,
                               cases: FuzzSettings.cases(standard: 750), isClean: Self.isClean) { bytes in
                try writeCase(mutatesPlist ? bytes : seed.plistBytes, to: seed.plist)
                try writeCase(mutatesPlist ? seed.journalBytes : bytes, to: seed.journal)
                let defaults = try Proof.suite(groups.path)
                _ = try defaults.dictionaryRepresentation()
                try defaults.increment("fuzz.counter")
                _ = try defaults.value(forKey: "fuzz.counter")
            }
            #expect(outcome.foreignErrors.isEmpty, "\(outcome.foreignErrors)")
            #expect(outcome.accepted > 0, "\(format): \(outcome)")
            if mutatesPlist { #expect(outcome.rejected > 0, "\(format): \(outcome)") }
        }
    }
}
