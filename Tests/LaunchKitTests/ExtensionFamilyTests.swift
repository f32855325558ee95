import BundleKit
import Foundation
import LaunchKit
import LockstepTestSupport
import Testing

/// <doc:Rules> "The rest of the extension family" across processes: `lockstep up` on the Habits app (the embedded default) with a scenario per rule, each
/// with the case where the rule says no.
@Suite struct ExtensionFamilyTests {
    /// A fresh groups root; the scenario starts as the demo does, with the app adding the three habits.
    struct Device {
        let directory = TestSupport.temporaryDirectory("family")
        var groups: String { directory.appendingPathComponent("groups").path }

        func up(_ steps: String, manifest: String? = nil, environment: [String: String] = [:], arguments extra: [String] = []) throws -> ProcessResult {
            let scenario = directory.appendingPathComponent("scenario-\(UUID().uuidString.prefix(6)).txt").path
            try (DemoScenario.addHabits + "\n\n" + steps).write(toFile: scenario, atomically: true, encoding: .utf8)
            var arguments = ["up", "--groups", groups, "--scenario", scenario, "--no-color"] + extra
            if let manifest {
                let path = directory.appendingPathComponent("manifest.json").path
                try manifest.write(toFile: path, atomically: true, encoding: .utf8)
                arguments += ["--manifest", path]
            }
            return try run("lockstep", arguments, environment: environment, timeout: 120)
        }

        func cleanUp() { TestSupport.cleanUp(directory) }
    }

    @Test func aLiveActivityStartsInTheForegroundAndTheWidgetRendersIt() throws {
        let device = Device()
        defer { device.cleanUp() }
        let result = try device.up("""
            == the rule [activity.lifecycle]
            send host activity start Walk
            wait widget 🚶 Walk · · 0/3 habits done
            send host toggle Walk
            send host activity update
            wait widget 🚶 Walk ✓ · 1/3 habits done
            send host activity end now
            wait widget dismissed from the Lock Screen
            send host activity start Read
            wait widget started
            advance 8h
            wait widget ended by the system after 8 hours
            advance 4h
            wait widget dismissed from the Lock Screen
            """)
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout.contains("✓ activity.lifecycle"), "\(result)")
        // Each presentation's latest picture, at the HIG's sizes, for the gallery.
        let renders = "\(device.groups)/phone/AppGroup/group.com.example.habits/.lockstep/widgetkit/renders/HabitActivityAttributes"
        for (name, size) in [("lockScreen", "371\" height=\"160"), ("expanded", "371\" height=\"160"),
                             ("compactLeading", "52.33\" height=\"36.67"), ("compactTrailing", "52.33\" height=\"36.67"),
                             ("minimal", "36.67\" height=\"36.67")] {
            let svg = try String(contentsOfFile: "\(renders)/\(name).svg", encoding: .utf8)
            #expect(svg.contains("width=\"\(size)\""), "\(name): \(svg.prefix(200))")
        }
        #expect(try String(contentsOfFile: "\(renders)/lockScreen.svg", encoding: .utf8).contains("Read"))
    }

    @Test func aLiveActivityIsRefusedFromTheBackgroundAndOverTheLimits() throws {
        let device = Device()
        defer { device.cleanUp() }
        let result = try device.up("""
            send host background
            send host activity start Walk
            wait host Live Activity refused: ActivityAuthorizationError.visibility
            send host foreground
            send host activity start Walk
            wait host Live Activity started for Walk
            wait widget live activity HabitActivityAttributes
            send host activity start Read
            wait host ActivityAuthorizationError.targetMaximumExceeded
            send host activity end now
            wait widget dismissed from the Lock Screen
            """, environment: ["LOCKSTEP_LIVE_ACTIVITY_LIMIT": "1"])
        #expect(result.status == 0, "\(result)")
        // Nothing the app was refused reached the widget. (The scenario waits for the widget to draw the start before
        // ending it: a widget that first looks after the end draws only the dismissal, as a device would.)
        let drawn = result.stdout.split(separator: "\n").filter { $0.hasPrefix("widget") && $0.contains("live activity HabitActivityAttributes") }
        #expect(drawn.count == 2, "\(result)")  // started, dismissed
    }

    @Test func anAppWithoutNSSupportsLiveActivitiesCannotStartOne() throws {
        let device = Device()
        defer { device.cleanUp() }
        let manifest = Manifest.embeddedDefaultText.replacingOccurrences(of: #", "supportsLiveActivities": true"#, with: "")
        let result = try device.up("""
            send host activity start Walk
            wait host ActivityAuthorizationError.unsupportedTarget
            """, manifest: manifest)
        #expect(result.status == 0, "\(result)")
        #expect(!result.stdout.contains("live activity HabitActivityAttributes"), "\(result)")
    }

    @Test func theComplicationReadsTheWatchsContainerWithinTheDailyAllowance() throws {
        let device = Device()
        defer { device.cleanUp() }
        let result = try device.up("""
            == the rule [watch.complication]
            send host toggle Read
            send host complication
            wait host 0 of 1 left today
            wait complication ⌚ 1/3 habits
            send host toggle Walk
            send host complication
            wait host allowance spent, queued as ordinary user info
            """, environment: ["LOCKSTEP_COMPLICATION_TRANSFERS": "1"])
        #expect(result.status == 0, "\(result)")
        // The progress is in the watch's group container, never the phone's (rule `group.watch-separate`).
        let watchSuite = "\(device.groups)/watch/AppGroup/group.com.example.habits/Library/Preferences/group.com.example.habits.plist"
        let phoneSuite = "\(device.groups)/phone/AppGroup/group.com.example.habits/Library/Preferences/group.com.example.habits.plist"
        let watchDefaults = (try? Data(contentsOf: URL(fileURLWithPath: watchSuite))).map { String(decoding: $0, as: UTF8.self) } ?? ""
        let journal = (try? FileManager.default.contentsOfDirectory(atPath: "\(device.groups)/watch/AppGroup/group.com.example.habits/.lockstep/defaults")) ?? []
        #expect(!watchDefaults.isEmpty || !journal.isEmpty, "the watch's suite holds the progress")
        let phoneDefaults = (try? Data(contentsOf: URL(fileURLWithPath: phoneSuite))).map { String(decoding: $0, as: UTF8.self) } ?? ""
        #expect(!phoneDefaults.contains("complication.progress"))
    }

    @Test func theShareExtensionIsOfferedOnlyForWhatItsRuleAccepts() throws {
        let device = Device()
        defer { device.cleanUp() }
        let result = try device.up("""
            == the rule [share.extension]
            run share --text Stretch
            expect-status 0
            expect-output request completed
            send host list
            wait host 📥 Stretch
            run share --url https://example.com
            expect-status 1
            expect-output does not offer com.example.habits.share for 1 url item
            run share --text One --text Two
            expect-status 0
            send host summary
            wait host 0/5 done
            """)
        #expect(result.status == 0, "\(result)")
        #expect(!result.stdout.contains("example.com ·"), "a refused share writes nothing: \(result)")
    }

    @Test func theFullAppFindsTheClipsDataInTheGroupNotItsContainer() throws {
        let device = Device()
        defer { device.cleanUp() }
        let note = "\(device.groups)/phone/Data/com.example.habits.Clip/Library/Application Support/clip-visit.txt"
        let result = try device.up("""
            == the rule [clip.container]
            run clip add Hydrate 💧
            expect-status 0
            run clip status
            expect-output App Clip visit note: added Hydrate
            install-over-clip
            send host list
            wait host 💧 Hydrate
            """)
        #expect(result.status == 0, "\(result)")
        #expect(!FileManager.default.fileExists(atPath: note), "the clip's own container is not carried over")
    }

    /// Nothing written on bad input: a usage error leaves the clip's container uncreated, though its launch names a
    /// temporary folder there; a clip that runs has its temporary folder in its container, as on iOS.
    @Test func aClipUsageErrorLeavesItsContainerUncreated() throws {
        let device = Device()
        defer { device.cleanUp() }
        let container = "\(device.groups)/phone/Data/com.example.habits.Clip"
        let bad = try run("lockstep", ["run", "--groups", device.groups, "clip", "--", "--bad-args"])
        #expect(bad.status == 64, "\(bad)")
        #expect(bad.stderr.contains("add NAME [EMOJI] | status"), "\(bad)")
        #expect(!FileManager.default.fileExists(atPath: container), "a usage error created \(container)")
        let status = try run("lockstep", ["run", "--groups", device.groups, "clip", "--", "status"])
        #expect(status.status == 0, "\(status)")
        var isDirectory: ObjCBool = false
        #expect(FileManager.default.fileExists(atPath: "\(container)/tmp", isDirectory: &isDirectory) && isDirectory.boolValue, "\(status)")
    }

    @Test func theNotificationServiceRewritesFromTheGroupOnlyWithMutableContent() throws {
        let device = Device()
        defer { device.cleanUp() }
        let result = try device.up("""
            == the rule [notification.service]
            run notification deliver '{"aps":{"alert":{"title":"Habits","body":"Check in"},"mutable-content":1}}'
            expect-output shown: Habits — 3 left today: Meditate, Read, Walk (from the service extension
            run notification deliver '{"aps":{"alert":{"title":"Habits","body":"Check in"}}}'
            expect-output shown: Habits — Check in (the original content
            """)
        #expect(result.status == 0, "\(result)")
    }
}
