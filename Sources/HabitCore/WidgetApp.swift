import AppGroupKit
import ActivityKit
import AppIntents
import LockstepRuntime
import LockstepSystem
import WidgetKit

/// The widget extension process (`lockstep-widget`): the Habits widget plus the system side that drives it.
public struct WidgetApp: Sendable {
    public let environment: HabitsEnvironment
    public let system: WidgetSystem<HabitsWidget>
    /// The app's Live Activities, rendered in this process (RULES.md `activity.lifecycle`).
    public let liveActivities: LiveActivityRenderer

    public static let usage = "render FAMILY | placeholder FAMILY | status | tap INTENT [--PARAMETER VALUE]… | quit"

    public init(environment: HabitsEnvironment) {
        self.environment = environment
        system = WidgetSystem(widget: HabitsWidget(environment: environment), groupsRoot: environment.groupsRoot,
                              groupContainer: environment.groupContainer, hostBundleIdentifier: environment.hostBundleIdentifier,
                              notifications: try? DarwinNotificationCenter(sandbox: environment.sandbox), output: { print($0) })
        liveActivities = LiveActivityRenderer(system: ActivitySystem(groupsRoot: environment.groupsRoot, appBundleIdentifier: environment.hostBundleIdentifier),
                                              presentations: [HabitActivityAttributes.presentation], output: { print($0) })
    }

    /// Serves timelines until stdin ends: reload requests, policies, the budget, one line per event.
    public func serve() throws {
        try system.start()
        liveActivities.start(notifications: try? DarwinNotificationCenter(sandbox: environment.sandbox))
        print("ready \(environment.bundleIdentifier): \(system.status())")
        try CommandInput.serve(execute)
    }

    /// `render FAMILY` (the current timeline entry), `placeholder FAMILY`, `status`.
    public func execute(_ words: [String]) throws -> String {
        switch (words.first ?? "", words.count) {
        case ("render", 2): return system.render(family: try WidgetFamily(parsing: words[1])).joined(separator: "\n")
        case ("placeholder", 2): return system.placeholder(family: try WidgetFamily(parsing: words[1])).joined(separator: "\n")
        case ("status", 1): return system.status()
        case ("tap", 2...):
            // The widget's complete button (RULES.md widget.interactive); the intents read the environment.
            HabitsEnvironment.current = environment
            let result = try system.tap(words[1], arguments: try IntentRegistry.arguments(words.dropFirst(2)), router: environment.intentRouter)
            return "tapped \(words[1]): \(result.dialog ?? result.value ?? "done")"
        default: throw HabitError(.usage, subject: words.joined(separator: " "), detail: Self.usage)
        }
    }

    /// `lockstep-widget render --family F`: a one-shot snapshot (`getSnapshot`), no timeline served.
    public func snapshot(family: String) throws -> String {
        try system.snapshot(family: try WidgetFamily(parsing: family)).joined(separator: "\n")
    }
}
