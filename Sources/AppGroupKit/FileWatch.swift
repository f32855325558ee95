import Foundation
import LockstepSystem

/// What a watch of one shared file reports, as a file-system object source does (`DispatchSource.FileSystemEvent`'s
/// `.write` and `.delete`).
public enum FileEvent: String, Sendable {
    /// The file's contents changed.
    case write
    /// The file the watch holds is no longer at its path: replaced by a rename, or removed.
    case delete
}

extension CoordinatedFiles {
    /// Calls `handler` on a background thread when the file at `relativePath` changes.
    ///
    /// - Strict device timing: the watch follows the path, so every replacement, however written, is a `.write`.
    /// - Realistic device timing (rule `files.device-rename`): the watch holds the file it opened, as a file-system
    ///   object source holds its descriptor on a device. A write in place is a `.write`; a replacement by rename —
    ///   how every shared file is written (rule `files.atomic`) — or a removal is one `.delete`, after which this
    ///   watch sees nothing more. To go on, watch the path again (swift-sharing #147: "changes made by external
    ///   processes … are no longer detected").
    ///
    /// - Parameter timing: the process's (`DeviceTiming.current()`) when nil.
    /// - Returns: the observation; keep it, and `cancel()` it to stop.
    /// - Throws: `.system` when the file does not exist (there is nothing to hold), `.notAFile`, `.pathEscape`,
    ///   and `.invalidTiming` for a bad `LOCKSTEP_DEVICE_TIMING`.
    public func watch(_ relativePath: String, timing: DeviceTiming? = nil, handler: @escaping @Sendable (FileEvent) -> Void) throws -> Observation {
        let timing = try timing ?? DeviceTiming.current()
        let path = try container.resolve(relativePath)
        let held: FileDescriptor
        do { held = try FileDescriptor.open(path, O_RDONLY) } catch { throw AppGroupError(error) }
        guard let first = held.version() else {
            held.close()
            throw AppGroupError(.system, subject: path, detail: "The file '\(path)' cannot be examined to watch it.")
        }
        let watcher: DirectoryWatcher
        do { watcher = try DirectoryWatcher(directories: [AtomicFile.parentDirectory(of: path)]) } catch {
            held.close()
            throw AppGroupError(error)
        }
        Thread.detachNewThread {
            defer { held.close() }
            var last: FileVersion? = first
            var stale = false
            while watcher.wait(timeout: nil) {
                if timing.isRealistic {
                    // The held file, whatever is at the path now: a rename over it leaves it with no name.
                    guard !stale, let now = held.version() else { continue }
                    if now.links == 0 {
                        stale = true
                        handler(.delete)
                    } else if now != last {
                        last = now
                        handler(.write)
                    }
                } else {
                    let now = FileVersion(path: path)
                    guard now != last else { continue }
                    last = now
                    handler(now == nil ? .delete : .write)
                }
            }
        }
        return Observation(watcher: watcher)
    }
}
