#if canImport(Glibc)
@preconcurrency import Glibc
#endif
import CSQLite
import Foundation
import LockstepSystem

/// The latency baseline: one process writes a file, another blocked in `read(2)` on an inotify descriptor
/// watching it is woken — the floor any file-based cross-process notification stands on.
enum InotifyBaseline {
    static let recordSize = 32

    /// The observer side (`__worker observe-inotify FILE`): prints `VALUE T` on every change, exits on `stop`.
    static func observe(_ arguments: [String]) throws {
        guard let path = arguments.first else { throw BenchError.usage("lockstep-bench __worker observe-inotify needs a file.") }
        let inotify = inotify_init1(Int32(IN_CLOEXEC))
        guard inotify >= 0 else { throw SystemError(.open, path: "inotify", errno: .current) }
        guard inotify_add_watch(inotify, path, UInt32(IN_MODIFY)) >= 0 else {
            throw SystemError(.open, path: path, errno: .current)
        }
        let file = try FileDescriptor.open(path, O_RDONLY)
        print("ready")
        var events = [UInt8](repeating: 0, count: 4096)
        var record = [UInt8](repeating: 0, count: recordSize)
        while true {
            guard case .success = events.withUnsafeMutableBytes({ buffer in
                valueOrErrno { read(inotify, buffer.baseAddress, buffer.count) }
            }) else { throw SystemError(.read, path: "inotify", errno: .current) }
            // Stamped once the new value is in hand, as ours is (its handler is called with the change read from the
            // journal): an observer that was only woken knows nothing yet. The padding is cut by hand: Foundation's
            // trimming would cost more than the read.
            let n = record.withUnsafeMutableBytes { pread(file.rawValue, $0.baseAddress, recordSize, 0) }
            let value = String(decoding: record.prefix(max(n, 0)).prefix { $0 != UInt8(ascii: " ") }, as: UTF8.self)
            let woken = Monotonic.now
            if value == "stop" { return }
            print("\(value) \(woken)")
        }
    }

    /// The writer side, in the bench process: overwrites the fixed-size record in place.
    final class Writer {
        let path: String
        let file: FileDescriptor

        init(path: String) throws {
            self.path = path
            file = try FileDescriptor.open(path, O_WRONLY | O_CREAT | O_TRUNC)
        }

        deinit { file.close() }

        func write(_ value: String) throws {
            // Padded by hand: this runs inside the timed interval, where Foundation's `padding(toLength:)` (an
            // NSString bridge) cost more than the write itself and flattered our ratio.
            var bytes = Array(value.utf8.prefix(InotifyBaseline.recordSize))
            bytes += repeatElement(UInt8(ascii: " "), count: InotifyBaseline.recordSize - bytes.count)
            let n = bytes.withUnsafeBytes { pwrite(file.rawValue, $0.baseAddress, $0.count, 0) }
            if n != bytes.count { throw SystemError(.write, path: path, errno: .current) }
        }
    }
}

/// The increment baseline most apps would reach for: a counter row in SQLite, WAL, `synchronous=NORMAL`,
/// `BEGIN IMMEDIATE`, prepared statements, one connection per process (rule `sqlite.shared`).
enum SQLiteBaseline {
    /// Creates the database and its counter row at 0 (before any worker starts, so none races to create it).
    static func create(_ path: String) throws {
        let db = try open(path)
        defer { sqlite3_close_v2(db) }
        try exec(db, "CREATE TABLE counter (id INTEGER PRIMARY KEY, value INTEGER NOT NULL); INSERT INTO counter VALUES (1, 0);", path)
    }

    /// The counter's value, once every worker is done.
    static func total(_ path: String) throws -> Int {
        let db = try open(path)
        defer { sqlite3_close_v2(db) }
        let select = try prepare(db, "SELECT value FROM counter WHERE id = 1", path)
        defer { sqlite3_finalize(select) }
        guard sqlite3_step(select) == SQLITE_ROW else { throw BenchError.workerFailed("no counter row in \(path)") }
        return Int(sqlite3_column_int64(select, 0))
    }

    /// `__worker increment-sqlite DB COUNT WARMUP`.
    static func incrementWorker(_ arguments: [String]) throws {
        let path = arguments.first ?? ""
        try ThroughputWorker.run(count: Workers.integer(arguments, 1),
                                 warmup: Workers.integer(arguments, 2)) {
            let db = try open(path)
            let begin = try prepare(db, "BEGIN IMMEDIATE", path)
            let select = try prepare(db, "SELECT value FROM counter WHERE id = 1", path)
            let update = try prepare(db, "UPDATE counter SET value = ? WHERE id = 1", path)
            let commit = try prepare(db, "COMMIT", path)
            return {
                try step(begin, path)
                guard sqlite3_step(select) == SQLITE_ROW else { throw BenchError.workerFailed("no counter row in \(path)") }
                let value = sqlite3_column_int64(select, 0)
                sqlite3_reset(select)
                sqlite3_bind_int64(update, 1, value + 1)
                try step(update, path)
                try step(commit, path)
            }
        }
    }

    static func open(_ path: String) throws -> OpaquePointer {
        var db: OpaquePointer?
        guard sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nil) == SQLITE_OK, let db else {
            throw BenchError.workerFailed("SQLite could not open \(path)")
        }
        // The busy handler is SQLite's own, as an app would configure it; it waits (and sleeps) while another
        // process holds the write lock.
        sqlite3_busy_timeout(db, 10_000)
        try exec(db, "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;", path)
        return db
    }

    static func exec(_ db: OpaquePointer, _ sql: String, _ path: String) throws {
        guard sqlite3_exec(db, sql, nil, nil, nil) == SQLITE_OK else {
            throw BenchError.workerFailed("SQLite failed on \(path): \(String(cString: sqlite3_errmsg(db)))")
        }
    }

    static func prepare(_ db: OpaquePointer, _ sql: String, _ path: String) throws -> OpaquePointer {
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(db, sql, -1, &statement, nil) == SQLITE_OK, let statement else {
            throw BenchError.workerFailed("SQLite could not prepare '\(sql)' on \(path)")
        }
        return statement
    }

    /// Steps a statement that returns no rows, then resets it for the next use.
    static func step(_ statement: OpaquePointer, _ path: String) throws {
        let result = sqlite3_step(statement)
        sqlite3_reset(statement)
        guard result == SQLITE_DONE else {
            throw BenchError.workerFailed("SQLite step failed on \(path) (code \(result))")
        }
    }
}

/// The physical limit of a locked append-only log: `flock` a lock file, append one record with `O_APPEND`,
/// unlock. No read, no fsync — nothing a durable counter could do with less.
enum FlockAppendBaseline {
    static let record = Array("0123456789abcde\n".utf8)

    /// `__worker increment-flock DIR COUNT WARMUP`.
    static func incrementWorker(_ arguments: [String]) throws {
        let directory = arguments.first ?? ""
        try ThroughputWorker.run(count: Workers.integer(arguments, 1),
                                 warmup: Workers.integer(arguments, 2)) {
            let lock = try FileDescriptor.open("\(directory)/records.lock", O_RDWR | O_CREAT)
            let log = try FileDescriptor.open("\(directory)/records", O_WRONLY | O_CREAT | O_APPEND)
            return {
                guard case .success = valueOrErrno({ flock(lock.rawValue, LOCK_EX) }) else {
                    throw SystemError(.lock, path: "\(directory)/records.lock", errno: .current)
                }
                try log.writeAll(record, path: "\(directory)/records")
                guard case .success = valueOrErrno({ flock(lock.rawValue, LOCK_UN) }) else {
                    throw SystemError(.lock, path: "\(directory)/records.lock", errno: .current)
                }
            }
        }
    }

    /// The number of records appended.
    static func total(_ directory: String) -> Int {
        var info = stat()
        guard stat("\(directory)/records", &info) == 0 else { return 0 }
        return Int(info.st_size) / record.count
    }
}

/// What writing a large suite costs with no journal at all: Foundation encodes the same dictionary as a binary
/// plist (the format the suite's plist has), written by the same durable replacement a compaction uses (temp file,
/// fsync, rename, fsync of the folder: Foundation's `.atomic` skips both fsyncs, which would time less work).
enum PlistWriteBaseline {
    /// Median milliseconds of three writes of `keys` keys (`key-N` = `value N`, as `OurFigures.fill` writes them).
    static func time(keys: Int) throws -> Double {
        let directory = try BenchPaths.scratch("plistwrite")
        defer { BenchPaths.remove(directory) }
        var dictionary: [String: Any] = [:]
        for index in 0..<keys { dictionary["key-\(index)"] = "value \(index)" }
        var times: [Double] = []
        for index in 0..<3 {
            dictionary["key-0"] = index
            times.append(try Harness.time {
                let data = try PropertyListSerialization.data(fromPropertyList: dictionary, format: .binary, options: 0)
                try AtomicFile.write([UInt8](data), to: "\(directory)/suite.plist")
            } * 1000)
        }
        return Statistics.median(times)
    }
}

/// Resident memory of a running process, from `/proc/PID/status`.
enum ResidentMemory {
    /// `VmRSS` and `RssAnon`, in MB.
    static func of(_ pid: pid_t) throws -> (rss: Double, anonymous: Double) {
        let path = "/proc/\(pid)/status"
        guard let bytes = try AtomicFile.read(path) else { throw BenchError.workerFailed("\(path) is gone") }
        var rss: Double?, anonymous: Double?
        for line in String(decoding: bytes, as: UTF8.self).split(separator: "\n") {
            let parts = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
            guard parts.count >= 2, let kilobytes = Double(parts[1]) else { continue }
            if parts[0] == "VmRSS:" { rss = kilobytes / 1024 }
            if parts[0] == "RssAnon:" { anonymous = kilobytes / 1024 }
        }
        guard let rss, let anonymous else { throw BenchError.workerFailed("\(path) has no VmRSS") }
        return (rss, anonymous)
    }
}
