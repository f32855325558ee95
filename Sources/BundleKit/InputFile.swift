import LockstepSystem


/// Reading the files `check` and `bump` are given, through LockstepSystem so every descriptor is `O_CLOEXEC`.
///
/// Foundation's `FileManager.contents(atPath:)`, `Data(contentsOf:)` and `String(contentsOfFile:)` open without
/// `O_CLOEXEC` on Linux (seen with strace), so a process launched meanwhile would inherit the descriptor.
/// Only regular files of bounded size and pipes (`lockstep check <(…)`) are read: a device such as `/dev/zero`
/// would never end.
package enum InputFile {
    /// The largest input read (a real project.pbxproj is a few MB).
    package static let maximumSize = 256 << 20

    /// The whole file at `path`, or nil when it does not exist.
    ///
    /// Opened without blocking and then examined (`fstat`), so a named pipe (FIFO) planted where a file belongs — an
    /// Info.plist, an xcconfig, a project.pbxproj — is refused at once instead of blocking `check` forever; a device
    /// or a folder likewise. Only `allowPipe` reads a pipe: the PATH a user gives (`lockstep check <(…)`).
    /// - Throws: `BundleError.unreadable` naming the file: a folder, a device, a FIFO, larger than `limit` bytes, or
    ///   the operating system's reason.
    package static func readIfExists(_ path: String, limit: Int = maximumSize, allowPipe: Bool = false) throws(BundleError) -> [UInt8]? {
        let fd: FileDescriptor
        do {
            fd = try FileDescriptor.openWithoutBlocking(path)
        } catch let error where error.errno == .noSuchFile {
            return nil
        } catch {
            throw unreadable(path, error)
        }
        defer { fd.close() }
        do {
            let status = try fd.status(path: path)
            switch status.kind {
            case .regular:
                guard status.size <= limit else {
                    throw BundleError(.unreadable, path: path, detail: "it is larger than \(limit >> 20) MB")
                }
            case .fifo where allowPipe:
                // Reading a pipe waits for its writer, as `<(…)` means it to.
                try fd.setBlocking(path: path)
            case .fifo: throw BundleError(.unreadable, path: path, detail: "it is a named pipe (FIFO), not a file")
            case .directory: throw BundleError(.unreadable, path: path, detail: "it is a folder, not a file")
            case .other: throw BundleError(.unreadable, path: path, detail: "it is a device or a socket, not a file")
            }
            // A regular file's size was checked against `limit`: read at once, never copied while growing.
            let bytes = try fd.readAll(path: path, capacity: status.kind == .regular ? limit : 64 << 20, limit: limit)
            // A pipe has no size to check first: it is refused once it has given more than `limit`.
            guard bytes.count <= limit else {
                throw BundleError(.unreadable, path: path, detail: "it is larger than \(limit >> 20) MB")
            }
            return bytes
        } catch let error as BundleError {
            throw error
        } catch {
            throw unreadable(path, error as? SystemError ?? SystemError(.read, path: path))
        }
    }

    /// `BundleError.unreadable` for a system error, naming the reason the operating system gave.
    package static func unreadable(_ path: String, _ error: SystemError) -> BundleError {
        BundleError(.unreadable, path: path, detail: error.errno.map { "\($0)" } ?? "it cannot be read")
    }

    /// The whole file at `path`.
    /// - Throws: `BundleError.unreadable` naming the file (`no such file` when it does not exist).
    package static func read(_ path: String, limit: Int = maximumSize, allowPipe: Bool = false) throws(BundleError) -> [UInt8] {
        guard let bytes = try readIfExists(path, limit: limit, allowPipe: allowPipe) else { throw BundleError(.unreadable, path: path, detail: "no such file") }
        return bytes
    }

    /// The whole file at `path`, or nil when it is missing or cannot be read (a folder, no permission).
    package static func readIfPresent(_ path: String) -> [UInt8]? {
        (try? readIfExists(path)) ?? nil
    }

    /// What can be read at `path`.
    package enum Kind { case file, pipe }

    /// Checks, before anything opens it, that `path` is a regular file of at most `limit` bytes or a pipe.
    /// - Returns: nil when nothing exists at `path`.
    package static func kind(_ path: String, limit: Int = maximumSize) throws(BundleError) -> Kind? {
        let status: FileStatus?
        do { status = try FileSystem.status(path) } catch { throw unreadable(path, error) }
        guard let status else { return nil }
        switch status.kind {
        case .regular:
            guard status.size <= limit else {
                throw BundleError(.unreadable, path: path, detail: "it is larger than \(limit >> 20) MB")
            }
            return .file
        case .fifo: return .pipe
        case .directory: throw BundleError(.unreadable, path: path, detail: "it is a folder, not a file")
        case .other: throw BundleError(.unreadable, path: path, detail: "it is a device or a socket, not a file")
        }
    }
}
