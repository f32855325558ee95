import BundleKit
import CheckKit
import LockstepSystem

enum BumpCommand: Command {
    static let name = "bump"
    static let summary = "Set the build or marketing version everywhere, then re-check"
    static let help = """
        Usage: lockstep bump PATH (--build N|next) | (--version X.Y.Z)

        Sets CFBundleVersion (--build) or CFBundleShortVersionString (--version) of the app and every
        embedded bundle together, in a manifest (editing only those values' text, atomically), an Xcode
        project or an XcodeGen spec (editing the spec's text), then runs 'lockstep check' on PATH. '--build next' increments the last number of the app's
        current build (41 → 42, 1.2.9 → 1.2.10).

        Exit status: 0 bumped and clean, 1 bumped but the re-check found problems, 2 the file could not be
        read or changed (it is left byte for byte as it was), 64 usage.
        """

    static func run(_ arguments: [String]) throws -> ExitStatus {
        let parsed = try Arguments(arguments, options: ["--build", "--version"], command: name)
        guard parsed.operands.count == 1, let path = parsed.operands.first else {
            throw UsageError("lockstep bump: give exactly one PATH (a manifest, an Xcode project or an XcodeGen spec); see 'lockstep bump --help'.")
        }
        let change: VersionChange
        switch (parsed.value("--build"), parsed.value("--version")) {
        case ("next"?, nil):
            change = .nextBuild
        case (let build?, nil):
            // rule `version.build-format`: never write a build number App Store Connect refuses (four
            // numbers are accepted in practice, and the re-check warns about them).
            guard let parts = Rules.numericParts(build), parts <= 4 else {
                throw UsageError("lockstep bump: --build '\(build)' is not 'next' or one to four period-separated non-negative integers.")
            }
            change = .build(build)
        case (nil, let version?):
            // rule `version.short-format`
            guard let parts = Rules.numericParts(version), parts <= 3 else {
                throw UsageError("lockstep bump: --version '\(version)' is not one to three period-separated non-negative integers.")
            }
            change = .version(version)
        default:
            throw UsageError("lockstep bump: give either --build N|next or --version X.Y.Z; see 'lockstep bump --help'.")
        }
        let written = try Bump.apply(change, to: path)
        for file in written { print("lockstep bump: updated \(file)") }
        let result = try CheckInput.check(path)
        print(Report.render(result, as: .text), terminator: "")
        return result.exitStatus
    }
}
