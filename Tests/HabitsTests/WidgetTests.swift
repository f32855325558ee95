import AppGroupKit
import AppIntents
import Foundation
import Glibc
import HabitCore
import LockstepRuntime
import LockstepSystem
import LockstepTestSupport
import SwiftUI
import WidgetKit
import Testing

private struct Entry: TimelineEntry { let date: Date }

@Suite("WidgetKit with the Habits widget bundle (rules: WidgetKit)")
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
        #expect(widget.waitForLine("reloaded HabitsWidget (app request from com.example.habits", after: mark) != nil)

        mark = widget.mark
        try WidgetCenter(groupContainer: fixture.groupContainer, requester: "com.example.habits.intents").requestReload(ofKind: WidgetCenter.allKinds)
        #expect(widget.waitForLine("reloaded HabitsWidget (app request from com.example.habits.intents", after: mark) != nil)

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

    @Test("runtime.version-parity: a @main WidgetBundle is the extension: --help starts nothing; a reinstall stops it (78)")
    func mainBundle() throws {
        let fixture = HabitsFixture()
        let help = try fixture.run("lockstep-widget", "--help")
        #expect(help.status == 0 && help.stdout.contains("[--kind KIND] render FAMILY [--svg FILE]"), "\(help)")
        #expect(!FileManager.default.fileExists(atPath: fixture.groupContainer), "--help started a process")
        let widget = try fixture.start("lockstep-widget", environment: ["LOCKSTEP_BUILD": "1"])
        #expect(widget.waitForLine("ready com.example.habits.widget: HabitsWidget: clock") != nil, "\(widget.output)")
        try Installer.reinstall(groupsRoot: fixture.root.path, build: "2", version: nil)
        // Its next shared write (this configuration's reload) finds the new build, if the watcher has not already.
        widget.sendLine("--kind HabitFocus configure --habit Read")
        #expect(widget.finish() == 78, "\(widget.output)")
        #expect(widget.errorOutput.contains { $0.contains("HabitsWidget (com.example.habits.widget) is from build 1, but Habits is now installed at build 2") }, "\(widget.errorOutput)")
    }

    @Test("widget.families: each family's texts in its file and, while serving, its picture at the family's size")
    func families() throws {
        let fixture = HabitsFixture()
        let widget = try fixture.startWidgetWithHabits()
        // The phone widget's six families (systemExtraLarge is iPad's, accessoryCorner the watch's).
        let phone: [WidgetFamily] = [.systemSmall, .systemMedium, .systemLarge, .accessoryCircular, .accessoryRectangular, .accessoryInline]
        let renders = GroupsLayout.widgetRenders(container: fixture.groupContainer)
        for family in phone {
            let path = WidgetSystem.renderPath(groupContainer: fixture.groupContainer, kind: "HabitsWidget", family: family)
            #expect(try String(contentsOfFile: path, encoding: .utf8).contains("0/3"), "\(family)")
            let svg = try String(contentsOfFile: "\(renders)/HabitsWidget/\(family.rawValue).svg", encoding: .utf8)
            let size = family.displaySize
            #expect(svg.contains("width=\"\(Int(size.width))\" height=\"\(Int(size.height))\""), "\(family): \(svg.prefix(200))")
            #expect(svg.hasSuffix("</svg>\n"))
        }
        #expect(!FileManager.default.fileExists(atPath: "\(renders)/HabitsWidget/accessoryCorner.svg"))
        // The modes WidgetKit also draws each family in, for the gallery to show side by side: a tinted Home Screen
        // (accented, no container background, on the dark stand-in wallpaper); the Lock Screen is vibrant only.
        let accented = try String(contentsOfFile: "\(renders)/HabitsWidget/systemSmall.accented.svg", encoding: .utf8)
        #expect(accented.contains("<desc class=\"lockstep-display\">iPhone 15 (393×852 pt) · dark · large · accented</desc>"), "\(accented)")
        #expect(accented.contains("fill=\"#1c1c1f\""), "the stand-in wallpaper, not the white container background: \(accented)")
        for family in ["systemMedium", "systemLarge"] { #expect(FileManager.default.fileExists(atPath: "\(renders)/HabitsWidget/\(family).accented.svg")) }
        let others = try FileManager.default.contentsOfDirectory(atPath: "\(renders)/HabitsWidget").filter { $0.hasPrefix("accessory") }
        #expect(Set(others) == ["accessoryCircular.svg", "accessoryRectangular.svg", "accessoryInline.svg"], "\(others)")
        // The sizes are the HIG's for the default iPhone (393×852 pt) and Apple Watch (45 mm).
        #expect(WidgetFamily.systemMedium.displaySize == CGSize(width: 338, height: 158))
        #expect(WidgetFamily.accessoryRectangular.displaySize(on: .appleWatch) == CGSize(width: 193, height: 82))
        let bad = try fixture.run("lockstep-widget", "render", "systemHuge")
        #expect(bad.status == 64 && bad.stderr.contains("'systemHuge' is not a widget family"), "\(bad)")
        let unsupported = try fixture.run("lockstep-widget", "render", "accessoryCorner")
        #expect(unsupported.status == 64 && unsupported.stderr.contains("systemSmall, systemMedium"), "\(unsupported)")
        #expect(widget.finish() == 0)
    }

    @Test("Rendering modes: the iPhone Lock Screen's accessories are vibrant (white over a dark wallpaper); the Home Screen and the watch in full colour")
    func renderingModes() throws {
        let fixture = HabitsFixture()
        try fixture.addHabits()
        func fills(_ family: String) throws -> Set<String> {
            let file = fixture.root.appendingPathComponent("\(family).svg").path
            let result = try fixture.run("lockstep-widget", "render", family, "--svg", file)
            #expect(result.status == 0 && !result.stderr.contains("widget.overflow"), "\(result)")
            let svg = try String(contentsOfFile: file, encoding: .utf8)
            return Set(svg.matches(of: /fill="(#[0-9a-f]{6})"/).map { String($0.1) })
        }
        // Vibrant: the stand-in wallpaper and white, whatever colors the view asked for.
        for family in ["accessoryRectangular", "accessoryCircular", "accessoryInline"] {
            let colors = try fills(family)
            #expect(colors.subtracting(["#ffffff", "#1c1c1f"]).isEmpty && colors.contains("#1c1c1f"), "\(family): \(colors)")
        }
        // Full colour: the view's own colors.
        #expect(try fills("systemMedium").subtracting(["#ffffff", "#1c1c1f"]).count > 1)
        #expect(WidgetFamily.accessoryRectangular.renderingMode(on: .iPhone) == .vibrant)
        #expect(WidgetFamily.accessoryRectangular.renderingMode(on: .appleWatch) == .fullColor)
        #expect(WidgetFamily.systemSmall.renderingMode(on: .iPhone) == .fullColor)
    }

    @Test("widget.overflow: content larger than the widget is named with its family and points, and marked on the picture")
    @MainActor
    func overflow() {
        // A text over a 180-pt color, centered in a small widget's 126-pt content area, reaches past the top and
        // bottom edges of the 158-pt widget (the exact points are SwiftUITests' WidgetContainerTests).
        let request = RenderRequest(size: CGSize(width: 158, height: 158), contentMargins: EdgeInsets(top: 16, leading: 16, bottom: 16, trailing: 16),
                                    containerBackground: .widget)
        let view = render(VStack { Text("Tall"); Color.blue.frame(width: 40, height: 180) }.containerBackground(Color.white, for: .widget), request)
        let warnings = view.warnings(kind: "Birds", family: .systemSmall)
        #expect(warnings.count == 1 && warnings[0].hasPrefix("Birds systemSmall: the content is ") && warnings[0].hasSuffix("[widget.overflow]"), "\(warnings)")
        #expect(warnings[0].contains("pt too tall: Text(Tall)"), "\(warnings)")
        let svg = view.widgetSVG(kind: "Birds", family: .systemSmall)
        #expect(svg.contains("<desc class=\"lockstep-warning\">Birds systemSmall: the content is"), "\(svg)")
        #expect(svg.components(separatedBy: "class=\"lockstep-overflow\"").count == 3, "top and bottom: \(svg)")
        // Without a container background: iOS 17's message, and a warning saying so.
        let bare = render(Text("Hello"), request)
        #expect(bare.warnings(kind: "Birds", family: .systemSmall) == ["Birds systemSmall declares no containerBackground(_:for: .widget): iOS 17 shows “Please adopt containerBackground API” in its place"])
        #expect(render(Text("Hello").containerBackground(Color.white, for: .widget), request).warnings(kind: "Birds", family: .systemSmall).isEmpty)
    }

    @Test("render FAMILY --svg FILE: a well-formed picture of the family's size, written atomically; a bad path writes nothing")
    func svg() throws {
        let fixture = HabitsFixture()
        try fixture.addHabits()
        let file = fixture.root.appendingPathComponent("medium.svg").path
        let drawn = try fixture.run("lockstep-widget", "render", "systemMedium", "--svg", file)
        #expect(drawn.status == 0 && drawn.stdout.contains("0/3"), "\(drawn)")
        let svg = try String(contentsOfFile: file, encoding: .utf8)
        #expect(svg.hasPrefix("<?xml") && svg.contains("width=\"338\" height=\"158\"") && svg.hasSuffix("</svg>\n"), "\(svg)")
        #expect(svg.replacingOccurrences(of: "<[^>]+>", with: "", options: .regularExpression).contains("0/3  0%"), "\(svg)")
        for bad in ["\(fixture.root.path)/missing/m.svg", fixture.root.path] {
            let result = try fixture.run("lockstep-widget", "render", "systemMedium", "--svg", bad)
            #expect(result.status == 2 && result.stderr.contains("Could not write the picture to '\(bad)'"), "\(result)")
            #expect(result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
        }
        #expect(!FileManager.default.fileExists(atPath: "\(fixture.root.path)/missing"))
        // A named pipe is refused, not replaced or waited on; a symlink is written through to its target.
        let fifo = fixture.root.appendingPathComponent("pipe.svg").path
        #expect(mkfifo(fifo, 0o644) == 0)
        let piped = try fixture.run("lockstep-widget", "render", "systemMedium", "--svg", fifo)
        #expect(piped.status == 2 && piped.stderr.contains("named pipe"), "\(piped)")
        let link = fixture.root.appendingPathComponent("link.svg").path
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: file)
        #expect(try fixture.run("lockstep-widget", "render", "systemSmall", "--svg", link).status == 0)
        #expect((try? FileManager.default.destinationOfSymbolicLink(atPath: link)) == file)
        #expect(try String(contentsOfFile: file, encoding: .utf8).contains("width=\"158\""))
        let usage = try fixture.run("lockstep-widget", "render", "systemMedium", "--svg")
        #expect(usage.status == 64, "\(usage)")
    }

    @Test("widget.interactive: tap presses the rendered button and runs the very intent it holds; no such button is exit 64")
    func tap() throws {
        let fixture = HabitsFixture()
        let widget = try fixture.startWidgetWithHabits()
        // By the button's label: the medium family shows one button per habit left.
        widget.sendLine("tap Read")
        #expect(widget.waitForLine("CompleteHabit tapped in the widget; not counted: the person's own action")?.contains("1/3 habits done") == true, "\(widget.output)")
        #expect(widget.waitForLine("Marked Read as completed!") != nil, "\(widget.output)")
        widget.sendLine("tap Juggle")
        #expect(widget.finish() == 0)
        #expect(widget.errorOutput.contains { $0.contains("The widget shows no button or toggle 'Juggle': CompleteHabit (") }, "\(widget.errorOutput)")
        let summary = try fixture.run("lockstep-host", "list")
        #expect(summary.stdout.contains("Read"), "\(summary)")
    }

    @Test("widget.interactive: an intent instance's parameters as the arguments that resolve to it again (how a widget hands an openAppWhenRun intent to its app)")
    func intentArguments() throws {
        let intent = CompleteHabit(habit: "Walk")
        #expect(intent.argumentTexts == ["habit": "Walk"])
        #expect(try CompleteHabit.resolve(intent.argumentTexts).habit == "Walk")
        #expect(CompleteHabit().argumentTexts.isEmpty)
    }

    @Test("widget.configurable: --kind picks the bundle's AppIntentConfiguration widget; configure sets its intent, budget-free")
    func configurable() throws {
        let fixture = HabitsFixture()
        let widget = try fixture.startWidgetWithHabits()
        widget.sendLine("--kind HabitFocus configure --habit Walk")
        #expect(widget.waitForLine("reloaded HabitFocus (configuration changed")?.contains("🚶 Walk · ○ to do") == true, "\(widget.output)")
        widget.sendLine("--kind HabitFocus tap CompleteHabit")
        #expect(widget.waitForLine("reloaded HabitFocus (CompleteHabit tapped")?.contains("🚶 Walk · ✓ done") == true, "\(widget.output)")
        widget.sendLine("--kind HabitFocus render systemSmall")
        #expect(widget.waitForLine("✓ done") != nil)
        widget.sendLine("--kind Nope render systemSmall")
        widget.sendLine("--kind HabitFocus configure --colour red")
        widget.sendLine("configure --habit Read")
        #expect(widget.finish() == 0)
        #expect(widget.errorOutput.contains { $0.contains("'Nope' is not a widget of this bundle (its widgets: HabitsWidget, HabitFocus, HabitControl)") }, "\(widget.errorOutput)")
        #expect(widget.errorOutput.contains { $0.contains("'colour' is invalid") }, "\(widget.errorOutput)")
        #expect(widget.errorOutput.contains { $0.contains("HabitsWidget is a StaticConfiguration") }, "\(widget.errorOutput)")
    }

    @Test("widget.configurable: an IntentConfiguration widget serves its IntentTimelineProvider the instance's generated INIntent; configure sets it, a bad setting changes nothing")
    func intentConfiguration() throws {
        let fixture = HabitsFixture()
        let once = try fixture.run("lockstep-siri-widget", "render", "systemSmall")
        #expect(once.status == 0, "\(once)")
        #expect(once.stdout == "no habit chosen\ngoal 1 a day\n", "\(once)")
        let widget = try fixture.start("lockstep-siri-widget")
        widget.sendLine("configure --habit Walk --goal 3 --period weekly")
        let reloaded = widget.waitForLine("reloaded SelectHabit (configuration changed")
        #expect(reloaded?.contains("Walk") == true && reloaded?.contains("goal 3 a week") == true, "\(widget.output)")
        widget.sendLine("configure --colour red")
        widget.sendLine("configure --habit Read --goal many")
        let beforeRender = widget.mark
        widget.sendLine("render systemSmall")
        #expect(widget.waitForLine("goal 3 a week", after: beforeRender) != nil, "\(widget.output)")
        let beforeDaily = widget.mark
        widget.sendLine("configure --period daily")
        #expect(widget.waitForLine("reloaded SelectHabit (configuration changed", after: beforeDaily)?.contains("no habit chosen · goal 1 a day") == true, "a new configuration replaces the old: \(widget.output)")
        #expect(widget.finish() == 0)
        #expect(widget.output.filter { $0.contains("Read") }.isEmpty, "a refused configure sets nothing: \(widget.output)")
        #expect(widget.errorOutput.contains { $0.contains("The parameter 'colour' is invalid: SelectHabitIntent has no such parameter (its parameters: --goal, --habit, --period)") }, "\(widget.errorOutput)")
        #expect(widget.errorOutput.contains { $0.contains("The parameter 'goal' is invalid: 'many' is not a value of type NSNumber") }, "\(widget.errorOutput)")
    }

    @Test("previews: a widget file's #Preview(as:) timeline is drawn entry by entry (listed, or from its provider), a view #Preview at the screen's size, each to SVG")
    func previews() throws {
        let fixture = HabitsFixture()
        let folder = fixture.root.appendingPathComponent("previews").path
        let result = try fixture.run("lockstep-siri-widget", "previews", "--svg", folder)
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout == """
            Preview 1 (lockstep_siri_widget/SiriWidget.swift:84) systemSmall, entry 1 of 2: Walk · goal 2 a day
            Preview 1 (lockstep_siri_widget/SiriWidget.swift:84) systemSmall, entry 2 of 2: Read · goal 3 a week
            Goal row (lockstep_siri_widget/SiriWidget.swift:91) view: goal 5 a day
            From its provider (lockstep_siri_widget/SiriWidget.swift:110) systemSmall, entry 1 of 1: Stretch · goal 1 a day

            """, "\(result)")
        let files = try FileManager.default.contentsOfDirectory(atPath: folder).sorted()
        #expect(files == ["1-Preview-1-1.svg", "1-Preview-1-2.svg", "2-Goal-row-1.svg", "3-From-its-provider-1.svg"])
        let small = try String(contentsOfFile: folder + "/1-Preview-1-2.svg", encoding: .utf8)
        #expect(small.contains("Read") && small.contains("width=\"158\" height=\"158\""), "drawn at systemSmall's size: \(small.prefix(300))")
        let bad = try fixture.run("lockstep-siri-widget", "previews", "--svg")
        #expect(bad.status == 64, "\(bad)")
    }

    @Test("previews in the gallery: a serving widget extension draws its #Previews beside its own renderings")
    func previewsInGallery() throws {
        let fixture = HabitsFixture()
        let widget = try fixture.start("lockstep-siri-widget")
        #expect(widget.waitForLine("ready") != nil, "\(widget.output)")
        #expect(widget.finish() == 0)
        let out = fixture.root.appendingPathComponent("g.html").path
        let result = try fixture.run("lockstep", "gallery", "--groups", fixture.root.path, "--out", out)
        #expect(result.status == 0, "\(result)")
        let page = try String(contentsOfFile: out, encoding: .utf8)
        #expect(page.contains("<h2>Previews</h2>") && page.contains("<h2>SelectHabit</h2>"), "\(page.prefix(2000))")
        // Each picture is an image of its own (the gallery embeds, never inlines): its caption is its own title, the
        // preview's name and what the picture shows.
        #expect(page.contains("<figcaption>From its provider systemSmall, entry 1 of") && page.contains("<figcaption>Goal row view"),
                "\(page.prefix(2000))")
    }

    @Test("lockstep gallery: one self-contained page with every picture a serving widget drew; a bad --out writes nothing")
    func gallery() throws {
        let fixture = HabitsFixture()
        let widget = try fixture.startWidgetWithHabits()
        #expect(widget.finish() == 0)
        let out = fixture.root.appendingPathComponent("g.html").path
        let result = try fixture.run("lockstep", "gallery", "--groups", fixture.root.path, "--out", out)
        #expect(result.status == 0 && result.stdout.hasPrefix(out), "\(result)")
        let page = try String(contentsOfFile: out, encoding: .utf8)
        #expect(page.hasPrefix("<!DOCTYPE html>") && page.components(separatedBy: "<img src=\"data:image/svg+xml;base64,").count - 1 >= 6, "\(page.prefix(300))")
        #expect(page.contains("<figcaption>systemMedium<br><span class=\"display\">iPhone 15 (393×852 pt) · light · large · fullColor</span></figcaption>") && !page.contains("<?xml"))
        // A family's other modes beside it: the tinted Home Screen's accented picture right after the full-colour one.
        let captions = page.matches(of: /<figcaption>([^<]*)</).map { String($0.1) }
        let small = try #require(captions.firstIndex(of: "systemSmall"))
        #expect(captions[small + 1] == "systemSmall · accented", "\(captions)")
        let bad = try fixture.run("lockstep", "gallery", "--groups", fixture.root.path, "--out", "\(fixture.root.path)/no/g.html")
        #expect(bad.status == 2 && bad.stderr.contains("no/g.html"), "\(bad)")
    }

    @Test("preferences live in the group defaults suite; the widget reads them into its next timeline")
    func preferences() throws {
        let fixture = HabitsFixture()
        try fixture.addHabits()
        #expect(try fixture.run("lockstep-host", "log", "Meditate").status == 0)
        let widget = try fixture.start("lockstep-widget")
        // The ready line comes before the first rendering is on disk; the "first timeline" line after it.
        #expect(widget.waitForLine("first timeline") != nil, "\(widget.output)")
        let large = WidgetSystem.renderPath(groupContainer: fixture.groupContainer, kind: "HabitsWidget", family: .systemLarge)
        #expect(try String(contentsOfFile: large, encoding: .utf8).contains("✓ 🧘 Meditate"))
        for (value, shown) in [("off", false), ("on", true)] {
            let mark = widget.mark
            let set = try fixture.run("lockstep-host", "prefer", "show-completed", value)
            #expect(set.status == 0 && set.stdout.contains("widget.showCompleted = \(value == "on")"), "\(set)")
            #expect(widget.waitForLine("reloaded HabitsWidget (app request", after: mark) != nil)
            #expect(try String(contentsOfFile: large, encoding: .utf8).contains("✓ 🧘 Meditate") == shown)
        }
        let bad = try fixture.run("lockstep-host", "prefer", "show-completed", "maybe")
        #expect(bad.status == 64, "\(bad)")
        #expect(widget.finish() == 0)
    }
}
