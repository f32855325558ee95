import AppIntents
import Foundation
import HabitCore
import LockstepTestSupport
import Synchronization
import SwiftUI
@testable import WidgetKit
import Testing

/// iOS 18's control widgets: the Habits widget extension serves `HabitControl` beside its widgets, in its own
/// process; a tap runs the toggle's `SetValueIntent` there with the new value, and the value provider is asked again.
@Suite struct ControlProcessTests {
    @Test("A control's tap runs its SetValueIntent in the widget extension's process with the new value, then asks the provider again; the app's ControlCenter reload reaches it")
    func tapRunsTheIntentInTheWidgetProcess() throws {
        let fixture = HabitsFixture()
        let widget = try fixture.startWidgetWithHabits()
        // Served at start-up from the provider, drawn for the gallery in every Control Center size.
        #expect(widget.waitForLine("reloaded control HabitControl (first value) → No habit · To do") != nil, "\(widget.output)")
        widget.sendLine("--kind HabitControl configure --habit Walk")
        #expect(widget.waitForLine("reloaded control HabitControl (configuration changed) → 🚶 Walk · To do") != nil, "\(widget.output)")
        // The app is not running: only the widget process can have run the intent.
        widget.sendLine("--kind HabitControl tap")
        #expect(widget.waitForLine("reloaded control HabitControl (SetHabitDone performed with value true in the widget extension) → 🚶 Walk · Done") != nil,
                "\(widget.output)")
        #expect(widget.waitForLine("Marked Walk as completed!") != nil, "\(widget.output)")
        let list = try fixture.run("lockstep-host", "summary")
        #expect(list.stdout.contains("1/3 done"), "\(list)")
        // The picture of a toggle that is on: a white circle, the symbol in the control's green tint (Control Center
        // is dark: the dark appearance's green).
        let renders = "\(fixture.groupContainer)/.lockstep/widgetkit/renders/HabitControl"
        let medium = try String(contentsOfFile: "\(renders)/medium.svg", encoding: .utf8)
        #expect(medium.contains("#30d158") && medium.contains("Done"), "\(medium)")
        #expect(FileManager.default.fileExists(atPath: "\(renders)/small.svg") && FileManager.default.fileExists(atPath: "\(renders)/large.svg"))
        // The app changes the store and asks ControlCenter to reload the control: the provider is asked again.
        let toggled = try fixture.run("lockstep-host", "toggle", "Walk")
        #expect(toggled.status == 0, "\(toggled)")
        #expect(widget.waitForLine("reloaded control HabitControl (app request from com.example.habits) → 🚶 Walk · To do") != nil, "\(widget.output)")
        // Tapped again, the toggle hands its intent the opposite of what it shows now.
        let mark = widget.output.count
        widget.sendLine("tap HabitControl")
        #expect(widget.waitForLine("(SetHabitDone performed with value true in the widget extension) → 🚶 Walk · Done", after: mark) != nil,
                "\(widget.output)")
        let text = try String(contentsOfFile: ControlSystem.renderPath(groupContainer: fixture.groupContainer, kind: "HabitControl"), encoding: .utf8)
        #expect(text == "🚶 Walk\nDone\n", "\(text)")
        widget.sendLine("--kind HabitControl render huge")
        widget.sendLine("--kind HabitControl configure --colour red")
        #expect(widget.finish() == 0)
        #expect(widget.errorOutput.contains { $0.contains("'huge' is not a size Control Center draws the control 'HabitControl' at (small, medium, large).") },
                "\(widget.errorOutput)")
        #expect(widget.errorOutput.contains { $0.contains("'colour' is invalid") }, "\(widget.errorOutput)")
    }

    @Test("A control as a one-shot command: render prints what the medium control shows; a bad size is exit 64, nothing written")
    func oneShot() throws {
        let fixture = HabitsFixture()
        try fixture.addHabits()
        let svg = fixture.root.appendingPathComponent("control.svg").path
        let rendered = try fixture.run("lockstep-widget", "--kind", "HabitControl", "render", "medium", "--svg", svg)
        #expect(rendered.status == 0 && rendered.stdout == "No habit\nTo do\n", "\(rendered)")
        #expect(try String(contentsOfFile: svg, encoding: .utf8).contains("<title>HabitControl medium</title>"))
        let bad = try fixture.run("lockstep-widget", "--kind", "HabitControl", "render", "systemSmall", "--svg", svg + ".2")
        #expect(bad.status == 64 && !FileManager.default.fileExists(atPath: svg + ".2"), "\(bad)")
        // The control asks to be configured when it is added: a fresh instance is not, and runs nothing.
        let tap = try fixture.run("lockstep-widget", "tap", "HabitControl")
        #expect(tap.status == 64 && tap.stderr.contains("The control 'HabitControl' asks the person to configure it when it is added"), "\(tap)")
        #expect(!FileManager.default.fileExists(atPath: "\(fixture.groupContainer)/.lockstep/widgetkit/HabitControl"), "a refused tap writes nothing")
        let push = try fixture.run("lockstep-widget", "push")
        #expect(push.status == 64 && push.stderr.contains("'HabitsWidget' declares no pushHandler(_:)"), "\(push)")
        #expect(!FileManager.default.fileExists(atPath: "\(fixture.groupContainer)/.lockstep/widgetkit/HabitsWidget"), "a refused push writes nothing")
        let list = try fixture.run("lockstep-host", "summary")
        #expect(list.stdout.contains("0/3 done"), "\(list)")
    }
}

// MARK: - in one process: the declarations and their behaviour

/// What the test controls' intents and providers saw.
private let seen = Mutex<[String]>([])

private struct Lamp: SetValueIntent {
    static let title: LocalizedStringResource = "Lamp"
    @Parameter(title: "On") var value: Bool
    init() {}
    func perform() async throws -> some IntentResult {
        seen.withLock { $0.append("Lamp value \(value)") }
        return .result()
    }
}

private struct Ring: AppIntent {
    static let title: LocalizedStringResource = "Ring"
    init() {}
    func perform() async throws -> some IntentResult & ProvidesDialog {
        seen.withLock { $0.append("Ring") }
        return .result(dialog: "Rang")
    }
}

private struct LampProvider: ControlValueProvider {
    var previewValue: Bool { false }
    func currentValue() async throws -> Bool {
        // The lamp is on once its intent has set it on.
        seen.withLock { $0.append("asked"); return $0.last(where: { $0.hasPrefix("Lamp") }) == "Lamp value true" }
    }
}

private struct LampControl: ControlWidget {
    var body: some ControlWidgetConfiguration {
        StaticControlConfiguration(kind: "Lamp", provider: LampProvider()) { isOn in
            ControlWidgetToggle("Lamp", isOn: isOn, action: Lamp()) { isOn in
                Label(isOn ? "Lit" : "Dark", systemImage: "lightbulb")
            }
            .tint(.orange)
        }
        .displayName("Lamp")
        .description("Turns the lamp on and off.")
    }
}

private struct BellControl: ControlWidget {
    var body: some ControlWidgetConfiguration {
        StaticControlConfiguration(kind: "Bell") {
            ControlWidgetButton(action: Ring()) {
                Label("Bell", systemImage: "bell").controlWidgetActionHint("Ring it")
            }
            .controlWidgetStatus("Rung")
        }
    }
}

private struct Dots: Widget {
    var body: some WidgetConfiguration {
        StaticConfiguration(kind: "Dots", provider: OneEntryProvider()) { _ in Text("·") }
    }
}

/// A provider of one entry, in the past, and no reloads: for tests of what a widget declares.
struct OneEntryProvider: TimelineProvider {
    struct Entry: TimelineEntry { let date: Date }
    func placeholder(in context: Context) -> Entry { Entry(date: .distantPast) }
    func getSnapshot(in context: Context, completion: @escaping (Entry) -> Void) { completion(Entry(date: .distantPast)) }
    func getTimeline(in context: Context, completion: @escaping (Timeline<Entry>) -> Void) { completion(Timeline(entries: [Entry(date: .distantPast)], policy: .never)) }
}

private struct DoorControl: ControlWidget {
    var body: some ControlWidgetConfiguration {
        StaticControlConfiguration(kind: "Door") {
            ControlWidgetButton("Door", action: Ring()) { isActive in
                Label(isActive ? "Opening" : "Closed", systemImage: "door.garage.closed")
            }
            .disabled(true)
        }
    }
}

private struct Controls: WidgetBundle {
    var body: some Widget {
        Dots()
        LampControl()
        BellControl()
        DoorControl()
    }
}

@MainActor
@Suite(.serialized) struct ControlDeclarationTests {
    @Test("A WidgetBundle holds controls beside widgets; each control keeps its kind, name and description")
    func bundle() {
        let all = Describe.bundle(Controls())
        #expect(all.map(\.kind) == ["Dots", "Lamp", "Bell", "Door"])
        #expect(all.map(\.isControl) == [false, true, true, true])
        #expect(all[1].displayName == "Lamp" && all[1].description == "Turns the lamp on and off.")
    }

    @Test("A toggle's tap hands its SetValueIntent the opposite of its value, then asks the provider again; a button runs its intent as it is")
    func tap() throws {
        let root = TestSupport.temporaryDirectory("controls")
        defer { TestSupport.cleanUp(root) }
        seen.withLock { $0 = [] }
        let all = Describe.bundle(Controls())
        let lines = Mutex<[String]>([])
        let lamp = ControlSystem(control: all[1], groupsRoot: root.path, groupContainer: root.path, hostBundleIdentifier: "app",
                                 output: { line in lines.withLock { $0.append(line) } })
        // Before its first value, the control shows its provider's preview value.
        #expect(lamp.render(.medium).texts == ["Lamp", "Dark"])
        try lamp.start()
        _ = try lamp.tap()
        #expect(seen.withLock { $0 } == ["asked", "Lamp value true", "asked"])
        #expect(lamp.render(.medium).texts == ["Lamp", "Lit"])
        // On: the circle is white and the symbol takes the control's orange tint (the dark appearance's orange).
        #expect(lamp.render(.small).svg(title: nil).contains("#ff9f0a"))
        _ = try lamp.tap()
        #expect(seen.withLock { $0 }.suffix(2) == ["Lamp value false", "asked"])
        #expect(lines.withLock { $0 }.last == "reloaded control Lamp (Lamp performed with value false in the widget extension) → Lamp · Dark")

        let bell = ControlSystem(control: all[2], groupsRoot: root.path, groupContainer: root.path, hostBundleIdentifier: "app", output: { _ in })
        try bell.start()
        #expect(try bell.tap().dialog == "Rang")
        #expect(seen.withLock { $0 }.last == "Ring")
        // The label keeps its title beside the symbol under its hint, which `status` names.
        #expect(bell.render(.medium).texts == ["Bell", "Rung"])
        #expect(bell.status() == "Bell: control (button), intent Ring, action hint 'Ring it'")

        // A titled button shows its action label at rest; disabled, it is dimmed and a tap runs nothing.
        let door = ControlSystem(control: all[3], groupsRoot: root.path, groupContainer: root.path, hostBundleIdentifier: "app", output: { _ in })
        try door.start()
        #expect(door.render(.medium).texts == ["Door", "Closed"])
        #expect(door.render(.small).svg(title: nil).contains("opacity=\"0.4\""))
        let rings = seen.withLock { $0.count }
        #expect(try door.tap().dialog == "Door is disabled: the tap runs nothing.")
        #expect(seen.withLock { $0.count } == rings)
    }

    @Test("ControlCenter's reloads reach the control of that kind, and reloadAllControls every control")
    func reloads() throws {
        let root = TestSupport.temporaryDirectory("controls")
        defer { TestSupport.cleanUp(root) }
        let lines = Mutex<[String]>([])
        let all = Describe.bundle(Controls())
        let lamp = ControlSystem(control: all[1], groupsRoot: root.path, groupContainer: root.path, hostBundleIdentifier: "app",
                                 output: { line in lines.withLock { $0.append(line) } })
        try lamp.start()
        let center = ControlCenter(groupContainer: root.path, requester: "com.example.app")
        try center.requestReload(ofKind: "Bell")
        try lamp.tick()
        #expect(lines.withLock { $0.count } == 1, "another kind's request is not this control's")
        try center.requestReload(ofKind: "Lamp")
        try lamp.tick()
        #expect(lines.withLock { $0.last }?.hasPrefix("reloaded control Lamp (app request from com.example.app)") == true, "\(lines.withLock { $0 })")
        center.reloadAllControls()
        try lamp.tick()
        #expect(lines.withLock { $0.count } == 3)
    }
}
