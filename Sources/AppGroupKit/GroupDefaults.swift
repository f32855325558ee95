import Foundation
import LockstepSystem
import Synchronization

/// `UserDefaults(suiteName:)` for a simulated process: a defaults suite shared through an App Group container.
///
/// - Visibility (rule `defaults.visibility`): stricter than iOS, once `set` returns every other process that
///   reads the suite sees the value. Reads take the suite's lock shared, writes exclusive.
/// - Device timing (`DeviceTiming`, realistic): as on a device, a group suite's `set` and `removeObject` reach the
///   shared store only at a flush point — `synchronize()`, normal exit, an `increment` or `transaction`, or a
///   seeded delay — and are lost if the process is killed first (rule `defaults.device-flush`); reads come from the
///   process's cache of the suite, taken again after a seeded lifetime (`defaults.device-cache`); an observer's
///   changes arrive gathered (`defaults.device-coalesce`). A flushed write is as durable as in strict mode.
/// - Scale: a write appends one checksummed record to the suite's journal instead of rewriting the plist; the
///   journal is folded into the plist (`compaction`) when it grows past `compactionThreshold` (or the plist's size), on
///   `synchronize()`, and when the process exits normally, so the plist then holds every value it wrote.
/// - Not entitled (rule `group.defaults-fallback`): like iOS, a suite named after a group the process is
///   not entitled to silently falls back to a private, non-shared plist; Lockstep also prints why on stderr.
///
/// Methods throw `AppGroupError` (and writes whatever `SharedWriteGate` throws: a stale build stops, exit 78).
public final class GroupDefaults: @unchecked Sendable {  // @unchecked: `state` and `registeredForExit` are only touched under `mutex` (and the flock).
    /// A key another process changed: its new value, or nil when it was removed.
    public struct Change {
        public let key: String
        public let value: Any?
    }

    /// `UserDefaults.globalDomain`: never a suite (rule `group.defaults-suite-name`).
    public static let globalDomain = "NSGlobalDomain"
    /// Journal size in bytes past which a write compacts the suite (1 MiB), or past the plist's size when that is
    /// larger: folding rewrites the whole plist, so it comes once per as many journal bytes as it rewrites.
    public static let compactionThreshold = 1 << 20

    public let suiteName: String
    /// False when the suite fell back to the bundle's private container (not entitled to the group).
    public let isShared: Bool
    /// The plist holding the suite (the documented truth once compacted).
    public let plistPath: String
    /// Strict, or the device's timing (a group suite only: a private one has no other process to be late for).
    public let timing: DeviceTiming

    private let files: SuiteFiles
    private let lock: FileLock
    private let mutex = NSLock()
    private let state: SuiteState
    /// Whether `ExitCompaction` knows this suite (registered on the first write; touched under `mutex`).
    private var registeredForExit = false
    /// Under realistic timing, this process's writes not yet flushed and its cached suite, shared by every
    /// `GroupDefaults` of the suite in the process.
    private let device: DeviceView?

    /// Opens the suite `suiteName` as the sandbox's process.
    ///
    /// - Returns: nil for the bundle's own identifier and the global domain, as `UserDefaults(suiteName:)` does
    ///   (rule `group.defaults-suite-name`).
    /// - Parameter diagnostics: where the not-entitled fallback explains itself (stderr by default).
    /// - Throws: `.invalidIdentifier` for a suite name that is not a plain name, or a `group.` name that is not
    ///   a valid group id.
    public convenience init?(suiteName: String, sandbox: Sandbox, diagnostics: (String) -> Void = { Standard.error($0) }) throws(AppGroupError) {
        if suiteName == sandbox.identity.bundleIdentifier || suiteName == Self.globalDomain { return nil }
        try self.init(opening: suiteName, sandbox: sandbox, diagnostics: diagnostics)
    }

    /// The bundle's own domain (`UserDefaults.standard`): the suite named by its bundle identifier, in its private
    /// container.
    public static func standard(sandbox: Sandbox) throws(AppGroupError) -> GroupDefaults {
        try GroupDefaults(opening: sandbox.identity.bundleIdentifier, sandbox: sandbox, diagnostics: { _ in })
    }

    private init(opening suiteName: String, sandbox: Sandbox, diagnostics: (String) -> Void) throws(AppGroupError) {
        try Identifier.validateFileName(suiteName, what: "defaults suite name")
        let container: Container
        if suiteName.hasPrefix("group.") {
            try Identifier.validateGroup(suiteName)
            if let group = try sandbox.groupContainer(suiteName) {
                container = group
                isShared = true
            } else {
                container = try sandbox.privateContainer()
                isShared = false
                // rule `group.defaults-fallback`: iOS says nothing to the app; the device log has the CFPrefs line.
                let identity = sandbox.identity
                diagnostics("warning: '\(identity.bundleIdentifier)' is not entitled to the App Group '\(suiteName)' (its com.apple.security.application-groups lists \(identity.appGroups.isEmpty ? "no group" : identity.appGroups.joined(separator: ", "))): UserDefaults(suiteName: \"\(suiteName)\") silently uses a private, non-shared plist that no other process sees [group.defaults-fallback].")
                diagnostics("The device logs: Couldn't read values in CFPrefsPlistSource<0x600000c50000> (Domain: \(suiteName), User: kCFPreferencesAnyUser, ByHost: Yes, Container: (null), Contents Need Refresh: Yes): Using kCFPreferencesAnyUser with a container is only allowed for System Containers, detaching from cfprefsd")
            }
        } else {
            container = try sandbox.privateContainer()
            isShared = false
        }
        self.suiteName = suiteName
        files = SuiteFiles(container: container, suiteName: suiteName)
        plistPath = files.plist
        do { lock = try FileLock(path: files.lock) } catch { throw AppGroupError(error) }
        state = SuiteState(files: files, writable: true)
        let timing = isShared ? try DeviceTiming.current() : .strict
        self.timing = timing
        device = timing.isRealistic
            ? DeviceView.shared(path: files.plist, timing: timing, bundle: sandbox.identity.bundleIdentifier, suite: suiteName) : nil
    }

    // MARK: Reading

    /// The value for `key` (plist + journal, as every other process sees it), or nil.
    public func value(forKey key: String) throws -> Any? {
        try read { $0[DefaultsKey(key)] }
    }

    /// The string for `key`, or nil when absent or not a string.
    public func string(forKey key: String) throws -> String? { try value(forKey: key) as? String }
    /// The integer for `key`, or nil when absent or not an integer.
    public func integer(forKey key: String) throws -> Int? { try value(forKey: key) as? Int }
    /// The real (or integer) number for `key`, or nil.
    public func double(forKey key: String) throws -> Double? {
        let value = try value(forKey: key)
        return value as? Double ?? (value as? Int).map(Double.init)
    }
    /// The boolean for `key`, or nil when absent or not a boolean.
    public func bool(forKey key: String) throws -> Bool? { try value(forKey: key) as? Bool }

    /// Every key and value of the suite. Two keys that differ only in their normalisation are two in the suite, as
    /// on iOS, but one `String` key here: the first in code-unit order is given (`suiteValues()` has both).
    public func dictionaryRepresentation() throws -> [String: Any] {
        try read { $0.byString }
    }

    /// Every key and value of the suite, each spelling of a key its own (`lockstep defaults read SUITE`).
    package func suiteValues() throws -> [DefaultsKey: Any] {
        try read { $0 }
    }

    // MARK: Writing

    /// Sets `value` for `key`; every other process sees it once this returns (strict timing), or once this process
    /// reaches a flush point (realistic timing, rule `defaults.device-flush`).
    /// - Throws: `.invalidValue` (nothing written) when `value` is not a property list.
    public func set(_ value: Any, forKey key: String) throws {
        if device != nil { return try deferWrite(try PropertyList.validate(value, key: key), forKey: DefaultsKey(key)) }
        if type(of: value) == Int.self {
            // An integer (a counter, a flag, a stamp): the increment's record, patched (`SuiteState.appendInteger`).
            // This write's time is what another process waits for its change, and an Int needs no validating.
            let integer = value as! Int
            try SharedWriteGate.check()  // rule `runtime.stale`, as every write
            return try locked(.exclusive) {
                var none: [Change]? = nil
                try state.refresh(changes: &none)
                try state.appendInteger(integer, forKey: DefaultsKey(key))
                appended()
            }
        }
        let canonical = try PropertyList.validate(value, key: key)
        let record = JournalRecord(pid: JournalRecord.currentProcess, sets: [DefaultsKey(key): canonical], removes: [])
        // A set's record does not depend on the suite: encode it before taking the lock, not while holding it.
        let encoded = try record.encoded()
        try write(encoded: encoded) { _ in (record, ()) }
    }

    /// Removes `key` (nothing happens if it is absent).
    public func removeObject(forKey key: String) throws {
        if device != nil { return try deferWrite(nil, forKey: DefaultsKey(key)) }
        let key = DefaultsKey(key)
        return try write { values in
            (values[key] == nil ? nil : JournalRecord(pid: JournalRecord.currentProcess, sets: [:], removes: [key]), ())
        }
    }

    /// Adds `amount` to the integer at `key` (absent counts as 0) atomically across processes; no update is lost.
    /// - Returns: the new value.
    /// - Throws: `.invalidValue` when the key holds something other than an integer.
    @discardableResult
    public func increment(_ name: String, by amount: Int = 1) throws -> Int {
        // Not through `transaction` nor a `JournalRecord`: an increment is the hot read-modify-write, inside the
        // suite's exclusive lock, and its one-key record is the previous increment's with another integer
        // (`SuiteState.appendInteger`); an Int needs no validating.
        try SharedWriteGate.check()  // rule `runtime.stale`, as every write
        let key = DefaultsKey(name)
        return try locked(.exclusive) {
            var none: [Change]? = nil
            try state.refresh(changes: &none)
            try appendPending()
            // The usual cases, an increment after this process's last increment of the key with nothing else
            // replayed since, or after a replay whose last record was another writer's increment of the key, read
            // the value kept with that record: no hashing, no cast (`SuiteState.pendingInteger`).
            let old: Int
            if let pending = state.pendingInteger(forKey: key) {
                old = pending
            } else if let current = state.values[key] {
                guard let integer = current as? Int else {
                    throw AppGroupError(.invalidValue, subject: name, detail: "it holds a \(PropertyList.describeType(current)), which cannot be incremented")
                }
                old = integer
            } else {
                old = 0
            }
            let (new, overflow) = old.addingReportingOverflow(amount)
            guard !overflow else {
                throw AppGroupError(.invalidValue, subject: name, detail: "adding \(amount) to \(old) overflows a 64-bit integer")
            }
            try state.appendInteger(new, forKey: key)
            appended()
            device?.took(state.values)
            return new
        }
    }

    /// Runs `body` as one atomic read-modify-write: no other process writes the suite meanwhile, and the changes
    /// land all together (one journal record) when `body` returns, or not at all when it throws.
    ///
    /// Read and write through the `Transaction` only: calling this `GroupDefaults` from `body` would wait for
    /// the lock `body` already holds.
    public func transaction<R>(_ body: (inout Transaction) throws -> R) throws -> R {
        try write { values in
            var transaction = Transaction(values: values)
            let result = try body(&transaction)
            let record = transaction.sets.isEmpty && transaction.removes.isEmpty
                ? nil : JournalRecord(pid: JournalRecord.currentProcess, sets: transaction.sets, removes: Array(transaction.removes))
            return (record, result)
        }
    }

    /// The suite as seen inside `transaction`: reads see the transaction's own writes.
    /// Keys are compared by code units, as the suite's (`DefaultsKey`).
    public struct Transaction {
        fileprivate let values: [DefaultsKey: Any]
        fileprivate var sets: [DefaultsKey: Any] = [:]
        fileprivate var removes: Set<DefaultsKey> = []

        public func value(forKey name: String) -> Any? {
            let key = DefaultsKey(name)
            if removes.contains(key) { return nil }
            return sets[key] ?? values[key]
        }

        /// Every key the suite holds, as seen inside the transaction.
        public var keys: [String] {
            (values.keys.filter { !removes.contains($0) && sets[$0] == nil } + sets.keys).map(\.string)
        }

        /// - Throws: `.invalidValue` when `value` is not a property list.
        public mutating func set(_ value: Any, forKey name: String) throws(AppGroupError) {
            let key = DefaultsKey(name)
            sets[key] = try PropertyList.validate(value, key: name)
            removes.remove(key)
        }

        public mutating func removeObject(forKey name: String) {
            let key = DefaultsKey(name)
            sets.removeValue(forKey: key)
            removes.insert(key)
        }
    }

    /// Folds the journal into the plist now (it also happens past `compactionThreshold` and at normal exit).
    /// Under realistic device timing, first flushes this process's pending writes, and takes the suite afresh.
    public func synchronize() throws {
        // rule `runtime.stale`: folding the journal rewrites the shared plist, so a stale build must not.
        try SharedWriteGate.check()
        try locked(.exclusive) {
            var none: [Change]? = nil
            try state.refresh(changes: &none)
            // rule `defaults.device-flush`: "synchronize() … waits for any pending asynchronous updates to the
            // defaults database and returns"; the flush point an app's code names.
            try appendPending()
            try state.compact()
            device?.took(state.values)
        }
    }

    /// Under realistic device timing, writes this process's pending changes to the shared store now (nothing to do
    /// in strict mode, where every write is there when it returns).
    public func flush() throws {
        guard device != nil else { return }
        try SharedWriteGate.check()
        try locked(.exclusive) {
            var none: [Change]? = nil
            try state.refresh(changes: &none)
            try appendPending()
        }
    }

    /// Opens the suite as a reader does after a kill, for a report of how it stands: the bytes at the end of its
    /// journal that are no whole record (a killed writer's unfinished append: ignored by every reader and cut by the
    /// next write, so the suite is as it was before that write), 0 when there are none.
    /// - Throws: what a read throws for a suite that cannot be read (`.malformedSuite`, `.damagedJournal`, `.system`).
    public func unfinishedBytes() throws -> Int {
        try locked(.shared) {
            var none: [Change]? = nil
            try state.refresh(changes: &none)
            return try state.unfinishedBytes()
        }
    }

    // MARK: Observing

    /// Calls `handler` on a background thread with the keys *other* processes change (rule
    /// `defaults.change-events`: `didChangeNotification` only reports the process's own changes; this is the
    /// explicit mechanism). Woken by inotify, or polling where inotify is unavailable. Rapid changes to a key may
    /// arrive together; the handler always ends up with the latest value. (If the suite is compacted twice before
    /// the observer wakes, the keys of the folded records are reported by comparing values, without knowing who
    /// wrote them.)
    ///
    /// - Returns: the observation; keep it, and `cancel()` it to stop.
    public func observe(_ given: @escaping @Sendable ([Change]) -> Void) throws -> Observation {
        let watcher = try DirectoryWatcher(directories: [files.preferencesDirectory, files.journalDirectory])
        // The observer keeps the journal open (creating it if needed): when another process compacts, the open
        // descriptor still reads the records folded away, with their writers' pids, so this process's own
        // changes are never mistaken for someone else's.
        let observerState = SuiteState(files: files, writable: true)
        let observerLock = try FileLock(path: files.lock)
        // The starting point: changes are reported relative to the suite as it is now.
        var initial: [Change]? = nil
        try observerLock.withLock(.shared) { try observerState.refresh(changes: &initial) }
        let box = UncheckedBox((observerState, observerLock))
        // rule `defaults.device-coalesce`: under realistic timing the changes of a window arrive as one call.
        let handler: @Sendable ([Change]) -> Void
        if let device {
            handler = ChangeCoalescer(timing: device.timing, bundle: device.bundle, suite: suiteName, handler: given).add
        } else {
            handler = given
        }
        let thread = Thread {
            let (state, lock) = box.value
            while watcher.wait(timeout: nil) {
                var changes: [Change]? = []
                do {
                    // Appended records are read without the lock (SuiteState.readAppended): woken by a write, the
                    // observer would otherwise wait for the writer to release its lock before reading a record
                    // already complete. They are handed over at once; only then is the journal asked whether a
                    // compaction replaced it, and if so the rest is read under the lock, shared.
                    if try state.readAppended(changes: &changes) {
                        if let found = changes, !found.isEmpty { handler(found) }
                        changes = []
                        if try state.journalIsCurrent() { continue }
                    }
                    try lock.withLock(.shared) { try state.refresh(changes: &changes) }
                } catch {
                    Standard.error("warning: observing the defaults suite '\(state.files.plist)' failed: \(error)")
                    // What was read before the failure is applied to this view already: report it, or it is lost.
                }
                if let changes, !changes.isEmpty { handler(changes) }
            }
        }
        thread.start()
        return Observation(watcher: watcher)
    }

    // MARK: Implementation

    private func read<R>(_ body: ([DefaultsKey: Any]) throws -> R) throws -> R {
        // rule `defaults.device-cache`: a device process reads its cache of the suite while it is fresh.
        if let device, let cached = device.freshCache { return try body(cached) }
        return try locked(.shared) {
            var none: [Change]? = nil
            try state.refresh(changes: &none)
            guard let device else { return try body(state.values) }
            return try body(device.took(state.values))
        }
    }

    /// rule `defaults.device-flush`: under realistic timing a write is seen by this process at once and reaches the
    /// shared store at the next flush point, at the latest after a seeded `DeviceTiming.flushDelay`. Apple: "When
    /// you set a default value, it's changed synchronously within your process, and asynchronously to persistent
    /// storage and other processes."
    private func deferWrite(_ value: Any?, forKey key: DefaultsKey) throws {
        try SharedWriteGate.check()  // rule `runtime.stale`, as every write
        guard let device else { return }
        mutex.withLock {
            if !registeredForExit {
                ExitCompaction.register(self)
                registeredForExit = true
            }
        }
        guard let scheduled = device.write(value, forKey: key) else { return }
        DispatchQueue.global().asyncAfter(deadline: .now() + scheduled.delay) { [weak self] in
            self?.flushAfterDelay(generation: scheduled.generation)
        }
    }

    /// The delayed flush `deferWrite` scheduled, unless a flush point came first.
    private func flushAfterDelay(generation: Int) {
        do {
            guard device?.isScheduled(generation) == true else { return }
            try flush()
        } catch {
            Standard.error("warning: the pending writes of '\(plistPath)' were not flushed: \(error) They stay pending until the next flush point.")
        }
    }

    /// Appends the pending writes (realistic timing) as one record. Call under the exclusive lock, after `refresh`.
    private func appendPending() throws {
        guard let device, let record = device.takePending() else { return }
        do { try state.append(record) } catch {
            device.restore(record)
            throw error
        }
        appended()
    }

    /// Under the exclusive lock: refresh, let `body` decide the record, append it, compact past the threshold.
    /// - Parameter encoded: the record `body` returns, already encoded, when it is known before the lock is taken.
    private func write<R>(encoded: [UInt8]? = nil, _ body: ([DefaultsKey: Any]) throws -> (JournalRecord?, R)) throws -> R {
        // rule `runtime.stale`: a stale build stops before its next shared write.
        try SharedWriteGate.check()
        return try locked(.exclusive) {
            var none: [Change]? = nil
            try state.refresh(changes: &none)
            try appendPending()
            let (record, result) = try body(state.values)
            if let record {
                try state.append(record, encoded: encoded)
                appended()
            }
            device?.took(state.values)
            return result
        }
    }

    /// After a record is appended, under the exclusive lock: the exit compaction knows this suite, and the journal
    /// is folded once past the threshold.
    ///
    /// Never throws: the record is in the journal, so the write has happened, whatever the fold does. A fold that
    /// fails (a full disk) is a warning, leaves the records where they are, and is tried again by the next write.
    private func appended() {
        if !registeredForExit {
            ExitCompaction.register(self)
            registeredForExit = true
        }
        guard state.journalOffset > state.compactionThreshold else { return }
        do { try state.compact() } catch {
            Standard.error("warning: the journal '\(files.journal)' was not folded into '\(plistPath)': \(error) The write itself is in the journal and stands; the fold is tried again on the next write.")
        }
    }

    private func locked<R>(_ mode: FileLock.Mode, _ body: () throws -> R) throws -> R {
        mutex.lock()
        defer { mutex.unlock() }
        do {
            return try lock.withLock(mode, body)
        } catch let error as SystemError {
            throw AppGroupError(error)
        }
    }
}

/// A running observer (defaults changes or Darwin notifications); `cancel()` stops its thread.
public final class Observation: Sendable {
    private let watcher: DirectoryWatcher

    init(watcher: DirectoryWatcher) { self.watcher = watcher }

    /// Stops observing. A call of the handler already under way completes; no new one starts after it.
    public func cancel() { watcher.cancel() }

    deinit { watcher.cancel() }
}

/// Carries a value into a thread that alone uses it afterwards.
struct UncheckedBox<T>: @unchecked Sendable {  // @unchecked: ownership moves to one thread.
    let value: T
    init(_ value: T) { self.value = value }
}

/// Compacts every suite this process wrote when it exits normally, so the plist then holds all its values.
enum ExitCompaction {
    private static let state = Mutex<(pending: [String: GroupDefaults], installed: Bool)>(([:], false))

    static func register(_ defaults: GroupDefaults) {
        let install = state.withLock { state in
            state.pending[defaults.plistPath] = defaults
            defer { state.installed = true }
            return !state.installed
        }
        if install { atexit { ExitCompaction.run() } }
    }

    private static func run() {
        // A process from a superseded build leaves the folding to the installed one (rule `runtime.stale`).
        guard (try? SharedWriteGate.check()) != nil else { return }
        let all = state.withLock { state in
            defer { state.pending = [:] }
            return Array(state.pending.values)
        }
        // A container deleted meanwhile (a test's temporary root, an uninstall) has nothing left to fold.
        for defaults in all where FileSystem.exists(String(defaults.plistPath[..<defaults.plistPath.lastIndex(of: "/")!])) {
            do { try defaults.synchronize() } catch {
                Standard.error("warning: the journal of '\(defaults.plistPath)' was not folded into it at exit: \(error) The writes are in the journal and stand.")
            }
        }
    }
}
