import AppGroupKit
import BundleKit
import Foundation
import LockstepRuntime
import LockstepSystem
import Synchronization

/// One bundle process under a `Supervisor`: its output so far and how it ended.
public final class SupervisedBundle: @unchecked Sendable {  // @unchecked: mutable state only under Supervisor.condition.
    /// The prefix of its output lines (`widget`).
    public let label: String
    public let record: BundleRecord
    /// The memory limit enforced on it (rule `widget.memory`), if any.
    public let memoryLimitMB: Int?
    let process: SpawnedProcess

    /// Each output line with the monotonic time it arrived.
    var lines: [(time: Double, text: String)] = []
    var ready = false
    /// Its stdout and stderr pipes still open (0 once both reached end of file).
    var openStreams = 2
    var termination: Termination?
    /// Why the supervisor killed it (the device's wording), if it did.
    var killReason: String?
    /// Whether a scenario step expected this exit (otherwise it is an unexpected failure).
    var exitClaimed = false
    /// Launched for one task (see `Supervisor.launch`).
    var oneShot = false
    /// Launched only to check that it runs (see `Supervisor.launch`): exiting 0 also makes it ready.
    var launchCheck = false
    /// Where it stands in iOS's suspension of an extension whose work returned (realistic timing, rule
    /// `lock.dead10cc`; see SupervisorWakes.swift).
    var workState = WorkState.running
    /// A wake that came while it was not suspended (it may have missed it): it is resumed again as soon as it is.
    var wakePending = false
    /// Whether that wake, or the one waking it, needs the wake-up line (it comes with no command of its own).
    var wakeNeedsLine = false
    /// The monotonic time its own next work is due (its work-returned line's `next in`), if it said.
    var dueAt: Double?
    /// Its build was replaced by a reinstall: it is about to stop (rule `runtime.stale`) and is never suspended again.
    var retired = false

    public var pid: pid_t { process.pid }

    init(label: String, record: BundleRecord, memoryLimitMB: Int?, process: SpawnedProcess) {
        self.label = label
        self.record = record
        self.memoryLimitMB = memoryLimitMB
        self.process = process
    }

    /// A long-running bundle that ended without a scenario step expecting it (read under Supervisor.condition). One
    /// the supervisor killed counts as ended at once, before it is reaped: a scenario that ends meanwhile still fails.
    var endedUnexpectedly: Bool { (termination != nil || killReason != nil) && !exitClaimed && !oneShot }

    /// How it ended, in words: the supervisor's kill reason when there is one.
    var endDescription: String {
        if let killReason { return killReason }
        return termination?.description ?? "is running"
    }

    /// The bundle as messages name it: `widget (com.example.habits.widget, pid 123)`.
    public var name: String { "\(label) (\(record.bundleIdentifier ?? record.name), pid \(pid))" }
}

/// Launches bundles as separate processes in their own process groups and supervises them: one multiplexed
/// output stream, readiness, memory limits (rule `widget.memory`), suspension (rule `lock.dead10cc`),
/// and a teardown that always ends in SIGKILL so no child outlives the supervisor.
public final class Supervisor: @unchecked Sendable {  // @unchecked: mutable state only under `condition`.
    /// The readiness convention: a bundle is ready once it prints a line `ready` (optionally `ready <details>`)
    /// on stdout. Documented for third-party bundles in <doc:YourOwnCode> "A bundle in any language".
    public static func isReadyLine(_ text: String) -> Bool { text == "ready" || text.hasPrefix("ready ") }

    /// The work-returned convention (`WorkReturned`): an extension prints a line `work returned` (optionally
    /// `work returned <details>`) on stdout when its timeline, intent or notification work has returned to the system.
    /// Under realistic device timing the supervisor then suspends it, as iOS does (rule `lock.dead10cc`).
    public static func isWorkReturnedLine(_ text: String) -> Bool { WorkReturned.parse(text) != nil }

    /// Seconds between SIGTERM and SIGKILL at teardown.
    public static let grace = 2.0

    public let groupsRoot: String
    public let output: OutputMux
    /// The timing every launched bundle's shared defaults follow (`DeviceTiming`), passed in its environment.
    public let timing: DeviceTiming
    let condition = NSCondition()
    private(set) var bundles: [SupervisedBundle] = []
    private(set) var stopping = false
    /// The devices whose wake-up notifications the supervisor observes, and the observations (SupervisorWakes.swift).
    var wakeDevices: Set<Device> = []
    var wakeObservations: [AppGroupKit.Observation] = []
    /// Whether the thread that wakes widgets at their due times runs.
    var dueTimerRunning = false
    private var interruptedFlag = false
    private var interruptSignal: Int32?

    /// Whether Ctrl-C (or SIGTERM/SIGHUP) asked everything to stop.
    public var interrupted: Bool {
        condition.lock(); defer { condition.unlock() }
        return interruptedFlag
    }

    /// The launcher's environment, read once: every bundle's starts from it (`LaunchEnvironment.child`), and
    /// Foundation builds the whole dictionary anew on each read.
    private let launcherEnvironment = ProcessInfo.processInfo.environment

    public init(groupsRoot: String, output: OutputMux, timing: DeviceTiming = .strict) {
        self.groupsRoot = groupsRoot
        self.output = output
        self.timing = timing
        Thread.detachNewThread { [self] in watchMemory() }
    }

    /// Starts `record`'s executable with its identity (see `LaunchEnvironment`), stdin/stdout/stderr piped
    /// through the supervisor.
    /// - Parameter oneShot: a process run for one task (an intent): its exit is the caller's result, not news.
    /// - Parameter launchCheck: an on-demand bundle launched only to see that it can run (`LaunchEnvironment.launchCheck`):
    ///   one-shot, its stdin closed at once, and ready when it prints its ready line or exits 0.
    /// - Throws: `LaunchError` when the executable cannot be found or started.
    @discardableResult
    public func launch(_ record: BundleRecord, label: String, arguments: [String] = [], oneShot: Bool = false,
                       launchCheck: Bool = false) throws(LaunchError) -> SupervisedBundle {
        let name = record.bundleIdentifier ?? record.name
        let path = try ExecutableLocator.locate(record.executable ?? "", bundle: name)
        var environment = LaunchEnvironment.child(for: record, groupsRoot: groupsRoot, base: launcherEnvironment)
        if launchCheck { environment[LaunchEnvironment.launchCheck] = "1" }
        environment.merge(timing.environment) { $1 }
        // It will suspend this bundle after each work-returned line and wake it with a line (SupervisorWakes.swift).
        if timing.isRealistic { environment[WorkReturned.suspendedVariable] = "1" }
        let process = try SpawnedProcess.start(path: path, name: name, arguments: arguments, environment: environment, ownGroup: true, pipes: true)
        let bundle = SupervisedBundle(label: label, record: record, memoryLimitMB: MemoryLimit.megabytes(for: record), process: process)
        bundle.oneShot = oneShot || launchCheck
        bundle.launchCheck = launchCheck
        condition.lock()
        bundles.append(bundle)
        condition.unlock()
        for descriptor in [process.stdout!, process.stderr!] {
            Thread.detachNewThread { [self] in pump(descriptor, of: bundle, isStdout: descriptor.rawValue == process.stdout!.rawValue) }
        }
        Thread.detachNewThread { [self] in reap(bundle) }
        if launchCheck { process.closeStdin() }
        // From its start: a request it misses while it works must still wake it once it is suspended.
        if timing.isRealistic && bundle.isWidgetExtension { watchWakes(on: record.device) }
        return bundle
    }

    /// Starts launching every one of `targets` at once, one thread each (a spawn waits until its child has exec'd),
    /// each saying so when launched, and returns at once: the caller does other work (`up` writes the install)
    /// while the spawns run, then calls `wait()` on the result.
    /// - Parameter launchChecks: on-demand bundles to launch at the same time, as launch checks (see `launch`).
    public func startLaunching(_ longRunning: [(record: BundleRecord, label: String)],
                               launchChecks: [(record: BundleRecord, label: String)] = []) -> Launching {
        let targets = longRunning.map { ($0.record, $0.label, false) } + launchChecks.map { ($0.record, $0.label, true) }
        let launching = Launching(count: targets.count)
        for (index, target) in targets.enumerated() {
            launching.group.enter()
            Thread.detachNewThread { [self] in
                let result = Result { () throws(LaunchError) in try launch(target.0, label: target.1, launchCheck: target.2) }
                if case .success(let bundle) = result { output.say("launched \(bundle.name)\(target.2 ? " to check that it runs" : "")") }
                launching.results.withLock { $0[index] = result }
                launching.group.leave()
            }
        }
        return launching
    }

    /// Launches under way (`startLaunching`).
    public final class Launching: Sendable {
        fileprivate let group = DispatchGroup()
        fileprivate let results: Mutex<[Result<SupervisedBundle, LaunchError>?]>

        fileprivate init(count: Int) { results = Mutex(Array(repeating: nil, count: count)) }

        /// Waits until every spawn has returned; the bundles in the order given.
        /// - Throws: the first `LaunchError`; the bundles that did start stay supervised (teardown stops them).
        public func wait() throws(LaunchError) -> [SupervisedBundle] {
            group.wait()
            return try results.withLock { results throws(LaunchError) in
                try results.map { result throws(LaunchError) in try result!.get() }
            }
        }
    }

    /// The bundles launched so far, in launch order.
    public var launched: [SupervisedBundle] {
        condition.lock(); defer { condition.unlock() }
        return bundles
    }

    /// The most recent launch of the bundle labelled `label`.
    public func bundle(label: String) -> SupervisedBundle? {
        // Not a launch check: a step about the intents extension means a run the scenario asked for.
        launched.last { $0.label == label && !$0.launchCheck }
    }

    // MARK: Waiting

    /// Waits until `predicate` holds (checked under the lock whenever anything changes), the deadline passes, or
    /// the supervisor is interrupted (unless `interruptible` is false: teardown must see its children go).
    /// Returns whether the predicate held.
    func wait(timeout: Double, interruptible: Bool = true, until predicate: () -> Bool) -> Bool {
        let deadline = Date(timeIntervalSinceNow: timeout)
        condition.lock(); defer { condition.unlock() }
        while !predicate() {
            if interruptible && interruptedFlag { return predicate() }
            // NSCondition traps on a deadline it cannot convert (distantFuture): wait unbounded instead.
            if !timeout.isFinite {
                condition.wait()
            } else if !condition.wait(until: deadline) {
                return predicate()
            }
        }
        return true
    }

    /// Waits until `bundle` prints its ready line.
    /// - Throws: `LaunchError.notReady` when it exits first or the wait runs out.
    public func waitReady(_ bundle: SupervisedBundle, timeout: Double) throws(LaunchError) {
        _ = wait(timeout: timeout) { bundle.ready || bundle.termination != nil }
        condition.lock(); defer { condition.unlock() }
        if bundle.ready || interruptedFlag || (bundle.launchCheck && bundle.termination == .exited(0)) { return }
        if bundle.termination != nil {
            bundle.exitClaimed = true
            let last = bundle.lines.last.map { ": \($0.text)" } ?? ""
            throw LaunchError(.notReady, subject: bundle.label, detail: "\(bundle.name) \(bundle.endDescription) before it was ready\(last)")
        }
        throw LaunchError(.notReady, subject: bundle.label, detail: "\(bundle.name) did not print its ready line within \(Int(timeout)) s")
    }

    /// Waits until `bundle` ends; returns how, or nil on timeout.
    func waitForExit(_ bundle: SupervisedBundle, timeout: Double, interruptible: Bool = true) -> Termination? {
        _ = wait(timeout: timeout, interruptible: interruptible) { bundle.termination != nil }
        condition.lock(); defer { condition.unlock() }
        return bundle.termination
    }

    /// Whether a bundle ended without a step expecting it.
    var unexpectedExitPending: Bool {
        condition.lock(); defer { condition.unlock() }
        return hasUnclaimedExitLocked
    }

    /// Whether a bundle ended without a step expecting it. Call with `condition` held (inside a `wait` predicate).
    var hasUnclaimedExitLocked: Bool {
        bundles.contains(where: \.endedUnexpectedly)
    }

    /// Long-running bundles that ended without a scenario step expecting it; marks them reported.
    func unexpectedExits() -> [SupervisedBundle] {
        condition.lock(); defer { condition.unlock() }
        let found = bundles.filter(\.endedUnexpectedly)
        for bundle in found { bundle.exitClaimed = true }
        return found
    }

    // MARK: Control

    /// Writes one line to the bundle's stdin (its commands).
    public func send(_ text: String, to bundle: SupervisedBundle) throws(LaunchError) {
        guard bundle.process.writeStdin(text + "\n") else {
            throw LaunchError(.spawnFailed, subject: bundle.label, detail: "its stdin is closed (\(bundle.endDescription))")
        }
    }

    /// What `suspend` did.
    public enum SuspendOutcome: Equatable, Sendable {
        case suspended
        /// rule `lock.dead10cc`: it held a lock on the file at `path` in a shared group container, so it was terminated.
        case terminatedHoldingLock(path: String)
    }

    /// The crash report's line for rule `lock.dead10cc`.
    public static let dead10ccReason = "Termination Reason: Namespace RUNNINGBOARD, Code 0xdead10cc"

    /// Suspends `bundle` (SIGSTOP to its group), as iOS suspends an app or extension in the background; if it
    /// holds a lock on a file in a group container of its device at that moment, terminates it instead
    /// (rule `lock.dead10cc`: "The operating system terminated the app because it held on to a file lock or
    /// SQLite database lock during suspension").
    public func suspend(_ bundle: SupervisedBundle) -> SuspendOutcome {
        bundle.process.signal(SIGSTOP)
        // The stop is asynchronous: wait (bounded) until the kernel shows it, so the lock table is the one at suspension.
        let deadline = Monotonic.now + 2
        while !ProcessInspection.isStopped(bundle.pid) && Monotonic.now < deadline && isRunning(bundle) { Pause.microseconds(1_000) }
        guard let held = sharedLock(heldBy: bundle) else { return .suspended }
        killProcess(of: bundle, reason: "\(Self.dead10ccReason) (it held a lock on \(held) while suspended)")
        return .terminatedHoldingLock(path: held)
    }

    /// A file in one of the bundle's device's group containers that the bundle (or a process of its group) holds a
    /// lock on — an exclusive one only when `exclusive` — or nil. flock locks and POSIX locks alike: SQLite's
    /// database locks are POSIX locks. A read lock on a WAL database's `-shm` index does not count: every open
    /// connection holds one for its lifetime, and so does a WAL read, which iOS suspends without a kill (GRDB lets
    /// WAL reads run in a suspended process); a write lock on it — a WAL write or checkpoint — does.
    func sharedLock(heldBy bundle: SupervisedBundle, exclusive: Bool = false) -> String? {
        let shared = ProcessInspection.files(under: GroupsLayout(root: groupsRoot).groupContainers(on: bundle.record.device))
        return ProcessInspection.heldLocks().lazy.compactMap { lock -> String? in
            guard !exclusive || lock.exclusive,
                  lock.pid == bundle.pid || ProcessInspection.processGroup(lock.pid) == bundle.pid,
                  let path = shared[[lock.major, lock.minor, lock.inode]] else { return nil }
            return path.hasSuffix("-shm") && !lock.exclusive ? nil : path
        }.first
    }

    /// Stops `bundle` again and again (SIGSTOP, then SIGCONT) until it is stopped while holding a write lock on a
    /// file in a shared container, and kills it there (SIGKILL): a kill in the middle of a write, as a device's
    /// watchdog or jetsam may do. Bounded by `timeout`.
    /// - Returns: the file it held a write lock on, or nil (it is left running) when it never took one in time.
    func killMidWrite(_ bundle: SupervisedBundle, timeout: Double) -> String? {
        let deadline = Monotonic.now + timeout
        while Monotonic.now < deadline && isRunning(bundle) {
            bundle.process.signal(SIGSTOP)
            let stopDeadline = Monotonic.now + 2
            while !ProcessInspection.isStopped(bundle.pid) && Monotonic.now < stopDeadline && isRunning(bundle) { Pause.microseconds(200) }
            if let file = sharedLock(heldBy: bundle, exclusive: true) {
                killProcess(of: bundle, reason: "killed mid-write: SIGKILL while it held a write lock on \(file)")
                bundle.process.signal(SIGCONT)
                return file
            }
            bundle.process.signal(SIGCONT)
            Pause.microseconds(1_000)
        }
        return nil
    }

    /// Resumes a suspended bundle (SIGCONT): a scenario's `resume`, whoever suspended it.
    public func resume(_ bundle: SupervisedBundle) {
        condition.lock()
        bundle.workState = .running
        bundle.dueAt = nil
        condition.unlock()
        bundle.process.signal(SIGCONT)
    }

    /// Stops everything: the signal that interrupted the supervisor (Ctrl-C is forwarded as SIGINT) or SIGTERM to
    /// every process group, SIGKILL to any still there after `grace` seconds, and reaps them all.
    public func tearDown() {
        condition.lock()
        stopping = true
        let running = bundles.filter { $0.termination == nil }
        let first = interruptSignal ?? SIGTERM
        let observations = wakeObservations
        wakeObservations = []
        // The due-time thread sees `stopping` and ends.
        condition.broadcast()
        condition.unlock()
        for observation in observations { observation.cancel() }
        for bundle in running {
            bundle.process.signal(first)
            // A stopped process only acts on SIGTERM once continued.
            bundle.process.signal(SIGCONT)
        }
        // One grace period for all of them, not one each.
        let deadline = Monotonic.now + Self.grace
        for bundle in running where waitForExit(bundle, timeout: max(0, deadline - Monotonic.now), interruptible: false) == nil {
            bundle.process.signal(SIGKILL)
        }
        for bundle in running {
            _ = waitForExit(bundle, timeout: 10, interruptible: false)
            // Anything the bundle started in its group goes with it.
            bundle.process.signalGroup(SIGKILL)
        }
    }

    /// Marks the supervisor interrupted by `signal` (Ctrl-C: SIGINT): waits return at once, and teardown forwards it.
    public func interrupt(by signal: Int32) {
        condition.lock()
        interruptedFlag = true
        interruptSignal = signal
        condition.broadcast()
        condition.unlock()
    }

    func isRunning(_ bundle: SupervisedBundle) -> Bool {
        condition.lock(); defer { condition.unlock() }
        return bundle.termination == nil
    }

    /// Kills `bundle` with SIGKILL, recording the device's reason for the report.
    func killProcess(of bundle: SupervisedBundle, reason: String) {
        condition.lock()
        let alive = bundle.termination == nil && bundle.killReason == nil
        if alive { bundle.killReason = reason }
        condition.unlock()
        guard alive else { return }
        bundle.process.signal(SIGKILL)
        output.say("\(bundle.name) killed: \(reason)")
    }

    // MARK: Threads

    /// Reads one output stream of `bundle` and writes it, whole lines only, through the mux.
    private func pump(_ descriptor: FileDescriptor, of bundle: SupervisedBundle, isStdout: Bool) {
        var pending: [UInt8] = []
        func emit(_ bytes: ArraySlice<UInt8>) {
            var text = String(decoding: bytes, as: UTF8.self)
            if text.hasSuffix("\r") { text.removeLast() }
            output.line(bundle.label, text)
            condition.lock()
            bundle.lines.append((Monotonic.now, text))
            if isStdout && Self.isReadyLine(text) { bundle.ready = true }
            let suspend = isStdout ? workReturnedLocked(text, by: bundle) : false
            condition.broadcast()
            condition.unlock()
            // Not on this thread: suspending waits for the stop, and this thread reads the output the stop may hold back.
            if suspend { Thread.detachNewThread { [self] in suspendAfterWork(bundle) } }
        }
        while true {
            // EINTR is retried inside; an error or the end of the stream ends the pump.
            guard let chunk = try? descriptor.read(upTo: 16384, path: bundle.label), !chunk.isEmpty else { break }
            pending.append(contentsOf: chunk)
            while let newline = pending.firstIndex(of: 0x0A) {
                emit(pending[..<newline])
                pending.removeSubrange(...newline)
            }
        }
        if !pending.isEmpty { emit(pending[...]) }
        descriptor.close()
        condition.lock()
        bundle.openStreams -= 1
        condition.broadcast()
        condition.unlock()
    }

    /// Waits for `bundle` to end and records how.
    private func reap(_ bundle: SupervisedBundle) {
        let termination = bundle.process.wait()
        // Its last lines may still be in the pipes: an ended bundle's output is complete. Bounded, because a
        // process the bundle started in the background can hold the pipes open.
        _ = wait(timeout: 1, interruptible: false) { bundle.openStreams == 0 }
        condition.lock()
        bundle.termination = termination
        let quiet = stopping
        condition.broadcast()
        condition.unlock()
        bundle.process.closeStdin()
        if !quiet && !bundle.oneShot && bundle.killReason == nil { output.say("\(bundle.name) \(termination)") }
    }

    /// Samples every running bundle's footprint and kills one above its limit (rule `widget.memory`).
    private func watchMemory() {
        while true {
            condition.lock()
            if stopping { condition.unlock(); return }
            let limited = bundles.filter { $0.termination == nil && $0.memoryLimitMB != nil && $0.killReason == nil }
            condition.unlock()
            for bundle in limited {
                guard let limit = bundle.memoryLimitMB, let kB = ProcessInspection.residentAnonymousKB(bundle.pid),
                      kB > limit * 1024 else { continue }
                killProcess(of: bundle, reason: MemoryLimit.report(limitMB: limit, record: bundle.record) + " (footprint \(kB / 1024) MB)")
            }
            Pause.microseconds(20_000)
        }
    }
}
