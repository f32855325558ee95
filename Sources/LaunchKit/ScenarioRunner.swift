import AppGroupKit
import BundleKit
import Foundation
import LockstepRuntime
import LockstepSystem

/// Runs a `Scenario` against a `Supervisor`'s bundles: each step prints what it did and how long it took; the
/// run ends with a checklist of the rules exercised (✓/✗ per rule id, with the measured latency).
final class ScenarioRunner {
    let supervisor: Supervisor
    let bundles: LaunchTargets
    var output: OutputMux { supervisor.output }

    /// The outcome of one step.
    struct Result {
        var step: Scenario.Step
        var held: Bool
        var message: String
        var seconds: Double
        /// For `wait`: seconds from the start of the previous step to the line.
        var latency: Double?
    }

    private var lastRun: (termination: Termination, output: String)?
    private var previousStepStart = Monotonic.now
    private(set) var results: [Result] = []
    /// The first bundle that ended without a step expecting it, in words.
    private(set) var unexpectedFailure: String?

    init(supervisor: Supervisor, bundles: LaunchTargets) {
        self.supervisor = supervisor
        self.bundles = bundles
    }

    /// Runs every step (a failed step does not stop the run; an unexpected bundle exit or Ctrl-C does).
    /// - Returns: whether every step held.
    func run(_ scenario: Scenario) -> Bool {
        output.say("scenario '\(scenario.name)': \(scenario.steps.count) step\(scenario.steps.count == 1 ? "" : "s")")
        var section: Scenario.Section?
        for (index, step) in scenario.steps.enumerated() {
            if supervisor.interrupted { break }
            if let heading = step.section, heading != section {
                output.say("== \(heading.title)\(heading.rules.isEmpty ? "" : " [\(heading.rules.joined(separator: ", "))]")")
            }
            section = step.section
            if case .expectExit = step.action {} else if checkUnexpectedExits() { break }
            let start = Monotonic.now
            var result = perform(step)
            result.seconds = Monotonic.now - start
            previousStepStart = start
            results.append(result)
            let latency = result.latency.map { ", latency \(milliseconds($0))" } ?? ""
            output.say("[\(index + 1)/\(scenario.steps.count)] \(result.held ? "✓" : "✗") \(step.text) — \(result.message) (\(milliseconds(result.seconds))\(latency))")
        }
        if !supervisor.interrupted { _ = checkUnexpectedExits() }
        return results.count == scenario.steps.count && results.allSatisfy(\.held) && unexpectedFailure == nil
    }

    /// The rule checklist and the summary line.
    func checklist(_ scenario: Scenario) -> [String] {
        var order: [String] = []
        var byRule: [String: [Result]] = [:]
        for result in results {
            for rule in result.step.section?.rules ?? [] {
                if byRule[rule] == nil { order.append(rule) }
                byRule[rule, default: []].append(result)
            }
        }
        // Rules whose steps never ran (an earlier failure stopped the run) are listed as not held.
        for step in scenario.steps.dropFirst(results.count) {
            for rule in step.section?.rules ?? [] where byRule[rule] == nil {
                order.append(rule)
                byRule[rule] = []
            }
        }
        var lines: [String] = []
        if !order.isEmpty {
            lines.append("Rules exercised by scenario '\(scenario.name)':")
            let width = order.map(\.count).max() ?? 0
            for rule in order {
                let results = byRule[rule] ?? []
                let ran = results.count == scenario.steps.filter { $0.section?.rules.contains(rule) == true }.count
                let held = ran && results.allSatisfy(\.held)
                let measure: String
                if let failed = results.first(where: { !$0.held }) {
                    measure = "line \(failed.step.line): \(failed.message)"
                } else if !ran {
                    measure = "not run"
                } else if let latency = results.compactMap(\.latency).max() {
                    measure = "latency \(milliseconds(latency))"
                } else {
                    measure = milliseconds(results.map(\.seconds).reduce(0, +))
                }
                lines.append("  \(held ? "✓" : "✗") \(rule.padding(width)) \(measure)")
            }
        }
        let heldCount = results.filter(\.held).count
        lines.append("\(heldCount) of \(scenario.steps.count) steps held in \(milliseconds(results.map(\.seconds).reduce(0, +))).")
        return lines
    }

    /// Records the first unexpected exit; returns whether there was one.
    private func checkUnexpectedExits() -> Bool {
        guard let bundle = supervisor.unexpectedExits().first else { return false }
        if unexpectedFailure == nil {
            supervisor.condition.lock()
            unexpectedFailure = "\(bundle.name) \(bundle.endDescription) unexpectedly"
            supervisor.condition.unlock()
        }
        return true
    }

    private func perform(_ step: Scenario.Step) -> Result {
        func held(_ message: String, latency: Double? = nil) -> Result {
            Result(step: step, held: true, message: message, seconds: 0, latency: latency)
        }
        func failed(_ message: String) -> Result { Result(step: step, held: false, message: message, seconds: 0) }
        do {
            switch step.action {
            case .run(let target, let arguments):
                let (record, label) = try bundles.resolve(target)
                let bundle = try supervisor.launch(record, label: label, arguments: arguments, oneShot: true)
                bundle.process.closeStdin()
                guard let termination = supervisor.waitForExit(bundle, timeout: 60) else {
                    if supervisor.interrupted { return failed("interrupted") }
                    supervisor.killProcess(of: bundle, reason: "it did not finish within 60 s")
                    _ = supervisor.waitForExit(bundle, timeout: 10)
                    return failed("\(bundle.name) did not finish within 60 s")
                }
                supervisor.condition.lock()
                bundle.exitClaimed = true
                var text = bundle.lines.map(\.text).joined(separator: "\n")
                let killed = bundle.killReason
                supervisor.condition.unlock()
                if record.role == .notification, arguments.first == "deliver", arguments.count == 2, !text.contains("shown: ") {
                    // rule `notification.service`: a service that crashed, was killed or delivered nothing leaves the
                    // device to show the push's original content.
                    let why = killed.map { "the service extension was killed: \($0)" } ?? "the service extension \(termination) without delivering"
                    let shown = "shown: \(Self.originalContent(arguments[1])) (the original content: \(why))"
                    output.say(shown)
                    text += "\n" + shown
                }
                lastRun = (termination, text)
                return held("\(label) \(termination)")
            case .expectOutput(let text):
                guard let lastRun else { return failed("no bundle has been run yet") }
                return lastRun.output.contains(text) ? held("the output has it") : failed("the last run did not print '\(text)'")
            case .expectStatus(let status):
                guard let lastRun else { return failed("no bundle has been run yet") }
                return lastRun.termination.shellStatus == status
                    ? held("exit status \(status)") : failed("the last run \(lastRun.termination), not \(status)")
            case .wait(let target, let text, let timeout):
                let bundle = try running(target)
                let since = previousStepStart
                var found: Double?
                _ = supervisor.wait(timeout: timeout) {
                    found = bundle.lines.first { $0.time >= since && $0.text.contains(text) }?.time
                    // Another bundle ending unexpectedly ends the scenario: stop waiting at once.
                    return found != nil || bundle.termination != nil || supervisor.hasUnclaimedExitLocked
                }
                if let found { return held("\(bundle.label) printed it", latency: max(0, found - since)) }
                if !supervisor.isRunning(bundle) { return failed("\(bundle.name) \(bundle.endDescription) before printing '\(text)'") }
                if supervisor.interrupted { return failed("interrupted") }
                if supervisor.unexpectedExitPending { return failed("stopped waiting: another bundle ended unexpectedly") }
                return failed("\(bundle.label) did not print '\(text)' within \(milliseconds(timeout))")
            case .advance(let seconds):
                try SimulatedClock(groupsRoot: supervisor.groupsRoot).advance(by: seconds)
                // A widget suspended after its work sees the new time as iOS's would: woken (realistic timing).
                supervisor.wakeWidgets(on: nil, reason: "the simulated clock moved")
                return held("the simulated clock moved \(Self.describe(seconds)) forward")
            case .send(let target, let text):
                let bundle = try running(target)
                supervisor.resumeForWork(bundle)
                try supervisor.send(text, to: bundle)
                return held("sent to \(bundle.label)")
            case .suspend(let target):
                let bundle = try running(target)
                switch supervisor.suspend(bundle) {
                case .suspended: return held("\(bundle.label) suspended (it held no lock in a shared container)")
                case .terminatedHoldingLock(let path):
                    claimKill(of: bundle)
                    return held("\(bundle.label) terminated: \(Supervisor.dead10ccReason) (it held a lock on \(path)); \(reportStores(of: bundle))")
                }
            case .resume(let target):
                let bundle = try running(target)
                supervisor.resume(bundle)
                return held("\(bundle.label) resumed")
            case .reinstall(let build, let version):
                let outcome = try Installer.reinstall(groupsRoot: supervisor.groupsRoot, build: build, version: version)
                if outcome.changed { supervisor.retireAll(reason: "the app was reinstalled at build \(build)") }
                return held(outcome.changed ? "installed build \(build) (generation \(outcome.generation))" : "build \(build) was installed already")
            case .expectExit(let target, let expectation, let timeout):
                let (_, label) = try bundles.resolve(target)
                guard let bundle = supervisor.bundle(label: label) else { return failed("\(label) was never launched") }
                guard let termination = supervisor.waitForExit(bundle, timeout: timeout) else {
                    return failed("\(bundle.name) is still running after \(milliseconds(timeout))")
                }
                supervisor.condition.lock()
                bundle.exitClaimed = true
                let reason = bundle.killReason ?? ""
                supervisor.condition.unlock()
                let matches: Bool
                switch expectation {
                case .status(let status): matches = reason.isEmpty && termination.shellStatus == status
                case .dead10cc: matches = reason.contains("0xdead10cc")
                case .memoryLimit: matches = reason.contains("EXC_RESOURCE") || reason.contains("exceeded mem limit")
                }
                let how = reason.isEmpty ? "\(termination)" : "was killed: \(reason)"
                return matches ? held("\(label) \(how)") : failed("\(label) \(how), not \(expectation)")
            case .installOverClip:
                // rule `clip.container`: the clip's private container is not migrated to the full app; what the
                // clip wrote to an App Group both claim is where the app finds it.
                guard let clip = try Installer.installed(groupsRoot: supervisor.groupsRoot)?.bundle(role: .clip) else {
                    return failed("the installed manifest has no App Clip (a bundle with role 'clip')")
                }
                let container = GroupsLayout(root: supervisor.groupsRoot).privateContainer(clip.bundleIdentifier ?? clip.name, on: .phone)
                let existed = FileSystem.exists(container)
                if existed { try FileManager.default.removeItem(atPath: container) }
                return held("the full app replaced \(clip.name): its own container \(existed ? "was removed, not migrated" : "was never created"); the App Groups stay")
            case .expectSees(let target, let suite, let key, let value, let within):
                let (record, label) = try bundles.resolve(target)
                let outcome = try SharedDefaultsExpectation.check(record, label: label, groupsRoot: supervisor.groupsRoot, suite: suite,
                                                                  key: key, value: value, within: within)
                return outcome.held ? held(outcome.message, latency: outcome.latency) : failed(outcome.message)
            case .killBundle(let target, let midWrite, let timeout):
                let bundle = try running(target)
                var how = "killed (SIGKILL)"
                if midWrite {
                    guard let file = supervisor.killMidWrite(bundle, timeout: timeout) else {
                        return failed("\(bundle.name) \(supervisor.isRunning(bundle) ? "took no write lock in a shared container within \(milliseconds(timeout))" : bundle.endDescription)")
                    }
                    how = "killed mid-write (it held a write lock on \(file))"
                } else {
                    supervisor.killProcess(of: bundle, reason: "killed by the scenario (SIGKILL)")
                }
                claimKill(of: bundle)
                return held("\(bundle.label) \(how); \(reportStores(of: bundle))")
            case .expectStore(let path):
                let app = bundles.app
                guard let group = app.appGroups.first else { return failed("the app claims no App Group, so it has no shared store") }
                let identity = ProcessIdentity(bundle: app)
                guard let container = try Sandbox(root: GroupsRoot(path: supervisor.groupsRoot), identity: identity).groupContainer(group) else {
                    return failed("the app is not entitled to \(group)")
                }
                let file = try container.resolve(path)
                // A store wedged by a live lock holder may be released (a transaction that ends): looked at again until
                // the default bound. Rolled back and unreadable are final.
                let deadline = Monotonic.now + Scenario.defaultTimeout
                var report = SharedStores.report(file, container: container, identity: identity, groupsRoot: supervisor.groupsRoot)
                while case .wedged = report.condition, Monotonic.now < deadline {
                    Pause.microseconds(10_000)
                    report = SharedStores.report(file, container: container, identity: identity, groupsRoot: supervisor.groupsRoot)
                }
                return report.condition.isIntact ? held(report.sentence) : failed(report.sentence)
            case .launch(let target):
                let (record, label) = try bundles.resolve(target)
                let bundle = try supervisor.launch(record, label: label)
                output.say("launched \(bundle.name)")
                try supervisor.waitReady(bundle, timeout: Up.readyTimeout)
                return held("\(label) is ready")
            }
        } catch {
            return failed(String(describing: error))
        }
    }

    /// Waits (bounded) for a bundle a step killed to end, and marks its end expected.
    private func claimKill(of bundle: SupervisedBundle) {
        _ = supervisor.waitForExit(bundle, timeout: Scenario.defaultTimeout, interruptible: false)
        supervisor.condition.lock()
        bundle.exitClaimed = true
        supervisor.condition.unlock()
    }

    /// After a kill: every shared store of the bundle's groups reopened, one sentence each on the output.
    /// - Returns: the summary for the step's line.
    private func reportStores(of bundle: SupervisedBundle) -> String {
        let reports = SharedStores.reports(for: bundle.record, groupsRoot: supervisor.groupsRoot)
        for report in reports { output.say("store \(report.sentence)") }
        let broken = reports.filter { !$0.condition.isIntact }.count
        if reports.isEmpty { return "no shared store to reopen" }
        return broken == 0 ? "\(reports.count) shared store\(reports.count == 1 ? "" : "s") reopened, intact"
            : "\(broken) of \(reports.count) shared stores not intact (above)"
    }

    /// What the device shows of a push by itself: `aps.alert`'s title, subtitle and body (or the alert string).
    static func originalContent(_ payload: String) -> String {
        let aps = ((try? JSONSerialization.jsonObject(with: Data(payload.utf8))) as? [String: Any])?["aps"] as? [String: Any]
        if let alert = aps?["alert"] as? String { return alert }
        let alert = aps?["alert"] as? [String: Any] ?? [:]
        return ["title", "subtitle", "body"].compactMap { alert[$0] as? String }.filter { !$0.isEmpty }.joined(separator: " — ")
    }

    /// The latest launch of `target`, which must still be running.
    private func running(_ target: String) throws(LaunchError) -> SupervisedBundle {
        let (_, label) = try bundles.resolve(target)
        guard let bundle = supervisor.bundle(label: label) else {
            throw LaunchError(.notReady, subject: label, detail: "\(label) has not been launched")
        }
        guard supervisor.isRunning(bundle) else {
            throw LaunchError(.notReady, subject: label, detail: "\(bundle.name) \(bundle.endDescription)")
        }
        return bundle
    }

    static func describe(_ seconds: Double) -> String {
        for (unit, size) in [("d", 86400.0), ("h", 3600), ("m", 60)] where seconds >= size && seconds.truncatingRemainder(dividingBy: size) == 0 {
            return "\(Int(seconds / size))\(unit)"
        }
        return "\(seconds)s"
    }
}

/// `1234 ms` / `2.4 s`.
func milliseconds(_ seconds: Double) -> String {
    seconds < 10 ? "\(Int((seconds * 1000).rounded())) ms" : "\((seconds * 10).rounded() / 10) s"
}

extension String {
    func padding(_ width: Int) -> String { self + String(repeating: " ", count: max(0, width - count)) }
}
