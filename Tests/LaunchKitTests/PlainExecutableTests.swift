import Foundation
import LockstepTestSupport
import Testing

/// A plain executable (no Lockstep entry point: `lockstep-plain`) launched by `lockstep run` as a bundle of a
/// manifest is that bundle from its first call: its shared defaults, group container, Info.plist and log lines
/// (rule `group.entitlement`, `group.defaults-fallback`, `runtime.version-parity`).
struct PlainDevice {
    let directory = TestSupport.temporaryDirectory("plain")
    var groups: String { directory.appendingPathComponent("groups").path }
    var manifest: String { directory.appendingPathComponent("manifest.json").path }

    init(widgetBuild: String = "1") throws {
        try """
        <?xml version="1.0" encoding="UTF-8"?>
        <plist version="1.0"><dict>
          <key>AppGroupIdentifier</key><string>group.com.example.plain</string>
          <key>ServerURL</key><string>https://from-the-plist.example</string>
          <key>CFBundleShortVersionString</key><string>9.9</string>
          <key>Ratio</key><real>3.0</real>
          <key>Enabled</key><true/>
        </dict></plist>
        """.write(toFile: directory.appendingPathComponent("App-Info.plist").path, atomically: true, encoding: .utf8)
        // String catalogs as Xcode writes them: an interpolated key with its format specifier, a positional value.
        try """
        { "sourceLanguage": "en", "version": "1.0", "strings": {
            "%lld habits left": { "comment": "How many habits are not done today.", "localizations": {
              "en": { "stringUnit": { "state": "translated", "value": "%1$lld habits still to do" } } } } } }
        """.write(toFile: directory.appendingPathComponent("Localizable.xcstrings").path, atomically: true, encoding: .utf8)
        try """
        { "sourceLanguage": "en", "version": "1.0", "strings": {
            "greeting": { "localizations": { "en": { "stringUnit": { "state": "translated", "value": "Welcome back, %@." } } } } } }
        """.write(toFile: directory.appendingPathComponent("Extra.xcstrings").path, atomically: true, encoding: .utf8)
        // `.strings` tables in two languages, the other one listed first: the device (English) reads en.lproj.
        for (language, text) in [("ar", "%1$lld متبقية"), ("en", "%1$lld to go")] {
            let folder = directory.appendingPathComponent("\(language).lproj")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try "\"%lld habits left\" = \"\(text)\";\n".write(to: folder.appendingPathComponent("Localizable.strings"), atomically: true, encoding: .utf8)
        }
        try """
        { "manifestVersion": 1,
          "app": { "name": "Plain", "bundleIdentifier": "com.example.plain", "shortVersion": "1.0", "buildVersion": "1",
                   "infoPlist": "App-Info.plist", "info": { "ServerURL": "https://inline.example", "Retries": 3 },
                   "executable": "lockstep-plain", "appGroups": ["group.com.example.plain"],
                   "resources": ["Localizable.xcstrings", "Extra.xcstrings"] },
          "embedded": [
            { "name": "PlainWidget", "role": "widget", "bundleIdentifier": "com.example.plain.widget",
              "extensionPoint": "com.apple.widgetkit-extension", "shortVersion": "1.0", "buildVersion": "\(widgetBuild)",
              "executable": "lockstep-plain", "appGroups": ["group.com.example.plain"] },
            { "name": "PlainShare", "role": "share", "bundleIdentifier": "com.example.plain.share",
              "extensionPoint": "com.apple.share-services", "shortVersion": "1.0", "buildVersion": "1",
              "executable": "lockstep-plain", "appGroups": [], "resources": ["ar.lproj", "en.lproj"] }
          ] }
        """.write(toFile: manifest, atomically: true, encoding: .utf8)
    }

    func run(_ bundle: String, _ arguments: String...) throws -> ProcessResult {
        try LockstepTestSupport.run("lockstep", ["run", "--manifest", manifest, "--groups", groups, bundle, "--"] + arguments)
    }

    func cleanUp() { TestSupport.cleanUp(directory) }
}

@Suite struct PlainExecutableTests {
    @Test func writesThroughTheGroupAndAnotherBundlesProcessReadsIt() throws {
        let device = try PlainDevice()
        defer { device.cleanUp() }
        let wrote = try device.run("host", "write", "group.com.example.plain", "greeting", "hello")
        #expect(wrote.status == 0 && wrote.stdout == "wrote greeting\n", "\(wrote)")
        let read = try device.run("widget", "read", "group.com.example.plain", "greeting")
        #expect(read.stdout == "read hello\n", "\(read)")
        // Not entitled to the group: a private suite (rule `group.defaults-fallback`), and no container.
        let other = try device.run("share", "read", "group.com.example.plain", "greeting")
        #expect(other.stdout == "read nil\n", "\(other)")

        let put = try device.run("host", "put-file", "group.com.example.plain", "note.txt", "from the app")
        #expect(put.status == 0, "\(put)")
        let got = try device.run("com.example.plain.widget", "get-file", "group.com.example.plain", "note.txt")
        #expect(got.stdout == "got from the app\n", "\(got)")
        let refused = try device.run("share", "get-file", "group.com.example.plain", "note.txt")
        #expect(refused.status == 1 && refused.stdout == "no container\n", "\(refused)")
        // The file is in the group's container on disk, where every entitled process finds it.
        #expect(FileManager.default.fileExists(atPath: "\(device.groups)/phone/Shared/AppGroup/group.com.example.plain/note.txt")
                || (try? FileManager.default.subpathsOfDirectory(atPath: device.groups))?.contains { $0.hasSuffix("group.com.example.plain/note.txt") } == true)
    }

    /// Issue 45, item 5: `String(localized:)` with an interpolation looks up Xcode's key (`%lld habits left`) in the
    /// bundle's catalog and puts the value in; a key no catalog has is its own text; `value(forKey:)` and
    /// `setValue(_:forKey:)` are the suite's.
    @Test func localizedStringsAndKeyValueCodingAreTheBundles() throws {
        let device = try PlainDevice()
        defer { device.cleanUp() }
        let localized = try device.run("host", "localized", "3")
        #expect(localized.stdout == "3 habits still to do\nWelcome back, 3.\nNot in any catalog: 3%\n", "\(localized)")
        // The widget has no catalogs: each text is the key's own.
        let plain = try device.run("widget", "localized", "2")
        #expect(plain.stdout == "2 habits left\nHello, 2!\nNot in any catalog: 2%\n", "\(plain)")
        // The share extension's tables are in two languages: the device's English one is read, never the first listed.
        let english = try device.run("share", "localized", "2")
        #expect(english.stdout == "2 to go\nHello, 2!\nNot in any catalog: 2%\n", "\(english)")
        let kvc = try device.run("host", "kvc", "group.com.example.plain", "mode", "dark")
        #expect(kvc.stdout == "kvc dark\n", "\(kvc)")
        #expect(try device.run("widget", "read", "group.com.example.plain", "mode").stdout == "read dark\n")
    }

    @Test func infoPlistKeysComeFromTheManifest() throws {
        let device = try PlainDevice()
        defer { device.cleanUp() }
        let group = try device.run("host", "info", "AppGroupIdentifier")
        #expect(group.stdout == "info com.example.plain AppGroupIdentifier=group.com.example.plain\n", "\(group)")
        // The inline `info` key wins over the plist's; the manifest's own fields win over both.
        #expect(try device.run("host", "info", "ServerURL").stdout == "info com.example.plain ServerURL=https://inline.example\n")
        #expect(try device.run("host", "info", "Retries").stdout == "info com.example.plain Retries=3\n")
        // Types survive the trip through installed.json: a <real> stays a Double, <true/> a Bool.
        #expect(try device.run("host", "info", "Ratio").stdout == "info com.example.plain Ratio=3.0\n")
        #expect(try device.run("host", "info", "Enabled").stdout == "info com.example.plain Enabled=true\n")
        #expect(try device.run("host", "info", "CFBundleShortVersionString").stdout == "info com.example.plain CFBundleShortVersionString=1.0\n")
        // Each bundle reads its own Info.plist, though all three run the same executable.
        let widget = try device.run("widget", "info", "AppGroupIdentifier")
        #expect(widget.stdout == "info com.example.plain.widget AppGroupIdentifier=nil\n", "\(widget)")
        #expect(try device.run("widget", "info", "CFBundleVersion").stdout == "info com.example.plain.widget CFBundleVersion=1\n")
    }

    @Test func theVersionGateStopsAPlainExecutable() throws {
        let device = try PlainDevice(widgetBuild: "2")
        defer { device.cleanUp() }
        let result = try device.run("widget", "read", "group.com.example.plain", "greeting")
        #expect(result.status == 78, "\(result)")
        #expect(result.stdout.isEmpty, "\(result)")
        #expect(result.stderr.contains("version.build-mismatch") || result.stderr.contains("refuses to start"), "\(result)")
    }

    @Test func logLinesReachStderrWithSubsystemCategoryAndLevel() throws {
        let device = try PlainDevice()
        defer { device.cleanUp() }
        let result = try device.run("host", "log")
        #expect(result.status == 0 && result.stdout == "logged\n", "\(result)")
        let lines = result.stderr.split(separator: "\n").map(String.init)
        #expect(lines.contains("[com.example.plain:probe] Default: synced 3 habits for <private> and Walk"), "\(result)")
        #expect(lines.contains { $0.hasPrefix("[com.example.plain:probe] Error: failed: <mask.hash: '") && !$0.contains("Walk") }, "\(result)")
        #expect(lines.contains("[com.example.plain:probe] Debug: debug true"), "\(result)")
        #expect(lines.contains("[com.example.plain:legacy] Info: os_log Walk <private> 7"), "\(result)")
    }

    /// `lockstep up` shows a bundle's log lines under its prefix, as a device's console shows them under the process.
    @Test func upShowsLogLinesUnderTheBundlesPrefix() throws {
        let device = try PlainDevice()
        defer { device.cleanUp() }
        let scenario = device.directory.appendingPathComponent("logs.txt").path
        try "== log lines under the prefix\nsend host log\nwait host logged\n".write(toFile: scenario, atomically: true, encoding: .utf8)
        let result = try LockstepTestSupport.run("lockstep", ["up", "--manifest", device.manifest, "--groups", device.groups,
                                                              "--scenario", scenario, "--no-color"])
        #expect(result.status == 0, "\(result)")
        let output = result.stdout + result.stderr
        #expect(output.contains("host     | [com.example.plain:probe] Default: synced 3 habits for <private> and Walk\n"), "\(result)")
        #expect(output.contains("host     | [com.example.plain:legacy] Info: os_log Walk <private> 7\n"), "\(result)")
    }

    /// What the app schedules the system keeps for the app: another process of the app sees the same pending requests
    /// and categories; an attachment must be a file in the process's own containers, as iOS requires.
    @Test func notificationsTheAppSchedulesAreTheSystemsAcrossProcesses() throws {
        let device = try PlainDevice()
        defer { device.cleanUp() }
        let added = try device.run("host", "notify-add", "walk", "Time to walk")
        #expect(added.stdout == "scheduled walk (allowed)\n", "\(added)")
        let pending = try device.run("widget", "notify-pending")
        #expect(pending.stdout == "pending walk: Time to walk every 3600 s, category REMINDER\ncategories REMINDER(DONE)\nstatus authorized\n", "\(pending)")

        #expect(try device.run("host", "put-file", "group.com.example.plain", "walk.png", "png").status == 0)
        let inside = try device.run("host", "attach", "group.com.example.plain", "walk.png")
        #expect(inside.stdout == "attached walk.png\n", "\(inside)")
        let outsidePath = device.directory.appendingPathComponent("outside.png").path
        try Data("png".utf8).write(to: URL(fileURLWithPath: outsidePath))
        let outside = try device.run("host", "attach", outsidePath)
        #expect(outside.stdout.hasPrefix("refused: The attachment \(outsidePath) is outside com.example.plain's containers"), "\(outside)")
        // Its temporary folder is inside its container, as on iOS.
        let temporary = try device.run("host", "attach", "temp", "download.png")
        #expect(temporary.stdout == "attached download.png\n", "\(temporary)")
        let missing = try device.run("host", "attach", "group.com.example.plain", "gone.png")
        #expect(missing.stdout.hasPrefix("refused: The attachment file"), "\(missing)")
    }
}
