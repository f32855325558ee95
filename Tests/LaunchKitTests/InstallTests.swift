import BundleKit
import Foundation
@testable import LaunchKit
@testable import LockstepRuntime
import LockstepTestSupport
import Testing

@Suite struct InstallTests {
    @Test func installingTheSameManifestTwiceChangesNothing() throws {
        let root = TestSupport.temporaryDirectory("install")
        defer { TestSupport.cleanUp(root) }
        let first = try Installer.install(Manifest.embeddedDefault, groupsRoot: root.path)
        #expect(first == Installer.Outcome(generation: 1, changed: true))
        let path = Manifest.installedPath(groupsRoot: root.path)
        let before = try String(contentsOfFile: path, encoding: .utf8)
        let again = try Installer.install(Manifest.embeddedDefault, groupsRoot: root.path)
        #expect(again == Installer.Outcome(generation: 1, changed: false))
        #expect(try String(contentsOfFile: path, encoding: .utf8) == before)

        let reinstalled = try Installer.reinstall(groupsRoot: root.path, build: "7", version: "2.0.0")
        #expect(reinstalled == Installer.Outcome(generation: 2, changed: true))
        let installed = try #require(try Installer.installed(groupsRoot: root.path))
        #expect(installed.bundles.allSatisfy { $0.buildVersion == "7" && $0.shortVersion == "2.0.0" })
        #expect(installed.bundles.map(\.bundleIdentifier) == Manifest.embeddedDefault.bundles.map(\.bundleIdentifier))
        #expect(installed.embedded.first?.memoryLimitMB == 30)
        #expect(Installer.generation(groupsRoot: root.path) == 2)
    }

    @Test func aProcessFromTheOldBuildIsStaleAfterAReinstall() throws {
        let root = TestSupport.temporaryDirectory("install")
        defer { TestSupport.cleanUp(root) }
        let environment = ["LOCKSTEP_GROUPS": root.path, "LOCKSTEP_BUNDLE_ID": "com.example.habits.widget", "LOCKSTEP_BUILD": "1"]
        let process = try SimulatedProcess.resolve(defaultRole: .widget, environment: environment)
        #expect(process.bundle.name == "HabitsWidget")
        try process.checkVersions()
        let check = StaleCheck(process: process)
        try check.check()
        try Installer.reinstall(groupsRoot: root.path, build: "2", version: nil)
        #expect(throws: RuntimeError.self) { try check.check() }
        do {
            try check.check()
        } catch {
            #expect(error.exitStatus == .versionMismatch)
            #expect(error.description == "HabitsWidget (com.example.habits.widget) is from build 1, but Habits is now installed at build 2; the system stops the old process before it writes shared data [runtime.stale].")
        }
        // Launched at build 1 while build 2 is installed: stale from the start.
        let late = try SimulatedProcess.resolve(defaultRole: .widget, environment: environment)
        #expect(throws: RuntimeError.self) { try late.checkVersions() }
    }

    @Test func unknownBundleIdentifiersAreNamed() throws {
        let root = TestSupport.temporaryDirectory("install")
        defer { TestSupport.cleanUp(root) }
        #expect(throws: RuntimeError.self) {
            _ = try SimulatedProcess.resolve(defaultRole: .widget, environment: ["LOCKSTEP_GROUPS": root.path, "LOCKSTEP_BUNDLE_ID": "com.example.nope"])
        }
    }

    @Test func childEnvironmentCarriesIdentityAndUnprefixesChildVariables() {
        let record = Manifest.embeddedDefault.embedded[0]
        let environment = LaunchEnvironment.child(for: record, groupsRoot: "/g", base: [
            "PATH": "/bin", "LOCKSTEP_CHILD_HABIT": "Read", "LOCKSTEP_MANIFEST": "/m.json", "LOCKSTEP_CHILD_": "x",
            "LOCKSTEP_LAUNCH_CHECK": "1",
        ])
        #expect(environment == [
            "PATH": "/bin", "HABIT": "Read", "LOCKSTEP_GROUPS": "/g",
            "LOCKSTEP_BUNDLE_ID": "com.example.habits.widget", "LOCKSTEP_BUILD": "1",
            "TMPDIR": "/g/phone/Data/com.example.habits.widget/tmp/",
        ])
    }

    @Test func memoryLimitsByRoleAndExtensionPoint() {
        var record = BundleRecord(name: "W", role: .widget, bundlePath: "", source: SourceLocation(file: ""))
        #expect(MemoryLimit.megabytes(for: record) == 30)
        record.memoryLimitMB = 50
        #expect(MemoryLimit.megabytes(for: record) == 50)
        var service = BundleRecord(name: "N", role: .extension, extensionPoint: "com.apple.usernotifications.service", bundlePath: "", source: SourceLocation(file: ""))
        #expect(MemoryLimit.megabytes(for: service) == 24)
        #expect(MemoryLimit.report(limitMB: 24, record: service) == "exceeded mem limit: ActiveHard 24 MB (fatal)")
        service.extensionPoint = "com.apple.share-services"
        #expect(MemoryLimit.megabytes(for: service) == 120)
        service.extensionPoint = "com.example.other"
        #expect(MemoryLimit.megabytes(for: service) == nil)
        // rule `extension.memory`: each runtime role has its kind's limit.
        for (role, limit) in [(BundleRole.complication, 30), (.notification, 24), (.share, 120), (.clip, nil), (.intent, nil)] as [(BundleRole, Int?)] {
            #expect(MemoryLimit.megabytes(for: BundleRecord(name: "X", role: role, bundlePath: "", source: SourceLocation(file: ""))) == limit, "\(role)")
        }
        #expect(MemoryLimit.report(limitMB: 30, record: record) == "EXC_RESOURCE (RESOURCE_TYPE_MEMORY: high watermark memory limit exceeded) (limit=30 MB)")
    }

    /// A manifest whose bundle identifier climbs out of the groups root (`com.example.a/../../../../ESCAPED`): `run`
    /// handed the child a TMPDIR there and the child made it before the sandbox refused the id. The install refuses
    /// the manifest (exit 2) and nothing is created, inside the groups root or beside it.
    @Test func aBundleIdentifierThatIsNoFolderNameIsRefusedBeforeAnythingIsCreated() throws {
        let dir = TestSupport.temporaryDirectory("install")
        defer { TestSupport.cleanUp(dir) }
        let groups = dir.appendingPathComponent("groups").path
        try FileManager.default.createDirectory(atPath: groups, withIntermediateDirectories: true)
        let manifest = dir.appendingPathComponent("m.json").path
        try Manifest.embeddedDefaultText.replacingFirst(#""bundleIdentifier": "com.example.habits","#,
                                                        with: #""bundleIdentifier": "com.example.habits/../../../../ESCAPED","#)
            .write(toFile: manifest, atomically: true, encoding: .utf8)
        for command in [["run", "--manifest", manifest, "--groups", groups, "host", "--", "list"],
                        ["up", "--manifest", manifest, "--groups", groups]] {
            let result = try run("lockstep", command, timeout: 30)
            #expect(result.status == 2, "\(command[0]): \(result)")
            #expect(result.stderr.contains("'com.example.habits/../../../../ESCAPED' is not a valid identifier"), "\(command[0]): \(result)")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted() == ["groups", "m.json"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: groups).isEmpty)
    }
}
