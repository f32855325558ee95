import LockstepTesting
import Testing

/// `SimulatedDevice` places each bundle on its device as the table of kinds says (`BundleRole.Kind.runsOnWatch`).
@Suite struct SimulatedDeviceTests {
    @Test func aComplicationIsOnTheWatch() throws {
        let group = "group.com.example.app"
        let device = try SimulatedDevice(app: .init("app", "com.example.app", groups: [group]), embedded: [
            .init("widget", "com.example.app.widget", role: "widget", groups: [group]),
            .init("complication", "com.example.app.watchkitapp.complication", role: "complication", groups: [group]),
        ])
        defer { device.remove() }
        #expect(try device.sees("com.example.app.widget", whatWrites: "com.example.app", in: group))
        // rule `group.watch-separate`: the watch has its own group containers.
        #expect(try !device.sees("com.example.app.watchkitapp.complication", whatWrites: "com.example.app", in: group))
    }
}

/// `SimulatedDevice(timing:)` gives every process it runs the device's timing (issue 43, rule `defaults.device-flush`).
@Suite struct SimulatedDeviceTimingTests {
    /// The app (the probe) saves a place and keeps running; what the widget would read from the shared store.
    static func placeTheWidgetReads(timing: DeviceTiming, fixed: Bool) throws -> String? {
        let group = "group.com.example.app"
        let device = try SimulatedDevice(app: .init("lockstep-probe", "com.example.app", groups: [group]), embedded: [
            .init("lockstep-probe", "com.example.app.widget", role: "widget", groups: [group]),
        ], timing: timing)
        defer { device.remove() }
        let app = try device.start("com.example.app")
        defer { app.closeStdin(); _ = app.finish() }
        #expect(app.waitForLine("ready") != nil, "\(app.errorOutput)")
        app.sendLine("save-place Home\(fixed ? " --fixed" : "")")
        #expect(app.waitForLine("saved place Home") != nil, "\(app.errorOutput)")
        // "changed synchronously within your process": another UserDefaults of the suite in the app reads it at once.
        let mark = app.mark
        app.sendLine("show-place")
        #expect(app.waitForLine("place ", after: mark) == "place Home", "\(app.errorOutput)")
        return try device.defaults(group, as: "com.example.app.widget")["currentPlace"] as? String
    }

    @Test func realisticTimingShowsTheMissingFlushAndStrictHidesIt() throws {
        let realistic = DeviceTiming(mode: .realistic, seed: 5)
        #expect(try Self.placeTheWidgetReads(timing: realistic, fixed: false) == nil, "not flushed: not in the shared store yet")
        #expect(try Self.placeTheWidgetReads(timing: realistic, fixed: true) == "Home")
        #expect(try Self.placeTheWidgetReads(timing: .strict, fixed: false) == "Home")
    }
}
