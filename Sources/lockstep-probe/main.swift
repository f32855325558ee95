#if canImport(Glibc)
import Glibc
#endif
import AppGroupKit
import Foundation
import LockstepRuntime
import LockstepSystem

// A bundle that can play any role, for LaunchKit's process tests and for trying `lockstep up` with a custom
// manifest. It starts like every simulated executable (identity, version check, stale gate), prints `ready`,
// then runs one command per stdin line. Given arguments, it runs them as one command and exits.
//
//   echo TEXT          prints TEXT
//   env NAME           prints NAME=value from its environment
//   identity           prints its bundle id, build and groups root
//   pause              prints its process id, then waits for a signal
//   fds                prints the descriptors it inherited (`fds [0, 1, 2]` when nothing leaked)
//   alloc MB           allocates and touches MB of anonymous memory
//   hold-lock PATH     takes an exclusive flock on PATH (relative: inside its first App Group container)
//   release-lock       releases it
//   write-shared TEXT  writes TEXT to shared.txt in its first App Group container (checks the stale gate first)
//   exit N             exits with status N
//
// `lockstep-probe __worker KIND ARGS…` instead runs one of the proof tests' workers (ProofWorkers), outside any bundle.
Standard.setUp()
if CommandLine.arguments.dropFirst().first == "__worker" {
    do { try ProofWorkers.run(Array(CommandLine.arguments.dropFirst(2))) } catch { exit(withError: error) }
    exit(.success)
}
let inherited = openDescriptors()
// A stale build found on a library's own thread (rule `runtime.stale`) ends this process, as iOS ends it.
ProcessStop.install { exit(withError: $0) }
let process: SimulatedProcess
do {
    guard let started = try SimulatedProcess.start(defaultRole: .host) else { exit(.success) }  // `up`'s launch check
    process = started
} catch {
    exit(withError: error)
}
var allocations: [UnsafeMutableRawPointer] = []
var held: FileLock?

/// The first App Group container of the bundle on its device (the probe does not need AppGroupKit's entitlement
/// checks: the manifest's groups are its entitlements).
/// The descriptors open in this process (read before it opens any itself, that is what it inherited).
func openDescriptors() -> [Int32] {
    guard let directory = opendir("/proc/self/fd") else { return [] }
    defer { closedir(directory) }
    var descriptors: [Int32] = []
    while let entry = readdir(directory) {
        let name = withUnsafePointer(to: entry.pointee.d_name) {
            $0.withMemoryRebound(to: CChar.self, capacity: 256) { String(cString: $0) }
        }
        if let fd = Int32(name), fd != dirfd(directory) { descriptors.append(fd) }
    }
    return descriptors.sorted()
}

/// The first App Group container the bundle is entitled to, on its device.
@MainActor func groupContainer() throws -> Container? {
    guard let group = process.bundle.appGroups.first else { return nil }
    return try process.sandbox().groupContainer(group)
}

@MainActor func perform(_ line: String) throws {
    let parts = line.split(separator: " ", maxSplits: 1).map(String.init)
    let argument = parts.count > 1 ? parts[1] : ""
    switch parts.first ?? "" {
    case "echo":
        print(argument)
    case "env":
        print("\(argument)=\(getenv(argument).map { String(cString: $0) } ?? "")")
    case "identity":
        // As library code finds it: the ambient current process, the one `start` returned.
        guard let current = SimulatedProcess.current else { Standard.error("lockstep-probe: no current process."); return }
        print("\(current.bundle.bundleIdentifier ?? "?") build \(current.bundle.buildVersion ?? "?") groups \(current.groupsRoot)")
    case "pause":
        print("paused, pid \(getpid())")
        while true { Glibc.pause() }
    case "fds":
        print("fds \(inherited)")
    case "alloc":
        guard let megabytes = Int(argument), megabytes > 0, let memory = malloc(megabytes << 20) else {
            Standard.error("lockstep-probe: alloc needs a number of MB.")
            return
        }
        memset(memory, 1, megabytes << 20)
        allocations.append(memory)
        print("allocated \(megabytes) MB")
    case "hold-lock":
        guard let container = try groupContainer() else { Standard.error("lockstep-probe: no App Group."); return }
        let path = argument.hasPrefix("/") ? argument : "\(container.path)/\(argument)"
        let lock = try FileLock(path: path)
        try lock.lock()
        held = lock
        print("locked \(path)")
    case "release-lock":
        try held?.unlock()
        held = nil
        print("released")
    case "write-shared":
        guard let container = try groupContainer() else { Standard.error("lockstep-probe: no App Group."); return }
        // AppGroupKit runs the stale-build gate first (rule `runtime.stale`).
        try CoordinatedFiles(container: container).write(Data((argument + "\n").utf8), to: "shared.txt")
        print("wrote \(argument)")
    case "exit":
        exit(Int32(argument) ?? 0)
    default:
        Standard.error("lockstep-probe: unknown command '\(line)'.")
    }
}

let arguments = CommandLine.arguments.dropFirst()
do {
    if !arguments.isEmpty {
        try perform(arguments.joined(separator: " "))
        exit(.success)
    }
    print("ready")
    while let line = readLine() {
        try perform(line)
    }
} catch {
    exit(withError: error)
}
