import AppGroupKit
import Foundation
import LockstepFoundation
import LockstepRuntime
import LockstepSystem

/// The Habits share extension's request handling (rule `share.extension`): shared text becomes a new habit in the
/// shared store; the app sees it on its next read of the group.
public final class HabitsShareHandler: NSObject, NSExtensionRequestHandling, @unchecked Sendable {
    public override init() { super.init() }

    public func beginRequest(with context: NSExtensionContext) {
        let providers = (context.inputItems as? [NSExtensionItem] ?? []).flatMap { $0.attachments ?? [] }
        guard let provider = providers.first(where: { $0.hasItemConformingToTypeIdentifier(UTTypeIdentifier.plainText) }) else {
            context.cancelRequest(withError: HabitError(.usage, subject: "share", detail: "share a habit's name as text"))
            return
        }
        provider.loadItem(forTypeIdentifier: UTTypeIdentifier.plainText, options: nil) { item, error in
            do {
                guard let name = (item as? NSString).map(String.init), error == nil else {
                    throw error ?? HabitError(.usage, subject: "share", detail: "the text could not be read")
                }
                guard let process = SimulatedProcess.current else { throw HabitError(.usage, subject: "share", detail: "not a simulated process") }
                let environment = try HabitsEnvironment(process: process, role: .share)
                let habit = try environment.openStore().add(name: name, emoji: "📥")
                try environment.storeDidChange()
                print("shared text saved to the App Group as the habit \(habit.emoji) \(habit.name)")
                context.completeRequest(returningItems: nil, completionHandler: nil)
            } catch {
                context.cancelRequest(withError: error)
            }
        }
    }
}

/// The Habits App Clip (`lockstep-clip`, rule `clip.container`): it adds a habit to the App Group it shares with
/// the full app, and keeps its own visit note in its private container, which installing the full app does not carry over.
public enum ClipApp {
    public static let usage = "add NAME [EMOJI] | status"

    /// Refuses words that are no command before the clip starts as its bundle: starting makes its container (its
    /// temporary folder is there), and a usage error must leave the container uncreated.
    /// - Throws: `HabitError.usage` (exit 64).
    public static func checkUsage(_ words: [String]) throws {
        switch (words.first ?? "", words.count) {
        case ("add", 2...3), ("status", 1): return
        default: throw HabitError(.usage, subject: words.joined(separator: " "), detail: usage)
        }
    }

    public static func run(_ words: [String], environment: HabitsEnvironment) throws -> String {
        // The path only: a usage error must leave the container uncreated.
        let noteURL = URL(fileURLWithPath: environment.privateContainer).appendingPathComponent("Library/Application Support/clip-visit.txt")
        switch (words.first ?? "", words.count) {
        case ("add", 2...3):
            _ = try environment.sandbox.privateContainer()  // created with its standard folders
            let habit = try environment.openStore().add(name: words[1], emoji: words.count == 3 ? words[2] : "✅")
            try environment.storeDidChange()
            try AtomicFile.write("added \(habit.name) from the App Clip\n", to: noteURL.path)
            return "App Clip added \(habit.emoji) \(habit.name) to the App Group \(environment.groupIdentifier); its own container keeps a visit note"
        case ("status", 1):
            let note = (try? AtomicFile.read(noteURL.path)).flatMap { $0 }.map { String(decoding: $0, as: UTF8.self) }
            return note.map { "App Clip visit note: \($0.trimmingCharacters(in: .newlines))" } ?? "App Clip has no visit note in its own container"
        default:
            throw HabitError(.usage, subject: words.joined(separator: " "), detail: usage)
        }
    }
}
