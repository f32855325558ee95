import AppGroupKit
import BundleKit
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
            // In pieces: a file of any size costs a megabyte of memory, not twice its size.
            let stdout = FileDescriptor(rawValue: 1)
            guard try files.read(file, { try stdout.writeAll($0, path: "stdout") }) else {
                Standard.error("lockstep container: '\(file)' does not exist in '\(container.path)'.")
                return .failure
            }
        } else if let file = arguments.value("--write") {
            // The replacement is read whole before the container's lock is taken, and bounded: a slow or runaway
            // pipe never holds the lock other processes wait for (streamed into the temp file, it would, as long
            // as the pipe stays open), and is refused (exit 2) instead of growing the process without end. Held
            // once, as read: at the bound a write peaks near twice its size while the array grows.
            let bytes = try FileDescriptor(rawValue: 0).readAll(path: "stdin", capacity: 1 << 20, limit: maximumWriteSize)
            guard bytes.count <= maximumWriteSize else {
                throw BundleError(.unreadable, path: "standard input", detail: "it holds more than \(maximumWriteSize >> 20) MB, the most --write replaces a file with; nothing was written")
            }
            // --repeat N (for tests): the same replacement N times, so a reader can race many of them.
            let times = try repeatCount(arguments, command: name)
            for _ in 0..<times { try files.write(bytes, to: file) }
        } else {
            print(absolute(container.path))
        }
        return .success
    }

    /// The largest file `--write` makes.
    static let maximumWriteSize = 128 << 20

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
