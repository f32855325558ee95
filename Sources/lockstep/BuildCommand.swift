import BuildKit
import CheckKit
import LockstepSystem

enum BuildCommand: Command {
    static let name = "build"
    static let summary = "Build a project's app and extension targets as separate Linux executables"
    static let help = """
        Usage: lockstep build PROJECT [--target NAME]… [--configuration NAME] [--format text|json]
                                      [--build-path DIR] [--config FILE] [--unpinned]

        Reads PROJECT (an .xcodeproj, a folder holding one, or an XcodeGen project.yml) as `lockstep check` does
        and builds each bundle of its app — widgets, watch app, intents, notification service … — from the
        target's own files, unchanged, against Lockstep's Apple-named modules: one Swift package per platform
        under DIR (default: .build/lockstep beside the project), each file compiled with its target's platform
        conditions (os(iOS) true in a phone target, os(watchOS) in a watch target, targetEnvironment(simulator)
        true). Writes DIR/lockstep.json, the manifest of the bundles that built, for `lockstep up`.

          --target NAME         only this target (repeatable); the app is always included
          --configuration NAME  the build configuration (default: Debug, else the project's first)
          --format F            text (default): a line per target, built or not with the compiler's first
                                error and the first missing Apple symbol; json: the same, one object per target
          --build-path DIR      where the generated packages and the manifest go
          --config FILE         the team's .lockstep.json (default: ./.lockstep.json when it exists); its
                                "standIns": {"Module": "folder"} replace a module or a package product by a
                                folder of Linux files
          --unpinned            take each package fetched from a URL at the requirement the project declares,
                                not at the version its Package.resolved pins

        Packages the project fetches from a URL are dependencies of the generated package, at the versions the
        project's Package.resolved pins: SwiftPM fetches and builds them; Lockstep downloads nothing itself.

        Exits 0 when every target built, 1 when one did not (the report says which and why), 2 for a project,
        target, source file or stand-in that is not there (nothing written), 69 for a package SwiftPM could not
        fetch (one sentence naming it, its products and the stand-ins to give).
        """

    static func run(_ arguments: [String]) throws -> ExitStatus {
        let parsed = try Arguments(arguments, options: ["--target", "--configuration", "--format", "--build-path", "--config"],
                                   flags: ["--unpinned"], command: name)
        let format = parsed.value("--format") ?? "text"
        guard format == "text" || format == "json" else {
            throw UsageError("lockstep build: unknown format '\(format)'; use text or json.")
        }
        let report = try build(parsed, command: name) { Standard.error("lockstep build: \($0)") }
        print(format == "json" ? report.json : report.text)
        return report.outcomes.allSatisfy { $0.executable != nil && !$0.standInHost } ? .success : .failure
    }

    /// Plans and builds the project `parsed` names: shared by `build` and `up PROJECT`.
    static func build(_ parsed: Arguments, command: String, progress: (String) -> Void) throws -> ProjectBuild.Report {
        guard parsed.operands.count == 1 else {
            throw UsageError("lockstep \(command): give one project (an .xcodeproj, a folder holding one, or project.yml); see 'lockstep \(command) --help'.")
        }
        var policy = CheckPolicy()
        if let config = parsed.value("--config") {
            policy = try CheckPolicy.load(config)
        } else if FileSystem.exists(CheckPolicy.fileName) {
            policy = try CheckPolicy.load(CheckPolicy.fileName)
        }
        let plan = try BuildPlan.make(.init(project: parsed.operands[0], targets: parsed.allValues("--target"),
                                            configuration: parsed.value("--configuration"), buildFolder: parsed.value("--build-path"),
                                            standIns: policy.standIns, unpinned: parsed.has("--unpinned")))
        return try ProjectBuild.run(plan, progress: progress)
    }
}
