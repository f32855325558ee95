import BundleKit
import CheckKit
import Foundation
import LockstepTestSupport
import Testing

/// What `check` writes and how it reads a team's config and baseline, through the built executable: each case of
/// the third reliability round's "Writers, config and baseline" (issue 27), written from its description.
/// Each test has a fresh folder of its own, `dir`, removed when it ends.
@Suite final class CheckOutputTests {
    let dir = TestSupport.temporaryDirectory()

    deinit { TestSupport.cleanUp(dir) }

    /// An XcodeGen spec of an app and a widget in `dir`, whose widget sets its own build number `widgetBuild`
    /// (a target-level override and, when it differs from the app's `1`, a mismatch).
    static func spec(in dir: URL, name: String = "project.yml", appIdentifier: String = "com.example.app",
                     widgetBuild: String = "2") throws -> String {
        let plist = { (extra: String) in
            """
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0"><dict>
            <key>CFBundleIdentifier</key><string>$(PRODUCT_BUNDLE_IDENTIFIER)</string>
            <key>CFBundleDisplayName</key><string>D</string>
            <key>CFBundleShortVersionString</key><string>$(MARKETING_VERSION)</string>
            <key>CFBundleVersion</key><string>$(CURRENT_PROJECT_VERSION)</string>
            \(extra)
            </dict></plist>
            """
        }
        try plist("").write(to: dir.appendingPathComponent("App.plist"), atomically: true, encoding: .utf8)
        try plist("<key>NSExtension</key><dict><key>NSExtensionPointIdentifier</key><string>com.apple.widgetkit-extension</string></dict>")
            .write(to: dir.appendingPathComponent("Widget.plist"), atomically: true, encoding: .utf8)
        let text = """
            name: Sample
            settings:
              MARKETING_VERSION: "3.1"
            targets:
              App:
                type: application
                platform: iOS
                dependencies: [{target: Widget}]
                settings:
                  PRODUCT_BUNDLE_IDENTIFIER: \(appIdentifier)
                  INFOPLIST_FILE: App.plist
                  CURRENT_PROJECT_VERSION: "1"
              Widget:
                type: app-extension
                platform: iOS
                settings:
                  PRODUCT_BUNDLE_IDENTIFIER: \(appIdentifier).widget
                  INFOPLIST_FILE: Widget.plist
                  CURRENT_PROJECT_VERSION: "\(widgetBuild)"

            """
        let path = dir.appendingPathComponent(name).path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    static func write(_ text: String, _ name: String, in dir: URL) throws -> String {
        let path = dir.appendingPathComponent(name).path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    // MARK: - Writers

    /// `--write-baseline` through a symlink replaces the link's target and keeps the link.
    @Test func writeBaselineWritesThroughASymlink() throws {
        let spec = try Self.spec(in: dir)
        let target = try Self.write("old\n", "target.json", in: dir)
        let link = dir.appendingPathComponent("link.json").path
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "target.json")
        let result = try run("lockstep", ["check", spec, "--write-baseline", link])
        #expect(result.status == 0, "\(result)")
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link) == "target.json")
        let written = try String(contentsOfFile: target, encoding: .utf8)
        #expect(written.contains("\"fingerprintVersion\" : 2"), "\(written)")
        // The baseline read back through the link knows today's findings.
        #expect(try run("lockstep", ["check", spec, "--baseline", link]).status == 0)
    }

    /// A FIFO or a folder where the baseline goes: exit 2, one sentence, nothing written, the FIFO still a FIFO.
    @Test func writeBaselineRefusesWhatIsNotARegularFile() throws {
        let spec = try Self.spec(in: dir)
        let pipe = dir.appendingPathComponent("pipe.json").path
        #expect(try run("/usr/bin/mkfifo", [pipe]).status == 0)
        let folder = dir.appendingPathComponent("folder.json").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
        for (path, kind) in [(pipe, "a named pipe (FIFO)"), (folder, "a folder")] {
            let result = try run("lockstep", ["check", spec, "--write-baseline", path], timeout: 20)
            #expect(result.status == 2, "\(result)")
            #expect(result.stderr == "lockstep check: Cannot write '\(path)': it is \(kind), not a regular file; the baseline was not written.\n")
        }
        #expect(try FileManager.default.attributesOfItem(atPath: pipe)[.type] as? FileAttributeType != .typeRegular)
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.hasSuffix(".tmp") }.isEmpty)
    }

    /// A baseline that cannot be written says "write", names the file, and ends with one period.
    @Test func anUnwritableBaselineIsOneSentence() throws {
        let spec = try Self.spec(in: dir)
        let path = dir.appendingPathComponent("missing/b.json").path
        let result = try run("lockstep", ["check", spec, "--write-baseline", path])
        #expect(result.status == 2, "\(result)")
        #expect(result.stderr == "lockstep check: Cannot write '\(path)': No such file or directory; the baseline was not written.\n")
    }

    /// `lockstep bump` of a symlinked spec edits the spec the link points to; the link stays a link.
    @Test func bumpWritesThroughASymlinkedSpec() throws {
        let spec = try Self.spec(in: dir, name: "real.yml", widgetBuild: "1")
        let link = dir.appendingPathComponent("project.yml").path
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "real.yml")
        let result = try run("lockstep", ["bump", link, "--build", "7"])
        #expect(result.status == 0 || result.status == 1, "\(result)")
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link) == "real.yml")
        let text = try String(contentsOfFile: spec, encoding: .utf8)
        #expect(text.contains("CURRENT_PROJECT_VERSION: \"7\"") && !text.contains("CURRENT_PROJECT_VERSION: \"1\""), "\(text)")
    }

    // MARK: - Baselines

    /// `{"findings": [1, "x", {"fingerprint": 5}]}` is no baseline: exit 2 naming the first entry that is wrong.
    @Test(arguments: [
        (#"{"findings": [1, "x", {"fingerprint": 5}]}"#, "is not a JSON report of lockstep check (finding 0 is not an object)"),
        (#"{"fingerprintVersion": 2, "findings": [{"fingerprint": 5}]}"#, "is not a JSON report of lockstep check (the fingerprint of finding 0 is not a string)"),
        (#"{"findings": [{"rule": "x"}]}"#, "is not a JSON report of lockstep check (finding 0 has no fingerprint, nor rule, bundle and message)"),
        (#"{"finding": []}"#, "is not a JSON report of lockstep check (no 'findings' array)"),
    ])
    func aBaselineOfNonFindingsIsExitTwo(text: String, detail: String) throws {
        let spec = try Self.spec(in: dir)
        let baseline = try Self.write(text, "b.json", in: dir)
        let result = try run("lockstep", ["check", spec, "--baseline", baseline])
        #expect(result.status == 2, "\(result)")
        #expect(result.stderr == "lockstep check: The baseline '\(baseline)' \(detail).\n")
        #expect(result.stdout.isEmpty)
    }

    /// A config naming a baseline that does not exist: the baseline is called a baseline, with the config that names it.
    @Test func aMissingBaselineNamesTheConfigThatNamesIt() throws {
        let spec = try Self.spec(in: dir)
        _ = try Self.write(#"{"baseline": "gone.json"}"#, "team.json", in: dir)
        let result = try run("lockstep", ["check", spec, "--config", "team.json"], currentDirectory: dir.path)
        #expect(result.status == 2, "\(result)")
        #expect(result.stderr == "lockstep check: The baseline 'gone.json' named by 'team.json' does not exist.\n")
        let direct = try run("lockstep", ["check", spec, "--baseline", "gone.json"], currentDirectory: dir.path)
        #expect(direct.stderr == "lockstep check: The baseline 'gone.json' does not exist.\n", "\(direct)")
    }

    /// The settings.target-override message says "project's" and "target's": its fingerprint holds the setting
    /// and the two values, no prose, so new wording keeps a baseline valid.
    @Test func fingerprintsHoldValuesNotProse() throws {
        let spec = try Self.spec(in: dir)
        let result = try run("lockstep", ["check", spec, "--format", "json"])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let fingerprints = try #require(object["findings"] as? [[String: Any]]).compactMap { $0["fingerprint"] as? String }
        #expect(fingerprints.contains("settings.target-override|App.app/PlugIns/Widget.appex|CURRENT_PROJECT_VERSION|2|1"), "\(fingerprints)")
        #expect(fingerprints.contains("version.build-mismatch|App.app/PlugIns/Widget.appex|2|1"), "\(fingerprints)")
        #expect(!fingerprints.contains { $0.contains(" ") }, "\(fingerprints)")
    }

    /// Quoted values are read where a quote is a quote: not the apostrophe of "project's" or "it's".
    @Test func quotedValuesSkipApostrophes() {
        let finding = Finding(rule: "settings.unresolved", severity: .warning, bundle: "B", path: "p",
                              message: "The project's setting 'A' (it's from the target's 'B's value') is unset.")
        #expect(finding.fingerprint == "settings.unresolved|B|A|B's value")
        #expect(Finding(rule: "group.shared", severity: .note, bundle: "B", path: "p", message: "it's 'x'", values: ["v"]).fingerprint == "group.shared|B|v")
        // A checkout's folder differs on a laptop and in CI: a quoted absolute path counts by its file name.
        let local = Finding(rule: "settings.unresolved", severity: .warning, bundle: "B", path: "p", message: "It would have come from '/Users/me/src/App/Config/Local.xcconfig'.")
        let ci = Finding(rule: "settings.unresolved", severity: .warning, bundle: "B", path: "p", message: "It would have come from '/home/runner/work/App/Config/Local.xcconfig'.")
        #expect(local.fingerprint == ci.fingerprint && local.fingerprint == "settings.unresolved|B|Local.xcconfig")
        // Two missing includes of one xcconfig are two findings, told apart by the file each names in "…".
        let includes = ["AppIdentifiers", "AppVersion"].map {
            Finding(rule: "settings.unresolved", severity: .error, bundle: "B", path: "p",
                    message: "Riot/Common.xcconfig:20: #include \"Config/\($0).xcconfig\" names a file that does not exist.").fingerprint
        }
        #expect(includes == ["settings.unresolved|B|Config/AppIdentifiers.xcconfig", "settings.unresolved|B|Config/AppVersion.xcconfig"])
    }

    /// A baseline written before fingerprints were versioned still marks the same findings as known.
    @Test func anOldBaselineIsStillRead() throws {
        let spec = try Self.spec(in: dir)
        let result = try run("lockstep", ["check", spec, "--format", "json"])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        // What that version wrote: the fingerprint made from every '…' of the message, no version field.
        let old = try #require(object["findings"] as? [[String: Any]]).map { entry -> [String: Any] in
            let finding = Finding(rule: RuleID(rawValue: entry["rule"] as! String), severity: .error, bundle: entry["bundle"] as! String,
                                  path: "", message: entry["message"] as! String)
            return ["rule": entry["rule"]!, "bundle": entry["bundle"]!, "message": entry["message"]!, "fingerprint": finding.legacyFingerprint]
        }
        let baseline = dir.appendingPathComponent("old.json")
        try JSONSerialization.data(withJSONObject: ["findings": old]).write(to: baseline)
        let known = try run("lockstep", ["check", spec, "--baseline", baseline.path])
        #expect(known.status == 0, "\(known)")
        #expect(known.stdout.contains("(known from the baseline)"), "\(known)")
    }

    // MARK: - Configs

    @Test func aDuplicateKeyIsExitTwoNamingIt() throws {
        let spec = try Self.spec(in: dir)
        let config = try Self.write(#"{"disable": ["version.build-mismatch"], "strict": false, "disable": []}"#, "c.json", in: dir)
        let result = try run("lockstep", ["check", spec, "--config", config])
        #expect(result.status == 2, "\(result)")
        #expect(result.stderr == "lockstep check: The lockstep config '\(config)' is invalid: it is not valid JSON (line 1, column 58: the key 'disable' appears twice in one object).\n")
    }

    /// A wrong-typed value of a megabyte is quoted as a bounded prefix; a key with a newline stays on one line.
    @Test func configMessagesAreBoundedAndOneLine() throws {
        let spec = try Self.spec(in: dir)
        let huge = try Self.write("{\"strict\": \"\(String(repeating: "y", count: 500_000))\"}", "huge.json", in: dir)
        let big = try run("lockstep", ["check", spec, "--config", huge])
        #expect(big.status == 2 && big.stderr.utf8.count < 300, "\(big.stderr.prefix(400))")
        #expect(big.stderr.contains("'strict' has the wrong type (\"yyyy") && big.stderr.contains("… (500002 characters))"), "\(big.stderr.prefix(400))")
        let newline = try Self.write(#"{"sev\nerity": {}}"#, "nl.json", in: dir)
        let result = try run("lockstep", ["check", spec, "--config", newline])
        #expect(result.status == 2)
        #expect(result.stderr == "lockstep check: The lockstep config '\(newline)' is invalid: 'sev\\nerity' is not a key it knows (disable, severity, waivers, baseline, strict, standIns).\n")
    }

    /// A waiver names a bundle by its path or its bundle identifier; one that matches nothing is a note.
    @Test func waiversByIdentifierAndUnusedWaiversNoted() throws {
        let spec = try Self.spec(in: dir)
        let config = try Self.write("""
            {"waivers": [
              {"rule": "version.build-mismatch", "bundle": "com.example.app.widget", "reason": "ships next week"},
              {"rule": "group.shared", "bundle": "com.example.nothing", "reason": "old"}
            ]}
            """, "c.json", in: dir)
        let result = try run("lockstep", ["check", spec, "--config", config])
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout.contains("[version.build-mismatch] (waived: ships next week)"), "\(result)")
        #expect(result.stdout.contains("\(config): note: The waiver of group.shared for 'com.example.nothing' (old) matches no finding"), "\(result)")
    }

    /// An Xcode project's bundles are read once per build configuration; the summary counts each bundle once.
    @Test func theSummaryCountsBundlesAndConfigurationsApart() throws {
        let spec = try Self.spec(in: dir)
        let result = try run("lockstep", ["check", spec])
        #expect(result.stdout.hasSuffix(" in 2 bundles, 2 build configurations.\n"), "\(result)")
        let one = try run("lockstep", ["check", spec, "--configuration", "Release"])
        #expect(one.stdout.hasSuffix(" in 2 bundles.\n"), "\(one)")
    }

    // MARK: - Well-formed outputs

    /// A bundle identifier holding U+0001 and U+001B: the JUnit report holds no character XML 1.0 forbids.
    @Test func junitHoldsNoForbiddenCharacter() throws {
        let spec = try Self.spec(in: dir, appIdentifier: "com.exa\u{1}mple.\u{1B}app")
        // YAML refuses raw control characters (as libyaml does): the spec writes them as escapes in double quotes.
        let text = try String(contentsOfFile: spec, encoding: .utf8)
            .replacingOccurrences(of: "com.exa\u{1}mple.\u{1B}app.widget", with: #""com.exa\x01mple.\x1Bapp.widget""#)
            .replacingOccurrences(of: "com.exa\u{1}mple.\u{1B}app\n", with: #""com.exa\x01mple.\x1Bapp""# + "\n")
        try text.write(toFile: spec, atomically: true, encoding: .utf8)
        let result = try run("lockstep", ["check", spec, "--format", "junit"])
        #expect(result.status == 1, "\(result)")
        let forbidden = result.stdout.unicodeScalars.filter { $0.value < 0x20 && !["\t", "\n", "\r"].contains($0) }
        #expect(forbidden.isEmpty, "\(result.stdout)")
        #expect(result.stdout.contains("com.exa\\u{1}mple"), "\(result.stdout)")
        #expect(result.stdout.contains("<testsuite name=\"lockstep check\""))
        #expect(!result.stdout.contains(".md"))
        try Self.validateWithPython(result.stdout, script: "import sys, xml.dom.minidom as m; m.parseString(sys.stdin.buffer.read())",
                                    needs: "xml.dom.minidom")
    }

    /// `lockstep check .` and a one-character folder are read like any folder (Foundation's `NSString` path methods
    /// trapped on a one-character path on Linux): one sentence, exit 2, nothing on stdout.
    @Test func aOneCharacterFolderGetsASentenceNotACrash() throws {
        try FileManager.default.createDirectory(at: dir.appendingPathComponent("a"), withIntermediateDirectories: true)
        for (path, folder) in [(".", dir.path), ("a", dir.path), ("a/", dir.path), (".", dir.path + "/a")] {
            let result = try run("lockstep", ["check", path], currentDirectory: folder)
            #expect(result.status == 2, "\(path) in \(folder): \(result)")
            #expect(result.stdout.isEmpty)
            #expect(result.stderr.contains("is not something lockstep check reads: the folder holds no .app bundle"), "\(result.stderr)")
        }
    }

    /// A project in a folder with a space: SARIF URIs are percent-encoded and every URI is a URI reference.
    @Test func sarifURIsAreEncoded() throws {
        let folder = dir.appendingPathComponent("My App [é]")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        _ = try Self.spec(in: folder)
        let result = try run("lockstep", ["check", "My App [é]/project.yml", "--format", "sarif"], currentDirectory: dir.path)
        let log = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let runs = try #require(log["runs"] as? [[String: Any]])
        let results = try #require(runs.first?["results"] as? [[String: Any]])
        #expect(!results.isEmpty)
        for entry in results {
            let location = try #require((entry["locations"] as? [[String: Any]])?.first?["physicalLocation"] as? [String: Any])
            let artifact = try #require(location["artifactLocation"] as? [String: String])
            #expect(artifact["uri"]?.hasPrefix("My%20App%20%5B%C3%A9%5D/") == true, "\(artifact)")
            #expect(artifact["uriBaseId"] == "%SRCROOT%")
        }
        let base = try #require((runs.first?["originalUriBaseIds"] as? [String: [String: String]])?["%SRCROOT%"]?["uri"])
        #expect(base.hasPrefix("file:///") && base.hasSuffix("/") && !base.contains(" "), "\(base)")
        try Self.validateSARIF(result.stdout)
    }

    /// A finding about an entry of an .ipa points at the .ipa (a URI relative to %SRCROOT%, no scheme) and names
    /// the entry as a logical location and in the message.
    @Test func sarifPointsAnIPAEntryAtTheIPA() throws {
        let files = Fixtures.builtApp { $0["X.app/PlugIns/Widget.appex"]?["CFBundleVersion"] = "7" }
        try Data(Fixtures.zip(files.map { ("Payload/" + $0.0, $0.1) })).write(to: dir.appendingPathComponent("App.ipa"))
        let result = try run("lockstep", ["check", "App.ipa", "--format", "sarif"], currentDirectory: dir.path)
        #expect(result.status == 1, "\(result)")
        let log = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let results = try #require((log["runs"] as? [[String: Any]])?.first?["results"] as? [[String: Any]])
        let mismatch = try #require(results.first { $0["ruleId"] as? String == "version.build-mismatch" })
        let location = try #require((mismatch["locations"] as? [[String: Any]])?.first)
        let artifact = (location["physicalLocation"] as? [String: Any])?["artifactLocation"] as? [String: String]
        #expect(artifact == ["uri": "App.ipa", "uriBaseId": "%SRCROOT%"])
        let logical = (location["logicalLocations"] as? [[String: String]])?.first
        #expect(logical?["fullyQualifiedName"] == "Payload/X.app/PlugIns/Widget.appex/Info.plist")
        let text = try #require((mismatch["message"] as? [String: String])?["text"])
        #expect(text.hasSuffix("(Payload/X.app/PlugIns/Widget.appex/Info.plist in App.ipa)"), "\(text)")
        try Self.validateSARIF(result.stdout)
    }

    /// Runs hostile-3's schema validator (SARIF 2.1.0, with format checks) when python3, jsonschema and
    /// rfc3986-validator are installed; otherwise records that it was skipped.
    static func validateSARIF(_ text: String) throws {
        let folder = "/work/shared/hostile-3"
        guard FileManager.default.fileExists(atPath: "\(folder)/validate-sarif.py") else {
            print("SARIF schema validation skipped: \(folder)/validate-sarif.py is not on this machine")
            return
        }
        try validateWithPython(text, script: """
            import sys, json, tempfile, subprocess
            with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f: f.write(sys.stdin.read())
            out = subprocess.run([sys.executable, "\(folder)/validate-sarif.py", f.name], capture_output=True, text=True).stdout
            print(out); sys.exit(0 if out.strip() == "valid" else 1)
            """, needs: "jsonschema, rfc3986_validator")
    }

    /// Runs `script` with `text` on stdin; skipped (and said so) without python3 or the modules it `needs`.
    static func validateWithPython(_ text: String, script: String, needs modules: String) throws {
        // The python3 first on PATH (a pyenv or venv one holds the modules pip installed).
        guard try run("/usr/bin/env", ["python3", "-c", "import \(modules)"]).status == 0 else {
            print("validation skipped: no python3 with \(modules) on PATH")
            return
        }
        let result = try run("/usr/bin/env", ["python3", "-c", script], stdin: Data(text.utf8))
        #expect(result.status == 0, "\(result)")
    }
}

/// A path or target name holding a newline (git stores such names) never splits a report line: the text and JUnit
/// reports write it as `\u{A}`, so no line of theirs starts a CI runner's workflow command (security-4).
@Suite struct ReportLineTests {
    @Test(arguments: ["text", "junit"])
    func aNewlineInANameStaysOnItsLine(format: String) throws {
        let dir = TestSupport.temporaryDirectory("newline-name")
        defer { TestSupport.cleanUp(dir) }
        let name = "W\\n::error file=README.md,line=1::planted"
        let plist = #"<?xml version="1.0" encoding="UTF-8"?><plist version="1.0"><dict><key>CFBundleIdentifier</key><string>$(PRODUCT_BUNDLE_IDENTIFIER)</string><key>CFBundleShortVersionString</key><string>$(MARKETING_VERSION)</string><key>CFBundleVersion</key><string>$(CURRENT_PROJECT_VERSION)</string>EXTRA</dict></plist>"#
        try plist.replacingOccurrences(of: "EXTRA", with: "").write(to: dir.appendingPathComponent("App-Info.plist"), atomically: true, encoding: .utf8)
        try plist.replacingOccurrences(of: "EXTRA", with: "<key>NSExtension</key><dict><key>NSExtensionPointIdentifier</key><string>com.apple.widgetkit-extension</string></dict>")
            .write(to: dir.appendingPathComponent("Widget-Info.plist"), atomically: true, encoding: .utf8)
        try """
            name: P
            targets:
              App:
                type: application
                platform: iOS
                dependencies: [{target: "\(name)"}]
                settings: {PRODUCT_BUNDLE_IDENTIFIER: com.example.app, INFOPLIST_FILE: App-Info.plist, CURRENT_PROJECT_VERSION: "1", MARKETING_VERSION: "1.0"}
              "\(name)":
                type: app-extension
                platform: iOS
                settings: {PRODUCT_BUNDLE_IDENTIFIER: com.example.app.widget, INFOPLIST_FILE: Widget-Info.plist, CURRENT_PROJECT_VERSION: "2", MARKETING_VERSION: "1.0"}
            """.write(to: dir.appendingPathComponent("project.yml"), atomically: true, encoding: .utf8)
        let result = try run("lockstep", ["check", "project.yml", "--format", format], currentDirectory: dir.path)
        #expect(result.status == 1, "\(result)")
        #expect(result.stdout.contains("ITMS-90473"), "\(result.stdout)")
        let commands = result.stdout.split(separator: "\n").filter { $0.trimmingCharacters(in: .whitespaces).hasPrefix("::") }
        #expect(commands.isEmpty, "\(commands)")
    }
}
