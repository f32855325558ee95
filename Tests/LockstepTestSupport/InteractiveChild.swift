import Foundation

/// A long-running child driven line by line, as a scenario drives a bundle: `send` writes one line to its stdin,
/// `waitForLine` waits (bounded) for a stdout line containing a text, counting only lines after a mark.
public final class InteractiveChild: @unchecked Sendable {  // @unchecked: output is guarded by `condition`.
    public let process = Foundation.Process()
    private let input: FileHandle
    private let condition = NSCondition()
    private var lines: [String] = []
    private var errors: [String] = []
    private var closed = false

    /// Starts `executable` (a name in `TestSupport.binDirectory`, or a path) with stdin kept open.
    public init(_ executable: String, _ arguments: [String] = [], environment: [String: String] = [:]) throws {
        // A child that exits before reading its stdin must not kill the whole test run with SIGPIPE.
        Glibc.signal(SIGPIPE, SIG_IGN)
        process.executableURL = URL(fileURLWithPath: executable.contains("/") ? executable : TestSupport.executable(executable))
        process.arguments = arguments
        var env = ProcessInfo.processInfo.environment
        for (key, value) in environment { env[key] = value }
        process.environment = env
        let outPipe = Pipe(), errPipe = Pipe(), inPipe = Pipe()
        process.standardOutput = outPipe
        process.standardError = errPipe
        process.standardInput = inPipe
        input = inPipe.fileHandleForWriting
        try process.run()
        collect(outPipe.fileHandleForReading, stdout: true)
        collect(errPipe.fileHandleForReading, stdout: false)
    }

    private func collect(_ handle: FileHandle, stdout: Bool) {
        Thread.detachNewThread { [self] in
            var pending = Data()
            while true {
                let chunk = handle.availableData
                condition.lock()
                pending.append(chunk)
                while let newline = pending.firstIndex(of: 0x0A) {
                    let line = String(decoding: pending[pending.startIndex..<newline], as: UTF8.self)
                    if stdout { lines.append(line) } else { errors.append(line) }
                    pending.removeSubrange(pending.startIndex...newline)
                }
                if chunk.isEmpty && stdout { closed = true }
                condition.broadcast()
                condition.unlock()
                if chunk.isEmpty { return }
            }
        }
    }

    public var pid: Int32 { process.processIdentifier }

    /// How many stdout lines have arrived: pass it to `waitForLine(_:after:)` to look only at later lines.
    public var mark: Int { condition.withLock { lines.count } }

    /// Every stdout line so far.
    public var output: [String] { condition.withLock { lines } }

    /// Every stderr line so far.
    public var errorOutput: [String] { condition.withLock { errors } }

    /// Writes `line` and a newline to the child's stdin.
    public func send(_ line: String) {
        try? input.write(contentsOf: Data((line + "\n").utf8))
    }

    /// Waits (at most `timeout` seconds) for a stdout line, after line number `after`, containing `text`.
    /// - Returns: the line, or nil when the wait ran out or stdout closed.
    @discardableResult
    public func waitForLine(_ text: String, after: Int = 0, timeout: Double = 20) -> String? {
        let deadline = Date(timeIntervalSinceNow: timeout)
        condition.lock(); defer { condition.unlock() }
        while true {
            if let line = lines.dropFirst(after).first(where: { $0.contains(text) }) { return line }
            if closed || !condition.wait(until: deadline) { return lines.dropFirst(after).first(where: { $0.contains(text) }) }
        }
    }

    /// Closes stdin (the child's command loop ends) and waits for the exit (SIGKILL after `timeout`).
    /// - Returns: the exit status, or 128 + signal.
    @discardableResult
    public func finish(timeout: Double = 20) -> Int32 {
        try? input.close()
        let deadline = Date(timeIntervalSinceNow: timeout)
        while process.isRunning && Date() < deadline { usleep(5_000) }
        if process.isRunning { kill(pid, SIGKILL) }
        process.waitUntilExit()
        return process.terminationReason == .uncaughtSignal ? 128 + process.terminationStatus : process.terminationStatus
    }

    deinit {
        if process.isRunning { kill(pid, SIGKILL) }
    }
}
