import BundleKit
import LaunchKit
import LockstepSystem

enum VerifyCommand: Command {
    static let name = "verify"
    static let summary = "Print who can see whose data, through each channel"
    static let help = """
        Usage: lockstep verify [--manifest F] [--groups DIR] [--format text|json]

        For every pair of bundles and each channel (group defaults, group files, Darwin notifications, private
        container), writes a probe as one bundle and reads it as the other, each side in its own process, and
        prints the visibility matrix with the rule behind every cell. Exits 0 when every cell is what the
        manifest's entitlements say, 1 when a bundle cannot see data it shares with the host or sees data it
        should not, 2 for an invalid manifest.
        """

    static func run(_ arguments: [String]) throws -> ExitStatus {
        let parsed = try Arguments(arguments, options: ["--manifest", "--groups", "--format"], command: name)
        guard parsed.positionals.isEmpty, parsed.passthrough.isEmpty else {
            throw UsageError("lockstep verify: unexpected argument '\((parsed.positionals + parsed.passthrough)[0])'; see 'lockstep verify --help'.")
        }
        let format = parsed.value("--format") ?? "text"
        guard ["text", "json"].contains(format) else {
            throw UsageError("lockstep verify: --format is text or json, not '\(format)'.")
        }
        let root = parsed.groupsRoot
        let manifest = try Manifest.resolve(explicit: parsed.value("--manifest"), groupsRoot: root)
        let report = Verify.run(manifest: manifest, manifestArgument: parsed.value("--manifest"), groupsRoot: root,
                                lockstep: ExecutableLocator.running)
        print(format == "json" ? report.json : report.text)
        return report.ok ? .success : .failure
    }
}
