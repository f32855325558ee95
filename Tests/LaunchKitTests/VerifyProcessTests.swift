import Foundation
import LockstepTestSupport
import Testing

@Suite struct VerifyProcessTests {
    /// The matrix holds (the unentitled widget gets the fallback, as the manifest says), yet verify fails: a widget
    /// that shares no channel with its app shows none of the app's data on a device.
    @Test func anUnentitledWidgetGetsTheFallbackAndVerifyFails() throws {
        let device = try ProbeDevice(widgetGroups: [])
        defer { device.cleanUp() }
        let result = try run("lockstep", ["verify", "--manifest", device.manifest, "--groups", device.groups])
        #expect(result.status == 1, "\(result)")
        #expect(result.stdout.contains("✗ widget (com.example.probe.widget) shares no App Group with "), "\(result)")
        #expect(result.stdout.contains("add 'group.com.example.probe' to its com.apple.security.application-groups [group.entitlement]."), "\(result)")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        let defaults = try #require(lines.firstIndex(of: "group defaults (group.com.example.probe)"))
        #expect(lines[defaults + 1].hasPrefix("  writes \\ reads  host"))
        #expect(lines[defaults + 2].hasPrefix("  host            —                · fallback       ✓ shared"), "\(result)")
        #expect(result.stdout.contains("· not entitled"))
        #expect(result.stdout.contains("✓ device-wide"))
        #expect(result.stdout.contains("Every cell is what the manifest says."))

        let json = try run("lockstep", ["verify", "--manifest", device.manifest, "--groups", device.groups, "--format", "json"])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        #expect(object["ok"] as? Bool == false)
        #expect((object["unshared"] as? [String])?.count == 1)
        let cells = try #require(object["cells"] as? [[String: Any]])
        let fallback = cells.first { $0["channel"] as? String == "group defaults" && $0["writer"] as? String == "com.example.probe" && $0["reader"] as? String == "com.example.probe.widget" }
        #expect(fallback?["rule"] as? String == "group.defaults-fallback")
        #expect(fallback?["visible"] as? Bool == false)
        // The probes leave nothing behind.
        let leftovers = FileManager.default.enumerator(atPath: device.groups)?.compactMap { $0 as? String }.filter { $0.contains("lockstep-verify") || $0.contains("lockstep.verify") } ?? []
        #expect(leftovers.isEmpty, "\(leftovers)")
    }

    @Test func aGroupContainerThatCannotBeUsedFailsTheCheck() throws {
        let device = try ProbeDevice()
        defer { device.cleanUp() }
        // A file where the group container should be: no bundle can share anything through it.
        try FileManager.default.createDirectory(atPath: "\(device.groups)/phone/AppGroup", withIntermediateDirectories: true)
        try "".write(toFile: "\(device.groups)/phone/AppGroup/group.com.example.probe", atomically: true, encoding: .utf8)
        let result = try run("lockstep", ["verify", "--manifest", device.manifest, "--groups", device.groups])
        #expect(result.status == 1, "\(result)")
        #expect(result.stdout.contains("✗ widget does not see what host writes through group defaults (group.com.example.probe), but the manifest says it should [group.entitlement]."), "\(result)")
        #expect(result.stdout.contains("✓ device-wide"))
    }

    @Test func badFormatIsAUsageError() throws {
        let result = try run("lockstep", ["verify", "--format", "yaml"])
        #expect(result.status == 64)
    }
}
