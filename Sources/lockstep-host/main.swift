import HabitCore
import LockstepRuntime
import LockstepSystem

// The simulated containing app. No arguments: the long-running app (commands on stdin, one result line each).
// With arguments: one command, then exit (`lockstep-host add Meditate 🧘`).
Standard.setUp()
let arguments = Array(CommandLine.arguments.dropFirst())
if arguments.first == "--help" {
    print("usage: lockstep-host [COMMAND]\n  commands: \(HostApp.usage)")
    exit(.success)
}
// A stale build found on a library's own thread (rule `runtime.stale`) ends this process, as iOS ends it.
ProcessStop.install { exit(withError: $0) }
let process: SimulatedProcess
do {
    guard let started = try SimulatedProcess.start(defaultRole: .host) else { exit(.success) }  // `up`'s launch check
    process = started
} catch {
    exit(withError: error)
}
do {
    let environment = try HabitsEnvironment(process: process, role: .host)
    if arguments.isEmpty {
        try HostApp.serve(environment: environment)
        exit(.success)
    }
    try HostApp(environment: environment).runOnce(arguments)
} catch {
    exit(withError: error)
}
