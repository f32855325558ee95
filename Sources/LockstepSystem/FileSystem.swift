#if canImport(Glibc)
@preconcurrency import Glibc
#endif

/// The raw file-system calls the libraries need beyond descriptors, locks and atomic files, so that none of them
/// calls the C library itself.
package enum FileSystem {
    /// What `stat(2)` says of `path` (following symlinks), or nil when nothing is there.
    /// - Throws: `SystemError(.read)` for any other reason it cannot be examined.
    package static func status(_ path: String) throws(SystemError) -> FileStatus? {
        var info = stat()
        guard stat(path, &info) == 0 else {
            let error = Errno.current
            if error == .noSuchFile { return nil }
            throw SystemError(.read, path: path, errno: error)
        }
        return FileStatus(info)
    }

    /// Whether this process may write `path` and its mode has a write bit (a file its owner made read-only is not
    /// writable here even for root, who may write anything).
    package static func isWritable(_ path: String) -> Bool {
        var info = stat()
        guard stat(path, &info) == 0 else { return true }  // a file that vanished is reported by the write
        return access(path, W_OK) == 0 && info.st_mode & 0o222 != 0
    }

    /// Whether `text` matches the shell pattern `pattern` (`fnmatch(3)`: `*`, `?`, `[…]`).
    package static func matches(_ pattern: String, _ text: String) -> Bool { fnmatch(pattern, text, 0) == 0 }

    /// Whether `path` is certainly absent (`ENOENT`), as opposed to present or unreadable.
    package static func isMissing(_ path: String) -> Bool { access(path, F_OK) != 0 && errno == ENOENT }

    /// Removes the file at `path`; one already gone is fine.
    /// - Throws: `SystemError(.write)` for any other failure.
    package static func removeIfPresent(_ path: String) throws(SystemError) {
        if unlink(path) != 0, errno != ENOENT { throw SystemError(.write, path: path, errno: .current) }
    }

    /// Sets `path`'s times to now (`utimensat(2)`): a change its watchers see (IN_ATTRIB), the contents untouched.
    package static func touch(_ path: String) { _ = utimensat(AT_FDCWD, path, nil, 0) }

    /// Whether anything exists at `path` (a dangling symlink counts).
    package static func exists(_ path: String) -> Bool { access(path, F_OK) == 0 || isSymbolicLink(path) }

    /// Whether this process may execute `path` (access X_OK).
    package static func isExecutable(_ path: String) -> Bool { access(path, X_OK) == 0 }

    /// Whether `path` is a regular file this process may execute.
    package static func isExecutableFile(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG && access(path, X_OK) == 0
    }

    /// Whether `path` itself (not what it points to) is a symbolic link.
    package static func isSymbolicLink(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFLNK
    }

    /// `path` with every symlink, `.` and `..` resolved, or nil when it (or a folder on the way) does not exist.
    package static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// Removes the file at `path`; a file already gone is no error (callers clean up after themselves).
    /// Removes the file at `path` (`unlink(2)`); whether it was there to remove.
    @discardableResult
    package static func remove(_ path: String) -> Bool { unlink(path) == 0 }

    /// Renames `source` to `destination` atomically (`rename(2)`); false when `source` is gone (another process
    /// claimed it first) or the rename failed.
    package static func rename(_ source: String, to destination: String) -> Bool { Glibc.rename(source, destination) == 0 }

    /// Inode, size and modification time of `path` (nil when it does not exist): changes whenever the file is
    /// replaced or written.
    package static func signature(_ path: String) -> [Int]? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return [Int(info.st_ino), Int(info.st_size), Int(info.st_mtim.tv_sec), Int(info.st_mtim.tv_nsec)]
    }
}

/// The process's environment, read with getenv: Foundation's ProcessInfo builds (and type-checks) the whole
/// environment on first use, a visible part of a bundle's start-up.
package enum ProcessEnvironment {
    /// This process's id.
    package static var processID: Int32 { getpid() }

    /// The variable's value, or nil when it is unset or empty.
    package static func value(_ name: String) -> String? {
        guard let value = getenv(name), value.pointee != 0 else { return nil }
        return String(cString: value)
    }

    /// Sets a variable of this process (before other threads read the environment: at a process's start).
    package static func set(_ name: String, _ value: String) { setenv(name, value, 1) }
}

/// Wall-clock time in seconds since 1970.
/// Sleeping the calling thread, for polls whose condition has no notification.
package enum Pause {
    package static func microseconds(_ count: UInt32) { usleep(count) }
}

package enum WallClock {
    package static var now: Double {
        var ts = timespec()
        clock_gettime(CLOCK_REALTIME, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }
}

/// UTC calendar days, without Foundation's Calendar (the widget computes one on every render).
package enum UTCCalendar {
    /// Year, month (1–12) and day of month of `time` (seconds since 1970).
    package static func date(of time: Double) -> (year: Int, month: Int, day: Int) {
        var seconds = time_t(time.rounded(.down))
        var parts = tm()
        gmtime_r(&seconds, &parts)
        return (Int(parts.tm_year) + 1900, Int(parts.tm_mon) + 1, Int(parts.tm_mday))
    }

    /// Midnight UTC starting that day, in seconds since 1970.
    package static func start(year: Int32, month: Int32, day: Int32) -> Double {
        var parts = tm()
        parts.tm_year = year - 1900
        parts.tm_mon = month - 1
        parts.tm_mday = day
        return Double(timegm(&parts))
    }
}

/// What `stat(2)` says of a file: its kind, size and permission bits.
public struct FileStatus: Sendable, Equatable {
    public enum Kind: Sendable, Equatable { case regular, directory, fifo, other }
    public let kind: Kind
    public let size: Int
    /// The permission bits (`st_mode & 0o7777`).
    public let permissions: UInt32

    init(_ info: stat) {
        switch info.st_mode & S_IFMT {
        case S_IFREG: kind = .regular
        case S_IFDIR: kind = .directory
        case S_IFIFO: kind = .fifo
        default: kind = .other
        }
        size = Int(info.st_size)
        permissions = UInt32(info.st_mode & 0o7777)
    }
}

/// Which version of a file a cache was built from (`stat(2)`): a replaced file (rename) has another inode, an
/// appended one another size, a rewritten one another mtime.
public struct FileVersion: Sendable, Equatable {
    public var device: UInt64
    public var inode: UInt64
    public var size: Int64
    public var modified: Int64
    public var modifiedNanoseconds: Int64
    /// Names the file has: 0 once a rename replaced it or it was removed (seen through an open descriptor).
    public var links: UInt64

    /// The version of the file at `path` (a symlink followed), or nil when there is none or it cannot be read.
    public init?(path: String) {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        self.init(info)
    }

    init(_ info: stat) {
        device = UInt64(info.st_dev)
        inode = UInt64(info.st_ino)
        size = Int64(info.st_size)
        modified = Int64(info.st_mtim.tv_sec)
        modifiedNanoseconds = Int64(info.st_mtim.tv_nsec)
        links = UInt64(info.st_nlink)
    }

    /// Whether both are versions of one file (same device and inode), whatever was written to it meanwhile.
    public func isSameFile(as other: FileVersion?) -> Bool { other.map { $0.device == device && $0.inode == inode } ?? false }
}
