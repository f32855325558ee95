#if canImport(Glibc)
import Glibc
#endif

/// An open file descriptor. Always opened with `O_CLOEXEC`, so a launched child never inherits it.
public struct FileDescriptor: Sendable {
    public let rawValue: Int32

    public init(rawValue: Int32) { self.rawValue = rawValue }

    /// Opens `path` with `flags`, always adding `O_CLOEXEC` (the corresponding C constant).
    public static func open(_ path: String, _ flags: Int32, mode: mode_t = 0o644) throws(SystemError) -> FileDescriptor {
        switch valueOrErrno({ Glibc.open(path, flags | O_CLOEXEC, mode) }) {
        case .success(let fd): return FileDescriptor(rawValue: fd)
        case .failure(let errno): throw SystemError(.open, path: path, errno: errno)
        }
    }

    /// Creates a pipe whose ends are `O_CLOEXEC` from the start (`pipe2(2)`), so a process spawned on another
    /// thread at that moment can never inherit them.
    public static func pipe() throws(SystemError) -> (read: FileDescriptor, write: FileDescriptor) {
        var ends: [Int32] = [0, 0]
        guard pipe2(&ends, O_CLOEXEC) == 0 else { throw SystemError(.open, path: "a pipe", errno: .current) }
        return (FileDescriptor(rawValue: ends[0]), FileDescriptor(rawValue: ends[1]))
    }

    /// `pipe2(2)`, which Glibc's Swift module does not export (it needs `_GNU_SOURCE`), looked up at run time.
    private static let pipe2: @convention(c) (UnsafeMutablePointer<Int32>, Int32) -> Int32 = {
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "pipe2") else { fatalError("libc has no pipe2") }
        return unsafeBitCast(symbol, to: (@convention(c) (UnsafeMutablePointer<Int32>, Int32) -> Int32).self)
    }()

    /// Closes the descriptor. Never retried: Linux frees it even when `close(2)` reports EINTR.
    public func close() {
        _ = Glibc.close(rawValue)
    }

    /// Runs `body`, then closes the descriptor, whatever happened.
    public func closeAfter<R>(_ body: (FileDescriptor) throws -> R) rethrows -> R {
        defer { close() }
        return try body(self)
    }

    /// Writes every byte, retrying short writes and EINTR.
    public func writeAll(_ bytes: [UInt8], path: String) throws(SystemError) {
        var offset = 0
        while offset < bytes.count {
            let result = bytes.withUnsafeBytes { buffer in
                valueOrErrno { Glibc.write(rawValue, buffer.baseAddress! + offset, buffer.count - offset) }
            }
            switch result {
            case .success(let n): offset += n
            case .failure(let errno): throw SystemError(.write, path: path, errno: errno)
            }
        }
    }

    /// Reads the rest of the file.
    public func readAll(path: String) throws(SystemError) -> [UInt8] {
        var result: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = chunk.withUnsafeMutableBytes { buffer in
                valueOrErrno { Glibc.read(rawValue, buffer.baseAddress, buffer.count) }
            }
            switch n {
            case .success(0): return result
            case .success(let count): result.append(contentsOf: chunk[0..<count])
            case .failure(let errno): throw SystemError(.read, path: path, errno: errno)
            }
        }
    }

    /// Reads up to `count` bytes at `offset` (`pread(2)`), retrying short reads and EINTR; fewer only at the end of
    /// the file. The file offset is not moved, so one descriptor can serve readers at different positions.
    public func read(at offset: Int, count: Int, path: String) throws(SystemError) -> [UInt8] {
        var buffer = [UInt8](repeating: 0, count: count)
        var filled = 0
        while filled < count {
            let result = buffer.withUnsafeMutableBytes { raw in
                valueOrErrno { pread(rawValue, raw.baseAddress! + filled, count - filled, off_t(offset + filled)) }
            }
            switch result {
            case .success(0): return Array(buffer[..<filled])
            case .success(let n): filled += n
            case .failure(let errno): throw SystemError(.read, path: path, errno: errno)
            }
        }
        return buffer
    }

    /// Flushes the file's data and metadata to the disk (`fsync(2)`).
    public func sync(path: String) throws(SystemError) {
        if case .failure(let errno) = valueOrErrno({ fsync(rawValue) }) {
            throw SystemError(.write, path: path, errno: errno)
        }
    }
}
