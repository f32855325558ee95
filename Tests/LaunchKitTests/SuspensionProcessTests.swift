import Foundation
import LockstepRuntime
import LockstepSystem
import LockstepTestSupport
import Testing

/// Rule `lock.dead10cc` as iOS applies it: Lockstep's own runtimes say when their work returned, and under realistic
/// device timing the supervisor suspends them then, kills one that still holds a lock in a shared container, and wakes
/// a widget as iOS wakes it. Real processes under `lockstep up`, fresh groups roots, bounded waits, no sleeps.
@Suite struct SuspensionProcessTests {
    static let realistic = ["--device-timing", "realistic", "--seed", "5"]

    /// The widget's shape of home-assistant/iOS PR #4998 (`lockstep-probe-widget`): the app creates the database and
    /// asks for a new timeline; the provider returns it and goes on migrating the database, holding its write lock.
    static func migration(realistic: Bool) -> String {
        """
        == the widget migrates the shared database after its timeline returned [lock.dead10cc, sqlite.shared]
        send host setup-db
        wait host database ready
        send host reload-widgets
        \(realistic ? "expect-exit widget dead10cc" : "wait widget --timeout 30s migrated to schema 2")
        expect store shared.sqlite intact
        """
    }

    @Test func aWidgetStillMigratingAfterItsTimelineIsKilledWithDead10ccUnderRealisticTiming() throws {
        let device = try ProbeDevice(widgetExecutable: "lockstep-probe-widget")
        defer { device.cleanUp() }
        let result = try device.up(Self.migration(realistic: true), Self.realistic)
        #expect(result.status == 0, "\(result)")
        let database = "\(device.groups)/phone/AppGroup/group.com.example.probe/shared.sqlite"
        #expect(result.stdout.contains("widget   | work returned after Entities's timeline; next in "), "\(result)")
        #expect(result.stdout.contains("killed: Termination Reason: Namespace RUNNINGBOARD, Code 0xdead10cc (it held a lock on \(database) while suspended)"), "\(result)")
        // The store report follows the kill; SQLite's rollback keeps the file whole.
        #expect(result.stdout.contains("lockstep | store \(database): intact."), "\(result)")
        #expect(!result.stdout.contains("migrated to schema 2"), "\(result)")
    }

    @Test func theSameWidgetUnderStrictTimingIsNeitherSuspendedNorKilled() throws {
        let device = try ProbeDevice(widgetExecutable: "lockstep-probe-widget")
        defer { device.cleanUp() }
        let result = try device.up(Self.migration(realistic: false))
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout.contains("widget   | migrated to schema 2"), "\(result)")
        for text in ["work returned", "suspended", "woken", "killed"] { #expect(!result.stdout.contains(text), "\(text): \(result)") }
    }

    /// Waits for the supervisor's next "suspended" line about `pid` after line `mark`, and checks the process is then
    /// stopped (state T in /proc); if it has been woken again meanwhile, the next suspension is checked instead.
    /// - Returns: the line number after the suspension that was checked, or nil when none was seen stopped.
    static func suspension(in up: Child, pid: pid_t, after mark: Int) -> Int? {
        var mark = mark
        let suspended = "pid \(pid)) suspended: its work returned, and iOS suspends an extension then [lock.dead10cc]"
        while up.waitForLine(suspended, after: mark) != nil {
            let stopped = ProcessInspection.isStopped(pid)
            let lines = up.output
            guard let index = lines.indices.dropFirst(mark).first(where: { lines[$0].contains(suspended) }) else { return nil }
            if stopped { return index + 1 }
            mark = index + 1
        }
        return nil
    }

    @Test func aWellBehavedWidgetIsSuspendedAfterItsTimelineAndTheAppsReloadWakesIt() throws {
        let device = try ProbeDevice(widgetExecutable: "lockstep-probe-widget")
        defer { device.cleanUp() }
        let up = try Child("lockstep", ["up", "--manifest", device.manifest, "--groups", device.groups, "--scenario", try device.scenario(""),
                                        "--keep-running", "--no-color"] + Self.realistic)
        defer { up.signal(SIGINT); _ = up.wait(timeout: 30) }
        #expect(up.waitForOutput("every bundle stays up"), "\(up.stdoutSoFar)")
        let widget = try #require(up.output.first { $0.contains("launched widget (") }.flatMap { line in
            line.range(of: "pid ").flatMap { pid_t(line[$0.upperBound...].prefix { $0.isNumber }) }
        }, "\(up.stdoutSoFar)")
        // Suspended once its first timeline returned.
        let first = try #require(Self.suspension(in: up, pid: widget, after: 0), "\(up.stdoutSoFar)")
        #expect(up.output.contains("widget   | reloaded Entities (first timeline; not counted; next .never) → timeline 1: no database"), "\(up.stdoutSoFar)")

        // The app asks for new timelines (a process of its own, as `lockstep run` starts it): the widget is woken,
        // serves the reload, and is suspended again.
        let reload = try run("lockstep", ["run", "--manifest", device.manifest, "--groups", device.groups, "host", "--", "reload-widgets"])
        #expect(reload.status == 0, "\(reload)")
        let woken = try #require(up.waitForLine("pid \(widget)) woken: com.lockstep.widgetkit.reload was posted on the phone", after: first), "\(up.stdoutSoFar)")
        let reloaded = try #require(up.waitForLine("widget   | reloaded Entities (app request from com.example.probe", after: first), "\(up.stdoutSoFar)")
        #expect(reloaded.hasSuffix("→ timeline 2: no database"), "\(reloaded)")
        let lines = up.output
        #expect(lines.firstIndex(of: woken)! < lines.firstIndex(of: reloaded)!, "\(up.stdoutSoFar)")
        let second = try #require(Self.suspension(in: up, pid: widget, after: lines.firstIndex(of: reloaded)!), "\(up.stdoutSoFar)")

        // Its timeline's next entry is due in two seconds: the supervisor wakes it then, it shows the entry, and is
        // suspended again.
        #expect(up.waitForLine("pid \(widget)) woken: its next entry or reload is due", after: first) != nil, "\(up.stdoutSoFar)")
        #expect(up.waitForLine("is due → timeline 2: no database, later", after: first) != nil, "\(up.stdoutSoFar)")
        #expect(Self.suspension(in: up, pid: widget, after: second) != nil, "\(up.stdoutSoFar)")
        #expect(!up.stdoutSoFar.contains("killed"), "\(up.stdoutSoFar)")
    }

    /// An extension's two requests: after the first returned (realistic timing: its work-returned line; strict: its
    /// answer), the second.
    static func twoRequests(_ role: String, _ first: (command: String, returned: String, answer: String),
                            _ second: (command: String, answer: String), realistic: Bool) -> String {
        """
        == \(role) is suspended after each request and resumed by the next [lock.dead10cc]
        launch \(role)
        send \(role) \(first.command)
        wait \(role) \(realistic ? "work returned after \(first.returned)" : first.answer)
        send \(role) \(second.command)
        wait \(role) \(second.answer)
        """
    }

    /// An App Intents extension of Lockstep's runtime (`AppIntentsProcess`), served on stdin.
    static func intents(realistic: Bool) -> String {
        twoRequests("intent", ("perform Ping", "perform Ping", "pong"), ("list", "Answer pong"), realistic: realistic)
    }

    /// The Habits app's notification service (`NotificationServiceExtension`), served on stdin.
    static func notificationService(realistic: Bool) -> String {
        twoRequests("notification", (#"deliver '{"aps":{"alert":{"title":"Habits","body":"Check in"},"mutable-content":1}}'"#, "deliver", "shown: Habits"),
                    (#"deliver '{"aps":{"alert":{"title":"Again","body":"Check in"},"mutable-content":1}}'"#, "shown: Again"), realistic: realistic)
    }

    /// The supervisor's lines about `role` show it suspended, then woken, then the answer to the second request.
    static func expectSuspendedThenWoken(_ result: ProcessResult, role: String, identifier: String, answer: String) {
        let lines = result.stdout.split(separator: "\n").map(String.init)
        let named = "| \(role) (\(identifier), pid "
        let suspended = lines.firstIndex { $0.contains(named) && $0.contains(") suspended: its work returned") }
        let woken = lines.firstIndex { $0.contains(named) && $0.contains(") woken: ") }
        let answered = lines.lastIndex { $0.contains(answer) }
        #expect(suspended != nil && woken != nil && answered != nil, "\(role): \(result)")
        if let suspended, let woken, let answered { #expect(suspended < woken && woken < answered, "\(role): \(result)") }
    }

    @Test func anIntentsExtensionIsSuspendedAfterEachCommandAndResumedBySend() throws {
        let device = try ProbeDevice(intentExecutable: "lockstep-probe-intents")
        defer { device.cleanUp() }
        let result = try device.up(Self.intents(realistic: true), Self.realistic)
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout.contains("intent   | work returned after perform Ping"), "\(result)")
        Self.expectSuspendedThenWoken(result, role: "intent", identifier: "com.example.probe.intents", answer: "intent   | Ping  — Answer pong")
    }

    @Test func aNotificationServiceIsSuspendedAfterEachDeliveryAndResumedBySend() throws {
        let device = ExtensionFamilyTests.Device()
        defer { device.cleanUp() }
        let result = try device.up(Self.notificationService(realistic: true), arguments: Self.realistic)
        #expect(result.status == 0, "\(result)")
        // The service keeps the Habits store open (WAL): its read lock on the index is no lock iOS kills it for.
        #expect(!result.stdout.contains("killed"), "\(result)")
        Self.expectSuspendedThenWoken(result, role: "notification", identifier: "com.example.habits.notifications", answer: "notification | shown: Again")
    }

    @Test func strictTimingPrintsNoWorkReturnedLines() throws {
        let probe = try ProbeDevice(intentExecutable: "lockstep-probe-intents")
        defer { probe.cleanUp() }
        let habits = ExtensionFamilyTests.Device()
        defer { habits.cleanUp() }
        for result in [try probe.up(Self.intents(realistic: false)), try habits.up(Self.notificationService(realistic: false))] {
            #expect(result.status == 0, "\(result)")
            for text in ["work returned", "suspended: its work returned", ") woken: "] { #expect(!result.stdout.contains(text), "\(text): \(result)") }
        }
    }

    @Test func theWorkReturnedLineCarriesTheNextDueTime() throws {
        #expect(try #require(WorkReturned.parse("work returned after Entities's timeline; next in 12.5 s")).nextIn == 12.5)
        // A line without a time, or with one that is none: no wake-up at it, and no trap.
        for text in ["work returned", "work returned with 500 entities, migrating", "work returned ; next in s",
                     "work returned x; next in -3 s", "work returned x; next in nan s", "work returned x; next in 1e400 s"] {
            #expect(try #require(WorkReturned.parse(text), "\(text)").nextIn == nil, "\(text)")
        }
        for text in ["work returnedx", "the work returned", "ready"] { #expect(WorkReturned.parse(text) == nil, "\(text)") }
    }
}
