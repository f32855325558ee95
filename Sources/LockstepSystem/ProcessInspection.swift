#if canImport(Glibc)
import Glibc
#endif

/// What the supervisor reads about its children from `/proc`: memory footprint, run state, and held file locks.
package enum ProcessInspection {
    /// The process's anonymous resident memory in kB (`RssAnon` in `/proc/PID/status`), or nil once it is gone.
    ///
    /// rule `widget.memory`: iOS counts a process's *footprint* (dirty memory it owns), not the shared,
    /// clean pages of the libraries it maps. On Linux that is `RssAnon`; `VmRSS` would also count the ~17 MB of
    /// file-backed Foundation pages every Swift process maps, and kill an idle widget against a 30 MB limit.
    package static func residentAnonymousKB(_ pid: pid_t) -> Int? {
        // Read as bytes, not split into strings: the supervisor samples every limited bundle every 20 ms.
        guard let bytes = try? AtomicFile.read("/proc/\(pid)/status") else { return nil }
        let field = Array("\nRssAnon:".utf8)
        guard var index = bytes.firstRange(of: field)?.upperBound else { return nil }
        while index < bytes.count, bytes[index] == UInt8(ascii: " ") || bytes[index] == UInt8(ascii: "\t") { index += 1 }
        var kB = 0, digits = 0
        while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) {
            kB = kB * 10 + Int(bytes[index] - UInt8(ascii: "0"))
            digits += 1
            index += 1
        }
        return digits > 0 ? kB : nil
    }

    /// Whether the process is stopped (state `T` in `/proc/PID/stat`).
    package static func isStopped(_ pid: pid_t) -> Bool {
        guard let stat = read("/proc/\(pid)/stat"), let close = stat.lastIndex(of: ")") else { return false }
        let rest = stat[stat.index(after: close)...].split(separator: " ")
        return rest.first == "T" || rest.first == "t"
    }

    /// The process group of `pid`, from `/proc/PID/stat`.
    package static func processGroup(_ pid: pid_t) -> pid_t? {
        guard let stat = read("/proc/\(pid)/stat"), let close = stat.lastIndex(of: ")") else { return nil }
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        return fields.count > 2 ? pid_t(fields[2]) : nil
    }

    /// A file lock from `/proc/locks`: who holds it and on which file (device and inode).
    package struct HeldLock: Equatable {
        package var kind: String
        /// A write (exclusive) lock, not a read (shared) one.
        package var exclusive: Bool
        package var pid: pid_t
        package var major: UInt64
        package var minor: UInt64
        package var inode: UInt64
    }

    /// Every granted lock (`flock`, POSIX and open-file-description locks) in `/proc/locks`; waiters (`->`) skipped.
    ///
    /// Read three times and merged: the kernel writes `/proc/locks` a page at a time, finding its place again by
    /// line number, so when another process drops a lock listed earlier between two pages, a line is skipped. With
    /// many processes locking (a parallel test run) a suspended bundle's lock went unseen once. The suspended
    /// bundle is stopped, so its own locks cannot change between the reads.
    package static func heldLocks() -> [HeldLock] {
        var locks: [HeldLock] = []
        for _ in 0..<3 {
            for lock in parsedLocks() where !locks.contains(lock) { locks.append(lock) }
        }
        return locks
    }

    private static func parsedLocks() -> [HeldLock] {
        guard let text = read("/proc/locks") else { return [] }
        var locks: [HeldLock] = []
        for line in text.split(separator: "\n") {
            // "1: FLOCK  ADVISORY  WRITE 1234 08:01:5678 0 EOF"
            let fields = line.split(separator: " ")
            guard fields.count >= 6, fields[1] != "->", let pid = pid_t(fields[4]) else { continue }
            let file = fields[5].split(separator: ":")
            guard file.count == 3, let major = UInt64(file[0], radix: 16), let minor = UInt64(file[1], radix: 16),
                  let inode = UInt64(file[2]) else { continue }
            locks.append(HeldLock(kind: String(fields[1]), exclusive: fields[3] == "WRITE", pid: pid, major: major, minor: minor, inode: inode))
        }
        return locks
    }

    /// Every file below `directory`, by its (major, minor, inode) as `/proc/locks` names files.
    package static func files(under directory: String) -> [[UInt64]: String] {
        var result: [[UInt64]: String] = [:]
        var pending = [directory]
        while let current = pending.popLast() {
            guard let dir = opendir(current) else { continue }
            defer { closedir(dir) }
            while let entry = readdir(dir) {
                let name = withUnsafePointer(to: entry.pointee.d_name) {
                    $0.withMemoryRebound(to: CChar.self, capacity: 256) { String(cString: $0) }
                }
                if name == "." || name == ".." { continue }
                let path = "\(current)/\(name)"
                var info = stat()
                guard lstat(path, &info) == 0 else { continue }
                switch info.st_mode & S_IFMT {
                case S_IFDIR: pending.append(path)
                case S_IFREG: result[identity(info)] = path
                default: break
                }
            }
        }
        return result
    }

    private static func identity(_ info: stat) -> [UInt64] {
        let device = UInt64(info.st_dev)
        // glibc's gnu_dev_major / gnu_dev_minor.
        let major = ((device >> 8) & 0xFFF) | ((device >> 32) & ~0xFFF)
        let minor = (device & 0xFF) | ((device >> 12) & ~0xFF)
        return [major, minor, UInt64(info.st_ino)]
    }

    private static func read(_ path: String) -> String? {
        guard let bytes = try? AtomicFile.read(path) else { return nil }
        return String(decoding: bytes, as: UTF8.self)
    }
}
