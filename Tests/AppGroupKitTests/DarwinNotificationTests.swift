import Foundation
import Testing
@testable import AppGroupKit
import LockstepSystem
import LockstepTestSupport

@Suite struct DarwinNotificationTests {
    @Test func postCountsAndWaitCatchesUp() throws {
        let fixture = Fixture(); defer { fixture.cleanUp() }
        let center = try DarwinNotificationCenter(sandbox: fixture.sandbox())
        #expect(try center.counter("com.example.habits.changed") == 0)
        #expect(try center.post("com.example.habits.changed") == 1)
        // A process that saved position 0 catches up at once.
        #expect(try center.wait("com.example.habits.changed", after: 0, timeout: 5) == 1)
        // Nothing new after the current position: the wait times out.
        #expect(try center.wait("com.example.habits.changed", timeout: 0.05) == nil)
    }

    @Test func aPostOnThePhoneNeverReachesTheWatch() throws {
        let fixture = Fixture(); defer { fixture.cleanUp() }
        let phone = try DarwinNotificationCenter(sandbox: fixture.sandbox())
        let watch = try DarwinNotificationCenter(sandbox: fixture.sandbox("com.example.habits.watchkitapp", device: .watch))
        try phone.post("changed")
        #expect(try watch.counter("changed") == 0)
    }

    @Test func observersRunOnABackgroundThread() throws {
        let fixture = Fixture(); defer { fixture.cleanUp() }
        let center = try DarwinNotificationCenter(sandbox: fixture.sandbox())
        let seen = LineCollector()
        let semaphore = DispatchSemaphore(value: 0)
        let observation = try center.observe("ping") { counter in
            seen.append("\(counter)")
            semaphore.signal()
        }
        defer { observation.cancel() }
        try center.post("ping")
        #expect(semaphore.wait(timeout: .now() + 10) == .success)
        #expect(seen.text.hasPrefix("1"))
    }

    @Test func observersAreWokenByInotify() throws {
        let fixture = Fixture(); defer { fixture.cleanUp() }
        // The polling fallback is only for systems without inotify (or LOCKSTEP_WATCH=poll, tested in ProcessTests).
        #expect(try DirectoryWatcher(directories: [fixture.root.path]).usesInotify == (ProcessInfo.processInfo.environment["LOCKSTEP_WATCH"] != "poll"))
    }

    @Test(arguments: ["", "../x", "a/b", ".hidden"])
    func invalidNames(_ name: String) throws {
        let fixture = Fixture(); defer { fixture.cleanUp() }
        let center = try DarwinNotificationCenter(sandbox: fixture.sandbox())
        let error = #expect(throws: AppGroupError.self) { try center.post(name) }
        #expect(error?.exitStatus == .invalidInput)
    }
}
