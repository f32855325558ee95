import AppGroupKit
import BundleKit
import Foundation
import LockstepRuntime
import LockstepSystem

extension SupervisedBundle {
    /// Where an extension stands in iOS's suspension after its work returned (realistic timing, rule `lock.dead10cc`).
    enum WorkState {
        case running
        /// Its work-returned line was read; the supervisor is stopping it.
        case suspending
        /// Stopped by the supervisor after its work returned; a wake resumes it.
        case suspended
    }

    /// A widget extension (a phone widget or a watch complication): iOS wakes one for reloads, Live Activity changes,
    /// the clock and its own due dates, where other extensions are woken for a request only.
    var isWidgetExtension: Bool { record.role == .widget || record.role == .complication }
}

/// Suspension after work and the wakes, as iOS does them (rule `lock.dead10cc`, realistic timing only): an extension
/// that prints its work-returned line (`WorkReturned`) is stopped at once — killed with `0xdead10cc` if it holds a
/// lock in a shared container — and resumed for new work. Every extension is resumed by a `send` (its command is the
/// work); a widget extension also by a reload request or Live Activity change posted on its device, by the simulated
/// clock moving, and at its own next entry or reload date (its line's `next in`), because the widget process also
/// draws what the system displays. Those wakes bring no command, so the supervisor writes an empty line to its stdin,
/// which the widget process answers, once it has done what is due, with its work-returned line: it is suspended again.
extension Supervisor {
    /// Reads an output line of `bundle`: whether it is a work-returned line the supervisor suspends it for. Call with
    /// `condition` held.
    func workReturnedLocked(_ text: String, by bundle: SupervisedBundle) -> Bool {
        let placement = bundle.record.role.kind.placement
        guard timing.isRealistic, !stopping, !bundle.retired, placement != .app, placement != .watchApp, placement != .appClip,
              let line = WorkReturned.parse(text) else { return false }
        bundle.workState = .suspending
        bundle.dueAt = line.nextIn.map { Monotonic.now + $0 }
        return true
    }

    /// rule `lock.dead10cc`, realistic timing: an extension whose work returned is suspended at once, as iOS does,
    /// and terminated if it holds a lock in a shared container, after which its shared stores are reopened and
    /// reported, one sentence each. A wake that came meanwhile resumes it at once.
    func suspendAfterWork(_ bundle: SupervisedBundle) {
        switch suspend(bundle) {
        case .suspended:
            // Said before anything can wake it, so that the lines come in their order.
            output.say("\(bundle.name) suspended: its work returned, and iOS suspends an extension then [lock.dead10cc]")
            condition.lock()
            let wakeNow = bundle.workState == .suspending && bundle.wakePending
            if bundle.workState == .suspending { bundle.workState = .suspended }
            // The due-time thread looks at the new due time; a `send` waiting for the suspension goes on.
            condition.broadcast()
            condition.unlock()
            if wakeNow { wake(bundle, reason: "new work came while it was being suspended", line: false) }
        case .terminatedHoldingLock:
            _ = waitForExit(bundle, timeout: 10, interruptible: false)
            for report in SharedStores.reports(for: bundle.record, groupsRoot: groupsRoot) { output.say("store \(report.sentence)") }
        }
    }

    /// Resumes a bundle the supervisor suspended after its work returned, for new work: a `send`, whose command follows.
    /// One being suspended is first let finish (bounded), so that a scenario's steps see it suspended, then woken.
    func resumeForWork(_ bundle: SupervisedBundle) {
        _ = wait(timeout: 5, interruptible: false) { bundle.workState != .suspending || bundle.termination != nil || bundle.killReason != nil }
        wake(bundle, reason: "a command was sent to it", line: false)
    }

    /// Resumes `bundle` if the supervisor suspended it after its work returned (SIGCONT), writing the wake-up line
    /// first when `line` (a wake that brings no command); if it is not suspended yet, it is resumed as soon as it is.
    func wake(_ bundle: SupervisedBundle, reason: String, line: Bool) {
        condition.lock()
        guard bundle.termination == nil, bundle.killReason == nil, timing.isRealistic else { condition.unlock(); return }
        let state = bundle.workState
        let writeLine = line || bundle.wakeNeedsLine
        switch state {
        case .suspended:
            bundle.workState = .running
            bundle.wakePending = false
            bundle.wakeNeedsLine = false
            bundle.dueAt = nil
        case .suspending:
            // Its work-returned line came before this: it is resumed as soon as it is stopped.
            bundle.wakePending = true
            bundle.wakeNeedsLine = writeLine
        case .running where bundle.isWidgetExtension:
            // A widget process looks for work between its commands and may have looked before this came (a request
            // file, a command its reader thread had not passed on yet): once suspended, it is woken again, with the
            // wake-up line, so that it looks again and says its work returned again.
            bundle.wakePending = true
            bundle.wakeNeedsLine = true
        case .running:
            // The command line protocol reads the command before it says its work returned.
            break
        }
        condition.unlock()
        guard state == .suspended else { return }
        if writeLine { _ = bundle.process.writeStdin("\n") }
        bundle.process.signal(SIGCONT)
        output.say("\(bundle.name) woken: \(reason)")
    }

    /// Wakes every widget extension (on `device`, or everywhere), as iOS wakes one for new work.
    func wakeWidgets(on device: Device?, reason: String) {
        let widgets = launched.filter { $0.isWidgetExtension && (device == nil || $0.record.device == device) }
        for widget in widgets { wake(widget, reason: reason, line: true) }
    }

    /// After a reinstall that changed the build: iOS ends the old build's processes; here each finds the new install
    /// itself and exits (rule `runtime.stale`), so every one running is woken and never suspended again.
    func retireAll(reason: String) {
        let old = launched
        condition.lock()
        for bundle in old { bundle.retired = true }
        condition.unlock()
        for bundle in old { wake(bundle, reason: reason, line: true) }
    }

    /// Observes the system's notifications that wake a widget extension on `device` (once per device), and starts the
    /// thread that wakes widgets at their due times (once).
    func watchWakes(on device: Device) {
        condition.lock()
        let observe = !stopping && wakeDevices.insert(device).inserted
        let startTimer = !stopping && !dueTimerRunning
        dueTimerRunning = dueTimerRunning || startTimer
        condition.unlock()
        if startTimer { Thread.detachNewThread { [self] in wakeWhenDue() } }
        guard observe, let center = try? DarwinNotificationCenter(groupsRoot: groupsRoot, device: device) else { return }
        for name in DarwinNotificationCenter.widgetWakes {
            guard let observation = try? center.observe(name, handler: { [weak self] _ in
                self?.wakeWidgets(on: device, reason: "\(name) was posted on the \(device.rawValue)")
            }) else { continue }
            condition.lock()
            if stopping { observation.cancel() } else { wakeObservations.append(observation) }
            condition.unlock()
        }
    }

    /// The one thread that wakes suspended widgets when their next entry or reload is due: it waits on the
    /// supervisor's condition until the earliest due time (every change broadcasts it), never in a sleep loop.
    private func wakeWhenDue() {
        condition.lock()
        while !stopping {
            let now = Monotonic.now
            let suspended = bundles.filter { $0.workState == .suspended && $0.dueAt != nil }
            let due = suspended.filter { $0.dueAt! <= now }
            guard due.isEmpty else {
                for bundle in due { bundle.dueAt = nil }
                condition.unlock()
                for bundle in due { wake(bundle, reason: "its next entry or reload is due", line: true) }
                condition.lock()
                continue
            }
            if let next = suspended.compactMap(\.dueAt).min() {
                _ = condition.wait(until: Date(timeIntervalSinceNow: next - now))
            } else {
                condition.wait()
            }
        }
        condition.unlock()
    }
}
