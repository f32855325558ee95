/// A small text file that processes update in turn: read, change and replaced atomically while holding the
/// flock on its lock file. The one primitive behind every counter, sequence and stamp list under a groups root:
/// Darwin notification counters, widget reload requests and budgets, WatchConnectivity sequences and the clock.
/// Readers need no lock: the file is replaced by rename, so they see the old text or the new one.
public enum LockedFile {
    /// Holding `lock` (default `<path>.lock`), reads `path` (nil when absent), writes the text `change` returns, and
    /// returns its result. Nothing is written when `change` returns nil text or throws.
    public static func update<R>(_ path: String, lock: String? = nil,
                                 _ change: (_ current: String?) throws -> (text: String?, result: R)) throws -> R {
        try FileLock(path: lock ?? path + ".lock").withLock {
            let current = try AtomicFile.read(path).map { String(decoding: $0, as: UTF8.self) }
            let (text, result) = try change(current)
            if let text { try AtomicFile.write(text, to: path) }
            return result
        }
    }

    /// A decimal counter (absent or unreadable is 0): adds one under the lock and returns the new value.
    @discardableResult
    public static func increment(_ path: String, lock: String? = nil) throws -> Int {
        try update(path, lock: lock) { current in
            let next = (current.flatMap { Int($0.trimmingWhitespace) } ?? 0) + 1
            return ("\(next)\n", next)
        }
    }
}

extension String {
    /// Without leading and trailing whitespace (Foundation-free, for small files read on hot paths).
    package var trimmingWhitespace: String {
        var scalars = Substring(self)
        while let first = scalars.first, first.isWhitespace { scalars.removeFirst() }
        while let last = scalars.last, last.isWhitespace { scalars.removeLast() }
        return String(scalars)
    }
}
