import Foundation
import LockstepSystem
import LockstepTestSupport
import Testing

/// Issue 43's reproductions, each a program of Lockstep's own in the shape of a public report (the probe's
/// `save-place`, `publish-post` and `show-posts`), under `lockstep up`: the scenario fails in realistic device timing
/// before the known fix and passes after it, and passes in strict timing both ways — which is how strict timing
/// hides the bug. Waits are bounded (`within`, `--timeout`), never sleeps.
@Suite struct DeviceTimingProcessTests {
    /// `lockstep up` on a fresh probe device with `scenario`, in realistic timing (seed 7) or strict.
    static func up(_ scenario: String, realistic: Bool) throws -> ProcessResult {
        let device = try ProbeDevice(roles: ["share"])
        defer { device.cleanUp() }
        return try device.up(scenario, realistic ? ["--device-timing", "realistic", "--seed", "7"] : [])
    }

    /// The reproduction's contract: realistic timing fails before the fix, showing `bugShows`, and passes after it,
    /// showing `fixShows`; strict timing passes both ways.
    static func reproduce(_ scenario: (Bool) -> String, bugShows: [String], fixShows: [String]) throws {
        let bug = try up(scenario(false), realistic: true)
        #expect(bug.status == 1, "\(bug)")
        for text in bugShows { #expect(bug.stdout.contains(text) || bug.stderr.contains(text), "\(text): \(bug)") }
        let fixed = try up(scenario(true), realistic: true)
        #expect(fixed.status == 0, "\(fixed)")
        for text in fixShows { #expect(fixed.stdout.contains(text), "\(text): \(fixed)") }
        for fixed in [false, true] {
            let strict = try up(scenario(fixed), realistic: false)
            #expect(strict.status == 0, "strict hides it (fixed: \(fixed)): \(strict)")
            #expect(!strict.stdout.contains("suspended"), "strict never suspends on its own")
        }
    }

    /// sobri909/ArcMini #98: the app saves the current place and the extension stays behind until an explicit save.
    static func arcMini(fixed: Bool) -> String {
        """
        == the app saves the current place; the widget reads it within a second [defaults.device-flush]
        send host save-place Home\(fixed ? " --fixed" : "")
        wait host saved place Home
        expect widget sees currentPlace = Home within 1s
        """
    }

    /// wordpress-mobile/WordPress-iOS PR #2552: write, then tell the widget, which reads before the write reached it.
    static func wordPress(fixed: Bool) -> String {
        """
        == the app publishes a post, then tells the widget [defaults.device-flush, darwin.name-only]
        send widget show-posts
        wait widget showing posts
        send host publish-post Hello\(fixed ? " --fixed" : "")
        wait widget --timeout 1s widget shows Hello
        """
    }

    /// pointfreeco/swift-sharing #147: the app watches a file the share extension replaces; its watch holds the old file.
    static func swiftSharing(fixed: Bool) -> String {
        """
        == the share extension saves notes; the app watches the file [files.device-rename, files.atomic]
        run share write-note zero
        send host watch-notes\(fixed ? " --fixed" : "")
        wait host watching notes
        run share write-note first
        wait host app sees notes: first
        run share write-note second
        wait host --timeout 1s app sees notes: second
        """
    }

    @Test func swiftSharingsWatchGoesStaleAfterTheFirstReplacement() throws {
        try Self.reproduce(Self.swiftSharing, bugShows: ["host     | app sees notes: first", "✗ wait host --timeout 1s app sees notes: second"],
                           fixShows: ["host     | app sees notes: second"])
    }

    /// home-assistant/iOS PR #4998: the widget migrates the shared database and is suspended holding its write lock.
    static func homeAssistant(fixed: Bool) -> String {
        """
        == the widget's timeline reads the database the app shares [lock.dead10cc, sqlite.shared]
        send host setup-db
        wait host database ready
        send widget timeline\(fixed ? " --fixed" : "")
        wait widget work returned
        expect store shared.sqlite intact
        """
    }

    @Test func homeAssistantsWidgetIsKilledHoldingTheDatabaseLock() throws {
        // SQLite's atomic commit keeps the file whole: the uncommitted migration never reached it; the stores are
        // reopened and reported after the kill.
        try Self.reproduce(Self.homeAssistant, bugShows: [
            "killed: Termination Reason: Namespace RUNNINGBOARD, Code 0xdead10cc (it held a lock on ",
            "/phone/AppGroup/group.com.example.probe/shared.sqlite while suspended)", "shared.sqlite: intact.",
        ], fixShows: ["suspended: its work returned, and iOS suspends an extension then [lock.dead10cc]"])
    }

    /// `kill ROLE --mid-write`: killed while it holds a write lock in a shared container; the stores reopened after.
    @Test func aKillMidWriteReportsEveryStore() throws {
        let device = try ProbeDevice()
        defer { device.cleanUp() }
        let result = try device.up("""
            send host write-forever n
            wait host writing n
            kill host --mid-write
            expect store Library/Preferences/group.com.example.probe.plist intact
            kill widget
            """)
        #expect(result.status == 0, "\(result)")
        let suite = "\(device.groups)/phone/AppGroup/group.com.example.probe/Library/Preferences/group.com.example.probe.plist"
        #expect(result.stdout.contains("killed: killed mid-write: SIGKILL while it held a write lock on \(device.groups)/phone/AppGroup/group.com.example.probe/.lockstep/defaults/group.com.example.probe.lock"), "\(result)")
        #expect(result.stdout.contains("lockstep | store \(suite): intact."), "\(result)")
        #expect(result.stdout.contains("✓ kill host --mid-write — host killed mid-write"), "\(result)")
        #expect(result.stdout.contains("✓ kill widget — widget killed (SIGKILL); 1 shared store reopened, intact"), "\(result)")
    }

    /// A SwiftData store is one of the shared stores: killed while saving, it is reopened and reported too.
    @Test func aKillMidSaveReportsTheSwiftDataStore() throws {
        let device = try ProbeDevice()
        defer { device.cleanUp() }
        let result = try device.up("""
            send host data add Ridge 5
            wait host saved Ridge
            send host data hike Ridge ann 100000
            kill host --mid-write
            expect store "Library/Application Support/default.store" intact
            """)
        #expect(result.status == 0, "\(result)")
        let store = "\(device.groups)/phone/AppGroup/group.com.example.probe/Library/Application Support/default.store"
        #expect(result.stdout.contains("killed: killed mid-write: SIGKILL while it held a write lock on \(store)"), "\(result)")
        #expect(result.stdout.contains("lockstep | store \(store): intact."), "\(result)")
    }

    @Test func aKillOfABundleNotRunningAndAStoreNotThereAreOneSentenceEach() throws {
        let device = try ProbeDevice()
        defer { device.cleanUp() }
        let result = try device.up("""
            kill intent
            expect store missing.sqlite intact
            send widget write-forever n
            wait widget writing n
            kill host --mid-write --timeout 300ms
            """)
        #expect(result.status == 1, "\(result)")
        #expect(result.stdout.contains("✗ kill intent — "), "\(result)")
        #expect(result.stdout.contains("intent has not been launched"), "\(result)")
        #expect(result.stdout.contains("✗ expect store missing.sqlite intact — \(device.groups)/phone/AppGroup/group.com.example.probe/missing.sqlite: unreadable — there is no database at this path."), "\(result)")
        #expect(result.stdout.contains("✗ kill host --mid-write --timeout 300ms — host (com.example.probe, pid "), "\(result)")
        #expect(result.stdout.contains("took no write lock in a shared container within 300 ms"), "\(result)")
    }

    @Test func arcMiniStaysBehindUntilAnExplicitSave() throws {
        try Self.reproduce(Self.arcMini, bugShows: [
            "device timing: realistic, seed 7",
            "✗ expect widget sees currentPlace = Home within 1s — widget sees currentPlace = nothing in group.com.example.probe, not Home, after 1000 ms",
        ], fixShows: ["✓ expect widget sees currentPlace = Home within 1s — widget sees currentPlace = Home"])
    }

    @Test func wordPressTellsTheWidgetBeforeTheWriteReachesIt() throws {
        try Self.reproduce(Self.wordPress, bugShows: ["widget   | widget shows no post", "✗ wait widget --timeout 1s widget shows Hello"],
                           fixShows: ["widget   | widget shows Hello"])
    }

    /// The same seed, the same outcome of every step, run after run.
    @Test func aSeedRepeatsARun() throws {
        func marks(_ result: ProcessResult) -> [String] {
            result.stdout.split(separator: "\n").filter { $0.contains("] ✓") || $0.contains("] ✗") }.map { String($0.prefix { $0 != "—" }) }
        }
        let scenario = Self.arcMini(fixed: false) + "\n" + Self.wordPress(fixed: false)
        let first = try Self.up(scenario, realistic: true)
        let second = try Self.up(scenario, realistic: true)
        #expect(marks(first) == marks(second), "\(first)\n\(second)")
        #expect(marks(first).contains { $0.contains("✗") })
    }

    @Test func aBadTimingOrSeedIsAUsageErrorAndLaunchesNothing() throws {
        let device = try ProbeDevice()
        defer { device.cleanUp() }
        for (arguments, sentence) in [
            (["--device-timing", "fast"], "lockstep up: 'fast' is not a device timing: use strict (the default) or realistic; see 'lockstep up --help'.\n"),
            (["--device-timing", "realistic", "--seed", "-3"], "lockstep up: '-3' is not a seed: use a non-negative integer below 2^64; see 'lockstep up --help'.\n"),
            (["--seed", "3"], "lockstep up: --seed applies to --device-timing realistic only; strict timing draws no delay.\n"),
        ] {
            let result = try device.up("send host echo hi", arguments)
            #expect(result.status == 64, "\(result)")
            #expect(result.stderr == sentence)
            #expect(!FileManager.default.fileExists(atPath: device.groups), "nothing written")
        }
        let run = try run("lockstep", ["run", "host", "--manifest", device.manifest, "--groups", device.groups, "--device-timing", "later"])
        #expect(run.status == 64)
        #expect(run.stderr == "lockstep run: 'later' is not a device timing: use strict (the default) or realistic; see 'lockstep run --help'.\n")
    }

    /// `lockstep run --device-timing realistic`: the bundle's writes wait for a flush point; its normal exit is one.
    @Test func runGivesTheBundleTheDeviceTiming() throws {
        let device = try ProbeDevice()
        defer { device.cleanUp() }
        let result = try run("lockstep", ["run", "host", "--manifest", device.manifest, "--groups", device.groups,
                                                       "--device-timing", "realistic", "--seed", "9", "--", "env", "LOCKSTEP_DEVICE_TIMING"])
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout == "LOCKSTEP_DEVICE_TIMING=realistic\n")
    }
}
