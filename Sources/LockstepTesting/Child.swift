import Foundation
import LockstepSystem

/// The outcome of a finished child process.
public struct ProcessResult: Sendable, CustomStringConvertible {
    /// The exit status, or 128 + signal number when it was killed by a signal.
    public var status: Int32
    public var stdout: String
    public var stderr: String
    public var description: String { "exit \(status)\nstdout:\n\(stdout)\nstderr:\n\(stderr)" }
}

/// A child process started from a test, with its output collected by background readers: bounded waits for a
/// line, stdin kept open for commands, and a kill at the end of the wait so that no test hangs.
public final class Child: @unchecked Sendable {  // @unchecked: output buffers are guarded by `condition`.
    /// Where a bare executable name is looked up: `LOCKSTEP_BIN_DIR`, else the folder of the running test binary
    /// (where `swift build` puts a package's executables).
    public static var binDirectory: URL {
        if let override = ProcessInfo.processInfo.environment["LOCKSTEP_BIN_DIR"] {
            return URL(fileURLWithPath: override)
        }
        // …/debug/<Package>PackageTests.xctest is the test executable on Linux.
        return URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()
    }

    public let process = Foundation.Process()
    private let condition = NSCondition()
    private var out = Data()
    private var err = Data()
    private var outClosed = false
    private var errClosed = false
    private var input: FileHandle?

    /// Starts `executable` (a name in `Child.binDirectory`, or a path) with `arguments` and extra environment.
    /// - Parameter keepStdinOpen: leave the child's stdin open for `send(_:)` (a start barrier, a command);
    ///   otherwise it is closed once `stdin` is written.
    /// - Parameter currentDirectory: the child's working directory (the test's, when nil).
    public init(_ executable: String, _ arguments: [String] = [], environment: [String: String] = [:], stdin: Data? = nil,
                keepStdinOpen: Bool = false, currentDirectory: String? = nil) throws {
        // A child that exits before reading its stdin must not kill the whole test run with SIGPIPE.
        ProcessSignals.ignoreBrokenPipes()
        process.executableURL = URL(fileURLWithPath: executable.contains("/") ? executable : Child.binDirectory.appendingPathComponent(executable).path)
        process.arguments = arguments
        if let currentDirectory { process.currentDirectoryURL = URL(fileURLWithPath: currentDirectory) }
        var env = ProcessInfo.processInfo.environment
        for (key, value) in environment { env[key] = value }
        process.environment = env
        let outPipe = Pipe(), errPipe = Pipe(), inPipe = Pipe()
        process.standardOutput = outPipe
        process.standardError = errPipe
        process.standardInput = inPipe
        try process.run()
        // The throwing write: a child may exit without reading its stdin (bad input is refused at once), and then the
        // write fails with EPIPE, where the non-throwing `write(_:)` traps and takes the whole test run down.
        if let stdin { try? inPipe.fileHandleForWriting.write(contentsOf: stdin) }
        if keepStdinOpen {
            input = inPipe.fileHandleForWriting
        } else {
            try? inPipe.fileHandleForWriting.close()
        }
        read(outPipe.fileHandleForReading, isOut: true)
        read(errPipe.fileHandleForReading, isOut: false)
    }

    private func read(_ handle: FileHandle, isOut: Bool) {
        Thread.detachNewThread { [self] in
            while true {
                let chunk = handle.availableData
                condition.lock()
                if chunk.isEmpty {
                    if isOut { outClosed = true } else { errClosed = true }
                } else if isOut { out.append(chunk) } else { err.append(chunk) }
                condition.broadcast()
                condition.unlock()
                if chunk.isEmpty { return }
            }
        }
    }

    public var pid: Int32 { process.processIdentifier }

    /// Writes `text` to the child's stdin (started with `keepStdinOpen`); a child that has exited is ignored.
    public func send(_ text: String) {
        try? input?.write(contentsOf: Data(text.utf8))
    }

    /// Closes the child's stdin (end of input), if it was kept open.
    public func closeStdin() {
        try? input?.close()
        input = nil
    }

    /// Writes `line` and a newline to the child's stdin (started with `keepStdinOpen`): one command.
    public func sendLine(_ line: String) { send(line + "\n") }

    /// The complete lines of `data` (a last line without its newline is not complete yet).
    private static func lines(_ data: Data) -> [String] {
        var lines = data.split(separator: 0x0A, omittingEmptySubsequences: false).map { String(decoding: $0, as: UTF8.self) }
        lines.removeLast()
        return lines
    }

    /// Every complete stdout line so far.
    public var output: [String] { condition.withLock { Self.lines(out) } }

    /// Every complete stderr line so far.
    public var errorOutput: [String] { condition.withLock { Self.lines(err) } }

    /// How many stdout lines have arrived: pass it to `waitForLine(_:after:timeout:)` to look only at later lines.
    public var mark: Int { output.count }

    /// Waits (at most `timeout` seconds) for a complete stdout line, after line number `after`, containing `text`.
    /// - Returns: the line, or nil when the wait ran out or stdout closed.
    @discardableResult
    public func waitForLine(_ text: String, after: Int = 0, timeout: Double = 20) -> String? {
        let deadline = Date(timeIntervalSinceNow: timeout)
        condition.lock(); defer { condition.unlock() }
        while true {
            let found = Self.lines(out).dropFirst(after).first { $0.contains(text) }
            if found != nil || outClosed || !condition.wait(until: deadline) {
                return found ?? Self.lines(out).dropFirst(after).first { $0.contains(text) }
            }
        }
    }

    /// Closes stdin (a command loop ends) and waits for the exit, SIGKILL after `timeout` seconds.
    /// - Returns: the exit status, or 128 + signal.
    @discardableResult
    public func finish(timeout: Double = 20) -> Int32 { wait(timeout: timeout).status }

    /// What the child has printed on stdout so far.
    public var stdoutSoFar: String {
        condition.lock(); defer { condition.unlock() }
        return String(decoding: out, as: UTF8.self)
    }

    /// Waits (at most `timeout` seconds) until stdout contains `text`; returns whether it did.
    @discardableResult
    public func waitForOutput(_ text: String, timeout: Double = 20) -> Bool {
        let deadline = Date(timeIntervalSinceNow: timeout)
        condition.lock(); defer { condition.unlock() }
        while !String(decoding: out, as: UTF8.self).contains(text) {
            if outClosed || !condition.wait(until: deadline) { return String(decoding: out, as: UTF8.self).contains(text) }
        }
        return true
    }

    /// A test that fails early must not leave its child running.
    deinit {
        if process.isRunning { ProcessSignals.send(to: process.processIdentifier) }
    }

    /// Sends a signal to the child.
    public func signal(_ signal: Int32) { ProcessSignals.send(signal, to: process.processIdentifier) }

    /// Closes its stdin, then waits (at most `timeout` seconds, then SIGKILL) for the child to exit and its output to close.
    public func wait(timeout: Double = 60) -> ProcessResult {
        closeStdin()  // Nothing more will be sent: a child reading its stdin sees the end and can exit.
        let deadline = Date(timeIntervalSinceNow: timeout)
        condition.lock()
        while !(outClosed && errClosed) {
            if !condition.wait(until: deadline) {
                condition.unlock()
                ProcessSignals.send(to: process.processIdentifier)
                condition.lock()
                break
            }
        }
        condition.unlock()
        process.waitUntilExit()
        condition.lock(); defer { condition.unlock() }
        let status = process.terminationReason == .uncaughtSignal ? 128 + process.terminationStatus : process.terminationStatus
        return ProcessResult(status: status, stdout: String(decoding: out, as: UTF8.self), stderr: String(decoding: err, as: UTF8.self))
    }
}
