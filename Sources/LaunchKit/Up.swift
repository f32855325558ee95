import AppGroupKit
import BundleKit
import Foundation
import LockstepRuntime
import LockstepSystem

/// `lockstep up`: install, launch every long-running bundle side by side, run a scenario, tear down.
public enum Up {
    public struct Options: Sendable {
        public var manifest: String?
        public var groupsRoot: String
        /// `demo` (the default) or a scenario file.
        public var scenario: String
        public var keepRunning: Bool
        public var color: Bool
        /// Strict (the default) or the device's timing for every bundle's shared defaults.
        public var timing: DeviceTiming

        public init(manifest: String?, groupsRoot: String, scenario: String = "demo", keepRunning: Bool = false, color: Bool,
                    timing: DeviceTiming = .strict) {
            self.manifest = manifest
            self.groupsRoot = groupsRoot
            self.scenario = scenario
            self.keepRunning = keepRunning
            self.color = color
            self.timing = timing
        }
    }

    /// How long a long-running bundle has to print its ready line.
    public static let readyTimeout = 30.0

    /// Runs `lockstep up`. Prints everything on stdout through one `OutputMux`; a failure's final line goes to stderr.
    /// - Returns: 0 when every step held and no bundle failed unexpectedly, else 1.
    /// - Throws: before anything is written or launched: `LaunchError`/`BundleError` for bad input (exit 2).
    public static func run(_ options: Options) throws -> ExitStatus {
        // Signals are taken by one thread (sigwait) that forwards them as a teardown; block them before any
        // thread exists so every thread inherits the mask. Children start with the default mask and handlers.
        TerminationSignals.block()

        // Everything that can be wrong with the input is found before anything is written or launched.
        let scenario = try loadScenario(options.scenario)
        try requireFreshRoot(for: options.scenario, groupsRoot: options.groupsRoot)
        // As installed: relative executable paths made absolute against the manifest's folder.
        let manifest = Installer.resolvingExecutables(try Manifest.resolve(explicit: options.manifest, groupsRoot: options.groupsRoot))
        let targets = LaunchTargets(manifest: manifest, groupsRoot: options.groupsRoot)
        for record in manifest.bundles {
            try Sandbox.validateBundleIdentifier(record.bundleIdentifier ?? record.name)
            _ = try ExecutableLocator.locate(record.executable ?? "", bundle: record.bundleIdentifier ?? record.name)
        }

        let output = OutputMux(labels: targets.labels, color: options.color)
        let supervisor = Supervisor(groupsRoot: options.groupsRoot, output: output, timing: options.timing)
        if options.timing.isRealistic {
            output.say("device timing: realistic, seed \(options.timing.seed) (the same seed draws the same delays) [defaults.device-flush, defaults.device-cache, defaults.device-coalesce, files.device-rename, lock.dead10cc]")
        }
        Thread.detachNewThread {
            let signal = TerminationSignals.wait()
            output.say("received \(String(cString: strsignal(signal))): stopping every bundle")
            supervisor.interrupt(by: signal)
        }

        var failure: String?
        let start = Monotonic.now
        var launched: [SupervisedBundle] = []
        var launching: Supervisor.Launching?
        let outcome: Installer.Outcome
        do {
            // The bundles start while the manifest is written: a starting bundle reads the installed manifest under
            // the install lock, so it waits for this install (rule `runtime.version-parity` is checked against it),
            // while its own process start-up overlaps the write and its fsyncs — and so do the spawns themselves:
            // every bundle waits for the install, so it is written while they are being started, not after.
            outcome = try Installer.install(manifest, groupsRoot: options.groupsRoot) {
                launching = supervisor.startLaunching(targets.longRunning, launchChecks: targets.onDemand)
            }
        } catch {
            // Every spawn has returned before teardown, so none outlives it.
            _ = try? launching?.wait()
            supervisor.tearDown()
            throw error
        }
        do {
            launched = try launching?.wait() ?? []
        } catch {
            failure = String(describing: error)
        }
        output.say("installed \(manifest.app.name) \(manifest.app.shortVersion ?? "?") (\(manifest.app.buildVersion ?? "?")) in \(options.groupsRoot), generation \(outcome.generation)\(outcome.changed ? "" : " (unchanged)")")
        if failure == nil {
            do {
                for bundle in launched { try supervisor.waitReady(bundle, timeout: readyTimeout) }
                if !supervisor.interrupted {
                    output.say(readyLine(launched, milliseconds: milliseconds(Monotonic.now - start)))
                }
            } catch {
                failure = String(describing: error)
            }
        }

        if failure == nil && !supervisor.interrupted {
            let runner = ScenarioRunner(supervisor: supervisor, bundles: targets)
            let held = runner.run(scenario)
            failure = runner.unexpectedFailure
            if supervisor.interrupted {
                failure = failure ?? "interrupted before the scenario finished"
            } else {
                runner.checklist(scenario).forEach(output.plain)
                if !held && failure == nil {
                    let failed = runner.results.filter { !$0.held }.count
                    failure = "\(failed) of \(scenario.steps.count) steps of scenario '\(scenario.name)' did not hold"
                }
                if options.keepRunning {
                    output.say("every bundle stays up: Ctrl-C stops them")
                    _ = supervisor.wait(timeout: .infinity) { false }
                    // Bundles that died while we kept them up are failures too.
                    if failure == nil, let bundle = supervisor.unexpectedExits().first {
                        failure = "\(bundle.name) \(bundle.endDescription) unexpectedly"
                    }
                }
            }
        } else if supervisor.interrupted && failure == nil {
            failure = "interrupted before every bundle was ready"
        }

        supervisor.tearDown()
        output.say("every bundle stopped")
        // The widgets' latest pictures, as one page (`lockstep gallery`), when the run drew any.
        if !Gallery.pictures(groupsRoot: options.groupsRoot).isEmpty {
            let page = GroupsLayout(root: options.groupsRoot).gallery
            if let count = try? Gallery.write(groupsRoot: options.groupsRoot, to: page) {
                output.say("widget gallery: \(page) (\(count) pictures)")
            }
        }
        if let failure {
            // One sentence: a bundle's last line, quoted as the reason, may end with its own full stop.
            Standard.error("lockstep up: \(failure)\(failure.hasSuffix(".") ? "" : ".")")
            return .failure
        }
        return .success
    }

    /// `4 bundles ready in 31 ms (host, widget, watch running; intent checked, runs on demand)`.
    static func readyLine(_ bundles: [SupervisedBundle], milliseconds: String) -> String {
        let running = bundles.filter { !$0.launchCheck }.map(\.label)
        let checked = bundles.filter(\.launchCheck).map(\.label)
        var parts = running.isEmpty ? [] : ["\(running.joined(separator: ", ")) running"]
        if !checked.isEmpty { parts.append("\(checked.joined(separator: ", ")) checked, run\(checked.count == 1 ? "s" : "") on demand") }
        return "\(bundles.count) bundle\(bundles.count == 1 ? "" : "s") ready in \(milliseconds) (\(parts.joined(separator: "; ")))"
    }

    /// The built-in `demo` (`DemoScenario.text`) or a scenario file.
    /// - Throws: `LaunchError.invalidScenario` naming the file and line.
    /// The demo adds its own three habits and first waits for the widget to show `0/3 habits done`: on a groups root
    /// where an earlier run left its devices, that can never hold, and every later wait would time out in turn
    /// (minutes of failures). Said at once instead, before anything is written; the root is never emptied for the
    /// user, as it may hold data they want.
    static func requireFreshRoot(for scenario: String, groupsRoot: String) throws(LaunchError) {
        guard scenario == "demo",
              let device = Device.allCases.first(where: { FileSystem.exists(GroupsLayout(root: groupsRoot).device($0)) }) else { return }
        throw LaunchError(.invalidInput, subject: groupsRoot, detail: "The demo scenario starts from an empty groups root, but '\(groupsRoot)' holds the devices of an earlier run ('\(device.rawValue)/'): remove that folder, or pass --groups with a new one (`make demo` does both).")
    }

    public static func loadScenario(_ name: String) throws(LaunchError) -> Scenario {
        if name == "demo" { return try Scenario.parse(DemoScenario.text, name: "demo") }
        let bytes: [UInt8]?
        do { bytes = try AtomicFile.read(name) } catch {
            throw LaunchError(.invalidScenario, subject: name, detail: "it cannot be read (\(error.errno.map { "\($0)" } ?? "error"))")
        }
        guard let bytes else { throw LaunchError(.invalidScenario, subject: name, detail: "the file does not exist") }
        return try Scenario.parse(String(decoding: bytes, as: UTF8.self), name: name)
    }
}
