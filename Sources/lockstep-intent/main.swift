import HabitCore
import LockstepRuntime
import LockstepSystem

// The simulated App Intents extension: `list`, and `perform NAME [--PARAMETER VALUE]…`, which runs the intent in
// the app if it is running and not suspended, else here (rule `intent.where`), and prints the dialog.
Standard.setUp()
let arguments = Array(CommandLine.arguments.dropFirst())
if arguments.first == "--help" {
    print("usage: \(IntentApp.usage)")
    exit(.success)
}
// A stale build found on a library's own thread (rule `runtime.stale`) ends this process, as iOS ends it.
ProcessStop.install { exit(withError: $0) }
let process: SimulatedProcess
do {
    guard let started = try SimulatedProcess.start(defaultRole: .intent) else { exit(.success) }  // `up`'s launch check
    process = started
} catch {
    exit(withError: error)
}
do {
    try IntentApp(environment: HabitsEnvironment(process: process, role: .intent)).run(arguments)
} catch {
    exit(withError: error)
}
