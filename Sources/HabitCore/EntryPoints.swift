import LockstepRuntime
import LockstepSystem

// The Habits executables' entry points: each `lockstep-*` executable of the reference app is one of these calls.

extension HostApp {
    /// The simulated containing app (`lockstep-host`). No arguments: the long-running app (commands on stdin, one
    /// result line each). With arguments: one command, then exit (`lockstep-host add Meditate 🧘`).
    public static func main() -> Never {
        SimulatedProcess.main(role: .host, usage: "lockstep-host [COMMAND]\n  commands: \(usage)") { process, arguments in
            let environment = try HabitsEnvironment(process: process, role: .host)
            if arguments.isEmpty {
                try serve(environment: environment)
            } else {
                try HostApp(environment: environment).runOnce(arguments)
            }
        }
    }
}

extension WatchApp {
    /// The simulated watch app, on the watch device (`lockstep-watch`). No arguments: the long-running app (commands
    /// on stdin). With arguments: one command (`lockstep-watch toggle Meditate`, `lockstep-watch list`), then exit.
    public static func main() -> Never {
        SimulatedProcess.main(role: .watch, usage: "lockstep-watch [COMMAND]\n  commands: \(usage)") { process, arguments in
            let app = WatchApp(environment: try HabitsEnvironment(process: process, role: .watch))
            if arguments.isEmpty {
                try app.serve()
            } else {
                try app.runOnce(arguments)
            }
        }
    }
}

extension IntentApp {
    /// The simulated App Intents extension (`lockstep-intent`): `list`, and `perform NAME [--PARAMETER VALUE]…`,
    /// which runs the intent in the app if it is running and not suspended, else here (rule `intent.where`), and
    /// prints the dialog.
    public static func main() -> Never {
        SimulatedProcess.main(role: .intent, usage: usage) { process, arguments in
            try IntentApp(environment: HabitsEnvironment(process: process, role: .intent)).run(arguments)
        }
    }
}

extension ClipApp {
    /// The Habits App Clip (`lockstep-clip`): `add NAME [EMOJI]`, `status`; one command, then it exits.
    public static func main() -> Never {
        SimulatedProcess.main(role: .clip, usage: "lockstep-clip \(usage)", beforeStart: { arguments in
            // Before `start`, which makes the clip's container; `up`'s launch check runs it with no words and is no usage.
            if ProcessEnvironment.value(LaunchEnvironment.launchCheck) != "1" { try checkUsage(arguments) }
        }) { process, arguments in
            print(try run(arguments, environment: try HabitsEnvironment(process: process, role: .clip)))
        }
    }
}
