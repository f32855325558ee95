// The rules of <doc:Rules> "Sharing data across processes": defaults, files, Darwin notifications, SQLite and
// locks in a group container. Enforced by AppGroupKit, LockstepFoundation, LockstepSystem, HabitCore and LaunchKit.

extension RuleCatalog {
    static let sharingRules = RuleDescription.parse("""
        defaults.plist-types | runtime | Sharing data across processes
        Defaults values are property-list types only.
        Apple: Attempt to insert non-property list object
        Source: developer.apple.com/documentation/foundation/userdefaults
        Lockstep: AppGroupKit's GroupDefaults and LockstepFoundation's UserDefaults refuse any other value with a clear error and write nothing; readers refuse a plist holding a set.
        Fix: Store strings, numbers, booleans, dates, data, arrays and dictionaries of them; encode anything else (JSON, PropertyListEncoder) first.

        defaults.visibility | runtime | Sharing data across processes
        Once a defaults write returns, every other process reading the suite sees the value; a write is never lost or half-visible.
        Apple: When you set a default value, it's changed synchronously within your process, and asynchronously to persistent storage and other processes.
        Source: developer.apple.com/documentation/foundation/userdefaults
        Lockstep: In strict device timing (the default), stricter than the device, and documented: AppGroupKit's GroupDefaults appends each change, checksummed, to the suite's journal under the suite's exclusive lock before `set` returns, and every read takes the lock shared; the journal is folded into the plist atomically. `--device-timing realistic` gives the device's timing instead (defaults.device-flush, defaults.device-cache, defaults.device-coalesce).
        Fix: Do not rely on another process seeing a value later than Lockstep shows it; observe changes explicitly; run the scenarios with `--device-timing realistic` too.

        defaults.device-flush | runtime | Sharing data across processes
        In realistic device timing, a defaults write reaches the other processes only at a flush point, and is lost if the writer is killed before one.
        Apple: When you set a default value, it's changed synchronously within your process, and asynchronously to persistent storage and other processes.
        Apple: Waits for any pending asynchronous updates to the defaults database and returns
        Source: developer.apple.com/documentation/foundation/userdefaults (the class and its synchronize())
        Source: github.com/sobri909/ArcMini/issues/98 (minutes of staleness between the app and its extension until an explicit save); github.com/wordpress-mobile/WordPress-iOS/pull/2552 (a write, then telling the widget, without a flush)
        Lockstep: Under `lockstep up`/`run --device-timing realistic` (and LockstepTesting's `timing:`), AppGroupKit's GroupDefaults keeps a group suite's `set` and `removeObject` in the process, which reads them at once, and appends them to the shared journal at a flush point — `synchronize()`, normal exit, the process's next `increment` or `transaction` — or after a delay drawn from the seed (2 to 4 s); a process SIGKILLed before that loses them. A flushed write is as durable as in strict mode. A scenario's `expect ROLE sees KEY = VALUE within DURATION` fails on the missing flush.
        Fix: Call `synchronize()` (or save through a store that flushes) before telling another process to read, and before the app can be suspended or killed.

        defaults.device-cache | runtime | Sharing data across processes
        In realistic device timing, a process reads a shared suite from its own cache, and sees another process's flushed write only when it takes the suite again.
        Apple: When you set a default value, it's changed synchronously within your process, and asynchronously to persistent storage and other processes.
        Source: developer.apple.com/documentation/foundation/userdefaults
        Source: github.com/p-x9/AppContainer/issues/5 (cfprefsd serves its cached values instead of the plist's)
        Lockstep: Under realistic timing, AppGroupKit's GroupDefaults serves reads of a group suite from the process's cache, taken from the shared store again once a lifetime drawn from the seed (1 to 2 s) has passed, and at once after the process's own `synchronize()` or atomic write.
        Fix: Re-read (synchronize()) when a Darwin notification says the suite changed; never rely on a value read just before another process wrote.

        defaults.device-coalesce | runtime | Sharing data across processes
        In realistic device timing, another process's defaults changes reach an observer gathered: several changes in one callback, the latest value of each key once.
        Apple: When you set a default value, it's changed synchronously within your process, and asynchronously to persistent storage and other processes.
        Source: developer.apple.com/documentation/foundation/userdefaults
        Source: github.com/pointfreeco/swift-sharing/issues/147 (file storage writes at most once a second, so an observer sees changes together or late)
        Lockstep: Under realistic timing, AppGroupKit's GroupDefaults observer gathers the changes of a window drawn from the seed (50 to 250 ms) into one call of the handler, each key once with its latest value.
        Fix: Treat a change callback as "re-read the suite", never as one call per write.

        defaults.change-events | runtime | Sharing data across processes
        didChangeNotification is posted for the process's own changes only; another process's change needs an explicit observer.
        Apple: Posted when the current process changes the value of a setting ... If a different process changes your app's settings, the system doesn't generate this notification.
        Source: developer.apple.com/documentation/foundation/userdefaults/didchangenotification
        Lockstep: AppGroupKit's GroupDefaults posts the notification in the writing process only and offers a change observer for other processes; keys with dots work.
        Fix: Observe the suite (KVO on iOS, a change observer with Lockstep) or re-read it when a Darwin notification arrives.

        files.atomic | runtime | Sharing data across processes
        A file shared between processes is replaced atomically: a reader sees the old file or the new one, never a torn one.
        Apple: use CFPreferences, atomic safe save operations on flat files, SQLite or Core Data
        Source: Technical Note TN2408 (developer.apple.com/library/ios/technotes/tn2408/_index.html)
        Lockstep: Every shared file Lockstep writes goes through LockstepSystem's AtomicFile (a temporary file, fsync, rename, fsync of the folder); AppGroupKit's CoordinatedFiles and Mailbox build on it.
        Fix: Write shared files with `Data.write(to:options: .atomic)` or a database, never in place.

        files.device-rename | runtime | Sharing data across processes
        In realistic device timing, a watch of a shared file holds the file it opened: once a rename replaces it, the watch sees nothing more.
        Apple: DispatchSource.FileSystemEvent.delete: The file-system object was deleted from the namespace.
        Source: developer.apple.com/documentation/dispatch/dispatchsource/filesystemevent
        Source: github.com/pointfreeco/swift-sharing/issues/147 (changes made by external processes, such as a Share Extension, are no longer detected)
        Lockstep: Under realistic timing, AppGroupKit's `CoordinatedFiles.watch` holds the watched file's descriptor, as a file-system object source does: a write in place is `.write`; a replacement by rename (how every shared file is written, files.atomic) or a removal is one `.delete`, and the watch is then stale. In strict timing the watch follows the path and reports every replacement as `.write`.
        Fix: On `.delete` (or `.rename`), cancel the watch and watch the path again, or watch the folder instead of the file.

        darwin.name-only | runtime | Sharing data across processes
        Darwin notifications carry only a name, may be coalesced, and reach only running processes.
        Apple: If the notification center is a Darwin notification center, this value must be ignored.
        Source: developer.apple.com/documentation/corefoundation/cfnotificationcallback
        Lockstep: AppGroupKit's DarwinNotificationCenter carries a name only, to the processes of one simulated device (the watch's are its own); posts in quick succession may arrive as one. `lockstep notify --as ID post NAME` posts one and `wait NAME` waits for one.
        Fix: Re-read the shared state when a notification arrives and when the process starts or wakes.

        sqlite.shared | runtime | Sharing data across processes
        A SQLite database shared by app and extensions uses WAL, immediate transactions and a busy timeout; an older schema never writes a newer store.
        Apple: use CFPreferences, atomic safe save operations on flat files, SQLite or Core Data
        Source: Technical Note TN2408 (developer.apple.com/library/ios/technotes/tn2408/_index.html)
        Lockstep: The reference app's store (HabitCore's HabitStore) opens the shared database in WAL mode with BEGIN IMMEDIATE and a busy timeout, and refuses to write a store of a newer schema. SwiftData's store does the same: each save is one IMMEDIATE transaction that writes only the columns it changed and merges a to-many list with the stored one, so two processes' saves are both kept; a store of another schema or a newer format is refused, untouched.
        Fix: Open the shared database in WAL mode with a busy timeout, handle SQLITE_BUSY, and check the schema version before writing.

        lock.dead10cc | runtime | Sharing data across processes
        A process suspended while it holds a lock on a file in a group container is terminated.
        Apple: 0xdead10cc ... The operating system terminated the app because it held on to a file lock or SQLite database lock during suspension.
        Apple: Termination Reason: Namespace RUNNINGBOARD, Code 0xdead10cc
        Source: developer.apple.com/documentation/xcode/understanding-the-exception-types-in-a-crash-report
        Source: github.com/home-assistant/iOS/pull/4998 and groue/GRDB.swift#997 (a widget killed while it migrates the shared database)
        Lockstep: When a scenario suspends a bundle (`suspend`) — and, under realistic device timing, as soon as an extension's work returns, as iOS suspends it: Lockstep's own widget process after each timeline, tap or control value, its App Intents extension after each command, its notification service after each delivery, and any bundle that prints a `work returned` line — LaunchKit's Supervisor stops it, and if it holds a lock on a file in one of its device's group containers (a read lock on a WAL database's -shm index, which every open connection holds, aside), kills it with the crash report's termination reason, then reopens the group's shared stores (defaults suites, SQLite databases) and reports each: intact, rolled back, or wedged/unreadable. A suspended widget is woken as iOS wakes one: for a reload request, a Live Activity change, the clock moving or its next entry's date; any extension for a command sent to it.
        Fix: Release file and database locks (finish transactions) before the app or extension can be suspended.
        """)
}
