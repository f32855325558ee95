import HabitCore
import LockstepSystem

// The simulated widget extension. No arguments: serve the timeline (commands on stdin). `render --family F`: one
// snapshot on stdout. `status`: the budget and policy.
Standard.setUp()
let arguments = Array(CommandLine.arguments.dropFirst())
let app = WidgetApp(environment: .fromProcess(role: .widget))
do {
    switch (arguments.first, arguments.count) {
    case (nil, _): try app.serve()
    case ("render", 3) where arguments[1] == "--family": print(try app.snapshot(family: arguments[2]))
    case ("placeholder", 3) where arguments[1] == "--family", ("status", 1): print(try app.execute([arguments[0]] + arguments.dropFirst(2)))
    case ("--help", _):
        print("usage: lockstep-widget [render --family F | placeholder --family F | status]\n  stdin commands: \(WidgetApp.usage)")
    default:
        throw HabitError(.usage, subject: arguments.joined(separator: " "), detail: "lockstep-widget [render --family F | placeholder --family F | status]")
    }
} catch {
    exit(withError: error)
}
