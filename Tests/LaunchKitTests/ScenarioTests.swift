import LaunchKit
import Testing

@Suite struct ScenarioTests {
    @Test func parsesEveryStepWithItsSection() throws {
        let scenario = try Scenario.parse("""
            # comment
            run intent perform CompleteHabit --habit "Read a book"
            == the widget reloads [widget.reload, widget.budget]
            expect-output Marked Read a book as completed!
            expect-status 0
            wait widget --timeout 5s Read a book ✓
            advance 1d
            send host log Meditate
            suspend widget
            resume widget
            reinstall --build 2 --version 1.1
            expect-exit widget 78
            expect-exit host dead10cc --timeout 2s
            launch widget
            """, name: "t")
        #expect(scenario.steps.map(\.action) == [
            .run(target: "intent", arguments: ["perform", "CompleteHabit", "--habit", "Read a book"]),
            .expectOutput("Marked Read a book as completed!"),
            .expectStatus(0),
            .wait(target: "widget", text: "Read a book ✓", timeout: 5),
            .advance(seconds: 86400),
            .send(target: "host", text: "log Meditate"),
            .suspend(target: "widget"),
            .resume(target: "widget"),
            .reinstall(build: "2", version: "1.1"),
            .expectExit(target: "widget", expectation: .status(78), timeout: Scenario.defaultTimeout),
            .expectExit(target: "host", expectation: .dead10cc, timeout: 2),
            .launch(target: "widget"),
        ])
        #expect(scenario.steps[0].section == nil)
        #expect(scenario.steps[1].section == Scenario.Section(title: "the widget reloads", rules: ["widget.reload", "widget.budget"]))
        #expect(scenario.steps[1].line == 4)
    }

    @Test func badLinesAreNamed() {
        for (text, fragment) in [
            ("jump widget", "line 1 ('jump widget') starts with the unknown step 'jump'"),
            ("\nadvance soon", "line 2 ('advance soon') needs a duration"),
            ("run", "needs a role or bundle id"),
            ("wait widget", "needs a role and the text"),
            ("reinstall --version 2", "needs --build N"),
            ("expect-exit widget maybe", "expects a number, dead10cc or EXC_RESOURCE"),
            ("run intent \"unclosed", "has an unclosed quote"),
            ("== [rule.only]", "heading without a description"),
        ] {
            do {
                _ = try Scenario.parse(text, name: "bad.txt")
                Issue.record("'\(text)' parsed")
            } catch {
                #expect(error.code == .invalidScenario)
                #expect(error.description.hasPrefix("The scenario 'bad.txt' is invalid: "))
                #expect(error.description.contains(fragment), "\(error.description)")
            }
        }
    }

    @Test func expectSeesParsesItsValueSuiteAndDeadline() throws {
        let scenario = try Scenario.parse("""
            expect widget sees currentPlace = Home within 1s
            expect com.example.widget sees title = "Read a book" in group.com.example.other within 500ms
            """, name: "t")
        #expect(scenario.steps.map(\.action) == [
            .expectSees(target: "widget", suite: nil, key: "currentPlace", value: "Home", within: 1),
            .expectSees(target: "com.example.widget", suite: "group.com.example.other", key: "title", value: "Read a book", within: 0.5),
        ])
        for (text, fragment) in [
            ("expect widget sees k = v", "is not of the form expect ROLE sees KEY = VALUE [in SUITE] within DURATION"),
            ("expect widget sees k v within 1s", "is not of the form"),
            ("expect widget sees k = v within soon", "has a 'within' that is not a duration"),
            ("expect widget sees k = in g within 1s", "needs a value after '='"),
        ] {
            #expect(throws: LaunchError.self, "\(text)") { try Scenario.parse(text, name: "bad.txt") }
            do { _ = try Scenario.parse(text, name: "bad.txt") } catch { #expect(error.description.contains(fragment), "\(error.description)") }
        }
    }

    @Test func killAndExpectStoreParse() throws {
        let scenario = try Scenario.parse("""
            kill widget
            kill host --mid-write --timeout 2s
            expect store shared.sqlite intact
            """, name: "t")
        #expect(scenario.steps.map(\.action) == [
            .killBundle(target: "widget", midWrite: false, timeout: Scenario.defaultTimeout),
            .killBundle(target: "host", midWrite: true, timeout: 2),
            .expectStore(path: "shared.sqlite"),
        ])
        for text in ["kill", "kill a b", "kill --mid-write", "kill host --timeout soon", "expect store x", "expect store x broken"] {
            #expect(throws: LaunchError.self, "\(text)") { try Scenario.parse(text, name: "bad.txt") }
        }
    }

    @Test func durations() {
        #expect(Scenario.duration("1d") == 86400)
        #expect(Scenario.duration("2h") == 7200)
        #expect(Scenario.duration("30m") == 1800)
        #expect(Scenario.duration("45s") == 45)
        #expect(Scenario.duration("500ms") == 0.5)
        #expect(Scenario.duration("-1s") == nil)
        #expect(Scenario.duration("soon") == nil)
    }

    @Test func theDemoScenarioParses() throws {
        _ = try Up.loadScenario("demo")
    }
}
