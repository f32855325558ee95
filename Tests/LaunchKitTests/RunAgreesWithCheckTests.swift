import Foundation
import LockstepTestSupport
import Testing

/// Issue 42: `run` and `up` accept what `check` accepts.
@Suite struct RunAgreesWithCheckTests {
    /// Item 6: a widget extension that claims no App Group is allowed (rule `group.shared`'s note), and on iOS it
    /// runs: `up` launches it, it serves and renders, and says once that its use of a group falls back (rule
    /// `group.defaults-fallback`). It used to exit 77 before its ready line.
    @Test func aWidgetWithoutGroupsRunsUnderUp() throws {
        let device = try ProbeDevice(widgetExecutable: "lockstep-siri-widget", widgetGroups: [])
        defer { device.cleanUp() }
        let result = try device.up("""
            == the widget serves without an App Group [group.defaults-fallback]
            send widget render systemSmall
            wait widget goal 1 a day
            """)
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout.contains("widget   | ready com.example.probe.widget"), "\(result)")
        #expect(result.stdout.contains("2 of 2 steps held"), "\(result)")
        #expect(result.stdout.contains("shares no App Group with its app") && result.stdout.contains("[group.defaults-fallback]"), "\(result)")
    }

    /// Item 7: App Groups an `.entitlements` file writes with build settings, as Apple's samples do. `check` keeps
    /// a setting the checkout does not supply as it is written, and the same text on both sides is the same group;
    /// `run` resolves it the same way: the widget writes into the group, and the app reads it there.
    @Test(arguments: ["group.$(SAMPLE_CODE_DISAMBIGUATOR).com.example.probe", "group.$(TeamIdentifierPrefix)com.example.probe"])
    func groupsWrittenWithSettingsResolveInRun(group: String) throws {
        let directory = TestSupport.temporaryDirectory("settings-groups")
        defer { TestSupport.cleanUp(directory) }
        let entitlements = { (groups: [String]) in
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<plist version=\"1.0\"><dict><key>com.apple.security.application-groups</key><array>"
                + groups.map { "<string>\($0)</string>" }.joined() + "</array></dict></plist>\n"
        }
        try entitlements([group]).write(to: directory.appendingPathComponent("App.entitlements"), atomically: true, encoding: .utf8)
        try entitlements([group]).write(to: directory.appendingPathComponent("Widget.entitlements"), atomically: true, encoding: .utf8)
        try entitlements(["group.$(OTHER).com.example.probe"]).write(to: directory.appendingPathComponent("Share.entitlements"), atomically: true, encoding: .utf8)
        let manifest = directory.appendingPathComponent("manifest.json").path
        try """
        { "manifestVersion": 1,
          "app": { "name": "Probe", "bundleIdentifier": "com.example.probe", "shortVersion": "1.0", "buildVersion": "1",
                   "executable": "lockstep-probe", "entitlements": "App.entitlements" },
          "embedded": [
            { "name": "ProbeWidget", "role": "widget", "bundleIdentifier": "com.example.probe.widget", "extensionPoint": "com.apple.widgetkit-extension",
              "shortVersion": "1.0", "buildVersion": "1", "executable": "lockstep-probe", "entitlements": "Widget.entitlements" },
            { "name": "ProbeShare", "role": "share", "bundleIdentifier": "com.example.probe.share", "extensionPoint": "com.apple.share-services",
              "shortVersion": "1.0", "buildVersion": "1", "executable": "lockstep-probe", "entitlements": "Share.entitlements" }
          ] }
        """.write(toFile: manifest, atomically: true, encoding: .utf8)
        let groups = directory.appendingPathComponent("groups").path
        let wrote = try run("lockstep", ["run", "widget", "--manifest", manifest, "--groups", groups, "--", "write-shared", "from the widget"])
        #expect(wrote.status == 0 && wrote.stdout.contains("wrote from the widget"), "\(wrote)")
        let read = try run("lockstep", ["container", "--as", "com.example.probe", group, "--read", "shared.txt", "--manifest", manifest, "--groups", groups])
        #expect(read.status == 0 && read.stdout == "from the widget\n", "\(read)")
        // Another setting's text is another group: the share extension is not entitled to this one.
        let other = try run("lockstep", ["container", "--as", "com.example.probe.share", group, "--read", "shared.txt", "--manifest", manifest, "--groups", groups])
        #expect(other.status == 77, "\(other)")
        // A reference cannot make a group of what is not one.
        let bad = try run("lockstep", ["container", "--as", "com.example.probe", "group.$(A)/..", "--manifest", manifest, "--groups", groups])
        #expect(bad.status == 2, "\(bad)")
    }
}
