import HabitCore
import LockstepRuntime
import LockstepSystem

// The Habits App Clip: `add NAME [EMOJI]`, `status`; one command, then it exits.
Standard.setUp()
let arguments = Array(CommandLine.arguments.dropFirst())
if arguments.first == "--help" {
    print("usage: lockstep-clip \(ClipApp.usage)")
    exit(.success)
}
ProcessStop.install { exit(withError: $0) }
do {
    // Before `start`, which makes the clip's container; `up`'s launch check runs it with no words and is no usage.
    if ProcessEnvironment.value(LaunchEnvironment.launchCheck) != "1" { try ClipApp.checkUsage(arguments) }
    guard let process = try SimulatedProcess.start(defaultRole: .clip) else { exit(.success) }  // `up`'s launch check
    print(try ClipApp.run(arguments, environment: try HabitsEnvironment(process: process, role: .clip)))
    exit(.success)
} catch {
    exit(withError: error)
}
