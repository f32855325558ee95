#if canImport(Glibc)
import Glibc
#endif

/// Whole-file reads and atomic replacement: a reader sees the old file or the new one, never a torn one
/// (RULES.md `files.atomic`).
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
