import Foundation
import Testing
@testable import AppGroupKit
import LockstepTestSupport

/// A groups root and the Habits bundles, for in-process tests.
struct Fixture {
    let root: URL
    let groups: GroupsRoot
    static let group = "group.com.example.habits"

    init() {
        root = TestSupport.temporaryDirectory("appgroup")
        groups = GroupsRoot(path: root.path)
    }

    func sandbox(_ bundle: String = "com.example.habits", groups: [String] = [Fixture.group], device: Device = .phone) throws -> Sandbox {
        try Sandbox(root: self.groups, identity: ProcessIdentity(bundleIdentifier: bundle, appGroups: groups, device: device))
    }

    func cleanUp() { TestSupport.cleanUp(root) }
}

@Suite struct SandboxTests {
    @Test func containersFollowTheLayout() throws {
        let fixture = Fixture(); defer { fixture.cleanUp() }
        let sandbox = try fixture.sandbox()
        let group = try #require(try sandbox.groupContainer(Fixture.group))
        #expect(group.path == "\(fixture.root.path)/phone/AppGroup/\(Fixture.group)")
        for folder in ["Library/Preferences", "Library/Application Support", "Library/Caches"] {
            #expect(FileManager.default.fileExists(atPath: "\(group.path)/\(folder)"))
        }
        #expect(try sandbox.privateContainer().path == "\(fixture.root.path)/phone/Data/com.example.habits")
        let watch = try fixture.sandbox("com.example.habits.watchkitapp", device: .watch)
        #expect(try watch.groupContainer(Fixture.group)?.path == "\(fixture.root.path)/watch/AppGroup/\(Fixture.group)")
    }

    @Test func notEntitledGetsNil() throws {
        let fixture = Fixture(); defer { fixture.cleanUp() }
        let rogue = try fixture.sandbox("com.example.rogue", groups: [])
        #expect(try rogue.groupContainer(Fixture.group) == nil)
        #expect(!FileManager.default.fileExists(atPath: "\(fixture.root.path)/phone/AppGroup/\(Fixture.group)"))
        let error = #expect(throws: AppGroupError.self) { try rogue.requireGroupContainer(Fixture.group) }
        #expect(error?.exitStatus == .notEntitled)
        #expect(error?.description.contains(Fixture.group) == true)
    }

    @Test(arguments: ["com.example.habits", "group", "group.", "group..x", "group.a/../../etc", "group.a b", "../group.x"])
    func invalidGroupIdentifiers(_ identifier: String) throws {
        let fixture = Fixture(); defer { fixture.cleanUp() }
        let error = #expect(throws: AppGroupError.self) { try fixture.sandbox().groupContainer(identifier) }
        #expect(error?.code == .invalidIdentifier)
        #expect(error?.exitStatus == .invalidInput)
    }

    @Test func invalidBundleIdentifier() throws {
        let fixture = Fixture(); defer { fixture.cleanUp() }
        #expect(throws: AppGroupError.self) { try fixture.sandbox("../evil") }
    }

    /// The bookkeeping folder is refused however it is spelled: its lock files guard every writer (a widget that
    /// replaced one would end their mutual exclusion).
    @Test(arguments: ["../x", "/etc/passwd", "a/../../x", ".lockstep/files.lock", "", "./.lockstep/files.lock",
                      "././.lockstep", ".//.lockstep/defaults/x.lock", ".", "./"])
    func pathsThatLeaveTheContainer(_ path: String) throws {
        let fixture = Fixture(); defer { fixture.cleanUp() }
        let container = try #require(try fixture.sandbox().groupContainer(Fixture.group))
        let error = #expect(throws: AppGroupError.self) { try container.resolve(path) }
        #expect(error?.code == .pathEscape)
    }

    @Test func symlinksPointingOutsideAreRefused() throws {
        let fixture = Fixture(); defer { fixture.cleanUp() }
        let container = try #require(try fixture.sandbox().groupContainer(Fixture.group))
        let outside = fixture.root.appendingPathComponent("outside").path
        try FileManager.default.createDirectory(atPath: outside, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: "\(container.path)/escape", withDestinationPath: outside)
        try FileManager.default.createSymbolicLink(atPath: "\(container.path)/dangling", withDestinationPath: "\(outside)/missing")
        try FileManager.default.createSymbolicLink(atPath: "\(container.path)/inside", withDestinationPath: "\(container.path)/Library")
        #expect(throws: AppGroupError.self) { try container.resolve("escape/file") }
        #expect(throws: AppGroupError.self) { try container.resolve("dangling") }
        #expect(try container.resolve("inside/x") == "\(container.path)/inside/x")
        #expect(try container.resolve("new/folder/file.json") == "\(container.path)/new/folder/file.json")
        let files = CoordinatedFiles(container: container)
        #expect(throws: AppGroupError.self) { try files.write(Data("x".utf8), to: "escape/file") }
        #expect(!FileManager.default.fileExists(atPath: "\(outside)/file"))
    }

    @Test func symlinksIntoTheBookkeepingFolderAreRefused() throws {
        let fixture = Fixture(); defer { fixture.cleanUp() }
        let container = try #require(try fixture.sandbox().groupContainer(Fixture.group))
        try FileManager.default.createDirectory(atPath: "\(container.path)/.lockstep/defaults", withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: "\(container.path)/books", withDestinationPath: "\(container.path)/.lockstep")
        try FileManager.default.createSymbolicLink(atPath: "\(container.path)/lock", withDestinationPath: ".lockstep/defaults")
        for path in ["books/defaults/x.lock", "books", "lock/x.lock", "lock"] {
            let error = #expect(throws: AppGroupError.self, "\(path)") { try container.resolve(path) }
            #expect(error?.code == .pathEscape)
        }
    }
}

@Suite struct CoordinatedFilesTests {
    @Test func writeReadUpdateRemove() throws {
        let fixture = Fixture(); defer { fixture.cleanUp() }
        let files = CoordinatedFiles(container: try fixture.sandbox().requireGroupContainer(Fixture.group))
        #expect(try files.read("state.json") == nil)
        try files.write(Data("1".utf8), to: "sub/state.json")
        try files.update("sub/state.json") { Data((String(decoding: $0 ?? Data(), as: UTF8.self) + "2").utf8) }
        #expect(try files.read("sub/state.json") == Data("12".utf8))
        try files.remove("sub/state.json")
        #expect(try files.read("sub/state.json") == nil)
    }
}
