import Foundation
import LockstepTesting
import Testing

/// `@AppStorage(…, store: UserDefaults(suiteName: group))` in one process reads and writes the App Group's suite the
/// app's process uses, with the entitlement rules (`group.entitlement`, `group.defaults-fallback`,
/// `defaults.visibility`): each bundle is the probe in its own process.
@Suite struct AppStorageProcessTests {
    @Test func aWidgetsAppStorageSeesWhatTheAppWroteAndAnUnentitledOneItsOwnFallback() throws {
        let group = "group.com.example.app"
        let device = try SimulatedDevice(app: .init("lockstep-probe", "com.example.app", groups: [group]), embedded: [
            .init("lockstep-probe", "com.example.app.widget", role: "widget", groups: [group]),
            .init("lockstep-probe", "com.example.app.stray", role: "widget"),
        ])
        defer { device.remove() }
        let app = try device.start("com.example.app")
        defer { app.closeStdin(); _ = app.finish() }
        #expect(app.waitForLine("ready") != nil, "\(app.errorOutput)")
        // The app writes the group default through UserDefaults(suiteName:), as team code does.
        app.sendLine("save-place Home")
        #expect(app.waitForLine("saved place Home") != nil, "\(app.errorOutput)")

        let widget = try device.run("com.example.app.widget", ["stored-place", group])
        #expect(widget.status == 0 && widget.stdout.contains("stored place Home"), "\(widget)")

        // Not entitled: its own private fallback, which holds nothing the app wrote, and says why on stderr.
        let stray = try device.run("com.example.app.stray", ["stored-place", group])
        #expect(stray.status == 0 && stray.stdout.contains("stored place none"), "\(stray)")
        #expect(stray.stderr.contains("[group.defaults-fallback]"), "\(stray)")
        let strayWrite = try device.run("com.example.app.stray", ["store-place", group, "Elsewhere"])
        #expect(strayWrite.status == 0, "\(strayWrite)")
        #expect(try device.run("com.example.app.stray", ["stored-place", group]).stdout.contains("stored place Elsewhere"))
        #expect(try device.run("com.example.app.widget", ["stored-place", group]).stdout.contains("stored place Home"))

        // A write through the widget's wrapper reaches the app's UserDefaults(suiteName:).
        let widgetWrite = try device.run("com.example.app.widget", ["store-place", group, "Work"])
        #expect(widgetWrite.status == 0, "\(widgetWrite)")
        let mark = app.mark
        app.sendLine("show-place")
        #expect(app.waitForLine("place ", after: mark) == "place Work", "\(app.errorOutput)")
    }

    /// `URL.documentsDirectory` and its kin are folders of the bundle's own container (rule `container.private`),
    /// there when the code asks, as on iOS.
    @Test func theSandboxFoldersAreInTheBundlesOwnContainer() throws {
        let device = try SimulatedDevice(app: .init("lockstep-probe", "com.example.app"))
        defer { device.remove() }
        let result = try device.run("com.example.app", ["folders"])
        let container = URL(fileURLWithPath: device.groupsRoot).standardizedFileURL.path + "/phone/Data/com.example.app"
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout.split(separator: "\n").map(String.init) == [
            "documents \(container)/Documents", "support \(container)/Library/Application Support",
            "caches \(container)/Library/Caches", "temporary \(container)/tmp",
        ], "\(result)")
    }
}
