import Foundation
import HabitsShared
import LockstepTesting
import Testing

/// The example's app, widget, intents and watch app as separate processes on a simulated device, under Lockstep's
/// rules: what the app writes through `UserDefaults(suiteName:)` and a group file, the widget and the intents see;
/// a widget without the App Group sees nothing.
@Suite struct HabitsExampleTests {
    static let app = "com.example.habits", widget = "com.example.habits.widget"
    static let intents = "com.example.habits.intents", watch = "com.example.habits.watchkitapp"
    static let service = "com.example.habits.notifications"

    /// The app and its extensions; `widgetGroups` is what the widget's entitlements list.
    static func device(widgetGroups: [String] = [AppGroup.identifier], appGroups: [String] = [AppGroup.identifier]) throws -> SimulatedDevice {
        try SimulatedDevice(app: .init("HabitsApp", app, groups: appGroups), embedded: [
            .init("HabitsWidgetExtension", widget, role: "widget", groups: widgetGroups),
            .init("HabitsIntentsExtension", intents, role: "intent", groups: [AppGroup.identifier]),
            .init("HabitsWatchApp", watch, role: "watch"),
            .init("HabitsNotificationService", service, role: "notification", groups: [AppGroup.identifier]),
        ])
    }

    /// The visibility matrix in three lines (rule `group.entitlement`, group.watch-separate).
    @Test func whoSeesWhatTheAppWrites() throws {
        let device = try Self.device(widgetGroups: [])
        defer { device.remove() }
        #expect(try device.sees(Self.intents, whatWrites: Self.app, in: AppGroup.identifier))
        #expect(try !device.sees(Self.widget, whatWrites: Self.app, in: AppGroup.identifier))  // not entitled
        #expect(try !device.sees(Self.watch, whatWrites: Self.app, in: AppGroup.identifier))   // another device
    }

    @Test func theWidgetSeesWhatTheAppWrote() throws {
        let device = try Self.device()
        defer { device.remove() }
        let app = try device.run(Self.app, input: "add Read\nadd Walk\ndone Read\nnote Rain today\nlist\n")
        #expect(app.status == 0, "\(app.stderr)")
        #expect(app.stdout.contains("ready com.example.habits"))
        #expect(app.stdout.contains("✓ Read, · Walk"), "\(app.stdout)")
        // The suite as the widget's UserDefaults(suiteName:) reads it: the app's writes, at once.
        #expect(try device.defaults(AppGroup.identifier, as: Self.widget)["habits"] != nil)

        // Another process: the widget extension — its iOS files, `@main WidgetBundle` included — renders its SwiftUI
        // view from the shared suite and the group file, one line per text.
        let widget = try device.run(Self.widget, ["render", "systemSmall"])
        #expect(widget.status == 0, "\(widget.stderr)")
        #expect(widget.stdout == "Habits\n1/2 done\nRain today\n", "\(widget.stdout)")
        let inline = try device.run(Self.widget, ["render", "accessoryInline"])
        #expect(inline.stdout.contains("1/2 habits"), "\(inline.stdout)")
        // A picture of the medium size, holding the same text.
        let svg = device.folder.appendingPathComponent("medium.svg")
        let drawn = try device.run(Self.widget, ["render", "systemMedium", "--svg", svg.path])
        #expect(drawn.status == 0, "\(drawn.stderr)")
        let picture = try String(contentsOf: svg, encoding: .utf8)
        #expect(picture.contains("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"338\" height=\"158\"")
                && picture.hasSuffix("</svg>\n"), "\(picture)")
        // The text, as drawn (an interpolated Text is drawn in runs: `<tspan>`s of one `<text>`).
        let drawnText = picture.replacingOccurrences(of: "<[^>]+>", with: "", options: .regularExpression)
        #expect(drawnText.contains("1/2 done") && drawnText.contains("Rain today"), "\(picture)")
        let unwritable = try device.run(Self.widget, ["render", "systemMedium", "--svg", "/nonexistent/dir/m.svg"])
        #expect(unwritable.status == 2 && unwritable.stderr.contains("'/nonexistent/dir/m.svg'"), "\(unwritable)")

        // The app asked WidgetKit to reload after each change: the requests are in the group, for the widget.
        let reload = URL(fileURLWithPath: device.groupsRoot).appendingPathComponent("phone/AppGroup/\(AppGroup.identifier)/.lockstep/widgetkit/reload/HabitsWidget")
        #expect((try? String(contentsOf: reload, encoding: .utf8))?.hasPrefix("4 ") == true)
    }

    /// rule `wc.context`: the app sends its habits as the application context; the watch app, started later,
    /// receives the latest one when it activates, and keeps it in its own defaults (the watch shares no group).
    @Test func theWatchReceivesTheAppsContext() throws {
        let device = try Self.device()
        defer { device.remove() }
        let app = try device.run(Self.app, input: "add Read\nsync\nadd Walk\nsync\n")
        #expect(app.status == 0, "\(app.stderr)")
        let watch = try device.run(Self.watch, input: "list\n")
        #expect(watch.status == 0, "\(watch.stderr)")
        #expect(watch.stdout.contains("ready com.example.habits.watchkitapp\nRead, Walk"), "\(watch.stdout)")
        // Kept across launches: a second start lists them with nothing new sent.
        #expect(try device.run(Self.watch, input: "list\n").stdout.contains("Read, Walk"))
    }

    /// rule `intent.where`: with the app not running, the intents run in the extension, on the shared store; an
    /// entity parameter is found through its query; the shortcuts' phrases name the app.
    @Test func intentsRunInTheExtensionWhenTheAppIsNotRunning() throws {
        let device = try Self.device()
        defer { device.remove() }
        let added = try device.run(Self.intents, ["perform", "AddHabitIntent", "--name", "Stretch"])
        #expect(added.status == 0, "\(added.stderr)")
        #expect(added.stdout.contains("Added Stretch.\n(performed in the extension process"), "\(added.stdout)")
        let completed = try device.run(Self.intents, ["perform", "CompleteHabitIntent", "--habit", "Stretch"])
        #expect(completed.stdout.contains("Completed Stretch. 0 left today."), "\(completed)")
        let unknown = try device.run(Self.intents, ["perform", "CompleteHabitIntent", "--habit", "Juggle"])
        #expect(unknown.status == 2 && unknown.stderr.contains("'Juggle' is invalid: --habit must be a Habit id"), "\(unknown)")
        let missing = try device.run(Self.intents, ["perform", "AddHabitIntent"])
        #expect(missing.status == 64 && missing.stderr.contains("needs the parameter --name"), "\(missing)")
        let list = try device.run(Self.intents, ["list"])
        #expect(list.stdout.contains("AddHabitIntent --name <text> [--done <true/false>]  — Start tracking a new habit."), "\(list.stdout)")
        let shortcuts = try device.run(Self.intents, ["shortcuts"])
        #expect(shortcuts.stdout.contains("\"Complete a habit in HabitsApp\" → CompleteHabitIntent"), "\(shortcuts.stdout)")
        // The widget, another process, sees what the intents wrote.
        #expect(try device.run(Self.widget, ["render", "--family", "accessoryInline"]).stdout.contains("1/1 habits"))
    }

    /// rule `intent.where`: while the app runs (and is not suspended), the extension hands the intent to it.
    @Test func intentsRunInTheAppWhileItRuns() throws {
        let device = try Self.device()
        defer { device.remove() }
        let app = try device.start(Self.app)
        #expect(app.waitForLine("ready com.example.habits") != nil, "\(app.output)")
        let added = try device.run(Self.intents, ["perform", "AddHabitIntent", "--name", "Read"])
        #expect(added.stdout.contains("Added Read.\n(performed in the app process"), "\(added)")
        #expect(app.waitForLine("intent AddHabitIntent performed in the app") != nil, "\(app.output)")
        #expect(app.finish() == 0)
    }

    /// `lockstep up` runs the example's bundles as it runs the Habits bundles: it waits for each ready line, prefixes
    /// their output, and a scenario drives them; the widget reloads in its running process, budget-free while the
    /// app is in the foreground. (`lockstep` is the main package's build: `make test` builds it first.)
    @Test func lockstepUpRunsTheExampleAsItsOwnBundles() throws {
        let lockstep = ProcessInfo.processInfo.environment["LOCKSTEP_CLI"]
            ?? URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../../../.build/debug/lockstep").standardized.path
        try #require(FileManager.default.isExecutableFile(atPath: lockstep), "build the main package first (make test does): \(lockstep)")
        let device = try Self.device()
        defer { device.remove() }
        let scenario = device.folder.appendingPathComponent("scenario.txt")
        try """
        == an intent runs in the running app, and the widget follows [intent.where, widget.reload]
        send host add Read
        wait host ok
        run intent perform CompleteHabitIntent --habit Read
        wait widget 1/1 habits
        expect-output performed in the app process
        run widget render --family systemSmall
        expect-output 1/1 done
        """.write(to: scenario, atomically: true, encoding: .utf8)
        let up = try Child(lockstep, ["up", "--manifest", device.manifestPath, "--groups", device.groupsRoot, "--scenario", scenario.path]).wait(timeout: 60)
        #expect(up.status == 0, "\(up)")
        #expect(up.stdout.contains("7 of 7 steps held"), "\(up.stdout)")
        // The running widget reloaded on the app's request (the intent, run in the app, asked it to), budget-free.
        #expect(up.stdout.contains("budget-free: host in foreground"), "\(up.stdout)")
    }

    /// rule `widget.interactive`, widget.configurable: the bundle's configurable widget shows the habit its
    /// configuration names; a tap on its `Button(intent:)` runs that very intent instance in the widget's process
    /// and the widget reloads, budget-free.
    @Test func interactiveAndConfigurableWidgets() throws {
        let device = try Self.device()
        defer { device.remove() }
        _ = try device.run(Self.app, input: "add Read\nadd Walk\n")
        let widget = try device.start(Self.widget)
        #expect(widget.waitForLine("ready com.example.habits.widget") != nil, "\(widget.output)")
        widget.sendLine("--kind SingleHabit configure --habit Walk")
        #expect(widget.waitForLine("→ Walk · ○ to do")?.contains("configuration changed") == true, "\(widget.output)")
        widget.sendLine("--kind SingleHabit tap CompleteHabitIntent")
        #expect(widget.waitForLine("CompleteHabitIntent tapped in the widget; not counted: the person's own action")?.contains("Walk · ✓ done") == true, "\(widget.output)")
        #expect(widget.waitForLine("Completed Walk. 1 left today.") != nil, "\(widget.output)")
        widget.sendLine("--kind SingleHabit configure --colour red")
        widget.sendLine("--kind SingleHabit tap Juggle")
        #expect(widget.finish() == 0)
        #expect(widget.errorOutput.contains { $0.contains("'colour' is invalid") }, "\(widget.errorOutput)")
        #expect(widget.errorOutput.contains { $0.contains("shows no button or toggle 'Juggle'") }, "\(widget.errorOutput)")
        // The tap wrote through the shared store: the other widget of the bundle sees it too.
        #expect(try device.run(Self.widget, ["render", "accessoryInline"]).stdout.contains("1/2 habits"))
    }

    /// rule `group.defaults-fallback`: an app whose entitlements lack the group still gets a suite from
    /// `UserDefaults(suiteName:)` — a private one, silently on a device (Lockstep says so on stderr) — and reads its
    /// own writes there, but no other process sees them.
    @Test func anAppWithoutTheGroupWritesToAPrivateSuite() throws {
        let device = try Self.device(appGroups: [])
        defer { device.remove() }
        let app = try device.run(Self.app, input: "add Read\nlist\n")
        #expect(app.status == 0 && app.stdout.contains("· Read"), "\(app)")
        #expect(app.stderr.contains("silently uses a private, non-shared plist that no other process sees [group.defaults-fallback]"), "\(app.stderr)")
        #expect(try device.defaults(AppGroup.identifier, as: Self.intents)["habits"] == nil)
        #expect(try device.defaults(AppGroup.identifier, as: Self.app)["habits"] != nil)
    }

    /// rule `notification.service`: a mutable notification goes through the service extension, which reads the
    /// group; one without `mutable-content` is shown as sent; a service too slow for the time limit is told it is
    /// expiring and delivers its best attempt.
    @Test func theNotificationServiceRewritesMutableNotifications() throws {
        let device = try Self.device()
        defer { device.remove() }
        _ = try device.run(Self.app, input: "add Read\nadd Walk\ndone Read\n")
        let push = #"{"aps": {"alert": {"title": "Reminder", "body": "Time to walk"}, "mutable-content": 1}}"#
        let shown = try device.run(Self.service, ["deliver", push])
        #expect(shown.status == 0 && shown.stdout.contains("shown: Reminder — Time to walk (1 left today) (from the service extension"), "\(shown)")
        let plain = try device.run(Self.service, ["deliver", #"{"aps": {"alert": "Time to walk"}}"#])
        #expect(plain.stdout.contains("shown: Time to walk (the original content: the payload has no \"mutable-content\": 1)"), "\(plain)")
        let slow = try device.run(Self.service, ["deliver", #"{"aps": {"alert": {"title": "Reminder", "body": "Walk"}, "mutable-content": 1}, "slow": true}"#],
                                  environment: ["LOCKSTEP_NOTIFICATION_TIMEOUT": "1"])
        #expect(slow.stdout.contains("shown: Reminder (partial) — Walk (1 left today)"), "\(slow)")
        let bad = try device.run(Self.service, ["deliver", "not json"])
        #expect(bad.status == 2 && bad.stderr.contains("is not a notification to deliver"), "\(bad)")
    }

    /// rule `group.defaults-fallback`: a widget whose entitlements lack the group runs, as on iOS, says so, and reads
    /// a private suite: none of the app's habits.
    @Test func aWidgetWithoutTheGroupRunsOnAPrivateSuite() throws {
        let device = try Self.device(widgetGroups: [])
        defer { device.remove() }
        _ = try device.run(Self.app, input: "add Read\n")
        let widget = try device.run(Self.widget, ["render", "systemSmall"])
        #expect(widget.status == 0, "\(widget)")
        #expect(!widget.stdout.contains("Read"), "\(widget)")
        #expect(widget.stderr.contains("shares no App Group with its app") && widget.stderr.contains("[group.defaults-fallback]"), "\(widget.stderr)")
    }

    /// The shared module alone, in no simulated process (a plain `swift test` of the iOS code): suites in memory.
    @Test func theSharedModuleRunsInAPlainTest() throws {
        let store = HabitsStore()
        store.habits = []
        store.add("Stretch")
        try store.complete("Stretch")
        #expect(store.habits == [Habit(name: "Stretch", isDone: true)])
        #expect(store.showCompleted)  // registered default
        #expect(throws: HabitsStoreError.self) { try store.setNote("no container outside a simulated process") }
    }
}
