import Foundation
import Testing
import LockstepTestSupport

/// SwiftData across real processes: `lockstep-probe data …` as the app, its widget, and a share extension entitled
/// to no group, each test in a fresh groups root. The probe's models are a trail and its hikes.
@Suite struct SharedStoreTests {
    static let group = "group.com.example.trails"
    static let app = "com.example.trails", widget = "com.example.trails.widget", share = "com.example.trails.share"

    struct Root {
        let url = TestSupport.temporaryDirectory("swiftdata")
        var manifest: String { url.appendingPathComponent("manifest.json").path }
        var store: URL { url.appendingPathComponent("phone/AppGroup/\(SharedStoreTests.group)/Library/Application Support/default.store") }

        init() throws {
            let bundle = { (name: String, role: String, id: String, groups: [String], point: String) in
                "{ \"name\": \"\(name)\", \"role\": \"\(role)\", \"bundleIdentifier\": \"\(id)\", \(point) \"shortVersion\": \"1.0.0\", \"buildVersion\": \"1\", \"executable\": \"lockstep-probe\", \"appGroups\": [\(groups.map { "\"\($0)\"" }.joined(separator: ", "))] }"
            }
            try """
                { "manifestVersion": 1,
                  "app": \(bundle("Trails", "host", app, [group], "")),
                  "embedded": [
                    \(bundle("TrailsWidget", "widget", widget, [group], "\"extensionPoint\": \"com.apple.widgetkit-extension\",")),
                    \(bundle("TrailsShare", "share", share, [], "\"extensionPoint\": \"com.apple.share-services\","))
                  ] }
                """.write(toFile: manifest, atomically: true, encoding: .utf8)
        }

        var environment: [String: String] { ["LOCKSTEP_GROUPS": url.path, "LOCKSTEP_MANIFEST": manifest] }

        /// `lockstep-probe data ARGUMENTS` as `bundle`.
        func data(as bundle: String, _ arguments: String...) throws -> ProcessResult {
            try run("lockstep-probe", ["data"] + arguments, environment: environment.merging(["LOCKSTEP_BUNDLE_ID": bundle]) { $1 })
        }

        func probe(as bundle: String) throws -> Child {
            try Child(TestSupport.executable("lockstep-probe"), environment: environment.merging(["LOCKSTEP_BUNDLE_ID": bundle]) { $1 },
                      keepStdinOpen: true)
        }

        func cleanUp() { TestSupport.cleanUp(url) }
    }

    /// The app saves; the widget's next fetch sees the objects and their relationship; a bundle without the group's
    /// entitlement has its own private store and sees none (rule `group.entitlement`).
    @Test func appSavesWidgetFetchesUnentitledSeesNone() throws {
        let root = try Root(); defer { root.cleanUp() }
        #expect(try root.data(as: Self.app, "add", "Ridge", "12.5").status == 0)
        #expect(try root.data(as: Self.app, "add", "Creek", "4").status == 0)
        let hiked = try root.data(as: Self.widget, "hike", "Ridge", "ann", "2")
        #expect(hiked.status == 0, "\(hiked)")
        let fromWidget = try root.data(as: Self.widget, "list")
        #expect(fromWidget.stdout == "Creek 4.0 hikes=0\nRidge 12.5 hikes=2\n2 trails, 2 hikes\n", "\(fromWidget)")
        let fromApp = try root.data(as: Self.app, "list")
        #expect(fromApp.stdout == fromWidget.stdout, "\(fromApp)")
        let fromShare = try root.data(as: Self.share, "list")
        #expect(fromShare.status == 0 && fromShare.stdout == "0 trails, 0 hikes\n", "\(fromShare)")
        #expect(FileManager.default.fileExists(atPath: root.url.appendingPathComponent("phone/Data/\(Self.share)/Library/Application Support/default.store").path))
        // Naming the group it is not entitled to is refused with the rule, and nothing is made.
        let refused = try root.data(as: Self.share, "in", Self.group)
        #expect(refused.status == 77 && refused.stderr.contains("rule group.entitlement"), "\(refused)")
    }

    /// Three processes add hikes to the same trail at once, each saving after every hike: no save is lost, neither
    /// the hikes' rows nor their places in the trail's list (each save applies its own additions to the stored list).
    @Test func concurrentWritersLoseNothing() throws {
        let root = try Root(); defer { root.cleanUp() }
        #expect(try root.data(as: Self.app, "add", "Ridge", "12.5").status == 0)
        let writers = try [Self.app, Self.widget, Self.app].map { try root.probe(as: $0) }
        for writer in writers { #expect(writer.waitForLine("ready") != nil) }
        for (index, writer) in writers.enumerated() { writer.sendLine("data hike Ridge w\(index) 10") }
        for writer in writers {
            #expect(writer.waitForLine("hiked Ridge", timeout: 60) != nil, "\(writer.stdoutSoFar)")
            writer.closeStdin()
            #expect(writer.finish() == 0)
        }
        let list = try root.data(as: Self.widget, "list")
        #expect(list.stdout == "Ridge 12.5 hikes=30\n1 trails, 30 hikes\n", "\(list)")
    }

    /// Deleting a trail deletes its hikes (`.cascade`), for every process's next fetch.
    @Test func cascadeDeleteReachesOtherProcesses() throws {
        let root = try Root(); defer { root.cleanUp() }
        #expect(try root.data(as: Self.app, "add", "Ridge", "1").status == 0)
        #expect(try root.data(as: Self.app, "hike", "Ridge", "ann", "3").status == 0)
        #expect(try root.data(as: Self.widget, "delete", "Ridge").status == 0)
        #expect(try root.data(as: Self.app, "list").stdout == "0 trails, 0 hikes\n")
    }

    /// A store file that is not SQLite is refused with one sentence and exit 2, and left as it was.
    @Test func notAStoreIsLeftUntouched() throws {
        let root = try Root(); defer { root.cleanUp() }
        try FileManager.default.createDirectory(at: root.store.deletingLastPathComponent(), withIntermediateDirectories: true)
        let garbage = Data(repeating: 0x41, count: 4096)
        try garbage.write(to: root.store)
        let result = try root.data(as: Self.app, "add", "Ridge", "1")
        #expect(result.status == 2 && result.stderr.contains("is not a readable SQLite database"), "\(result)")
        #expect(result.stderr.split(separator: "\n").count == 1)
        #expect(try Data(contentsOf: root.store) == garbage)
    }

    /// A predicate on a computed property is one the store cannot evaluate: exit 2, the property's model named.
    @Test func predicateOnComputedPropertyIsRefused() throws {
        let root = try Root(); defer { root.cleanUp() }
        let result = try root.data(as: Self.app, "computed")
        #expect(result.status == 2 && result.stderr.contains("cannot evaluate the fetch of Trail"), "\(result)")
    }
}
