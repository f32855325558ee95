import Foundation
import LockstepTestSupport
import Testing

/// Habit names are the user's, and every bundle draws them: bounded in bytes as well as characters (security round four).
@Suite struct HostileNameTests {
    /// 'a' and 6,000,000 combining accents is one Character and 12 MB: it passed the 64-character cap, and the
    /// widget then took 15 s to draw it. It is refused by its bytes, and the sentence quotes only its start.
    @Test func aNameOfOneCharacterAndMegabytesIsRefused() throws {
        let fixture = HabitsFixture()
        let name = "a" + String(repeating: "\u{301}", count: 50_000)  // 100 KB: an argument holds at most 128 KB
        let add = try fixture.run("lockstep-host", "add", name)
        #expect(add.status == 2, "\(add.stderr.prefix(300))")
        #expect(add.stderr.contains("is invalid: it is longer than 1024 bytes"), "\(add.stderr.prefix(300))")
        #expect(add.stderr.utf8.count < 1000)
        // 64 flags (8 bytes each) are still a name.
        #expect(try fixture.run("lockstep-host", "add", String(repeating: "🇫🇷", count: 64)).status == 0)
    }

    /// `activity start` of a habit that does not exist named no habit, even when some existed.
    @Test func anUnknownHabitForALiveActivityNamesTheHabitsThereAre() throws {
        let fixture = HabitsFixture()
        let none = try fixture.run("lockstep-host", "activity", "start", "Nope")
        #expect(none.stderr.contains("There is no habit named 'Nope' (habits: none yet; add it first)."), "\(none)")
        #expect(try fixture.run("lockstep-host", "add", "Read").status == 0)
        let one = try fixture.run("lockstep-host", "activity", "start", "Nope")
        #expect(one.stderr.contains("There is no habit named 'Nope' (habits: Read)."), "\(one)")
    }
}
