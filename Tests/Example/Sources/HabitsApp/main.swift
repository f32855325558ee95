// The app as a simulated process: `add NAME`, `done NAME`, `note TEXT…`, `list`, `sync` on stdin.
import HabitsShared
import LockstepRuntime
import WidgetKit

AppProcess.main(onStart: { WatchSync.shared.start() }) { command in
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
