import BundleKit
import CheckKit
import LockstepSystem

enum InitCommand: Command {
    static let name = "init"
    static let summary = "Print the embedded default manifest"
    static let help = """
        Usage: lockstep init

        Prints the embedded default manifest (the Habits app) to start your own from:
          lockstep init > lockstep.json
        """

    static func run(_ arguments: [String]) throws -> ExitStatus {
        let parsed = try Arguments(arguments, options: [], command: name)
        guard parsed.operands.isEmpty else {
            throw UsageError("lockstep init: takes no arguments; redirect its output to a file, e.g. 'lockstep init > lockstep.json'.")
        }
        print(Manifest.embeddedDefaultText, terminator: "")
        return .success
    }
}
