import Foundation
import LockstepSystem
import LockstepTestSupport
import Testing

/// One fresh groups root per test, and the four Habits executables run against it.
final class HabitsFixture {
    let root: URL
    var environment: [String: String]

    init(_ extra: [String: String] = [:]) {
        root = TestSupport.temporaryDirectory("habits")
        environment = ["LOCKSTEP_GROUPS": root.path, "LOCKSTEP_BUNDLE_ID": ""]
        for (key, value) in extra { environment[key] = value }
    }

    deinit { TestSupport.cleanUp(root) }

    var groupContainer: String { "\(root.path)/phone/AppGroup/group.com.example.habits" }
    var storePath: String { "\(groupContainer)/Library/Application Support/Habits.sqlite" }
    var linkDirectory: String { "\(root.path)/link/com.example.habits" }

    /// Runs a one-shot command to completion.
    func run(_ executable: String, _ arguments: String..., environment extra: [String: String] = [:]) throws -> ProcessResult {
        try LockstepTestSupport.run(executable, arguments, environment: environment.merging(extra) { $1 }, timeout: 30)
    }

    /// Starts a long-running bundle and waits for its ready line.
    func start(_ executable: String, environment extra: [String: String] = [:]) throws -> Child {
        let child = try Child(executable, environment: environment.merging(extra) { $1 }, keepStdinOpen: true)
        let ready = child.waitForLine("ready ")
        #expect(ready != nil, "\(executable) printed no ready line: \(child.output) \(child.errorOutput)")
        return child
    }

    /// Adds the demo's three habits and starts the widget, which has said it is ready as the Habits widget and
    /// written its first timeline of them when this returns.
    func startWidgetWithHabits() throws -> Child {
        try addHabits()
        let widget = try start("lockstep-widget")
        #expect(widget.waitForLine("ready com.example.habits.widget") != nil, "\(widget.output)")
        #expect(widget.waitForLine("first timeline") != nil, "\(widget.output)")
        return widget
    }

    /// Adds the demo's three habits through one-shot host commands.
    func addHabits() throws {
        for (name, emoji) in [("Meditate", "🧘"), ("Read", "📚"), ("Walk", "🚶")] {
            let result = try run("lockstep-host", "add", name, emoji)
            #expect(result.status == 0, "\(result)")
        }
    }
}
