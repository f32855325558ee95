import BundleKit
import CheckKit
import LockstepSystem

enum CheckCommand: Command {
    static let name = "check"
    static let summary = "Check bundle ids, version parity and App Groups with Apple's wording"
    static let help = """
        Usage: lockstep check PATH… [--format text|json|github|junit|sarif] [--strict] [--configuration NAME]
                                    [--config FILE] [--baseline FILE] [--write-baseline FILE]

        PATH: a manifest, a built .app (with PlugIns/, Extensions/, Watch/), a folder of .app bundles, an
        .xcarchive, an .ipa, an .xcodeproj or a folder holding one, or an XcodeGen spec (project.yml, any
        *.yml or *.json spec, or a folder holding project.yml and no .xcodeproj). Every PATH is checked and
        every finding reported, with its rule id and Apple's own wording.

          --format F            text (default: `file:line:col: error: message [rule-id]`, the line where
                                known), json, github (workflow commands that annotate a pull request),
                                junit (XML, one test case per rule and bundle) or sarif (SARIF 2.1.0 for
                                code scanning; paths relative to the working directory)
          --strict              treat warnings as errors
          --configuration NAME  for an Xcode project or spec, read only this build configuration
          --config FILE         the team's decisions (default: ./.lockstep.json when it exists): "disable",
                                "severity", "waivers" [{rule, bundle (path or identifier), reason}],
                                "baseline", "strict"; a waiver that matches nothing is reported as a note
          --baseline FILE       a JSON report written earlier (`--format json` or --write-baseline): its
                                findings are reported as known and do not fail; new ones do
          --write-baseline FILE write today's findings as that baseline (through a symlink to a file in its
                                own folder; never over a folder, FIFO or device), then report them all as known

        Exit status: 0 clean (warnings allowed unless --strict), 1 findings, 2 an input could not be read
        (one sentence on stderr naming the file; the other inputs are still checked and reported, and
        nothing is printed on stdout when no input could be read).
        """

    static func run(_ arguments: [String]) throws -> ExitStatus {
        let parsed = try Arguments(arguments, options: ["--format", "--configuration", "--config", "--baseline", "--write-baseline"],
                                   flags: ["--strict"], command: name)
        guard !parsed.operands.isEmpty else {
            throw UsageError("lockstep check: give at least one PATH; see 'lockstep check --help'.")
        }
        let formatName = parsed.value("--format") ?? "text"
        guard let format = ReportFormat(rawValue: formatName) else {
            throw UsageError("lockstep check: unknown format '\(formatName)'; use text, json, github, junit or sarif.")
        }
        // The team's decisions come first: a config or baseline that cannot be read stops the run (exit 2).
        var policy = CheckPolicy()
        var known = Baseline.Known()
        do {
            if let config = parsed.value("--config") {
                policy = try CheckPolicy.load(config)
            } else if FileSystem.exists(CheckPolicy.fileName) {
                policy = try CheckPolicy.load(CheckPolicy.fileName)
            }
            known = try policy.knownFindings(explicit: parsed.value("--baseline"))
        } catch {
            Standard.error("lockstep check: \(error)")
            return .invalidInput
        }
        var result = CheckResult()
        var unreadable = false
        var read = false
        for path in parsed.operands {
            do {
                result.merge(try CheckInput.check(path, configuration: parsed.value("--configuration")))
                read = true
            } catch {
                // Any input that cannot be read is exit 2 (the contract), whichever reader failed.
                Standard.error("lockstep check: \(error)")
                unreadable = true
            }
        }
        if let path = parsed.value("--write-baseline"), read {
            do {
                try Baseline.write(result, to: path)
            } catch {
                Standard.error("lockstep check: \(error)")
                return .invalidInput
            }
            known.fingerprints.formUnion(result.findings.map(\.fingerprint))
        }
        result = policy.apply(to: result, known: known)
        if parsed.has("--strict") || policy.strict { result = result.strict() }
        // A report of "0 errors" about inputs that could not be read would read as a pass: when nothing was
        // read, stderr's sentences and exit 2 are the whole answer.
        if read { print(Report.render(result, as: format), terminator: "") }
        // Decided once, after every input: unreadable input (2) beats findings (1).
        return unreadable ? .invalidInput : result.exitStatus
    }
}
