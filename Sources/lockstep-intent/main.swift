import HabitCore
import LaunchKit
import LockstepSystem
import SimAppIntents

// The simulated App Intents extension: `list`, and `perform NAME [--PARAMETER VALUE]…`, which runs the intent in
// the app if it is running and not suspended, else here (RULES.md intent.where), and prints the dialog.
Standard.setUp()
let arguments = Array(CommandLine.arguments.dropFirst())
let usage = "lockstep-intent list | perform INTENT [--PARAMETER VALUE]…"
if arguments.first == "--help" {
    print("usage: \(usage)")
    exit(.success)
}
let process = BundleProcess.start(defaultRole: .intent)
do {
    let environment = try HabitsEnvironment(process: process, role: .intent)
    HabitsEnvironment.current = environment
    switch arguments.first {
    case "list":
        for intent in habitIntents.intents {
            let parameters = intent.parameters.map { "--\($0.name) <\($0.typeName)>" }.joined(separator: " ")
            print("\(intent.name)\(parameters.isEmpty ? "" : " \(parameters)")  — \(intent.description)")
        }
    case "perform" where arguments.count >= 2:
        var parameters: [String: String] = [:]
        var rest = arguments.dropFirst(2)
        while let flag = rest.popFirst() {
            guard flag.hasPrefix("--"), let value = rest.popFirst() else {
                throw HabitError(.usage, subject: flag, detail: "perform INTENT [--PARAMETER VALUE]…")
            }
            parameters[String(flag.dropFirst(2))] = value
        }
        let started = Monotonic.now
        let (result, target) = try environment.intentRouter.perform(arguments[1], arguments: parameters)
        print(result.dialog ?? result.value ?? "Done.")
        let milliseconds = Int(((Monotonic.now - started) * 1000).rounded())
        print(target == .app
              ? "(performed in the app process: \(environment.hostBundleIdentifier) is running and not suspended; \(milliseconds) ms)"
              : "(performed in the extension process: the app is not running; \(milliseconds) ms)")
    default:
        throw HabitError(.usage, subject: arguments.joined(separator: " "), detail: usage)
    }
} catch {
    exit(withError: error)
}
