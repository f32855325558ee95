import Foundation
import LockstepTestSupport
import Testing

@Suite("Habits under load (LOCKSTEP_STRESS=1)")
struct StressTests {
    @Test("many intents at once, routed to the app and run in the extension, lose no write",
          .enabled(if: ProcessInfo.processInfo.environment["LOCKSTEP_STRESS"] == "1"))
    func concurrentIntents() throws {
        let fixture = HabitsFixture()
        #expect(try fixture.run("lockstep-host", "add", "Water", "💧", "--target", "1000").status == 0)
        let widget = try fixture.start("lockstep-widget")
        func burst(_ count: Int) throws {
            for _ in 0..<(count / 8) {
                let batch = try (0..<8).map { _ in
                    try Child("lockstep-intent", ["perform", "LogValue", "--habit", "Water", "--value", "1"], environment: fixture.environment)
                }
                for child in batch { #expect(child.wait().status == 0) }
            }
        }
        let host = try fixture.start("lockstep-host")
        try burst(40)
        #expect(host.finish() == 0)
        try burst(40)
        #expect(try fixture.run("lockstep-host", "log", "Water", "0").stdout.contains("Water: 80/1000"))
        #expect(widget.finish() == 0)
    }
}
