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
