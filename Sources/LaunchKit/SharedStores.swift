import AppGroupKit
import BundleKit
import Foundation
import LockstepRuntime
import LockstepSystem

/// The shared stores of a group container, reopened after a kill as the next process to use them would: every
/// defaults suite, and every SQLite database. One sentence per store: intact, rolled back, or wedged/unreadable,
/// with the file.
///
/// SQLite files are read at the file level (LaunchKit links no SQLite): the header, a hot rollback journal, the
/// write-ahead log's uncommitted frames (by their commit fields and salts, not their checksums), and locks still
/// held on the database.
public enum SharedStores {
    /// How a store stands.
    public enum Condition: Equatable, Sendable {
        case intact
        /// The next opener undoes an interrupted write; `detail` says which.
        case rolledBack(String)
        /// Another process still holds a lock on it.
        case wedged(String)
        case unreadable(String)

        public var isIntact: Bool { self == .intact }
    }

    /// A store and how it stands.
    public struct Report: Sendable {
        public var path: String
        public var condition: Condition

        /// `habits.sqlite: intact.`, in one sentence naming the file.
        public var sentence: String {
            switch condition {
            case .intact: return "\(path): intact."
            case .rolledBack(let detail): return "\(path): rolled back — \(detail)."
            case .wedged(let detail): return "\(path): wedged — \(detail)."
            case .unreadable(let detail): return "\(path): unreadable — \(detail)"
            }
        }
    }

    /// The first 16 bytes of every SQLite database.
    static let sqliteHeader = Array("SQLite format 3\0".utf8)
    /// The first 8 bytes of a rollback journal that a next connection plays back.
    static let hotJournalHeader: [UInt8] = [0xD9, 0xD5, 0x05, 0xF9, 0x20, 0xA1, 0x63, 0xD7]
    /// How many files of a container are looked at, at most (a container is another bundle's data: bounded).
    static let fileLimit = 10_000

    /// Every store in `container`, reported as `identity` (a bundle entitled to the group) opens it.
    public static func reports(container: Container, identity: ProcessIdentity, groupsRoot: String) -> [Report] {
        var reports: [Report] = []
        var suites = Set<String>()
        for directory in [container.preferencesPath, GroupsLayout.defaults(container: container.path)] {
            for name in (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? [] {
                for suffix in [".plist", ".journal"] where name.hasSuffix(suffix) && !name.hasPrefix(".") {
                    suites.insert(String(name.dropLast(suffix.count)))
                }
            }
        }
        for suite in suites.sorted() {
            reports.append(Report(path: GroupsLayout.suitePlist(suite, container: container.path),
                                  condition: suiteCondition(suite, identity: identity, groupsRoot: groupsRoot)))
        }
        for path in databases(in: container.path) { reports.append(Report(path: path, condition: sqliteCondition(path))) }
        return reports
    }

    /// Every store of the groups `record` is entitled to, on its device, as it opens them.
    public static func reports(for record: BundleRecord, groupsRoot: String) -> [Report] {
        let identity = ProcessIdentity(bundle: record)
        guard let sandbox = try? Sandbox(root: GroupsRoot(path: groupsRoot), identity: identity) else { return [] }
        return record.appGroups.flatMap { group -> [Report] in
            guard let container = try? sandbox.groupContainer(group), FileSystem.exists(container.path) else { return [] }
            return reports(container: container, identity: identity, groupsRoot: groupsRoot)
        }
    }

    /// The store at `path`: a defaults suite when it is a `.plist` in `Library/Preferences`, else a SQLite database.
    public static func report(_ path: String, container: Container, identity: ProcessIdentity, groupsRoot: String) -> Report {
        if path.hasPrefix(container.preferencesPath + "/"), path.hasSuffix(".plist") {
            let suite = String(path.dropFirst(container.preferencesPath.count + 1).dropLast(".plist".count))
            return Report(path: path, condition: suiteCondition(suite, identity: identity, groupsRoot: groupsRoot))
        }
        return Report(path: path, condition: sqliteCondition(path))
    }

    static func suiteCondition(_ suite: String, identity: ProcessIdentity, groupsRoot: String) -> Condition {
        do {
            let sandbox = try Sandbox(root: GroupsRoot(path: groupsRoot), identity: identity)
            guard let defaults = try GroupDefaults(suiteName: suite, sandbox: sandbox, diagnostics: { _ in }) else {
                return .unreadable("'\(suite)' is not a suite name UserDefaults(suiteName:) accepts.")
            }
            _ = try defaults.dictionaryRepresentation()
            let unfinished = try defaults.unfinishedBytes()
            return unfinished == 0 ? .intact
                : .rolledBack("the last \(unfinished) bytes of its journal are a killed writer's unfinished record, which every reader ignores and the next write cuts")
        } catch {
            return .unreadable("\(error)")
        }
    }

    /// The SQLite databases below `directory` (by their header), the reserved `.lockstep` folder left out.
    static func databases(in directory: String) -> [String] {
        var found: [String] = []
        var pending = [directory]
        var seen = 0
        while let current = pending.popLast(), seen < fileLimit {
            for name in ((try? FileManager.default.contentsOfDirectory(atPath: current)) ?? []).sorted() where name != GroupsLayout.bookkeepingFolderName {
                seen += 1
                let path = current + "/" + name
                guard let status = try? FileSystem.status(path) else { continue }
                if status.kind == .directory { pending.append(path); continue }
                guard status.kind == .regular, !name.hasSuffix("-journal"), !name.hasSuffix("-wal"), !name.hasSuffix("-shm") else { continue }
                if prefix(path, 16) == sqliteHeader { found.append(path) }
            }
        }
        return found.sorted()
    }

    static func sqliteCondition(_ path: String) -> Condition {
        guard let status = try? FileSystem.status(path), status.kind == .regular else {
            return .unreadable("there is no database at this path.")
        }
        let header = prefix(path, 16)
        guard header.isEmpty || header == sqliteHeader else {
            return .unreadable("it is not a SQLite database (its first bytes are not 'SQLite format 3').")
        }
        // A write lock still held on the database or its shared memory: the next writer waits, or gives up busy.
        let files = ProcessInspection.files(under: AtomicFile.parentDirectory(of: path)).filter { [path, path + "-shm"].contains($0.value) }
        if let lock = ProcessInspection.heldLocks().first(where: { $0.exclusive && files[[$0.major, $0.minor, $0.inode]] != nil }) {
            return .wedged("process \(lock.pid) still holds a write lock on it")
        }
        if prefix(path + "-journal", 8) == hotJournalHeader {
            return .rolledBack("its rollback journal '\(path)-journal' holds an interrupted transaction, which the next connection undoes")
        }
        if let uncommitted = uncommittedFrames(path + "-wal"), uncommitted > 0 {
            return .rolledBack("the last \(uncommitted) frame\(uncommitted == 1 ? "" : "s") of '\(path)-wal' belong to a transaction that never committed, which the next connection ignores")
        }
        return .intact
    }

    /// Frames after the last commit frame of the write-ahead log at `path` (those of the current salts), or nil
    /// when there is none.
    static func uncommittedFrames(_ path: String) -> Int? {
        guard let bytes = try? AtomicFile.read(path), bytes.count > 32 else { return nil }
        func word(_ offset: Int) -> UInt32 { (0..<4).reduce(UInt32(0)) { $0 << 8 | UInt32(bytes[offset + $1]) } }
        let pageSize = Int(word(8)) == 1 ? 65536 : Int(word(8))
        guard pageSize >= 512 else { return nil }
        let salts = (word(16), word(20))
        var offset = 32
        var sinceCommit = 0
        while offset + 24 + pageSize <= bytes.count, (word(offset + 8), word(offset + 12)) == salts {
            sinceCommit = word(offset + 4) != 0 ? 0 : sinceCommit + 1
            offset += 24 + pageSize
        }
        return sinceCommit
    }

    /// Up to `count` first bytes of the file at `path` (empty when it cannot be read).
    static func prefix(_ path: String, _ count: Int) -> [UInt8] {
        guard let descriptor = try? FileDescriptor.open(path, O_RDONLY) else { return [] }
        defer { descriptor.close() }
        return (try? descriptor.read(at: 0, count: count, path: path)) ?? []
    }
}
