import Foundation
import HabitCore
import LockstepTestSupport
import AppIntents
import Testing

@Suite("AppIntents with the Habits intents (rules: App Intents)")
struct IntentTests {
    @Test("intent.perform: typed parameters, a result with a dialog, errors as thrown values with their exit status")
    func perform() throws {
        let fixture = HabitsFixture()
        try fixture.addHabits()
        #expect(try fixture.run("lockstep-host", "add", "Water", "💧", "--target", "8").status == 0)
        let list = try fixture.run("lockstep-intent", "list")
        #expect(list.stdout.contains("LogValue --habit <text> --value <number>"), "\(list)")
        #expect(list.stdout.contains("Mark a habit as completed for today\n  summary: Complete ${habit}\n"), "\(list)")
        #expect(list.stdout.contains("  summary: Log ${value} for ${habit}\n"), "\(list)")
        #expect(CompleteHabit.parameters.map(\.name) == ["habit"])

        let done = try fixture.run("lockstep-intent", "perform", "CompleteHabit", "--habit", "Meditate")
        #expect(done.status == 0 && done.stdout.hasPrefix("Marked Meditate as completed!\n"), "\(done)")
        let logged = try fixture.run("lockstep-intent", "perform", "LogValue", "--habit", "Water", "--value", "2.5")
        #expect(logged.stdout.contains("Logged 2.5 for Water: 2.5 of 8, not yet completed."), "\(logged)")
        let left = try fixture.run("lockstep-intent", "perform", "ListIncomplete")
        #expect(left.stdout.contains("3 habits left today: Read, Walk, Water."), "\(left)")

        let cases: [([String], Int32, String)] = [
            (["perform", "CompleteHabit", "--habit", "Nope"], 1, "There is no habit named 'Nope'"),
            (["perform", "LogValue", "--habit", "Water", "--value", "lots"], 2, "The parameter 'lots' is invalid: --value must be a number."),
            (["perform", "LogValue", "--habit", "Water", "--value", "-3"], 2, "a logged value must be a number ≥ 0"),
            (["perform", "CompleteHabit"], 64, "needs the parameter --habit"),
            (["perform", "Fly"], 64, "There is no intent named 'Fly'"),
        ]
        for (arguments, status, message) in cases {
            let result = try LockstepTestSupport.run("lockstep-intent", arguments, environment: fixture.environment)
            #expect(result.status == status && result.stderr.contains(message), "\(arguments): \(result)")
        }
        #expect(try fixture.run("lockstep-host", "summary").stdout.contains("1/4"), "bad input wrote nothing")
    }

    @Test("intent.where: in the app while it runs and is not suspended, else in the extension")
    func executionTarget() throws {
        let fixture = HabitsFixture()
        try fixture.addHabits()
        let host = try fixture.start("lockstep-host")
        let inApp = try fixture.run("lockstep-intent", "perform", "CompleteHabit", "--habit", "Read")
        #expect(inApp.status == 0 && inApp.stdout.contains("performed in the app process"), "\(inApp)")
        #expect(host.waitForLine("intent CompleteHabit performed in the app process") != nil)

        kill(host.pid, SIGSTOP)
        let suspended = try fixture.run("lockstep-intent", "perform", "CompleteHabit", "--habit", "Walk")
        kill(host.pid, SIGCONT)
        #expect(suspended.status == 0 && suspended.stdout.contains("performed in the extension process"), "\(suspended)")
        #expect(host.finish() == 0)

        let alone = try fixture.run("lockstep-intent", "perform", "ListIncomplete")
        #expect(alone.stdout.contains("1 habit left today: Meditate.") && alone.stdout.contains("extension process"), "\(alone)")
    }
}
