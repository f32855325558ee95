import HabitCore
import LockstepRuntime
import LockstepSystem

// The simulated widget extension. No arguments: serve the timeline (commands on stdin). `render --family F`: one
// snapshot on stdout. `placeholder --family F`, `status`.
Standard.setUp()
let arguments = Array(CommandLine.arguments.dropFirst())
let usage = "lockstep-widget [render --family F | placeholder --family F | status]"
if arguments.first == "--help" {
    print("usage: \(usage)\n  stdin commands: \(WidgetApp.usage)")
    exit(.success)
}
// A stale build found on a library's own thread (RULES.md runtime.stale) ends this process, as iOS ends it.
ProcessStop.install { exit(withError: $0) }
let process: SimulatedProcess
do {
    guard let started = try SimulatedProcess.start(defaultRole: .widget) else { exit(.success) }  // `up`'s launch check
    process = started
} catch {
    exit(withError: error)
}
do {
    if process.bundle.role == .complication {
        // The watch-side widget extension (RULES.md watch.complication): its own families, on the watch's container.
        let watch = process.manifest.bundle(role: .watch)
        let app = ComplicationApp(environment: try HabitsEnvironment(process: process, role: .complication),
                                  watchBundleIdentifier: watch?.bundleIdentifier ?? watch?.name ?? "")
        try app.serve()
        exit(.success)
    }
    let app = WidgetApp(environment: try HabitsEnvironment(process: process, role: .widget))
    switch (arguments.first, arguments.count) {
    case (nil, _): try app.serve()  // until stdin ends
    case ("render", 3) where arguments[1] == "--family": print(try app.snapshot(family: arguments[2]))
    case ("placeholder", 3) where arguments[1] == "--family", ("status", 1): print(try app.execute([arguments[0]] + arguments.dropFirst(2)))
    default: throw HabitError(.usage, subject: arguments.joined(separator: " "), detail: usage)
    }
} catch {
    exit(withError: error)
}
