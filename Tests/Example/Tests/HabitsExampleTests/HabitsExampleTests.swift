import Foundation
import HabitsShared
import Testing

/// The example's app and widget as separate processes, under Lockstep's rules: what the app writes through
/// `UserDefaults(suiteName:)` and a group file, the widget sees; a widget without the App Group sees nothing.
@Suite struct HabitsExampleTests {
    /// The folder holding the built executables (beside this test binary).
    static let binaries = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()

    /// A fresh groups root with a manifest: the app and its widget, sharing `widgetGroups`.
    static func device(widgetGroups: [String] = [AppGroup.identifier]) throws -> (root: URL, manifest: URL) {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("habits-example-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        func bundle(_ name: String, _ id: String, _ groups: [String], role: String? = nil) -> [String: Any] {
            var bundle: [String: Any] = ["name": name, "bundleIdentifier": id, "shortVersion": "1.0", "buildVersion": "7",
                                         "appGroups": groups, "executable": binaries.appendingPathComponent(name).path]
            if let role { bundle["role"] = role }
            return bundle
        }
        let manifest: [String: Any] = [
            "manifestVersion": 1,
            "app": bundle("HabitsApp", "com.example.habits", [AppGroup.identifier]),
            "embedded": [bundle("HabitsWidgetExtension", "com.example.habits.widget", widgetGroups, role: "widget"),
                         bundle("HabitsIntentsExtension", "com.example.habits.intents", [AppGroup.identifier], role: "intent"),
                         bundle("HabitsWatchApp", "com.example.habits.watchkitapp", [], role: "watch")],
        ]
        let url = root.appendingPathComponent("lockstep.json")
        try JSONSerialization.data(withJSONObject: manifest).write(to: url)
        return (root.appendingPathComponent("groups"), url)
    }

    struct Output {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    /// Runs a built executable as `bundle` on the device, with `input` on stdin; killed after 30 s.
    static func run(_ name: String, as bundle: String, _ arguments: [String] = [], input: String = "",
                    device: (root: URL, manifest: URL)) throws -> Output {
        let process = Process()
        process.executableURL = binaries.appendingPathComponent(name)
        process.arguments = arguments
        var environment = ProcessInfo.processInfo.environment
        environment["LOCKSTEP_GROUPS"] = device.root.path
        environment["LOCKSTEP_MANIFEST"] = device.manifest.path
        environment["LOCKSTEP_BUNDLE_ID"] = bundle
        process.environment = environment
        let stdin = Pipe(), stdout = Pipe(), stderr = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        process.standardError = stderr
        let ended = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in ended.signal() }
        try process.run()
        stdin.fileHandleForWriting.write(Data(input.utf8))
        try stdin.fileHandleForWriting.close()
        // Read both pipes to the end while the process runs: neither can fill and block it.
        let collected = DispatchGroup()
        nonisolated(unsafe) var out = Data(), err = Data()
        DispatchQueue.global().async(group: collected) { out = stdout.fileHandleForReading.readDataToEndOfFile() }
        DispatchQueue.global().async(group: collected) { err = stderr.fileHandleForReading.readDataToEndOfFile() }
        if ended.wait(timeout: .now() + 30) == .timedOut {
            process.terminate()
            ended.wait()
        }
        collected.wait()
        return Output(status: process.terminationStatus, stdout: String(decoding: out, as: UTF8.self),
                      stderr: String(decoding: err, as: UTF8.self))
    }

    @Test func theWidgetSeesWhatTheAppWrote() throws {
        let device = try Self.device()
        defer { try? FileManager.default.removeItem(at: device.root.deletingLastPathComponent()) }
        let app = try Self.run("HabitsApp", as: "com.example.habits", input: "add Read\nadd Walk\ndone Read\nnote Rain today\nlist\n", device: device)
        #expect(app.status == 0, "\(app.stderr)")
        #expect(app.stdout.contains("ready com.example.habits"))
        #expect(app.stdout.contains("✓ Read, · Walk"), "\(app.stdout)")

        // Another process: the widget extension renders from the shared suite and the group file.
        let widget = try Self.run("HabitsWidgetExtension", as: "com.example.habits.widget", ["render", "--family", "systemSmall"], device: device)
        #expect(widget.status == 0, "\(widget.stderr)")
        #expect(widget.stdout.contains("1/2 done"), "\(widget.stdout)")
        #expect(widget.stdout.contains("Rain today"), "\(widget.stdout)")
        let inline = try Self.run("HabitsWidgetExtension", as: "com.example.habits.widget", ["render", "--family", "accessoryInline"], device: device)
        #expect(inline.stdout.contains("1/2 habits"), "\(inline.stdout)")

        // The app asked WidgetKit to reload after each change: the requests are in the group, for the widget.
        let reload = device.root.appendingPathComponent("phone/AppGroup/\(AppGroup.identifier)/.lockstep/widgetkit/reload/HabitsWidget")
        #expect((try? String(contentsOf: reload, encoding: .utf8))?.hasPrefix("4 ") == true)
    }

    /// RULES.md wc.context: the app sends its habits as the application context; the watch app, started later,
    /// receives the latest one when it activates, and keeps it in its own defaults (the watch shares no group).
    @Test func theWatchReceivesTheAppsContext() throws {
        let device = try Self.device()
        defer { try? FileManager.default.removeItem(at: device.root.deletingLastPathComponent()) }
        let app = try Self.run("HabitsApp", as: "com.example.habits", input: "add Read\nsync\nadd Walk\nsync\n", device: device)
        #expect(app.status == 0, "\(app.stderr)")
        let watch = try Self.run("HabitsWatchApp", as: "com.example.habits.watchkitapp", input: "list\n", device: device)
        #expect(watch.status == 0, "\(watch.stderr)")
        #expect(watch.stdout.contains("ready com.example.habits.watchkitapp\nRead, Walk"), "\(watch.stdout)")
        // Kept across launches: a second start lists them with nothing new sent.
        let again = try Self.run("HabitsWatchApp", as: "com.example.habits.watchkitapp", input: "list\n", device: device)
        #expect(again.stdout.contains("Read, Walk"), "\(again.stdout)")
    }

    /// RULES.md intent.where: with the app not running, the intents run in the extension, on the shared store; an
    /// entity parameter is found through its query; the shortcuts' phrases name the app.
    @Test func intentsRunInTheExtensionWhenTheAppIsNotRunning() throws {
        let device = try Self.device()
        defer { try? FileManager.default.removeItem(at: device.root.deletingLastPathComponent()) }
        func intent(_ arguments: [String]) throws -> Output {
            try Self.run("HabitsIntentsExtension", as: "com.example.habits.intents", arguments, device: device)
        }
        let added = try intent(["perform", "AddHabitIntent", "--name", "Stretch"])
        #expect(added.status == 0, "\(added.stderr)")
        #expect(added.stdout.contains("Added Stretch.\n(performed in the extension process"), "\(added.stdout)")
        let completed = try intent(["perform", "CompleteHabitIntent", "--habit", "Stretch"])
        #expect(completed.stdout.contains("Completed Stretch. 0 left today."), "\(completed)")
        let unknown = try intent(["perform", "CompleteHabitIntent", "--habit", "Juggle"])
        #expect(unknown.status == 2 && unknown.stderr.contains("'Juggle' is invalid: --habit must be a Habit id"), "\(unknown)")
        let missing = try intent(["perform", "AddHabitIntent"])
        #expect(missing.status == 64 && missing.stderr.contains("needs the parameter --name"), "\(missing)")
        let list = try intent(["list"])
        #expect(list.stdout.contains("AddHabitIntent --name <text> [--done <true/false>]  — Start tracking a new habit."), "\(list.stdout)")
        let shortcuts = try intent(["shortcuts"])
        #expect(shortcuts.stdout.contains("\"Complete a habit in HabitsApp\" → CompleteHabitIntent"), "\(shortcuts.stdout)")
        // The widget, another process, sees what the intents wrote.
        let widget = try Self.run("HabitsWidgetExtension", as: "com.example.habits.widget", ["render", "--family", "accessoryInline"], device: device)
        #expect(widget.stdout.contains("1/1 habits"), "\(widget.stdout)")
    }

    /// RULES.md intent.where: while the app runs (and is not suspended), the extension hands the intent to it.
    @Test func intentsRunInTheAppWhileItRuns() throws {
        let device = try Self.device()
        defer { try? FileManager.default.removeItem(at: device.root.deletingLastPathComponent()) }
        let app = try Running("HabitsApp", as: "com.example.habits", device: device)
        defer { app.stop() }
        #expect(app.waitForLine("ready com.example.habits"), "\(app.output)")
        let added = try Self.run("HabitsIntentsExtension", as: "com.example.habits.intents", ["perform", "AddHabitIntent", "--name", "Read"], device: device)
        #expect(added.stdout.contains("Added Read.\n(performed in the app process"), "\(added)")
        #expect(app.waitForLine("intent AddHabitIntent performed in the app"), "\(app.output)")
    }

    /// A long-running bundle, its stdin kept open, its stdout read as it comes.
    final class Running: @unchecked Sendable {  // @unchecked: `lines` is guarded by `condition`.
        let process = Process()
        let stdin = Pipe()
        private let condition = NSCondition()
        private var lines: [String] = []

        init(_ name: String, as bundle: String, device: (root: URL, manifest: URL)) throws {
            process.executableURL = HabitsExampleTests.binaries.appendingPathComponent(name)
            var environment = ProcessInfo.processInfo.environment
            environment["LOCKSTEP_GROUPS"] = device.root.path
            environment["LOCKSTEP_MANIFEST"] = device.manifest.path
            environment["LOCKSTEP_BUNDLE_ID"] = bundle
            process.environment = environment
            let stdout = Pipe()
            process.standardInput = stdin
            process.standardOutput = stdout
            process.standardError = FileHandle.nullDevice
            try process.run()
            Thread.detachNewThread { [self] in
                var buffer = Data()
                while case let chunk = stdout.fileHandleForReading.availableData, !chunk.isEmpty {
                    buffer += chunk
                    while let newline = buffer.firstIndex(of: 0x0A) {
                        let line = String(decoding: buffer[..<newline], as: UTF8.self)
                        buffer = Data(buffer[(newline + 1)...])
                        condition.withLock { lines.append(line); condition.broadcast() }
                    }
                }
            }
        }

        var output: [String] { condition.withLock { lines } }

        /// Whether a line containing `text` arrives within `timeout` seconds.
        func waitForLine(_ text: String, timeout: Double = 20) -> Bool {
            let deadline = Date(timeIntervalSinceNow: timeout)
            return condition.withLock {
                while !lines.contains(where: { $0.contains(text) }) {
                    if !condition.wait(until: deadline) { return lines.contains(where: { $0.contains(text) }) }
                }
                return true
            }
        }

        func stop() {
            try? stdin.fileHandleForWriting.close()
            process.waitUntilExit()
        }
    }

    /// RULES.md group.entitlement: a widget whose entitlements lack the group is refused a container, and says so.
    @Test func aWidgetWithoutTheGroupIsRefused() throws {
        let device = try Self.device(widgetGroups: [])
        defer { try? FileManager.default.removeItem(at: device.root.deletingLastPathComponent()) }
        _ = try Self.run("HabitsApp", as: "com.example.habits", input: "add Read\n", device: device)
        let widget = try Self.run("HabitsWidgetExtension", as: "com.example.habits.widget", ["render", "--family", "systemSmall"], device: device)
        #expect(widget.status == 77, "\(widget)")
        #expect(widget.stderr.contains("shares no App Group with its app"), "\(widget.stderr)")
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
