import AppGroupKit
import BundleKit
import Foundation
import LockstepSystem
import Synchronization

/// What a simulated process is: who it is (from the environment a launcher gives it, or the embedded default), the
/// installed manifest, the version gate, and its sandbox and containers.
///
/// Every executable (`lockstep-host`, `-widget`, `-watch`, `-intent`, `lockstep-probe`, and any bundle written in
/// Swift against Lockstep) calls `SimulatedProcess.start(defaultRole:)` right after `Standard.setUp()`; library code
/// then finds the process it runs in as `SimulatedProcess.current`, as a framework finds its app on a device.
public struct SimulatedProcess: Sendable {
    /// The groups root this process lives under.
    public let groupsRoot: String
    /// The installed manifest at start.
    public let manifest: Manifest
    /// This process's bundle.
    public let bundle: BundleRecord

    /// Resolves the identity from the environment (<doc:Design> "Processes and identity"), checks the version rules,
    /// installs the stale-build gate and starts watching for a reinstall (a reinstall at another build is reported
    /// to `ProcessStop`).
    ///
    /// - Parameter defaultRole: the role this executable plays when started by hand, with no `LOCKSTEP_BUNDLE_ID`:
    ///   it then acts as that bundle of the installed manifest (or of the embedded default, which it installs).
    /// - Returns: the process, or nil when this was `up`'s launch check of an on-demand bundle: the ready line is
    ///   printed and the executable exits 0, as iOS would leave the extension unlaunched.
    /// - Throws: `RuntimeError` (78 for a version mismatch or a stale build, 2 for an unknown bundle), `BundleError`
    ///   for a bad manifest, `SystemError` when installing fails.
    public static func start(defaultRole: BundleRole) throws -> SimulatedProcess? {
        let process = try resolve(defaultRole: defaultRole)
        try process.checkVersions()
        if ProcessEnvironment.value(LaunchEnvironment.launchCheck) == "1" {
            // `up` checks an on-demand bundle the way it waits for the others: it starts, knows who it is and
            // passes the version rules, or says why not (exit 78).
            print("ready \(process.bundle.bundleIdentifier ?? process.bundle.name): starts at build \(process.bundle.buildVersion ?? "?"), runs on demand")
            return nil
        }
        process.useContainerTemporaryDirectory()  // before the reinstall watcher's thread starts: setenv is not thread-safe
        process.guardAgainstReinstall()
        running.withLock { $0 = process }
        return process
    }

    private static let running = Mutex<SimulatedProcess?>(nil)
    /// Whether a plain executable's identity was looked for already (it is looked for once).
    private static let adopted = Mutex(false)

    /// The process this executable is: the one `start(defaultRole:)` started, or — in an executable without a
    /// Lockstep entry point that a launcher started (`LOCKSTEP_BUNDLE_ID` is set: `lockstep run`/`up`) — that
    /// bundle, from the first call, as iOS launches an extension already knowing who it is. Nil in tools and tests
    /// (no launcher gave them an identity), which are no simulated process.
    ///
    /// Such an executable passes the same gates as one that calls `start`: a version mismatch or a stale build
    /// (rule `runtime.version-parity`, `runtime.stale`) ends it with exit 78 and Xcode's sentence, since no
    /// `main` of Lockstep's is there to decide, and under `up`'s launch check it prints its ready line and exits 0.
    public static var current: SimulatedProcess? {
        if let process = running.withLock({ $0 }) { return process }
        return adoptLaunchedIdentity()
    }

    private static func adoptLaunchedIdentity() -> SimulatedProcess? {
        adopted.withLock { tried -> SimulatedProcess? in
            if let process = running.withLock({ $0 }) { return process }
            guard !tried, ProcessEnvironment.value(LaunchEnvironment.bundleIdentifier) != nil else { return nil }
            tried = true
            ProcessStop.installUnlessInstalled { exit(withError: $0) }
            do {
                guard let process = try start(defaultRole: .host) else { exit(.success) }  // `up`'s launch check
                return process
            } catch {
                exit(withError: error)
            }
        }
    }

    /// The identity from `environment` (the process's own when nil), installing `LOCKSTEP_MANIFEST` (or the embedded
    /// default when nothing is installed) first. Does not check versions.
    /// - Throws: `BundleError` for a bad manifest, `RuntimeError.unknownBundle`, `SystemError` when installing fails.
    public static func resolve(defaultRole: BundleRole, environment: [String: String]? = nil) throws -> SimulatedProcess {
        // Four variables by getenv: Foundation's ProcessInfo builds (and type-checks) the whole environment on
        // first use, a visible part of a bundle's start-up.
        func variable(_ name: String) -> String? {
            let value = environment.map { $0[name] } ?? ProcessEnvironment.value(name)
            return value.flatMap { $0.isEmpty ? nil : $0 }
        }
        let groupsRoot = variable(GroupsRoot.environmentVariable) ?? GroupsRoot.defaultPath
        // The installed manifest is read and parsed once in the usual case (a process `up` launched finds it installed).
        let requested = variable(LaunchEnvironment.manifest)
        var installed = requested == nil ? try Installer.installed(groupsRoot: groupsRoot) : nil
        if installed == nil {
            try Installer.install(try requested.map(Manifest.load) ?? Manifest.embeddedDefault, groupsRoot: groupsRoot)
            installed = try Installer.installed(groupsRoot: groupsRoot)
        }
        let manifest = installed ?? Manifest.embeddedDefault
        let bundle: BundleRecord
        if let identifier = variable(LaunchEnvironment.bundleIdentifier) {
            guard let found = manifest.bundle(identifier: identifier) else {
                throw RuntimeError(.unknownBundle, subject: identifier, detail: "the installed manifest lists \(list(manifest))")
            }
            bundle = found
        } else {
            guard let found = manifest.bundle(role: defaultRole) else {
                throw RuntimeError(.unknownBundle, subject: defaultRole.rawValue, detail: "the installed manifest has no \(defaultRole.rawValue) bundle; it lists \(list(manifest))")
            }
            bundle = found
        }
        // A launcher states the build it launched; a process started by hand is at its bundle's build.
        let launchedBuild = variable(LaunchEnvironment.build) ?? bundle.buildVersion
        var launched = bundle
        launched.buildVersion = launchedBuild
        return SimulatedProcess(groupsRoot: groupsRoot, manifest: manifest, bundle: launched)
    }

    /// rule `runtime.version-parity`: refuses to run when this bundle's versions differ from the installed
    /// app's (Xcode/ITMS wording), and `runtime.stale` when the app was reinstalled after this process was launched.
    /// - Throws: `RuntimeError` `.versionMismatch` or `.stale` (exit 78).
    public func checkVersions() throws(RuntimeError) {
        guard let identifier = bundle.bundleIdentifier else { return }
        let mismatches = manifest.versionMismatches(for: identifier)
        if !mismatches.isEmpty {
            let text = mismatches.map { "\($0) [runtime.version-parity]" }.joined(separator: " ")
            throw RuntimeError(.versionMismatch, subject: identifier,
                              detail: "\(describe(bundle)) refuses to start: \(text)")
        }
        if let installed = manifest.bundle(identifier: identifier)?.buildVersion, installed != bundle.buildVersion {
            throw staleError(installedBuild: manifest.app.buildVersion ?? installed)
        }
    }

    /// Installs the check every shared write runs (`SharedWriteGate`), and a watcher that stops this process as
    /// soon as the app is reinstalled at another build, even if it never writes (rule `runtime.stale`: on a
    /// device the system terminates the old extension).
    public func guardAgainstReinstall() {
        let check = StaleCheck(process: self)
        SharedWriteGate.install { try check.check() }
        Thread.detachNewThread {
            check.watch { ProcessStop.report($0) }
        }
    }

    /// As on iOS, the process's temporary folder is inside its own container (`<container>/tmp`): what
    /// `NSTemporaryDirectory()` and `FileManager.default.temporaryDirectory` give, so a file written there (a
    /// notification attachment, a download) is in the process's sandbox. Made here, when the process starts as its
    /// bundle, not by the launcher: a process that refuses its arguments before it starts leaves no container.
    func useContainerTemporaryDirectory() {
        // An identifier that is no folder name (an installed manifest written by hand) creates nothing: the
        // sandbox refuses it when the process first uses a container.
        guard (try? Sandbox.validateBundleIdentifier(bundle.bundleIdentifier ?? bundle.name)) != nil else { return }
        let temporary = LaunchEnvironment.temporaryDirectory(for: bundle, groupsRoot: groupsRoot)
        guard (try? AtomicFile.createDirectories(temporary)) != nil else { return }
        // A launcher has set it already; setenv is not thread-safe, and a plain executable starts on its first call.
        if ProcessEnvironment.value("TMPDIR") != temporary + "/" { ProcessEnvironment.set("TMPDIR", temporary + "/") }
    }

    /// The sentence of rule `runtime.stale`, naming both builds.
    func staleError(installedBuild: String) -> RuntimeError {
        RuntimeError(.stale, subject: bundle.bundleIdentifier ?? bundle.name,
                    detail: "\(describe(bundle)) is from build \(bundle.buildVersion ?? "?"), but \(manifest.app.name) is now installed at build \(installedBuild); the system stops the old process before it writes shared data [runtime.stale].")
    }

    private func describe(_ record: BundleRecord) -> String {
        "\(record.name) (\(record.bundleIdentifier ?? "no bundle id"))"
    }

    private static func list(_ manifest: Manifest) -> String {
        manifest.bundles.map { "\($0.bundleIdentifier ?? $0.name) (\($0.role.rawValue))" }.joined(separator: ", ")
    }
}

/// Whether the installed app is still at the build this process started with. Cheap when nothing changed: one
/// `stat` of the installed manifest; it is re-read only when its inode, size or time changed.
final class StaleCheck: Sendable {
    private let process: SimulatedProcess
    private let path: String
    private let startBuild: String?
    private let lastSeen = Mutex<[Int]?>(nil)

    init(process: SimulatedProcess) {
        self.process = process
        path = Manifest.installedPath(groupsRoot: process.groupsRoot)
        startBuild = process.manifest.app.buildVersion
        lastSeen.withLock { $0 = Self.signature(path) }
    }

    /// - Throws: `RuntimeError.stale` when the installed app's build is no longer the one at start.
    func check() throws(RuntimeError) {
        let now = Self.signature(path)
        let changed = lastSeen.withLock { seen in
            defer { seen = now }
            return seen != now
        }
        guard changed, now != nil, let installed = try? Manifest.load(path) else { return }
        let build = installed.app.buildVersion
        if build != startBuild {
            throw process.staleError(installedBuild: build ?? "?")
        }
    }

    /// Waits for changes in the installed manifest's folder (installs replace it by rename; a hand edit writes it)
    /// and calls `stop` once the app is stale, then stops watching.
    func watch(stop: (RuntimeError) -> Void) {
        guard let watcher = try? DirectoryWatcher(directories: [GroupsLayout(root: process.groupsRoot).installDirectory]) else { return }
        while watcher.wait(timeout: nil) {
            do { try check() } catch {
                stop(error)
                return
            }
        }
    }

    private static func signature(_ path: String) -> [Int]? { FileSystem.signature(path) }
}
