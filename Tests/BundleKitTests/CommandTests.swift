import BundleKit
import Foundation
import LockstepTestSupport
import Testing

/// `lockstep check`, `bump` and `init` run as the real executable: output and exit statuses.
@Suite struct CommandTests {
    func manifest(in dir: URL, _ edit: (String) -> String = { $0 }) throws -> String {
        let path = dir.appendingPathComponent("lockstep.json").path
        try edit(Manifest.embeddedDefaultText).write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test func initPrintsTheEmbeddedDefault() throws {
        let result = try run("lockstep", ["init"])
        #expect(result.status == 0)
        #expect(result.stdout == Manifest.embeddedDefaultText)
        #expect(try Manifest.parse(Array(result.stdout.utf8), path: "stdout").bundles.count == 8)
    }

    /// A malformed Info.plist is one line on stderr: Foundation's own log line for a malformed OpenStep plist
    /// (`CFPropertyListCreateFromXMLData(): Old-style plist parser: …`) must not come before Lockstep's sentence.
    @Test(arguments: [
        "{ CFBundleIdentifier = \"com.example.app\"; CFBundleVersion = 1 \n",
        "<?xml version=\"1.0\"?>\n<plist version=\"1.0\"><dict><key>CFBundleIdentifier</key><string>x</dict></plist>",
    ]) func malformedInfoPlistIsOneLineOnStderr(text: String) throws {
        let (result, app) = try checkBuiltApp(infoPlist: Data(text.utf8))
        #expect(result.status == 2, "\(result)")
        #expect(result.stderr == "lockstep check: '\(app)/Info.plist' is not a readable property list: it is not an XML, binary or OpenStep property list, or it is truncated.\n")
    }

    /// An OpenStep Info.plist, read by Lockstep's own parser, gives the values Foundation gives.
    @Test func openStepInfoPlistReadsAsFoundationDoes() throws {
        let text = #"{ CFBundleIdentifier = com.example.app; "CFBundleVersion" = 7; Groups = ("group.a", 'b\n'); Data = <0001 ff>; NSExtension = { NSExtensionPointIdentifier = "com.apple.widgetkit-extension"; }; }"#
        let ours = try PropertyListFile.dictionary(Array(text.utf8), path: "Info.plist")
        let foundation = try #require(try PropertyListSerialization.propertyList(from: Data(text.utf8), format: nil) as? NSDictionary)
        #expect(NSDictionary(dictionary: ours).isEqual(foundation))
        #expect(ours["CFBundleVersion"] as? String == "7")
        #expect(ours["Data"] as? Data == Data([0x00, 0x01, 0xFF]))
    }

    @Test func checkExitStatuses() throws {
        let dir = TestSupport.temporaryDirectory()
        defer { TestSupport.cleanUp(dir) }
        let good = try manifest(in: dir)
        let clean = try run("lockstep", ["check", good])
        #expect(clean.status == 0, "\(clean)")
        #expect(clean.stdout == "0 errors, 0 warnings in 8 bundles.\n")

        let badDir = dir.appendingPathComponent("bad")
        try FileManager.default.createDirectory(at: badDir, withIntermediateDirectories: true)
        let bad = try manifest(in: badDir) {
            $0.replacingOccurrences(of: #""executable": "lockstep-widget""#, with: #""executable": "lockstep-widget", "ignored": 0"#)
              .replacingFirst(#""extensionPoint": "com.apple.widgetkit-extension", "shortVersion": "1.0.0", "buildVersion": "1""#,
                              with: #""extensionPoint": "com.example.custom", "shortVersion": "1.0.0", "buildVersion": "7""#)
        }
        let failing = try run("lockstep", ["check", bad, "--format", "json"])
        #expect(failing.status == 1, "\(failing)")
        #expect(failing.stdout.contains(#""rule" : "version.build-mismatch""#))

        // Only the unknown extension point (a warning): clean unless --strict.
        let warnDir = dir.appendingPathComponent("warn")
        try FileManager.default.createDirectory(at: warnDir, withIntermediateDirectories: true)
        let warn = try manifest(in: warnDir) {
            $0.replacingFirst("com.apple.widgetkit-extension", with: "com.example.custom")
        }
        #expect(try run("lockstep", ["check", warn]).status == 0)
        let strict = try run("lockstep", ["check", warn, "--strict", "--format", "github"])
        #expect(strict.status == 1)
        #expect(strict.stdout.hasPrefix("::error file=\(warn),title=extension.point (Habits.app/PlugIns/HabitsWidget.appex)::"))

        // Several paths: all checked, findings merged, the worst status wins (2 beats 1).
        let missing = dir.appendingPathComponent("missing.json").path
        let merged = try run("lockstep", ["check", bad, missing, good])
        #expect(merged.status == 2)
        #expect(merged.stderr == "lockstep check: Cannot read '\(missing)': no such file or folder.\n")
        #expect(merged.stdout.contains("[version.build-mismatch]"))
        #expect(merged.stdout.hasSuffix("1 error, 1 warning in 16 bundles.\n"))

        #expect(try run("lockstep", ["check"]).status == 64)
        #expect(try run("lockstep", ["check", good, "--format", "xml"]).status == 64)
    }

    /// When no input could be read, stdout stays empty in every format: a "0 errors" summary would read as a pass.
    @Test func unreadableInputPrintsNoReport() throws {
        let dir = TestSupport.temporaryDirectory()
        defer { TestSupport.cleanUp(dir) }
        let garbage = dir.appendingPathComponent("garbage.json").path
        try "not json".write(toFile: garbage, atomically: true, encoding: .utf8)
        let missing = dir.appendingPathComponent("missing.json").path
        for format in ["text", "json", "github", "junit"] {
            let result = try run("lockstep", ["check", missing, garbage, "--format", format])
            #expect(result.status == 2, "\(result)")
            #expect(result.stdout == "", "\(format): \(result)")
            #expect(result.stderr == "lockstep check: Cannot read '\(missing)': no such file or folder.\n"
                + "lockstep check: The manifest '\(garbage)' is invalid: it is not valid JSON (line 1, column 1: a value is expected, not 'n').\n")
        }
        let folder = try run("lockstep", ["check", dir.path])
        #expect(folder.status == 2)
        #expect(folder.stdout == "")
    }

    /// A device is refused before it is read (`/dev/zero` once exhausted memory and trapped); a pipe is read
    /// once, whole (`lockstep check <(…)` once lost the 4 bytes read to tell a zip from a manifest).
    @Test func devicesAreRefusedAndPipesAreReadWhole() throws {
        let zero = try run("lockstep", ["check", "/dev/zero"], timeout: 20)
        #expect(zero.status == 2, "\(zero)")
        #expect(zero.stdout == "")
        #expect(zero.stderr == "lockstep check: Cannot read '/dev/zero': it is a device or a socket, not a file.\n")
        let bump = try run("lockstep", ["bump", "/dev/zero", "--build", "2"], timeout: 20)
        #expect(bump.status == 2, "\(bump)")
        #expect(bump.stderr == "lockstep bump: Cannot read '/dev/zero': it is a device or a socket, not a file.\n")

        let piped = try run("lockstep", ["check", "/dev/stdin"], stdin: Data(Manifest.embeddedDefaultText.utf8))
        #expect(piped.status == 0, "\(piped)")
        #expect(piped.stdout == "0 errors, 0 warnings in 8 bundles.\n")
    }

    @Test func checkReadsAnIPA() throws {
        let dir = TestSupport.temporaryDirectory()
        defer { TestSupport.cleanUp(dir) }
        let ipa = dir.appendingPathComponent("X.ipa")
        try Data(Fixtures.zip(InputTests.broken.map { ("Payload/" + $0.0, $0.1) })).write(to: ipa)
        let result = try run("lockstep", ["check", ipa.path])
        #expect(result.status == 1)
        #expect(result.stdout.hasPrefix("\(ipa.path):Payload/X.app/PlugIns/Widget.appex/Info.plist: error: The CFBundleVersion of an app extension ('1') must match that of its containing parent app ('289'). ITMS-90473: CFBundleVersion Mismatch - The CFBundleVersion value '1' of extension 'X.app/PlugIns/Widget.appex' does not match the CFBundleVersion value '289' of its containing iOS application 'X.app'. [version.build-mismatch]\n"))
    }

    @Test func bumpEditsOnlyTheVersionValues() throws {
        let dir = TestSupport.temporaryDirectory()
        defer { TestSupport.cleanUp(dir) }
        // A drifted widget build: bump sets every bundle's, which repairs it.
        let path = try manifest(in: dir) {
            $0.replacingOccurrences(of: #""com.apple.widgetkit-extension", "shortVersion": "1.0.0", "buildVersion": "1""#,
                                    with: #""com.apple.widgetkit-extension", "shortVersion": "1.0.0", "buildVersion": "0""#)
        }
        #expect(try run("lockstep", ["check", path]).status == 1)
        let next = try run("lockstep", ["bump", path, "--build", "next"])
        #expect(next.status == 0, "\(next)")
        #expect(next.stdout == "lockstep bump: updated \(path)\n0 errors, 0 warnings in 8 bundles.\n")
        let expected = Manifest.embeddedDefaultText.replacingOccurrences(of: #""buildVersion": "1""#, with: #""buildVersion": "2""#)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == expected)

        #expect(try run("lockstep", ["bump", path, "--version", "1.1"]).status == 0)
        #expect(try String(contentsOfFile: path, encoding: .utf8)
            == expected.replacingOccurrences(of: #""shortVersion": "1.0.0""#, with: #""shortVersion": "1.1""#))
        #expect(try run("lockstep", ["bump", path, "--build", "2.0.10"]).status == 0)
        #expect(try Manifest.load(path).bundles.allSatisfy { $0.buildVersion == "2.0.10" })
    }

    @Test func failedBumpLeavesTheFileByteIdentical() throws {
        let dir = TestSupport.temporaryDirectory()
        defer { TestSupport.cleanUp(dir) }
        let future = try manifest(in: dir) { $0.replacingOccurrences(of: #""manifestVersion": 1"#, with: #""manifestVersion": 3"#) }
        let before = try Data(contentsOf: URL(fileURLWithPath: future))
        let refused = try run("lockstep", ["bump", future, "--build", "5"])
        #expect(refused.status == 2)
        #expect(refused.stderr == "lockstep bump: The manifest '\(future)' has manifestVersion 3, which this Lockstep does not know (it reads 1).\n")
        #expect(try Data(contentsOf: URL(fileURLWithPath: future)) == before)

        let beta = dir.appendingPathComponent("beta.json").path
        try Manifest.embeddedDefaultText.replacingOccurrences(of: #""buildVersion": "1""#, with: #""buildVersion": "1-beta""#)
            .write(toFile: beta, atomically: true, encoding: .utf8)
        let betaBefore = try Data(contentsOf: URL(fileURLWithPath: beta))
        let noNext = try run("lockstep", ["bump", beta, "--build", "next"])
        #expect(noNext.status == 2)
        #expect(noNext.stderr == "lockstep bump: Cannot bump '\(beta)': the current build '1-beta' is not a period-separated list of integers, so it has no next.\n")
        #expect(try Data(contentsOf: URL(fileURLWithPath: beta)) == betaBefore)

        #expect(try run("lockstep", ["bump", beta, "--build", "1.x"]).status == 64)
        #expect(try run("lockstep", ["bump", beta, "--build", "1", "--version", "1"]).status == 64)
        #expect(try Data(contentsOf: URL(fileURLWithPath: beta)) == betaBefore)
        // Nothing left behind by the atomic writer.
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted() == ["beta.json", "lockstep.json"])
    }

    /// A read-only manifest is refused, not silently replaced by the rename (which a writable folder allows).
    @Test func bumpRefusesAReadOnlyManifest() throws {
        let dir = TestSupport.temporaryDirectory()
        defer { TestSupport.cleanUp(dir) }
        let path = try manifest(in: dir)
        #expect(chmod(path, 0o444) == 0)
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        let refused = try run("lockstep", ["bump", path, "--build", "7"])
        #expect(refused.status == 2, "\(refused)")
        #expect(refused.stdout == "")
        #expect(refused.stderr == "lockstep bump: Cannot bump '\(path)': the file is read-only; nothing was written.\n")
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == ["lockstep.json"])
    }
}
