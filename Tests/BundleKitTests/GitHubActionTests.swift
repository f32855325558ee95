import BundleKit
import Foundation
import LockstepTestSupport
import Testing

/// The composite Action in .github/actions/lockstep-check: its steps' shell scripts, run the way a runner runs them
/// (`bash -eo pipefail`, outputs through $GITHUB_OUTPUT), with the values GitHub would substitute.
@Suite struct GitHubActionTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../..").standardized.path

    /// The `run: |` script of each step, by its `id` (the last step, which has none, as "last").
    static func scripts() throws -> [String: String] {
        let text = try String(contentsOfFile: repository + "/.github/actions/lockstep-check/action.yml", encoding: .utf8)
        var scripts: [String: String] = [:]
        var id = "last", script: [String]?
        for line in text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
            if var lines = script {
                if line.hasPrefix("        ") || line.isEmpty { lines.append(String(line.dropFirst(min(8, line.count)))); script = lines; continue }
                scripts[id] = lines.joined(separator: "\n")
                script = nil
                id = "last"
            }
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.hasPrefix("- id: ") { id = String(trimmed.dropFirst(6)) }
            if trimmed == "run: |" { script = [] }
            if trimmed.hasPrefix("run: ") && trimmed != "run: |" { scripts[id] = String(trimmed.dropFirst(5)); id = "last" }
        }
        if let script { scripts[id] = script.joined(separator: "\n") }
        return scripts
    }

    /// Runs `script` as a runner does; returns its status and what it wrote to $GITHUB_OUTPUT.
    static func step(_ script: String, environment: [String: String], in directory: String) throws -> (status: Int32, outputs: [String: String], result: ProcessResult) {
        let output = directory + "/github-output-\(UUID().uuidString)"
        _ = FileManager.default.createFile(atPath: output, contents: nil)
        var env = environment
        env["GITHUB_OUTPUT"] = output
        env["RUNNER_OS"] = "Linux"
        let result = try run("/bin/bash", ["--noprofile", "--norc", "-eo", "pipefail", "-c", script], environment: env, timeout: 120,
                             currentDirectory: directory)
        var outputs: [String: String] = [:]
        for line in try String(contentsOfFile: output, encoding: .utf8).split(separator: "\n") {
            let parts = line.split(separator: "=", maxSplits: 1).map(String.init)
            if parts.count == 2 { outputs[parts[0]] = parts[1] }
        }
        return (result.status, outputs, result)
    }

    @Test func theActionsStepsIdentifyLockstepCheckAndFailOnFindings() throws {
        let scripts = try Self.scripts()
        #expect(Set(scripts.keys) == ["version", "build", "check", "last"], "\(scripts.keys)")
        let dir = TestSupport.temporaryDirectory("action")
        defer { TestSupport.cleanUp(dir) }

        // The cache key: this checkout's sources, so a new Lockstep version builds once.
        let version = try Self.step(scripts["version"]!, environment: ["LOCKSTEP_ROOT": Self.repository + "/.github/actions/lockstep-check/../../..",
                                                                      "LOCKSTEP_CONFIGURATION": "release"], in: dir.path)
        #expect(version.status == 0, "\(version.result)")
        #expect(version.outputs["root"] == Self.repository)
        #expect(version.outputs["key"]?.hasPrefix("lockstep-Linux-release-") == true)

        // The build step builds the lockstep product of that checkout; the tests' own build stands in for it here
        // (SwiftPM's build folder is in use while the tests run).
        #expect(scripts["build"]!.contains(#"swift build -c "$LOCKSTEP_CONFIGURATION" --package-path "$LOCKSTEP_ROOT" --product lockstep"#))
        let bin = URL(fileURLWithPath: TestSupport.executable("lockstep")).deletingLastPathComponent().path

        // A project with a mismatch: the check step records status 1 and keeps the SARIF report; the last step fails.
        let manifest = dir.appendingPathComponent("lockstep.json").path
        try Manifest.embeddedDefaultText.replacingOccurrences(
            of: #""extensionPoint": "com.apple.widgetkit-extension", "shortVersion": "1.0.0", "buildVersion": "1","#,
            with: #""extensionPoint": "com.apple.widgetkit-extension", "shortVersion": "1.0.0", "buildVersion": "2","#)
            .write(toFile: manifest, atomically: true, encoding: .utf8)
        let inputs = ["LOCKSTEP_BIN": bin, "INPUT_PATHS": "lockstep.json", "INPUT_FORMAT": "sarif", "INPUT_STRICT": "false",
                      "INPUT_BASELINE": "", "INPUT_CONFIG": ""]
        let check = try Self.step(scripts["check"]!, environment: inputs, in: dir.path)
        #expect(check.status == 0, "\(check.result)")
        #expect(check.outputs["status"] == "1")
        #expect(check.outputs["report"] == "lockstep.sarif")
        let sarif = try JSONSerialization.jsonObject(with: Data(contentsOf: dir.appendingPathComponent("lockstep.sarif"))) as? [String: Any]
        #expect(sarif?["version"] as? String == "2.1.0")
        #expect(try Self.step(scripts["last"]!, environment: ["STATUS": check.outputs["status"]!], in: dir.path).status == 1)
        // A report not in the github format is printed between ::stop-commands:: and its token, so no line of it
        // (a target named "W\n::error …", "##[error]") becomes a workflow command (security-4 github-command-injection).
        let lines = check.result.stdout.split(separator: "\n").map(String.init)
        let token = lines.first.flatMap { $0.hasPrefix("::stop-commands::lockstep-") ? String($0.dropFirst("::stop-commands::".count)) : nil }
        #expect(token.map { $0.count == "lockstep-".count + 32 } == true, "\(check.result.stdout.prefix(200))")
        #expect(lines.last == "::\(token ?? "")::", "\(check.result.stdout.suffix(200))")
        let again = try Self.step(scripts["check"]!, environment: inputs, in: dir.path)
        #expect(!again.result.stdout.hasPrefix("::stop-commands::\(token ?? "")\n"), "a token must not be guessable")

        // With a baseline of today's findings the same check passes, and so does the last step.
        _ = try run("lockstep", ["check", "lockstep.json", "--write-baseline", "baseline.json"], currentDirectory: dir.path)
        var known = inputs
        known["INPUT_BASELINE"] = "baseline.json"
        known["INPUT_FORMAT"] = "github"
        let passing = try Self.step(scripts["check"]!, environment: known, in: dir.path)
        #expect(passing.outputs["status"] == "0", "\(passing.result)")
        #expect(passing.result.stdout.contains("::notice "), "\(passing.result)")
        #expect(!passing.result.stdout.contains("::stop-commands::"), "the github format's annotations are its point")
        #expect(try Self.step(scripts["last"]!, environment: ["STATUS": "0"], in: dir.path).status == 0)
    }

    @Test func thePreCommitHookRunsLockstepCheck() throws {
        let text = try String(contentsOfFile: Self.repository + "/.pre-commit-hooks.yaml", encoding: .utf8)
        #expect(text.contains("- id: lockstep-check"))
        #expect(text.contains("entry: lockstep check"))
        #expect(text.contains("pass_filenames: false"))
    }
}
