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
let process = SimulatedProcess.start(defaultRole: .host)
do {
    let environment = try HabitsEnvironment(process: process, role: .host)
    if arguments.isEmpty { try HostApp.serve(environment: environment) }
    try HostApp(environment: environment).runOnce(arguments)
} catch {
    exit(withError: error)
}
