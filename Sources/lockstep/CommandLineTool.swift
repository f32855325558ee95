import Foundation
import LockstepSystem

/// One `lockstep` verb. Each lives in its own file; `run` returns the exit status or throws a `ReportableError`.
protocol Command: Sendable {
    /// The verb (`check`, `defaults`).
    static var name: String { get }
    /// One line for `lockstep --help`.
    static var summary: String { get }
    /// The full `--help` text, starting with the usage line of <doc:Design> "The command line".
    static var help: String { get }
    static func run(_ arguments: [String]) throws -> ExitStatus
}

/// Lockstep's own version: the one source of truth, printed by `--version`.
let lockstepVersion = "0.1.0"

enum CommandLineTool {
    static let commands: [any Command.Type] = [
        UpCommand.self, BuildCommand.self, RunCommand.self, VerifyCommand.self, CheckCommand.self, BumpCommand.self,
        RulesCommand.self, InitCommand.self, DefaultsCommand.self, ContainerCommand.self, NotifyCommand.self,
        BenchCommand.self, GalleryCommand.self,
    ]

    static var help: String {
        var lines = ["Usage: lockstep COMMAND [OPTIONS]", "", "Simulates an iOS app and its extensions as separate processes.", "", "Commands:"]
        for command in commands {
            lines.append("  " + command.name.padding(toLength: 11, withPad: " ", startingAt: 0) + command.summary)
        }
        lines.append("")
        lines.append("Run 'lockstep COMMAND --help' for a command's options. Exit statuses: 0 success, 1 a check,")
        lines.append("rule or scenario failed, 2 invalid input, 64 usage, 69 unreachable, 75 busy, 77 not entitled, 78 version mismatch.")
        return lines.joined(separator: "\n")
    }

    /// Runs the verb named by the first argument and returns the process's exit status.
    static func main(_ arguments: [String]) -> ExitStatus {
        guard let verb = arguments.first else {
            Standard.error(help)
            return .usage
        }
        switch verb {
        case "--help", "-h", "help":
            print(help)
            return .success
        case "--version":
            print("lockstep \(lockstepVersion)")
            return .success
        default:
            break
        }
        guard let command = commands.first(where: { $0.name == verb }) else {
            Standard.error("lockstep: unknown command '\(verb)'; run 'lockstep --help' for the list.")
            return .usage
        }
        let rest = Array(arguments.dropFirst())
        // Only before `--`: what follows is passed through untouched (`lockstep run X -- --help`).
        let own = rest.prefix { $0 != "--" }
        if own.contains("--help") || own.contains("-h") {
            print(command.help)
            return .success
        }
        do {
            return try command.run(rest)
        } catch {
            // Named by the verb, like its usage errors: `lockstep bump: Cannot bump 'x': …`.
            exit(withError: error, program: "lockstep \(command.name)")
        }
    }
}

/// A command line that does not follow a verb's usage (exit 64).
struct UsageError: ReportableError {
    let message: String
    init(_ message: String) { self.message = message }
    var description: String { message }
    var exitStatus: ExitStatus { .usage }
}
