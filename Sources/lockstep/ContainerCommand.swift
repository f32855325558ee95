import AppGroupKit
import Foundation
import LockstepSystem

enum ContainerCommand: Command {
    static let name = "container"
    static let summary = "Print the container a bundle would get"
    static let help = """
        Usage: lockstep container --as BUNDLE-ID (app|GROUP-ID) [--read FILE | --write FILE] [--manifest F] [--groups DIR]

        Prints the absolute path of the bundle's private container ('app') or of the App Group container
        GROUP-ID, creating it, like 'xcrun simctl get_app_container'. A bundle whose entitlements do not list
        the group gets exit 77 (FileManager.containerURL returns nil on iOS).

          --read FILE    print FILE from the container instead (coordinated read: never a torn file)
          --write FILE   replace FILE in the container with stdin, atomically (temp, fsync, rename)

        Exit statuses: 0 success, 1 --read of a missing file, 2 invalid group id, bundle or file name (one
        that leaves the container or names a folder), 64 usage, 75 busy, 77 not entitled.
        """

    static func run(_ arguments: [String]) throws -> ExitStatus {
        let arguments = try Arguments(arguments, options: BundleSandbox.options.union(["--read", "--write", "--repeat"]), command: name)
        guard arguments.operands.count == 1, let target = arguments.operands.first else {
            throw UsageError("lockstep container: give 'app' or one GROUP-ID; see 'lockstep container --help'.")
        }
        guard arguments.value("--read") == nil || arguments.value("--write") == nil else {
            throw UsageError("lockstep container: give --read FILE or --write FILE, not both; see 'lockstep container --help'.")
        }
        let sandbox = try BundleSandbox.resolve(arguments, command: name)
        let container = target == "app" ? try sandbox.privateContainer() : try sandbox.requireGroupContainer(target)
        let files = CoordinatedFiles(container: container)
        if let file = arguments.value("--read") {
            guard let data = try files.read(file) else {
                Standard.error("lockstep container: '\(file)' does not exist in '\(container.path)'.")
                return .failure
            }
            FileHandle.standardOutput.write(data)
        } else if let file = arguments.value("--write") {
            let data = FileHandle.standardInput.readDataToEndOfFile()
            // --repeat N (for tests): the same replacement N times, so a reader can race many of them.
            let times = try repeatCount(arguments, command: name)
            for _ in 0..<times { try files.write(data, to: file) }
        } else {
            print(absolute(container.path))
        }
        return .success
    }

    private static func absolute(_ path: String) -> String {
        path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
    }
}

/// `--repeat N` (test-only: one process doing N operations in a loop instead of N processes), default 1.
func repeatCount(_ arguments: Arguments, command: String) throws -> Int {
    guard let text = arguments.value("--repeat") else { return 1 }
    guard let count = Int(text), count >= 1 else {
        throw UsageError("lockstep \(command): '--repeat' needs a positive integer, not '\(text)'.")
    }
    return count
}
