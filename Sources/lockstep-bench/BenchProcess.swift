#if canImport(Glibc)
@preconcurrency import Glibc
#endif
import Foundation
import LockstepSystem

/// A process the bench starts and talks to over two pipes: it reads commands on its stdin and answers one
/// line per event on its stdout. The bench's workers are real separate processes, synchronised by these
/// pipes (a worker says `ready`, waits for `go`), never by sleeping.
final class BenchProcess {
    let pid: pid_t
    let executable: String
    private var toChild: Int32
    private let fromChild: Int32
    private var pending: [UInt8] = []
    /// The exit status once reaped.
    private(set) var status: Int32?

    /// Spawns `executable` with `arguments` (argv[1…]) and `environment` added to the bench's own.
    /// - Parameter quiet: send the child's stderr to /dev/null (a simulated process's chatter is not a result).
    init(_ executable: String, _ arguments: [String], environment: [String: String] = [:], quiet: Bool = false) throws {
        self.executable = executable
        // Close-on-exec on all four ends from the start: the child gets only the two it dups onto 0 and 1
        // (dup2 clears the flag).
        let inputPipe = try FileDescriptor.pipe(), outputPipe = try FileDescriptor.pipe()
        let input = [inputPipe.read.rawValue, inputPipe.write.rawValue]
        let output = [outputPipe.read.rawValue, outputPipe.write.rawValue]
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, input[0], 0)
        posix_spawn_file_actions_adddup2(&actions, output[1], 1)
        if quiet { posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0) }

        var env = BenchProcess.currentEnvironment()
        for (key, value) in environment { env[key] = value }
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp = env.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        var child: pid_t = 0
        let result = posix_spawn(&child, executable, &actions, nil, argv, envp)
        close(input[0])
        close(output[1])
        guard result == 0 else {
            close(input[1])
            close(output[0])
            throw SystemError(.process, path: executable, errno: Errno(rawValue: result))
        }
        pid = child
        toChild = input[1]
        fromChild = output[0]
    }

    /// A worker the bench gave up on (a figure failed half-way) is killed and reaped, never left behind.
    deinit {
        if toChild >= 0 { close(toChild) }
        close(fromChild)
        if status == nil {
            _ = Glibc.kill(pid, SIGKILL)
            wait()
        }
    }

    /// Sends one line to the child's stdin.
    func send(_ line: String) throws {
        let bytes = Array((line + "\n").utf8)
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeBytes { buffer in
                valueOrErrno { write(toChild, buffer.baseAddress! + offset, buffer.count - offset) }
            }
            switch n {
            case .success(let count): offset += count
            case .failure(let errno): throw SystemError(.write, path: "\(executable) (stdin)", errno: errno)
            }
        }
    }

    /// Closes the child's stdin: a worker waiting on it exits.
    func closeInput() {
        if toChild >= 0 { close(toChild) }
        toChild = -1
    }

    /// The next line the child prints, waiting at most `timeout` seconds for it.
    /// - Throws: `BenchError.workerFailed` if the child closes its stdout first (it died or failed) or stays silent.
    func readLine(timeout: Double = 60) throws -> String {
        let deadline = Monotonic.now + timeout
        while true {
            if let newline = pending.firstIndex(of: 0x0A) {
                let line = String(decoding: pending[..<newline], as: UTF8.self)
                pending.removeSubrange(...newline)
                return line
            }
            var poller = pollfd(fd: fromChild, events: Int16(POLLIN), revents: 0)
            let left = Int32(max(0, (deadline - Monotonic.now) * 1000))
            let ready = poll(&poller, 1, left)
            if ready == 0 {
                throw BenchError.workerFailed("\(Program.name(of: executable)) gave no answer within \(Int(timeout)) s")
            }
            if ready < 0 { continue }  // EINTR: poll again until the deadline.
            var chunk = [UInt8](repeating: 0, count: 4096)
            let n = chunk.withUnsafeMutableBytes { buffer in
                valueOrErrno { read(fromChild, buffer.baseAddress, buffer.count) }
            }
            switch n {
            case .success(0):
                throw BenchError.workerFailed("\(Program.name(of: executable)) exited (status \(wait())) before answering")
            case .success(let count): pending.append(contentsOf: chunk[0..<count])
            case .failure(let errno): throw SystemError(.read, path: "\(executable) (stdout)", errno: errno)
            }
        }
    }

    /// Reads lines until one starts with `prefix`, returning the rest of it.
    func expect(_ prefix: String, timeout: Double = 60) throws -> String {
        while true {
            let line = try readLine(timeout: timeout)
            if line.hasPrefix(prefix) { return String(line.dropFirst(prefix.count)).trimmingCharacters(in: .whitespaces) }
        }
    }

    /// Waits for the child to exit; returns its status, or 128 + the signal that killed it.
    @discardableResult
    func wait() -> Int32 {
        if let status { return status }
        var raw: Int32 = 0
        while waitpid(pid, &raw, 0) == -1 && errno == EINTR {}
        let low = raw & 0x7f
        let result = low == 0 ? (raw >> 8) & 0xff : 128 + low
        status = result
        return result
    }

    /// Closes stdin, waits, and throws unless the child exited 0.
    func finish() throws {
        closeInput()
        let result = wait()
        if result != 0 { throw BenchError.workerFailed("\(Program.name(of: executable)) exited with status \(result)") }
    }

    /// Sends `signal` to the child, unless it has been reaped (its pid may belong to another process by then).
    func kill(_ signal: Int32) {
        if status == nil { _ = Glibc.kill(pid, signal) }
    }

    static func currentEnvironment() -> [String: String] {
        var result: [String: String] = [:]
        var entry = environ
        while let pointer = entry.pointee {
            let text = String(cString: pointer)
            if let equals = text.firstIndex(of: "=") {
                result[String(text[..<equals])] = String(text[text.index(after: equals)...])
            }
            entry += 1
        }
        return result
    }
}

extension Program {
    static func name(of path: String) -> String { path.split(separator: "/").last.map(String.init) ?? path }
}

/// Where the bench's own executable and its siblings (`lockstep`, `lockstep-widget` …) are.
enum BenchPaths {
    /// This executable (`lockstep-bench`), which its workers run.
    static let own: String = {
        var buffer = [CChar](repeating: 0, count: 4096)
        let n = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        return n > 0 ? String(decoding: buffer[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self) : CommandLine.arguments[0]
    }()

    /// A built executable next to this one.
    static func sibling(_ name: String) -> String {
        let directory = own.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/")
        return "\(directory)/\(name)"
    }

    /// A fresh scratch directory for one figure, removed by `remove`.
    static func scratch(_ label: String) throws -> String {
        let path = FileManager.default.temporaryDirectory
            .appendingPathComponent("lockstep-bench-\(label)-\(getpid())-\(UUID().uuidString.prefix(8))").path
        try AtomicFile.createDirectories(path)
        return path
    }

    static func remove(_ path: String) {
        try? FileManager.default.removeItem(atPath: path)
    }
}
