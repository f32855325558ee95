import LockstepRuntime
import LockstepSystem
import AppIntents

/// The App Intents extension (`lockstep-intent`): lists the Habits intents, and performs one where rule
/// `intent.where` says — in the app if it is running and not suspended, else here — printing its dialog.
public struct IntentApp {
    public let environment: HabitsEnvironment

    public static let usage = "lockstep-intent list | perform INTENT [--PARAMETER VALUE]…"

    /// Makes `environment` the one the intents read while they perform.
    public init(environment: HabitsEnvironment) {
        self.environment = environment
        HabitsEnvironment.current = environment
    }

    /// Runs one command line (`list`, `perform NAME --habit Meditate`), printing its result.
    /// - Throws: `HabitError` (`.usage`, exit 64) for a command line it does not take; the intent's own errors.
    public func run(_ arguments: [String]) throws {
        switch arguments.first {
        case "list":
            for intent in habitIntents.intents {
                let parameters = intent.parameters.map { "--\($0.name) <\($0.typeName)>" }.joined(separator: " ")
                print("\(intent.name)\(parameters.isEmpty ? "" : " \(parameters)")  — \(intent.description.map { "\($0)" } ?? "\(intent.title)")")
                // The sentence the Shortcuts app shows for the action (its ParameterSummary).
                if let summary = intent.summaryText { print("  summary: \(summary)") }
            }
        case "perform" where arguments.count >= 2:
            let parameters = try IntentRegistry.arguments(arguments.dropFirst(2))
            let started = Monotonic.now
            let (result, target) = try environment.intentRouter.perform(arguments[1], arguments: parameters)
            print(result.dialog ?? result.value ?? "Done.")
            let milliseconds = Int(((Monotonic.now - started) * 1000).rounded())
            print(target == .app
                  ? "(performed in the app process: \(environment.hostBundleIdentifier) is running and not suspended; \(milliseconds) ms)"
                  : "(performed in the extension process: the app is not running; \(milliseconds) ms)")
        default:
            throw HabitError(.usage, subject: arguments.joined(separator: " "), detail: Self.usage)
        }
    }
}
