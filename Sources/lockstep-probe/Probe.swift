#if canImport(Glibc)
import Glibc
#endif
import AppGroupKit
import Foundation
import LockstepRuntime
import LockstepSystem

/// The probe bundle (main.swift lists its commands): a process of any role, with what it allocated and the lock it holds.
final class Probe {
    let process: SimulatedProcess
    /// The descriptors it inherited.
    let inherited: [Int32]
    var allocations: [UnsafeMutableRawPointer] = []
    var held: FileLock?
    /// What its commands observe (`show-posts`, `watch-notes`), kept for its lifetime; a watch may add one from its
    /// own thread, so only under `observationsLock`.
    private var observations: [Observation] = []
    private let observationsLock = NSLock()

    func keep(_ observation: Observation) { observationsLock.withLock { observations.append(observation) } }

    init(process: SimulatedProcess, inherited: [Int32]) {
        self.process = process
        self.inherited = inherited
    }

    /// Starts like every simulated executable (`SimulatedProcess.main`), or runs a proof test's worker.
    static func main() -> Never {
        if CommandLine.arguments.dropFirst().first == "__worker" {
            Standard.setUp()
            do { try ProofWorkers.run(Array(CommandLine.arguments.dropFirst(2))) } catch { exit(withError: error) }
            exit(.success)
        }
        let inherited = openDescriptors()
        SimulatedProcess.main(role: .host, usage: nil) { process, arguments in
            let probe = Probe(process: process, inherited: inherited)
            if !arguments.isEmpty {
                try probe.perform(arguments.joined(separator: " "))
                return
            }
            print("ready")
            while let line = readLine() {
                // An empty line is the launcher waking this suspended extension without a command (realistic
                // timing): it has nothing due, and says so, to be suspended again.
                if line.isEmpty { print("work returned after a wake-up"); continue }
                try probe.perform(line)
            }
        }
    }

    /// The descriptors open in this process (read before it opens any itself, that is what it inherited).
    static func openDescriptors() -> [Int32] {
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
    func groupContainer() throws -> Container? {
        guard let group = process.bundle.appGroups.first else { return nil }
        return try process.sandbox().groupContainer(group)
    }

    func perform(_ line: String) throws {
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
        case "write-forever":
            // A writer that never stops, for `kill ROLE --mid-write`: increments ARGUMENT in its group's suite.
            guard let group = process.bundle.appGroups.first, let defaults = try GroupDefaults(suiteName: group, sandbox: process.sandbox()) else {
                Standard.error("lockstep-probe: no App Group.")
                return
            }
            print("writing \(argument)")
            while true { try defaults.increment(argument) }
        case "write-shared":
            guard let container = try groupContainer() else { Standard.error("lockstep-probe: no App Group."); return }
            // AppGroupKit runs the stale-build gate first (rule `runtime.stale`).
            try CoordinatedFiles(container: container).write(Data((argument + "\n").utf8), to: "shared.txt")
            print("wrote \(argument)")
        case "data":
            try DataCommands.perform(argument)
        case "reload-widgets":
            ProbeWidgets.reloadAll()
        case "exit":
            exit(Int32(argument) ?? 0)
        default:
            if try SharingShapes.perform(parts.first ?? "", argument, probe: self) || AppStorageCommands.perform(parts.first ?? "", argument) { return }
            Standard.error("lockstep-probe: unknown command '\(line)'.")
        }
    }
}
