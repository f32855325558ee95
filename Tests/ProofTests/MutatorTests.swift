import LockstepTestSupport
import Testing

/// The fuzz loop is only worth its seed if the same seed gives the same cases: a failure must reproduce.
@Suite struct MutatorTests {
    @Test func theSameSeedGivesTheSameMutations() {
        let mutator = Mutator(tokens: ["<dict>", "{", "$("])
        let seed = Array("<plist><dict><key>CFBundleVersion</key><string>1</string></dict></plist>".utf8)
        var first = SeededGenerator(seed: 7), second = SeededGenerator(seed: 7)
        for _ in 0..<500 {
            #expect(mutator.mutate(seed, using: &first) == mutator.mutate(seed, using: &second))
        }
    }

    @Test func mutationsChangeTheInputAndStayBounded() {
        let mutator = Mutator(tokens: ["("])
        let seed = Array("bplist00".utf8) + [UInt8](repeating: 0x41, count: 64)
        var random = SeededGenerator(seed: 1)
        var changed = 0
        for _ in 0..<1_000 {
            let mutated = mutator.mutate(seed, using: &random)
            if mutated != seed { changed += 1 }
            #expect(mutated.count < seed.count + 4 * 400 + 4 * 64)
        }
        #expect(changed > 900)
    }
}
