import Foundation
import Testing
@testable import AppGroupKit
import LockstepSystem
import LockstepTestSupport

/// The runtime across real processes: the built `lockstep` binary as each bundle, a fresh groups root per test.
@Suite struct ProcessTests {
    static let group = "group.com.example.habits"
    static let app = "com.example.habits"
    static let widget = "com.example.habits.widget"
    static let rogue = "com.example.habits.rogue"

    /// A groups root with a manifest: the Habits bundles plus a share extension entitled to no group.
    struct Root {
        let url: URL
        let manifest: String

        init() throws {
            url = TestSupport.temporaryDirectory("runtime")
            manifest = url.appendingPathComponent("manifest.json").path
            let bundle = { (name: String, role: String, id: String, groups: [String], extra: String) in
                "{ \"name\": \"\(name)\", \"role\": \"\(role)\", \"bundleIdentifier\": \"\(id)\", \"shortVersion\": \"1.0.0\", \"buildVersion\": \"1\", \(extra) \"appGroups\": [\(groups.map { "\"\($0)\"" }.joined(separator: ", "))] }"
            }
            let text = """
                { "manifestVersion": 1,
                  "app": \(bundle("Habits", "host", app, [group], "\"executable\": \"lockstep-host\",")),
                  "embedded": [
                    \(bundle("HabitsWidget", "widget", widget, [group], "\"extensionPoint\": \"com.apple.widgetkit-extension\", \"executable\": \"lockstep-widget\",")),
                    \(bundle("HabitsWatch", "watch", "com.example.habits.watchkitapp", [group], "\"companionAppBundleIdentifier\": \"com.example.habits\", \"executable\": \"lockstep-watch\",")),
                    \(bundle("HabitsShare", "extension", rogue, [], "\"extensionPoint\": \"com.apple.share-services\", \"executable\": \"lockstep-probe\","))
                  ] }
                """
            try text.write(toFile: manifest, atomically: true, encoding: .utf8)
        }

        var groups: GroupsRoot { GroupsRoot(path: url.path) }

        func lockstep(_ arguments: [String], stdin: Data? = nil, environment: [String: String] = [:]) throws -> ProcessResult {
            try run("lockstep", arguments + ["--groups", url.path, "--manifest", manifest], environment: environment, stdin: stdin)
        }

        func child(_ arguments: [String], environment: [String: String] = [:]) throws -> Child {
            try Child("lockstep", arguments + ["--groups", url.path, "--manifest", manifest], environment: environment)
        }

        func defaults(as bundle: String, _ arguments: String...) throws -> ProcessResult {
            try lockstep(["defaults", "--as", bundle] + arguments)
        }

        func sandbox(_ bundle: String = app) throws -> Sandbox {
            try Sandbox(root: groups, identity: ProcessIdentity(bundleIdentifier: bundle, appGroups: [group]))
        }

        func cleanUp() { TestSupport.cleanUp(url) }
    }

    @Test func entitledBundlesSeeEachOthersWrites() throws {
        let root = try Root(); defer { root.cleanUp() }
        #expect(try root.defaults(as: Self.app, "write", Self.group, "habit.name", "Meditate").status == 0)
        let read = try root.defaults(as: Self.widget, "read", Self.group, "habit.name")
        #expect(read.status == 0 && read.stdout == "Meditate\n", "\(read)")
        #expect(try root.defaults(as: Self.widget, "write", Self.group, "streak", "7", "-int").status == 0)
        #expect(try root.defaults(as: Self.app, "read", Self.group, "streak").stdout == "7\n")
        // The plist is the documented truth once the writers have exited.
        let plist = try #require(PropertyList.decodeDictionary(Data(contentsOf: root.url.appendingPathComponent("phone/AppGroup/\(Self.group)/Library/Preferences/\(Self.group).plist"))))
        #expect(plist["habit.name"] as? String == "Meditate")
        #expect(plist["streak"] as? Int == 7)
    }

    /// Arrays and dictionaries print as XML plists (a statically linked `lockstep` once failed here: Foundation
    /// could not bridge the array; `make test-static` runs this against static executables).
    @Test func readPrintsArraysAndDictionariesAsXML() throws {
        let root = try Root(); defer { root.cleanUp() }
        let defaults = try #require(try GroupDefaults(suiteName: Self.group, sandbox: root.sandbox()))
        try defaults.set(["Meditate", "Read"], forKey: "habits")
        try defaults.set(["streak": 3, "days": [true, false]] as [String: Any], forKey: "stats")
        let header = """
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
            <plist version="1.0">

            """
        let array = "\t<array>\n\t\t<string>Meditate</string>\n\t\t<string>Read</string>\n\t</array>\n"
        let one = try root.defaults(as: Self.widget, "read", Self.group, "habits")
        #expect(one.status == 0 && one.stdout == header + "<dict>\n\t<key>value</key>\n\(array)</dict>\n</plist>\n", "\(one)")
        let habits = "\t<key>habits</key>\n" + array
        let stats = "\t<key>stats</key>\n\t<dict>\n\t\t<key>days</key>\n\t\t<array>\n\t\t\t<true/>\n\t\t\t<false/>\n\t\t</array>\n"
            + "\t\t<key>streak</key>\n\t\t<integer>3</integer>\n\t</dict>\n"
        let all = try root.defaults(as: Self.widget, "read", Self.group)
        #expect(all.status == 0 && all.stdout == header + "<dict>\n\(habits)\(stats)</dict>\n</plist>\n", "\(all)")
    }

    @Test func anUnentitledBundleFallsBackSilentlyAndSeesNothing() throws {
        let root = try Root(); defer { root.cleanUp() }
        #expect(try root.defaults(as: Self.app, "write", Self.group, "k", "shared").status == 0)
        let read = try root.defaults(as: Self.rogue, "read", Self.group, "k")
        #expect(read.status == 1, "\(read)")
        #expect(read.stderr.contains("com.apple.security.application-groups"))
        #expect(read.stderr.contains("[group.defaults-fallback]"))
        #expect(read.stderr.contains("Using kCFPreferencesAnyUser with a container is only allowed for System Containers, detaching from cfprefsd"))
        let write = try root.defaults(as: Self.rogue, "write", Self.group, "k", "private")
        #expect(write.status == 0, "\(write)")
        #expect(try root.defaults(as: Self.app, "read", Self.group, "k").stdout == "shared\n")
        #expect(try root.defaults(as: Self.rogue, "read", Self.group, "k").stdout == "private\n")
        let container = try root.lockstep(["container", "--as", Self.rogue, Self.group])
        #expect(container.status == 77, "\(container)")
        #expect(container.stderr.contains(Self.rogue) && container.stderr.contains(Self.group))
    }

    @Test func eightProcessesIncrementingLoseNothing() throws {
        let root = try Root(); defer { root.cleanUp() }
        let perProcess = ProcessInfo.processInfo.environment["LOCKSTEP_STRESS"] == nil ? 500 : 5_000
        let children = try (0..<8).map { index in
            try root.child(["defaults", "--as", index % 2 == 0 ? Self.app : Self.widget, "increment", Self.group, "count", "--repeat", "\(perProcess)"])
        }
        for child in children {
            let result = child.wait(timeout: 120)
            #expect(result.status == 0, "\(result)")
        }
        #expect(try root.defaults(as: Self.widget, "read", Self.group, "count").stdout == "\(8 * perProcess)\n")
    }

    @Test func aReaderNeverSeesATornFile() throws {
        let root = try Root(); defer { root.cleanUp() }
        let content = Data((0..<20_000).map { "line \($0)\n" }.joined().utf8)
        let files = CoordinatedFiles(container: try root.sandbox().requireGroupContainer(Self.group))
        try files.write(content, to: "state.txt")
        let writer = try Child("lockstep", ["container", "--as", Self.app, Self.group, "--write", "state.txt", "--repeat", "1000", "--groups", root.url.path, "--manifest", root.manifest], stdin: content)
        // Read without pause while the other process replaces the file; every read must be the whole file. Every
        // other read skips the lock: the atomic rename alone must keep readers from a torn file.
        let path = try files.container.resolve("state.txt")
        var reads = 0
        var running = true
        while running {
            running = writer.process.isRunning
            let data = try #require(reads % 2 == 0 ? try files.read("state.txt") : FileManager.default.contents(atPath: path))
            // A Bool, not `data == content`: on failure the test library would diff 200 KB element by element.
            let whole = data == content
            #expect(whole, "a torn read: \(data.count) of \(content.count) bytes")
            if !whole { break }
            reads += 1
        }
        #expect(writer.wait().status == 0)
        #expect(reads > 0)
    }

    @Test func aKilledLockHolderReleasesTheLockAndLeavesTheSuiteIntact() throws {
        let root = try Root(); defer { root.cleanUp() }
        let lockPath = root.url.appendingPathComponent("phone/AppGroup/\(Self.group)/.lockstep/defaults/\(Self.group).lock").path
        let holder = try root.child(["defaults", "--as", Self.app, "increment", Self.group, "count", "--repeat", "100000000"])
        // Let it write for a while (bounded wait on its journal), so the kill lands in the middle of its loop.
        let journal = root.url.appendingPathComponent("phone/AppGroup/\(Self.group)/.lockstep/defaults/\(Self.group).journal").path
        let deadline = Date(timeIntervalSinceNow: 30)
        while ((try? FileManager.default.attributesOfItem(atPath: journal)[.size] as? Int) ?? 0) < 1_000, Date() < deadline {
            usleep(1_000)
        }
        // Catch the writer while it holds the suite lock: stop it, check that the lock is taken, else let it run on.
        let probe = try FileLock(path: lockPath)
        var caughtHolding = false
        for _ in 0..<2_000 where !caughtHolding {
            holder.signal(SIGSTOP)
            #expect(waitUntilStopped(holder.pid))
            if try probe.tryLock(.exclusive) {
                try probe.unlock()
                holder.signal(SIGCONT)
                usleep(200)
            } else {
                caughtHolding = true
            }
        }
        #expect(caughtHolding)
        holder.signal(SIGKILL)
        #expect(holder.wait().status == 128 + SIGKILL)
        // The kernel released the dead holder's lock: it is free at once, and the suite reads and writes on.
        #expect(try probe.tryLock(.exclusive))
        try probe.unlock()
        let before = try root.defaults(as: Self.widget, "read", Self.group, "count")
        #expect(before.status == 0, "\(before)")
        let value = try #require(Int(before.stdout.trimmingCharacters(in: .whitespacesAndNewlines)))
        let after = try root.lockstep(["defaults", "--as", Self.widget, "increment", Self.group, "count"], environment: ["LOCKSTEP_LOCK_TIMEOUT": "10"])
        #expect(after.status == 0, "\(after)")
        #expect(after.stdout == "\(value + 1)\n")
    }

    /// Waits (bounded) until /proc says the process is stopped.
    private func waitUntilStopped(_ pid: Int32) -> Bool {
        for _ in 0..<10_000 {
            guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
                  let close = stat.lastIndex(of: ")") else { return false }
            let state = stat[stat.index(close, offsetBy: 2)]
            if state == "T" || state == "t" { return true }
            usleep(100)
        }
        return false
    }

    @Test func anObserverInAnotherProcessSeesADefaultsWrite() throws {
        let root = try Root(); defer { root.cleanUp() }
        let defaults = try #require(try GroupDefaults(suiteName: Self.group, sandbox: root.sandbox()))
        let seen = LineCollector()
        let arrived = DispatchSemaphore(value: 0)
        let observation = try defaults.observe { changes in
            for change in changes { seen.append("\(change.key)=\(change.value.map { "\($0)" } ?? "nil")") }
            arrived.signal()
        }
        defer { observation.cancel() }
        try defaults.set("mine", forKey: "own.key")  // this process's own change is not reported
        #expect(try root.defaults(as: Self.widget, "write", Self.group, "widget.last.reload", "now").status == 0)
        #expect(arrived.wait(timeout: .now() + 20) == .success)
        #expect(seen.text == "widget.last.reload=now")
    }

    @Test(arguments: [false, true])
    func notificationsReachOtherProcessesOnTheSameDeviceOnly(polling: Bool) throws {
        let root = try Root(); defer { root.cleanUp() }
        let environment = polling ? ["LOCKSTEP_WATCH": "poll"] : [:]
        // --after 0: the waiter catches up even if the post lands before it starts watching.
        let waiter = try root.child(["notify", "--as", Self.widget, "wait", "habits.changed", "--after", "0", "--timeout", "30"], environment: environment)
        let watch = try root.child(["notify", "--as", "com.example.habits.watchkitapp", "wait", "habits.changed", "--after", "0", "--timeout", "0.5"], environment: environment)
        #expect(try root.lockstep(["notify", "--as", Self.app, "post", "habits.changed"]).stdout == "1\n")
        let result = waiter.wait()
        #expect(result.status == 0 && result.stdout == "1\n", "\(result)")
        #expect(watch.wait().status == 1)
    }

    @Test func badInputIsRefusedWithNothingWritten() throws {
        let root = try Root(); defer { root.cleanUp() }
        let preferences = root.url.appendingPathComponent("phone/AppGroup/\(Self.group)/Library/Preferences")
        // A FIFO another process planted: reading it would block forever.
        #expect(mkfifo(try root.sandbox().requireGroupContainer(Self.group).path + "/planted", 0o600) == 0)
        let cases: [([String], Int32, String)] = [
            (["defaults", "--as", Self.app, "write", Self.group, "n", "abc", "-int"], 2, "'n'"),
            (["defaults", "--as", Self.app, "write", Self.group, "b", "maybe", "-bool"], 2, "'b'"),
            (["defaults", "--as", "com.example.nobody", "read", Self.group], 2, "com.example.nobody"),
            (["defaults", "--as", Self.app, "read", "../escape"], 2, "../escape"),
            (["defaults", "--as", Self.app, "read", Self.app], 2, "group.defaults-suite-name"),
            (["container", "--as", Self.app, "com.example.habits"], 2, "group.id-format"),
            (["container", "--as", Self.app, "group.x/../../etc"], 2, "group.x/../../etc"),
            (["container", "--as", Self.app, Self.group, "--write", "../outside"], 2, "../outside"),
            (["container", "--as", Self.app, Self.group, "--write", "/etc/x"], 2, "/etc/x"),
            (["notify", "--as", Self.app, "post", "../x"], 2, "../x"),
            (["defaults", "--as", Self.app, "frobnicate", Self.group], 64, "frobnicate"),
            (["notify", "--as", Self.app, "post", "n", "--after", "1"], 64, "'wait' only"),
            (["container", "--as", Self.app, Self.group, "--read", "a", "--write", "b"], 64, "not both"),
            (["container", "--as", Self.app, Self.group, "--read", "Library"], 2, "'Library'"),
            (["container", "--as", Self.app, Self.group, "--write", "Library/Caches"], 2, "'Library/Caches'"),
            (["container", "--as", Self.app, Self.group, "--read", "."], 2, "'.'"),
            (["container", "--as", Self.app, Self.group, "--read", "planted"], 2, "a FIFO"),
        ]
        for (arguments, status, culprit) in cases {
            let result = try root.lockstep(arguments, stdin: Data("x".utf8))
            #expect(result.status == status, "\(arguments): \(result)")
            #expect(result.stderr.contains(culprit), "\(arguments): \(result)")
            #expect(result.stderr.split(separator: "\n").count == 1, "\(arguments): \(result)")
        }
        let plist = preferences.appendingPathComponent("\(Self.group).plist").path
        #expect(!FileManager.default.fileExists(atPath: plist))
        #expect(!FileManager.default.fileExists(atPath: root.url.appendingPathComponent("phone/AppGroup/outside").path))
    }

    /// `--` ends the options, so a value may start with a dash (even `--help`), and a refusal names its verb.
    @Test func doubleDashEndsTheOptionsAndErrorsNameTheVerb() throws {
        let root = try Root(); defer { root.cleanUp() }
        let options = ["--as", Self.app, "--groups", root.url.path, "--manifest", root.manifest]
        let write = try run("lockstep", ["defaults"] + options + ["write", Self.group, "k", "--", "--help"])
        #expect(write.status == 0, "\(write)")
        #expect(write.stdout == "")
        let read = try run("lockstep", ["defaults"] + options + ["read", Self.group, "k"])
        #expect(read.stdout == "--help\n", "\(read)")
        let refused = try root.lockstep(["container", "--as", Self.rogue, Self.group])
        #expect(refused.status == 77)
        #expect(refused.stderr.hasPrefix("lockstep container: '\(Self.rogue)' (App Groups: none) is not entitled"), "\(refused)")
    }

    @Test func aMalformedSuitePlistIsReportedByReadAndWriteAndNeverOverwritten() throws {
        let root = try Root(); defer { root.cleanUp() }
        let container = try root.sandbox().requireGroupContainer(Self.group)
        let plist = "\(container.preferencesPath)/\(Self.group).plist"
        let garbage = Data("<plist><dict><key>oops".utf8)
        try garbage.write(to: URL(fileURLWithPath: plist))
        for arguments in [["read", Self.group], ["read", Self.group, "k"], ["write", Self.group, "k", "v"], ["increment", Self.group, "n"]] {
            let result = try root.lockstep(["defaults", "--as", Self.app] + arguments)
            #expect(result.status == 2, "\(arguments): \(result)")
            #expect(result.stderr.contains(plist), "\(arguments): \(result)")
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: plist)) == garbage)
    }
}
