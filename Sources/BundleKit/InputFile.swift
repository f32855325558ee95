import LockstepSystem

/// Reading the files `check` and `bump` are given, through LockstepSystem so every descriptor is `O_CLOEXEC`.
///
/// Foundation's `FileManager.contents(atPath:)`, `Data(contentsOf:)` and `String(contentsOfFile:)` open without
/// `O_CLOEXEC` on Linux (seen with strace), so a process launched meanwhile would inherit the descriptor.
enum InputFile {
    /// The whole file at `path`.
    /// - Throws: `BundleError.unreadable` naming the file, with the operating system's reason.
    static func read(_ path: String) throws(BundleError) -> [UInt8] {
        let bytes: [UInt8]?
        do {
            bytes = try AtomicFile.read(path)
        } catch {
            throw BundleError(.unreadable, path: path, detail: error.errno.map { "\($0)" } ?? "read failed")
        }
        guard let bytes else { throw BundleError(.unreadable, path: path, detail: "no such file") }
        return bytes
    }

    /// The whole file at `path`, or nil when it is missing or cannot be read (a folder, no permission).
    static func readIfPresent(_ path: String) -> [UInt8]? {
        (try? AtomicFile.read(path)) ?? nil
    }
}
