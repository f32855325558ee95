import AppGroupKit
// `SimulatedDevice(…, timing:)` takes one: a test that imports LockstepTesting names it without importing AppGroupKit.
@_exported import struct AppGroupKit.DeviceTiming
import BundleKit
import Foundation
import LockstepSystem

/// A simulated device for your own `swift test`: a fresh groups root with a manifest of your bundles, in which you
/// run their executables, drive them, move the simulated clock, and ask who sees what.
///
/// ```swift
/// let device = try SimulatedDevice(app: .init("HabitsApp", "com.example.habits", groups: ["group.com.example.habits"]),
///                                  embedded: [.init("HabitsWidgetExtension", "com.example.habits.widget", role: "widget",
///                                                   groups: ["group.com.example.habits"])])
/// defer { device.remove() }
/// _ = try device.run("com.example.habits", input: "add Read\n")
/// #expect(try device.run("com.example.habits.widget", ["render", "--family", "systemSmall"]).stdout.contains("0/1"))
/// #expect(try device.sees("com.example.habits.widget", whatWrites: "com.example.habits", in: "group.com.example.habits"))
/// ```
public final class SimulatedDevice: @unchecked Sendable {  // @unchecked: immutable after init.
    /// One bundle of the manifest.
    public struct Bundle: Sendable {
        public var executable: String
        public var identifier: String
        /// `host` for the app; a role of the manifest (`widget`, `intent`, `watch`, `complication` … or `extension`)
        /// for an embedded bundle.
        public var role: String
        public var groups: [String]

        /// - Parameter executable: the executable's path, or its name in `Child.binDirectory` (your package's build
        ///   folder); it is also the bundle's name.
        public init(_ executable: String, _ identifier: String, role: String = "host", groups: [String] = []) {
            self.executable = executable
            self.identifier = identifier
            self.role = role
            self.groups = groups
        }

        var name: String { URL(fileURLWithPath: executable).lastPathComponent }
    }

    /// The folder holding the groups root and the manifest, removed by `remove()`.
    public let folder: URL
    public let groupsRoot: String
    public let manifestPath: String
    public let app: Bundle
    public let embedded: [Bundle]
    /// The timing of the shared defaults of every process the device runs: `.strict` (the default, stricter than a
    /// device) or `DeviceTiming(mode: .realistic, seed: N)`, as `lockstep up --device-timing realistic --seed N`.
    public let timing: DeviceTiming

    /// Writes a manifest of `app` and `embedded` (every bundle at `version` (`build`)) into a fresh folder.
    public init(app: Bundle, embedded: [Bundle] = [], version: String = "1.0", build: String = "1", timing: DeviceTiming = .strict) throws {
        self.app = app
        self.embedded = embedded
        self.timing = timing
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("lockstep-device-\(ProcessEnvironment.processID)-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        groupsRoot = folder.appendingPathComponent("groups").path
        manifestPath = folder.appendingPathComponent("lockstep.json").path
        func entry(_ bundle: Bundle, isApp: Bool) -> [String: Any] {
            var entry: [String: Any] = [
                "name": bundle.name, "bundleIdentifier": bundle.identifier, "shortVersion": version, "buildVersion": build,
                "appGroups": bundle.groups,
                "executable": bundle.executable.contains("/") ? bundle.executable : Child.binDirectory.appendingPathComponent(bundle.executable).path,
            ]
            if !isApp { entry["role"] = bundle.role }
            return entry
        }
        let manifest: [String: Any] = ["manifestVersion": 1, "app": entry(app, isApp: true), "embedded": embedded.map { entry($0, isApp: false) }]
        try JSONSerialization.data(withJSONObject: manifest, options: [.prettyPrinted, .sortedKeys]).write(to: URL(fileURLWithPath: manifestPath))
    }

    /// Removes the device's folder and everything in it.
    public func remove() { try? FileManager.default.removeItem(at: folder) }

    /// The environment that makes a process the bundle `identifier` on this device.
    public func environment(for identifier: String) -> [String: String] {
        ["LOCKSTEP_GROUPS": groupsRoot, "LOCKSTEP_MANIFEST": manifestPath, "LOCKSTEP_BUNDLE_ID": identifier].merging(timing.environment) { $1 }
    }

    private func bundle(_ identifier: String) throws -> Bundle {
        guard let found = ([app] + embedded).first(where: { $0.identifier == identifier }) else {
            throw DeviceError("the device has no bundle '\(identifier)'; it has \(([app] + embedded).map(\.identifier).joined(separator: ", "))")
        }
        return found
    }

    /// Runs the bundle's executable to its end with `arguments` and `input` on stdin (killed after `timeout` s), with
    /// `environment` added (`LOCKSTEP_WIDGET_BUDGET`, `LOCKSTEP_NOTIFICATION_TIMEOUT`, …).
    public func run(_ identifier: String, _ arguments: [String] = [], input: String = "", environment extra: [String: String] = [:],
                    timeout: Double = 30) throws -> ProcessResult {
        let bundle = try bundle(identifier)
        return try Child(bundle.executable, arguments, environment: environment(for: identifier).merging(extra) { $1 },
                         stdin: Data(input.utf8)).wait(timeout: timeout)
    }

    /// Starts the bundle's executable and leaves it running, its stdin open for `sendLine` (`finish()` ends it).
    public func start(_ identifier: String, _ arguments: [String] = []) throws -> Child {
        let bundle = try bundle(identifier)
        return try Child(bundle.executable, arguments, environment: environment(for: identifier), keepStdinOpen: true)
    }

    /// Moves the device's simulated clock (widget budgets and policies, complication allowances) forward.
    public func advanceClock(by seconds: Double) throws {
        try SimulatedClock(groupsRoot: groupsRoot).advance(by: seconds)
    }

    /// The defaults suite `suite` as the bundle `identifier` sees it (`UserDefaults(suiteName:)` in its process): the
    /// group's shared suite when it is entitled to the group, else its private fallback. Under realistic timing, what
    /// a fresh read finds in the shared store: not the writes another process has not flushed yet.
    public func defaults(_ suite: String, as identifier: String) throws -> [String: Any] {
        try suiteOf(identifier, suite)?.dictionaryRepresentation() ?? [:]
    }

    /// Waits (at most `timeout` s) until `condition` holds for the suite as `identifier` sees it.
    public func waitForDefaults(_ suite: String, as identifier: String, timeout: Double = 10,
                                until condition: @escaping @Sendable ([String: Any]) -> Bool) throws -> Bool {
        guard let defaults = try suiteOf(identifier, suite) else { return false }
        if condition(try defaults.dictionaryRepresentation()) { return true }
        let changed = NSCondition()
        let observation = try defaults.observe { _ in changed.withLock { changed.broadcast() } }
        defer { observation.cancel() }
        let deadline = Date(timeIntervalSinceNow: timeout)
        return try changed.withLock {
            while !condition(try defaults.dictionaryRepresentation()) {
                if !changed.wait(until: deadline) { return condition(try defaults.dictionaryRepresentation()) }
            }
            return true
        }
    }

    /// Whether what `writer` writes to the group `group`'s defaults suite is seen by `reader` (rule
    /// `group.entitlement`, `group.defaults-fallback`, `group.watch-separate`): a probe value written and read as
    /// each bundle's `UserDefaults(suiteName:)` would, then removed.
    public func sees(_ reader: String, whatWrites writer: String, in group: String) throws -> Bool {
        let key = "lockstep.sees.\(UUID().uuidString)"
        guard let written = try suiteOf(writer, group) else { return false }
        try written.set(key, forKey: key)
        defer { try? written.removeObject(forKey: key) }
        return try suiteOf(reader, group)?.string(forKey: key) == key
    }

    private func suiteOf(_ identifier: String, _ suite: String) throws -> GroupDefaults? {
        let bundle = try bundle(identifier)
        // The watch app and its complications on the watch (rule `group.watch-separate`), as the table of kinds says.
        let onWatch = BundleRole(rawValue: bundle.role)?.kind.runsOnWatch ?? false
        let identity = ProcessIdentity(bundleIdentifier: bundle.identifier, appGroups: bundle.groups, device: onWatch ? .watch : .phone)
        return try GroupDefaults(suiteName: suite, sandbox: try Sandbox(root: GroupsRoot(path: groupsRoot), identity: identity), diagnostics: { _ in })
    }
}

/// A mistake in a test's use of `SimulatedDevice`: one sentence.
public struct DeviceError: Error, CustomStringConvertible {
    public let description: String
    init(_ description: String) { self.description = description }
}
