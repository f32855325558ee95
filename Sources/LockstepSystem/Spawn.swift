#if canImport(Glibc)
@preconcurrency import Glibc
#endif
import Synchronization

/// How a child process ended: data, not an error (a non-zero status is a normal result).
public enum Termination: Equatable, Sendable, CustomStringConvertible {
    case exited(Int32)
    case signaled(Int32)
    /// `waitpid` failed, so how the child ended is not known (never reported as an exit status it did not have).
    case unknown(Errno)

    /// The shell's convention: the exit status, or 128 + the signal number; 1 (a failure) when it is not known.
    public var shellStatus: Int32 {
        switch self {
        case .exited(let status): return status
        case .signaled(let signal): return 128 + signal
        case .unknown: return ExitStatus.failure.rawValue
        }
    }

    public var description: String {
        switch self {
        case .exited(let status): return "exited with status \(status)"
        case .signaled(let signal): return "was killed by signal \(signal) (\(String(cString: strsignal(signal))))"
        case .unknown(let errno): return "ended, but its status could not be read (waitpid: \(errno))"
        }
    }

    init(waitStatus status: Int32) {
        // WIFEXITED / WEXITSTATUS / WTERMSIG, which Swift does not import as functions.
        if status & 0x7F == 0 {
            self = .exited((status >> 8) & 0xFF)
        } else {
            self = .signaled(status & 0x7F)
        }
    }
}

/// Why `posix_spawn` (or a pipe for it) failed: the rest of a sentence the launcher completes with the bundle's name.
package struct SpawnFailure: Error {
    package let detail: String
}

/// A process started with `posix_spawn`, optionally in its own process group with piped standard streams.
///
/// Every descriptor of the parent is `O_CLOEXEC` (LockstepSystem opens them so, and the pipes here are made with
/// `pipe2(O_CLOEXEC)`), so the child inherits exactly stdin, stdout and stderr.
package final class SpawnedProcess: Sendable {
    package let pid: pid_t
    /// The write end of the child's stdin, when piped; `nil` once closed. Guarded, so a close from one thread
    /// (the reaper) and a write or close from another (a scenario step) can never touch a descriptor number the
    /// kernel has already handed to a newly launched bundle.
    private let stdin: Mutex<FileDescriptor?>
    /// The read ends of the child's stdout and stderr, when piped.
    package let stdout: FileDescriptor?
    package let stderr: FileDescriptor?
    /// Whether the child leads its own process group (signals then go to the whole group).
    package let ownGroup: Bool

    /// Starts `path` with `arguments` (argv[1…]) and exactly `environment`.
    ///
    /// - Parameters:
    ///   - ownGroup: `POSIX_SPAWN_SETPGROUP`: a terminal's Ctrl-C then reaches only the supervisor, which
    ///     forwards it, and teardown can signal everything the bundle started.
    ///   - pipes: pipe stdin, stdout and stderr (otherwise the child shares the parent's).
    /// - Throws: `SpawnFailure` saying what failed (the launcher names the bundle).
    package init(path: String, arguments: [String], environment: [String: String], ownGroup: Bool, pipes: Bool) throws(SpawnFailure) {
        var ends: [(parent: Int32, child: Int32)] = []
        func closeAll() { for end in ends { close(end.parent); close(end.child) } }
        if pipes {
            for index in 0..<3 {
                let fds: (read: FileDescriptor, write: FileDescriptor)
                do {
                    fds = try FileDescriptor.pipe()
                } catch {
                    closeAll()
                    throw SpawnFailure(detail: "pipe2: \(error)")
                }
                // stdin: the child reads the read end; stdout/stderr: the child writes the write end.
                ends.append(index == 0 ? (parent: fds.write.rawValue, child: fds.read.rawValue) : (parent: fds.read.rawValue, child: fds.write.rawValue))
            }
        }

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        // dup2 clears O_CLOEXEC on the target, so the child keeps exactly 0, 1 and 2.
        for (index, end) in ends.enumerated() { posix_spawn_file_actions_adddup2(&actions, end.child, Int32(index)) }
        // Our own descriptors are all O_CLOEXEC; one we inherited without it (a shell's, a test runner's) must
        // not reach the bundle either.
        if let closeFrom = Self.addCloseFrom { _ = closeFrom(&actions, 3) }

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var flags = Int32(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF)
        if ownGroup {
            flags |= Int32(POSIX_SPAWN_SETPGROUP)
            posix_spawnattr_setpgroup(&attributes, 0)
        }
        posix_spawnattr_setflags(&attributes, Int16(flags))
        // The supervisor blocks and ignores signals it handles itself; the child starts with the defaults.
        var empty = sigset_t()
        sigemptyset(&empty)
        posix_spawnattr_setsigmask(&attributes, &empty)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in [SIGPIPE, SIGXFSZ, SIGINT, SIGTERM, SIGHUP, SIGQUIT] { sigaddset(&defaults, signal) }
        posix_spawnattr_setsigdefault(&attributes, &defaults)

        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        let envp = environment.sorted { $0.key < $1.key }.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            for pointer in argv { free(pointer) }
            for pointer in envp { free(pointer) }
        }
        var child: pid_t = 0
        let result = posix_spawn(&child, path, &actions, &attributes, argv, envp)
        for end in ends { close(end.child) }
        guard result == 0 else {
            for end in ends { close(end.parent) }
            throw SpawnFailure(detail: "\(path): \(Errno(rawValue: result))")
        }
        pid = child
        self.ownGroup = ownGroup
        stdin = Mutex(pipes ? FileDescriptor(rawValue: ends[0].parent) : nil)
        stdout = pipes ? FileDescriptor(rawValue: ends[1].parent) : nil
        stderr = pipes ? FileDescriptor(rawValue: ends[2].parent) : nil
    }

    /// Writes `text` to the child's stdin.
    /// - Returns: `false` when stdin is not piped, already closed, or the child stopped reading it.
    package func writeStdin(_ text: String) -> Bool {
        stdin.withLock { fd in
            guard let descriptor = fd else { return false }
            return (try? descriptor.writeAll(Array(text.utf8), path: "stdin")) != nil
        }
    }

    /// Closes the child's stdin (it sees end of file). Closing twice does nothing.
    package func closeStdin() {
        stdin.withLock { fd in
            fd?.close()
            fd = nil
        }
    }

    /// glibc's `posix_spawn_file_actions_addclosefrom_np` (2.34+), looked up at run time (Glibc's Swift module does not export it).
    private static let addCloseFrom: (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32)? = {
        dlsym(UnsafeMutableRawPointer(bitPattern: 0), "posix_spawn_file_actions_addclosefrom_np").map {
            unsafeBitCast($0, to: (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32).self)
        }
    }()

    /// Sends `signal` to the child (to its whole process group when it leads one). Ignores a child already gone.
    package func signal(_ signal: Int32) {
        if ownGroup { _ = kill(-pid, signal) } else { _ = kill(pid, signal) }
    }

    /// Sends `signal` to the process group the child led, even once the child itself is gone: what it started in
    /// its group goes with it.
    package func signalGroup(_ signal: Int32) { _ = kill(-pid, signal) }

    /// Waits for the child to end (looping on EINTR) and reaps it.
    package func wait() -> Termination {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 {
            if errno != EINTR { return .unknown(.current) }
        }
        return Termination(waitStatus: status)
    }
}

/// SIGINT, SIGTERM and SIGHUP, which a launcher takes on one thread (sigwait) and turns into a teardown or
/// forwards to its child, instead of dying with children still running.
package enum TerminationSignals {
    private static var set: sigset_t {
        var set = sigset_t()
        sigemptyset(&set)
        for signal in [SIGINT, SIGTERM, SIGHUP] { sigaddset(&set, signal) }
        return set
    }

    /// Blocks them in the calling thread and so in every thread it starts afterwards: call before any thread exists.
    package static func block() {
        var set = set
        pthread_sigmask(SIG_BLOCK, &set, nil)
    }

    /// Waits until one arrives and returns it.
    package static func wait() -> Int32 {
        var set = set
        var signal: Int32 = 0
        sigwait(&set, &signal)
        return signal
    }
}

extension Program {
    /// Becomes the executable at `path`, run with `arguments` (its argv[0] is `path`), as `execv` does: returns only
    /// when that failed, with this process unchanged.
    package static func replace(with path: String, arguments: [String]) {
        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        execv(path, argv)
        for argument in argv { free(argument) }
    }

    /// The running executable's path (`/proc/self/exe`).
    package static var executablePath: String {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard count > 0 else { return "/proc/self/exe" }
        return String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
