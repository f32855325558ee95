#if canImport(Glibc)
import Glibc
#endif
import CLinux

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
        guard lockstep_pipe2(&ends, O_CLOEXEC) == 0 else { throw SystemError(.open, path: "a pipe", errno: .current) }
        return (FileDescriptor(rawValue: ends[0]), FileDescriptor(rawValue: ends[1]))
    }

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
    /// - Parameter capacity: the most bytes read at once into an array of the file's size (a caller that checked the
    ///   size against its own limit passes that limit: a 300 MB executable grown past 64 MiB chunk by chunk cost
    ///   twice its size while the array was copied).
    /// - Parameter limit: reads stop once more than `limit` bytes are in hand (the caller sees `count > limit` and
    ///   refuses): a pipe (`--baseline <(yes)`) has no size to check first.
    public func readAll(path: String, capacity: Int = 64 << 20, limit: Int = .max) throws(SystemError) -> [UInt8] {
        // A file is read straight into an array of its size, plus a byte to see the end: grown chunk by chunk, a
        // large file (a project.pbxproj) was copied again at each doubling, each time into fresh pages. What that
        // does not hold (a pipe, a file still growing, more than `capacity` at once) is read on in chunks.
        let size = min((try? sizeAndLinks(path: path).size) ?? 0, capacity)
        var failure: Errno?
        var result = [UInt8](unsafeUninitializedCapacity: size + 1) { buffer, count in
            count = 0
            while count < buffer.count {
                switch valueOrErrno({ Glibc.read(rawValue, buffer.baseAddress! + count, buffer.count - count) }) {
                case .success(0): return
                case .success(let n): count += n
                case .failure(let errno): failure = errno; return
                }
            }
        }
        if let failure { throw SystemError(.read, path: path, errno: failure) }
        guard result.count > size else { return result }
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = chunk.withUnsafeMutableBytes { buffer in
                valueOrErrno { Glibc.read(rawValue, buffer.baseAddress, buffer.count) }
            }
            switch n {
            case .success(0): return result
            case .success(let count):
                result.append(contentsOf: chunk[0..<count])
                if result.count > limit { return result }
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

    /// One `pread(2)` of at most `buffer.count` bytes at `offset` into `buffer`, retrying EINTR: the count read,
    /// fewer than asked at the end of the file (0 there). For a caller reading into its own reused buffer.
    public func read(into buffer: UnsafeMutableRawBufferPointer, at offset: Int, path: String) throws(SystemError) -> Int {
        switch valueOrErrno({ pread(rawValue, buffer.baseAddress, buffer.count, off_t(offset)) }) {
        case .success(let count): return count
        case .failure(let errno): throw SystemError(.read, path: path, errno: errno)
        }
    }

    /// Writes every byte at `offset` (`pwrite(2)`), retrying short writes and EINTR; the file offset is not moved.
    public func write(_ bytes: [UInt8], at offset: Int, path: String) throws(SystemError) {
        var written = 0
        while written < bytes.count {
            let result = bytes.withUnsafeBytes { buffer in
                valueOrErrno { pwrite(rawValue, buffer.baseAddress! + written, buffer.count - written, off_t(offset + written)) }
            }
            switch result {
            case .success(let count): written += count
            case .failure(let errno): throw SystemError(.write, path: path, errno: errno)
            }
        }
    }

    /// Cuts the file to `size` bytes (`ftruncate(2)`).
    public func truncate(to size: Int, path: String) throws(SystemError) {
        if case .failure(let errno) = valueOrErrno({ ftruncate(rawValue, off_t(size)) }) {
            throw SystemError(.write, path: path, errno: errno)
        }
    }

    /// Which version of the open file this is (`fstat(2)`), or nil when it cannot be read.
    public func version() -> FileVersion? {
        var info = stat()
        guard fstat(rawValue, &info) == 0 else { return nil }
        return FileVersion(info)
    }

    /// The file's size and link count (0 once it was renamed over or removed), from `statx(2)` asking for nothing
    /// else. Unlike `fstat`, it leaves the file's timestamps unread: on Linux 6.13+ filesystems with multigrain
    /// timestamps, reading them makes the next write stamp a fine-grained time and dirty the inode — a cost every
    /// append then pays while another process keeps looking.
    public func sizeAndLinks(path: String) throws(SystemError) -> (size: Int, links: Int) {
        var size: Int64 = 0
        var links: UInt32 = 0
        if case .failure(let errno) = valueOrErrno({ lockstep_size_and_links(rawValue, &size, &links) }) {
            throw SystemError(.read, path: path, errno: errno)
        }
        return (Int(size), Int(links))
    }

    /// Opens `path` to read without blocking: a named pipe with no writer opens at once, so the caller can examine
    /// what it opened (`status`) before it reads, instead of waiting in `open(2)`.
    public static func openWithoutBlocking(_ path: String) throws(SystemError) -> FileDescriptor {
        try open(path, O_RDONLY | O_NONBLOCK)
    }

    /// `openWithoutBlocking`, refusing a symlink as the last component (`ELOOP`): for files another process may
    /// have planted, whose link would make Lockstep read what it names (a page showing `/etc/passwd`).
    public static func openWithoutFollowing(_ path: String) throws(SystemError) -> FileDescriptor {
        try open(path, O_RDONLY | O_NONBLOCK | O_NOFOLLOW)
    }

    /// What `fstat(2)` says of the open file.
    public func status(path: String) throws(SystemError) -> FileStatus {
        var info = stat()
        if case .failure(let errno) = valueOrErrno({ fstat(rawValue, &info) }) {
            throw SystemError(.read, path: path, errno: errno)
        }
        return FileStatus(info)
    }

    /// Clears `O_NONBLOCK`: a descriptor opened without blocking (to examine what it is) that should now wait for
    /// data, as a pipe's reader does.
    public func setBlocking(path: String) throws(SystemError) {
        let flags = fcntl(rawValue, F_GETFL)
        guard flags >= 0, fcntl(rawValue, F_SETFL, flags & ~O_NONBLOCK) == 0 else {
            throw SystemError(.read, path: path, errno: .current)
        }
    }

    /// One `read(2)` of at most `count` bytes from the current position (fewer at the end of the file).
    public func read(upTo count: Int, path: String) throws(SystemError) -> [UInt8] {
        var buffer = [UInt8](repeating: 0, count: count)
        let result = buffer.withUnsafeMutableBytes { raw in valueOrErrno { Glibc.read(rawValue, raw.baseAddress, count) } }
        switch result {
        case .success(let n): return Array(buffer[0..<n])
        case .failure(let errno): throw SystemError(.read, path: path, errno: errno)
        }
    }

    /// Flushes the file's data and metadata to the disk (`fsync(2)`).
    public func sync(path: String) throws(SystemError) {
        if case .failure(let errno) = valueOrErrno({ fsync(rawValue) }) {
            throw SystemError(.write, path: path, errno: errno)
        }
    }
}
