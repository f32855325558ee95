import HabitCore
import LockstepRuntime
import LockstepSystem

// The simulated watch app, on the watch device. No arguments: the long-running app (commands on stdin).
// With arguments: one command (`lockstep-watch toggle Meditate`, `lockstep-watch list`), then exit.
Standard.setUp()
let arguments = Array(CommandLine.arguments.dropFirst())
if arguments.first == "--help" {
    print("usage: lockstep-watch [COMMAND]\n  commands: \(WatchApp.usage)")
    exit(.success)
}
let process = SimulatedProcess.start(defaultRole: .watch)
do {
    let app = WatchApp(environment: try HabitsEnvironment(process: process, role: .watch))
    if arguments.isEmpty { try app.serve() }
    try app.runOnce(arguments)
} catch {
    exit(withError: error)
}
