#if canImport(Glibc)
@preconcurrency import Glibc
#endif

/// Standard streams, set up the way every Lockstep executable needs them.
public enum Standard {
    /// Line-buffers stdout, so a pipe (the launcher's, a test's) gets each line as it is printed.
    ///
    /// Call first thing in every executable's `main`.
    public static func setUp() {
        setvbuf(stdout, nil, _IOLBF, 0)
        // A reader that went away must not kill a simulated process with SIGPIPE mid-write.
        signal(SIGPIPE, SIG_IGN)
        // Past RLIMIT_FSIZE a write fails with EFBIG, reported in one sentence like a full disk, instead of the
        // kernel killing the process silently (status 153).
        signal(SIGXFSZ, SIG_IGN)
    }

    /// Writes one whole line to stderr in a single call, so lines from several processes never interleave.
    /// Control characters a message quotes from a file are escaped (`printable`), never sent to the terminal.
    public static func error(_ line: String) {
        var bytes = Array(printable(line).utf8)
        bytes.append(0x0A)
        _ = bytes.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
    }

    /// An error as one line on stderr, prefixed with the program's name: its sentence when it has one.
    public static func error(_ error: any Error) {
        self.error("\(Program.name): \((error as? any ReportableError)?.description ?? "\(error)")")
    }

    /// `text` with every control character but newline and tab written as `\u{1B}`: messages quote names and values
    /// from files a pull request may change, and an escape sequence in one must not reach the reader's terminal.
    public static func printable(_ text: String) -> String {
        func isControl(_ scalar: Unicode.Scalar) -> Bool {
            (scalar.value < 0x20 && scalar != "\n" && scalar != "\t") || (0x7F...0x9F).contains(scalar.value)
        }
        guard text.unicodeScalars.contains(where: isControl) else { return text }
        var result = ""
        for scalar in text.unicodeScalars {
            if isControl(scalar) { result += "\\u{\(String(scalar.value, radix: 16, uppercase: true))}" } else { result.unicodeScalars.append(scalar) }
        }
        return result
    }

    /// Whether the descriptor is a terminal (colour only then).
    public static func isTerminal(_ fd: Int32) -> Bool { isatty(fd) == 1 }
}

/// The running program.
public enum Program {
    /// The program name for messages: the last path component of argv[0].
    public static var name: String {
        let argv0 = CommandLine.arguments.first ?? "lockstep"
        return argv0.split(separator: "/").last.map(String.init) ?? argv0
    }
}

/// Signals to other processes and this one's handling of SIGPIPE, for code outside LockstepSystem (test harnesses).
public enum ProcessSignals {
    /// A child that exits before reading its stdin must not kill the writer with SIGPIPE.
    public static func ignoreBrokenPipes() { signal(SIGPIPE, SIG_IGN) }

    /// Sends `signal` (SIGKILL when nil) to the process `pid`.
    public static func send(_ signal: Int32? = nil, to pid: Int32) { _ = Glibc.kill(pid, signal ?? SIGKILL) }

    public static let kill: Int32 = SIGKILL
    public static let terminate: Int32 = SIGTERM
    public static let stop: Int32 = SIGSTOP
    public static let resume: Int32 = SIGCONT
}
