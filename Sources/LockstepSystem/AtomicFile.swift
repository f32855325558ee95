#if canImport(Glibc)
import Glibc
#endif

/// Whole-file reads and atomic replacement: a reader sees the old file or the new one, never a torn one
/// (rule `files.atomic`).
public enum AtomicFile {
    /// Replaces the file at `path` with `bytes`: temp file in the same directory → fsync → rename → fsync the directory.
    ///
    /// - Throws: `SystemError` naming `path`; the old contents are then unchanged and the temp file removed.
    public static func write(_ bytes: [UInt8], to path: String, mode: mode_t = 0o644) throws(SystemError) {
        try replace(bytes, at: path, mode: mode)
        try syncDirectory(parentDirectory(of: path))
    }

    /// `write` without its last step, the directory's fsync: for a caller replacing several files in one folder,
    /// which then calls `syncDirectory` once for all of them. Until then a crash may leave the old file in place,
    /// never a torn one.
    /// - Throws: `SystemError` naming `path`; the old contents are then unchanged and the temp file removed.
    public static func replace(_ bytes: [UInt8], at path: String, mode: mode_t = 0o644) throws(SystemError) {
        let directory = parentDirectory(of: path)
        let temporary = "\(directory)/.\(lastComponent(of: path)).\(getpid()).\(UInt32.random(in: 0 ... .max)).tmp"
        let fd: FileDescriptor
        do {
            fd = try FileDescriptor.open(temporary, O_WRONLY | O_CREAT | O_EXCL, mode: mode)
        } catch {
            // The sentence names the file being replaced, not the temp file the caller never chose.
            throw SystemError(.write, path: path, errno: error.errno)
        }
        var failure: SystemError?
        do {
            try fd.writeAll(bytes, path: path)
            try fd.sync(path: path)
        } catch {
            failure = error
        }
        fd.close()
        if failure == nil, case .failure(let errno) = valueOrErrno({ rename(temporary, path) }) {
            failure = SystemError(.write, path: path, errno: errno)
        }
        if let failure {
            unlink(temporary)
            throw failure
        }
    }

    /// `write` for a path a user names (a baseline, a project file): a symbolic link is written through — the
    /// file it finally points to is replaced atomically and the link stays a link — and a path that holds anything
    /// but a regular file (a folder, a FIFO, a device) is refused, nothing written. A new file gets `mode`; an
    /// existing one keeps its permissions unless `mode` is given.
    ///
    /// - Returns: the path of the file replaced (the link's target).
    /// - Throws: `SystemError(.notARegularFile)` naming `path`, or `.write` as `write` does; the old contents are
    ///   then unchanged.
    @discardableResult
    public static func writeThrough(_ bytes: [UInt8], to path: String, mode: mode_t? = nil) throws(SystemError) -> String {
        // What the path leads to, links followed, decides first: `/dev/stdout` ends at a pipe or a terminal through
        // links (`/proc/self/fd/1` → `pipe:[…]`) that name no file to replace.
        var info = stat()
        var permissions: mode_t = 0o644
        if stat(path, &info) == 0 {
            switch info.st_mode & S_IFMT {
            case S_IFREG: permissions = info.st_mode & 0o7777
            case S_IFDIR: throw SystemError(.notARegularFile(kind: "a folder"), path: path)
            case S_IFIFO: throw SystemError(.notARegularFile(kind: "a named pipe (FIFO)"), path: path)
            default: throw SystemError(.notARegularFile(kind: "a device or a socket"), path: path)
            }
        }
        // A regular file, or nothing yet (a new file, a dangling link's target): the end of its links is replaced.
        let target = try writeTarget(of: path)
        try write(bytes, to: target, mode: mode ?? permissions)
        return target
    }

    /// The file a write to `path` replaces: `path`, or the file its chain of symbolic links ends at (a relative
    /// link read against the link's folder), which need not exist yet. At most 40 links, as the kernel allows.
    /// - Throws: `SystemError(.write)` naming `path` when a link cannot be read or the chain is too long.
    public static func writeTarget(of path: String) throws(SystemError) -> String {
        var current = path
        for _ in 0..<40 {
            var info = stat()
            guard lstat(current, &info) == 0 else {
                if errno == ENOENT { return current }
                throw SystemError(.write, path: path, errno: .current)
            }
            guard info.st_mode & S_IFMT == S_IFLNK else { return current }
            var buffer = [UInt8](repeating: 0, count: Int(PATH_MAX) + 1)
            let count = buffer.withUnsafeMutableBufferPointer { pointer in
                pointer.baseAddress!.withMemoryRebound(to: CChar.self, capacity: pointer.count) { readlink(current, $0, pointer.count - 1) }
            }
            guard count >= 0 else { throw SystemError(.write, path: path, errno: .current) }
            let link = String(decoding: buffer[0..<count], as: UTF8.self)
            current = link.hasPrefix("/") ? link : parentDirectory(of: current) + "/" + link
        }
        throw SystemError(.write, path: path, errno: Errno(rawValue: ELOOP))
    }

    /// Replaces the file at `path` with the UTF-8 bytes of `text`.
    public static func write(_ text: String, to path: String, mode: mode_t = 0o644) throws(SystemError) {
        try write(Array(text.utf8), to: path, mode: mode)
    }

    /// Reads the whole file, or `nil` if it does not exist.
    public static func read(_ path: String) throws(SystemError) -> [UInt8]? {
        let fd: FileDescriptor
        do {
            fd = try FileDescriptor.open(path, O_RDONLY)
        } catch let error where error.errno == .noSuchFile {
            return nil
        }
        defer { fd.close() }
        return try fd.readAll(path: path)
    }

    /// Flushes a directory entry change (a rename, a new file) to the disk.
    public static func syncDirectory(_ directory: String) throws(SystemError) {
        let fd = try FileDescriptor.open(directory, O_RDONLY | O_DIRECTORY)
        defer { fd.close() }
        try fd.sync(path: directory)
    }

    /// Creates `path` and its missing parents (`mkdir -p`).
    ///
    /// From the bottom up: one `mkdir` when the folder or its parent exists (the usual case), instead of one per
    /// component of the path — a fresh groups root creates dozens of folders on the way to ready.
    public static func createDirectories(_ path: String, mode: mode_t = 0o755) throws(SystemError) {
        if path.isEmpty { return }  // as before: nothing to make
        if mkdir(path, mode) == 0 || errno == EEXIST { return }
        let failure = SystemError(.createDirectory, path: path, errno: .current)
        let parent = parentDirectory(of: path)
        guard failure.errno == .noSuchFile, parent != path, parent != "/", parent != "." else { throw failure }
        try createDirectories(parent, mode: mode)
        // Another process may create it meanwhile: that is success too.
        if mkdir(path, mode) != 0 && errno != EEXIST {
            throw SystemError(.createDirectory, path: path, errno: .current)
        }
    }

    /// The folder holding `path` (`.` for a bare name, `/` for a file at the root).
    public static func parentDirectory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    static func lastComponent(of path: String) -> String {
        path.split(separator: "/").last.map(String.init) ?? path
    }
}
