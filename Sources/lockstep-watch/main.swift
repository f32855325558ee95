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
// A stale build found on a library's own thread (rule `runtime.stale`) ends this process, as iOS ends it.
ProcessStop.install { exit(withError: $0) }
let process: SimulatedProcess
do {
    guard let started = try SimulatedProcess.start(defaultRole: .watch) else { exit(.success) }  // `up`'s launch check
    process = started
} catch {
    exit(withError: error)
}
do {
    let app = WatchApp(environment: try HabitsEnvironment(process: process, role: .watch))
    if arguments.isEmpty {
        try app.serve()
        exit(.success)
    }
    try app.runOnce(arguments)
} catch {
    exit(withError: error)
}
