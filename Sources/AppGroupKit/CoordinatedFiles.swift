import Foundation
import LockstepSystem

/// Files in a container shared by several processes (rule `files.atomic`): a reader sees the old file or the
/// new one, never a torn one.
///
/// Every replacement is atomic (temp file, fsync, rename, fsync the folder) under the container's files lock
/// (`.lockstep/files.lock`, exclusive); reads take it shared, so a read-modify-write (`update`) loses nothing.
/// Names are relative to the container and may not leave it (`Container.resolve`).
public struct CoordinatedFiles: Sendable {
    public let container: Container
    private let lockPath: String

    public init(container: Container) {
        self.container = container
        lockPath = GroupsLayout.filesLock(container: container.path)
    }

    /// The whole file, or nil when it does not exist.
    public func read(_ relativePath: String) throws -> Data? {
        let path = try file(relativePath)
        return try locked(.shared) {
            try AtomicFile.read(path).map { Data($0) }
        }
    }

    /// The file in pieces of at most `chunkSize` bytes, each given to `body` in order, under one shared lock: a
    /// file of any size is read in bounded memory (`container --read` of 1 GB held it twice over, 2.1 GB).
    /// - Returns: false when the file does not exist (`body` is not called).
    public func read(_ relativePath: String, chunkSize: Int = 1 << 20, _ body: ([UInt8]) throws -> Void) throws -> Bool {
        let path = try file(relativePath)
        return try locked(.shared) {
            let fd: FileDescriptor
            do {
                fd = try FileDescriptor.open(path, O_RDONLY)
            } catch let error as SystemError where error.errno == .noSuchFile {
                return false
            }
            defer { fd.close() }
            while true {
                let chunk = try fd.read(upTo: chunkSize, path: path)
                if chunk.isEmpty { return true }
                try body(chunk)
            }
        }
    }

    /// Replaces (or creates) the file with `data`, atomically; missing folders are created.
    public func write(_ data: Data, to relativePath: String) throws {
        try write([UInt8](data), to: relativePath)
    }

    /// Replaces (or creates) the file with `bytes`, atomically; missing folders are created. Bytes already in an
    /// array are written as they are: `container --write` of 128 MB held three copies of its input.
    public func write(_ bytes: [UInt8], to relativePath: String) throws {
        let path = try file(relativePath)
        try SharedWriteGate.check()  // rule `runtime.stale`
        try locked(.exclusive) { try replace(path, with: bytes) }
    }

    /// Reads the file and replaces it with what `body` returns, with no other writer in between.
    /// - Parameter body: receives the current contents (nil when absent); returns the new contents.
    public func update(_ relativePath: String, _ body: (Data?) throws -> Data) throws {
        let path = try file(relativePath)
        try SharedWriteGate.check()  // rule `runtime.stale`
        try locked(.exclusive) {
            let current = try AtomicFile.read(path).map { Data($0) }
            try replace(path, with: [UInt8](try body(current)))
        }
    }

    /// Removes the file (nothing happens when it does not exist).
    public func remove(_ relativePath: String) throws {
        let path = try file(relativePath)
        try SharedWriteGate.check()  // rule `runtime.stale`
        try locked(.exclusive) {
            do { try FileSystem.removeIfPresent(path) } catch let error as SystemError { throw AppGroupError(error) }
        }
    }

    /// The file's path in the container, refusing a way out (`Container.resolve`), a folder (read(2) and
    /// rename(2) would fail with an operating-system error, not a sentence about the name given) and a FIFO,
    /// socket or device another process planted (a read would block or never end).
    private func file(_ relativePath: String) throws(AppGroupError) -> String {
        let path = try container.resolve(relativePath)
        // What cannot be examined is left to the read or write, which names its own reason.
        if let status = try? FileSystem.status(path), status.kind != .regular {
            let what = status.kind == .directory ? "a folder" : "a FIFO, socket or device"
            throw AppGroupError(.notAFile, subject: relativePath, detail: "\(what) in '\(container.path)'")
        }
        return path
    }

    private func replace(_ path: String, with bytes: [UInt8]) throws {
        // Re-check under the lock: a symlink planted since `resolve` must not redirect the write.
        _ = try container.resolve(String(path.dropFirst(container.path.count + 1)))
        try AtomicFile.createDirectories(String(path[..<path.lastIndex(of: "/")!]))
        try AtomicFile.write(bytes, to: path)
    }

    private func locked<R>(_ mode: FileLock.Mode, _ body: () throws -> R) throws -> R {
        do {
            return try FileLock(path: lockPath).withLock(mode, body)
        } catch let error as SystemError {
            throw AppGroupError(error)
        }
    }
}
