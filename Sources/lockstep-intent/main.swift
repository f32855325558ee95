import HabitCore
import LockstepRuntime
import LockstepSystem

// The simulated App Intents extension: `list`, and `perform NAME [--PARAMETER VALUE]…`, which runs the intent in
// the app if it is running and not suspended, else here (RULES.md intent.where), and prints the dialog.
Standard.setUp()
let arguments = Array(CommandLine.arguments.dropFirst())
if arguments.first == "--help" {
    print("usage: \(IntentApp.usage)")
    exit(.success)
}
let process = SimulatedProcess.start(defaultRole: .intent)
do {
    try IntentApp(environment: HabitsEnvironment(process: process, role: .intent)).run(arguments)
} catch {
    exit(withError: error)
}
