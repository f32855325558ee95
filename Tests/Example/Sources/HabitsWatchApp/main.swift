// The watch app as a simulated process: it activates its session at launch, and `list` shows what it received.
import HabitsShared
import LockstepRuntime

AppProcess.main(role: .watch, onStart: { WatchSync.shared.start() }) { command in
    command.first == "list" ? WatchSync.shared.habitsOnWatch.joined(separator: ", ") : "commands: list"
}
