// The app as a simulated process: `add NAME`, `done NAME`, `note TEXT…`, `list`, `sync` on stdin.
import AppIntents
import HabitsShared
import LockstepRuntime
import WidgetKit

AppProcess.main(onStart: {
    WatchSync.shared.start()
    // While the app runs, Siri's and Shortcuts' intents run here rather than in the extension (rule `intent.where`).
    try AppIntentsProcess.serveInApp(intents: [AddHabitIntent.self, CompleteHabitIntent.self])
}) { command in
    let store = HabitsStore.shared
    let argument = command.dropFirst().joined(separator: " ")
    switch command.first {
    case "add": store.add(argument)
    case "done": try store.complete(argument)
    case "note": try store.setNote(argument)
    case "list": return store.habits.map { "\($0.isDone ? "✓" : "·") \($0.name)" }.joined(separator: ", ")
    case "sync": try WatchSync.shared.send(store.habits)
    default: return "commands: add NAME, done NAME, note TEXT, list, sync"
    }
    WidgetCenter.shared.reloadTimelines(ofKind: "HabitsWidget")
    return "ok"
}
