import AppIntents

// An App Intents extension as on iOS, with one intent, for LaunchKit's suspension tests (rule `lock.dead10cc`; built,
// not installed): served on stdin under `lockstep up`, it says its work returned after each command.

struct Ping: AppIntent {
    static let title: LocalizedStringResource = "Ping"
    static var description: IntentDescription? { "Answer pong" }

    init() {}

    func perform() async throws -> some IntentResult & ProvidesDialog {
        .result(dialog: "pong")
    }
}

@main
struct ProbeIntentsExtension: AppIntentsExtension {}
