import AppGroupKit
import Foundation
import HabitCore
import LockstepSystem
import LockstepTestSupport
import WidgetKit
import Testing

private struct Entry: TimelineEntry { let date: Date }

@Suite("WidgetKit with the Habits widget (RULES.md §3)")
struct WidgetTests {
    @Test("widget.provider: the placeholder is synchronous, data-free and redacted; snapshot and timeline read the store")
    func provider() throws {
        let fixture = HabitsFixture()
        let placeholder = try fixture.run("lockstep-widget", "placeholder", "--family", "systemSmall")
        #expect(placeholder.status == 0 && placeholder.stdout.contains("▒"), "\(placeholder)")
        #expect(!FileManager.default.fileExists(atPath: fixture.storePath), "the placeholder fetched data")

        try fixture.addHabits()
        let snapshot = try fixture.run("lockstep-widget", "render", "--family", "systemSmall")
        #expect(snapshot.status == 0 && snapshot.stdout.contains("0/3 done"), "\(snapshot)")
        let widget = try fixture.start("lockstep-widget")
        #expect(widget.waitForLine("first timeline") != nil)
        widget.sendLine("render accessoryCircular")
        #expect(widget.waitForLine("0/3") != nil)
        #expect(widget.finish() == 0)
    }

    @Test("widget.policy: entries show at their date, never earlier; .atEnd/.after are lower bounds on the shared clock")
    func policy() throws {
        let start = Date(timeIntervalSince1970: 1_000_000)
        let timeline = Timeline(entries: [Entry(date: start.addingTimeInterval(60)), Entry(date: start)], policy: .atEnd)
        #expect(timeline.entry(at: start.addingTimeInterval(-1)) == nil)
        #expect(timeline.entry(at: start.addingTimeInterval(59))?.date == start)
        #expect(timeline.entry(at: start.addingTimeInterval(3600))?.date == start.addingTimeInterval(60))
        #expect(timeline.nextReloadDate == start.addingTimeInterval(60))
        #expect(Timeline(entries: [Entry(date: start)], policy: .after(start.addingTimeInterval(900))).nextReloadDate == start.addingTimeInterval(900))
        #expect(Timeline(entries: [Entry(date: start)], policy: .never).nextReloadDate == nil)

        // In processes: the Habits timeline ends at the next midnight (.atEnd); a day passes on the shared clock.
        let fixture = HabitsFixture()
        try fixture.addHabits()
        #expect(try fixture.run("lockstep-host", "log", "Meditate").status == 0)
        let widget = try fixture.start("lockstep-widget")
        #expect(widget.waitForLine("1/3 habits done") != nil)
        let mark = widget.mark
        try SimulatedClock(groupsRoot: fixture.root.path).advance(by: 86_400)
        let line = widget.waitForLine("policy .atEnd reached", after: mark)
        #expect(line?.contains("0/3 habits done") == true, "\(widget.output)")
        #expect(widget.finish() == 0)
    }

    @Test("widget.reload: reloadTimelines(ofKind:) and reloadAllTimelines() from other processes, no acknowledgement")
    func reload() throws {
        let fixture = HabitsFixture()
        try fixture.addHabits()
        let widget = try fixture.start("lockstep-widget")
        var mark = widget.mark
        let request = try fixture.run("lockstep-host", "reload")
        #expect(request.status == 0 && request.stdout.contains("no acknowledgement"), "\(request)")
        #expect(widget.waitForLine("app request from com.example.habits", after: mark) != nil)

        mark = widget.mark
        try WidgetCenter(groupContainer: fixture.groupContainer, requester: "com.example.habits.intents").requestReload(ofKind: WidgetCenter.allKinds)
        #expect(widget.waitForLine("app request from com.example.habits.intents", after: mark) != nil)

        // A change made by the intent reloads the widget with the new data.
        mark = widget.mark
        #expect(try fixture.run("lockstep-intent", "perform", "CompleteHabit", "--habit", "Read").status == 0)
        #expect(widget.waitForLine("1/3 habits done", after: mark) != nil)
        #expect(widget.finish() == 0)
    }

    @Test("widget.budget: throttled past the daily budget, budget-free with the app in the foreground, a new day resets it")
    func budget() throws {
        let fixture = HabitsFixture(["LOCKSTEP_WIDGET_BUDGET": "2"])
        try fixture.addHabits()
        let widget = try fixture.start("lockstep-widget")
        for used in ["budget 1/2 used", "budget 2/2 used"] {
            let mark = widget.mark
            #expect(try fixture.run("lockstep-host", "reload").status == 0)
            #expect(widget.waitForLine(used, after: mark) != nil, "\(widget.output)")
        }
        var mark = widget.mark
        let throttledRequest = try fixture.run("lockstep-host", "reload")
        #expect(throttledRequest.status == 0, "the caller must not learn about throttling")
        #expect(widget.waitForLine("throttled HabitsWidget reload", after: mark) != nil)
        let log = try String(contentsOfFile: "\(fixture.groupContainer)/.lockstep/widgetkit/HabitsWidget/log", encoding: .utf8)
        #expect(log.contains("throttled"))

        // The app in the foreground: reloads do not count.
        let host = try fixture.start("lockstep-host")
        mark = widget.mark
        host.sendLine("reload")
        #expect(widget.waitForLine("budget-free: host in foreground", after: mark) != nil)
        host.sendLine("background")
        #expect(host.waitForLine("in the background") != nil)
        mark = widget.mark
        host.sendLine("reload")
        #expect(widget.waitForLine("throttled", after: mark) != nil)
        #expect(host.finish() == 0)

        // 24 hours later the window has moved on.
        mark = widget.mark
        try SimulatedClock(groupsRoot: fixture.root.path).advance(by: 86_400)
        #expect(widget.waitForLine("budget 1/2 used", after: mark) != nil, "\(widget.output)")
        #expect(widget.finish() == 0)
    }

    @Test("widget.families: six families rendered as fixed-size boxes, each also in its own file")
    func families() throws {
        let fixture = HabitsFixture()
        try fixture.addHabits()
        let widget = try fixture.start("lockstep-widget")
        // The phone widget's six families (systemExtraLarge is iPad's, accessoryCorner the watch's).
        let phone: [WidgetFamily] = [.systemSmall, .systemMedium, .systemLarge, .accessoryCircular, .accessoryRectangular, .accessoryInline]
        for family in phone {
            let path = WidgetSystem<HabitsWidget>.renderPath(groupContainer: fixture.groupContainer, kind: "HabitsWidget", family: family)
            let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false).dropLast()
            #expect(lines.count == family.size.rows, "\(family)")
            for line in lines {
                #expect(line.reduce(0) { $0 + WidgetRenderer.displayWidth($1) } == family.size.columns, "\(family): '\(line)'")
            }
        }
        // The iPad's and the watch's families are drawn in boxes of their own sizes too.
        for family in [WidgetFamily.systemExtraLarge, .accessoryCorner] {
            let box = WidgetRenderer.render(["Habits", "2/3 done"], family: family)
            #expect(box.count == family.size.rows && box.allSatisfy { $0.reduce(0) { $0 + WidgetRenderer.displayWidth($1) } == family.size.columns }, "\(family): \(box)")
        }
        let bad = try fixture.run("lockstep-widget", "render", "--family", "systemHuge")
        #expect(bad.status == 64 && bad.stderr.contains("'systemHuge' is not a widget family"), "\(bad)")
        #expect(widget.finish() == 0)
    }

    @Test("preferences live in the group defaults suite; the widget reads them into its next timeline")
    func preferences() throws {
        let fixture = HabitsFixture()
        try fixture.addHabits()
        #expect(try fixture.run("lockstep-host", "log", "Meditate").status == 0)
        let widget = try fixture.start("lockstep-widget")
        let large = WidgetSystem<HabitsWidget>.renderPath(groupContainer: fixture.groupContainer, kind: "HabitsWidget", family: .systemLarge)
        #expect(try String(contentsOfFile: large, encoding: .utf8).contains("✓ 🧘 Meditate"))
        for (value, shown) in [("off", false), ("on", true)] {
            let mark = widget.mark
            let set = try fixture.run("lockstep-host", "prefer", "show-completed", value)
            #expect(set.status == 0 && set.stdout.contains("widget.showCompleted = \(value == "on")"), "\(set)")
            #expect(widget.waitForLine("app request", after: mark) != nil)
            #expect(try String(contentsOfFile: large, encoding: .utf8).contains("✓ 🧘 Meditate") == shown)
        }
        let bad = try fixture.run("lockstep-host", "prefer", "show-completed", "maybe")
        #expect(bad.status == 64, "\(bad)")
        #expect(widget.finish() == 0)
    }
}
