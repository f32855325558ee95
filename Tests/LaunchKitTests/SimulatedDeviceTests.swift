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
