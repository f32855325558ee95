@testable import AppIntents
import Foundation
import Testing

/// The Apple-shaped surface of AppIntents (issue 17): intents written as for iOS resolve their parameters and
/// perform; results carry dialogs and values; App Shortcut phrases must name the app; an intent that opens its app
/// never runs in an extension.
@Suite("AppIntents with Apple's names")
struct AppleIntentsTests {
    struct Greet: AppIntent {
        static let title: LocalizedStringResource = "Greet"
        static var description: IntentDescription? { "Say hello." }
        @Parameter(title: "Name") var name: String
        @Parameter(title: "Times", default: 1) var times: Int
        @Parameter(title: "Suffix") var suffix: String?

        func perform() async throws -> some IntentResult & ProvidesDialog & ReturnsValue<Int> {
            .result(value: times, dialog: "\(Array(repeating: "Hello \(name)", count: times).joined(separator: ", "))\(suffix ?? "")")
        }
    }

    struct OpenHabits: AppIntent {
        static let title: LocalizedStringResource = "Open Habits"
        static let openAppWhenRun = true
        func perform() async throws -> some IntentResult { .result() }
    }

    struct Shortcuts: AppShortcutsProvider {
        static var appShortcuts: [AppShortcut] {
            AppShortcut(intent: Greet(), phrases: ["Greet someone in \(.applicationName)", "Say hello"], shortTitle: "Greet", systemImageName: "hand.wave")
            if Bool.random() || true {
                AppShortcut(intent: OpenHabits(), phrases: ["Open \(.applicationName)"])
            }
        }
    }

    @Test func parametersResolveWithDefaultsAndOptionals() throws {
        #expect(try Greet.performResolved(["name": "Ada"]) == PerformedResult(dialog: "Hello Ada", value: "1"))
        #expect(try Greet.performResolved(["name": "Ada", "times": "2", "suffix": "!"]) == PerformedResult(dialog: "Hello Ada, Hello Ada!", value: "2"))
        #expect(Greet.parameters.map { "\($0.name):\($0.typeName):\($0.isRequired)" } == ["name:text:true", "times:integer:false", "suffix:text:false"])
        #expect(Greet.name == "Greet" && Greet.description?.description == "Say hello." && !Greet.openAppWhenRun)
        #expect(throws: IntentError.self) { try Greet.resolve([:]) }
        #expect(throws: IntentError.self) { try Greet.resolve(["name": "Ada", "times": "many"]) }
        #expect(throws: IntentError.self) { try Greet.resolve(["name": "Ada", "colour": "red"]) }
    }

    @Test func shortcutPhrasesMustNameTheApp() throws {
        let shortcuts = Shortcuts.appShortcuts
        #expect(shortcuts.map(\.intentName) == ["Greet", "OpenHabits"])
        #expect(try shortcuts[0].spokenPhrases(applicationName: "Habits").map(\.phrase) == ["Greet someone in Habits", "Say hello"])
        #expect(shortcuts[0].invalidPhrases == ["Say hello"])
        #expect(shortcuts[1].invalidPhrases.isEmpty)
    }

    /// Apple: "Setting this property to true generates an error if the app intent runs in an app extension."
    @Test func anIntentThatOpensItsAppIsRefusedByAnExtension() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("intents-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let router = IntentRouter(registry: IntentRegistry([OpenHabits.self, Greet.self]), groupContainer: root.path, appBundleIdentifier: "com.example.habits")
        #expect {
            try router.perform("OpenHabits", arguments: [:])
        } throws: { error in
            (error as? IntentError)?.code == .needsApp && "\(error)".contains("an app extension may not run it")
        }
        let (result, target) = try router.perform("Greet", arguments: ["name": "Bo"])
        #expect(result.dialog == "Hello Bo" && target == .extension)
    }
}
