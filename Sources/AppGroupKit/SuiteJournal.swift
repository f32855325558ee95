import Foundation
import LockstepSystem

/// The files of one defaults suite (the protocol is in `groups/README.md`):
/// - `Library/Preferences/<suite>.plist`: the compacted truth, a binary plist dictionary;
/// - `.lockstep/defaults/<suite>.journal`: records appended since the last compaction;
/// - `.lockstep/defaults/<suite>.lock`: the `flock` guarding both (shared to read, exclusive to write).
struct SuiteFiles: Sendable {
    let plist: String
    let journal: String
    let lock: String
    /// The folders holding them, watched by observers.
    let preferencesDirectory: String
    let journalDirectory: String

    init(container: Container, suiteName: String) {
        preferencesDirectory = container.preferencesPath
        journalDirectory = GroupsLayout.defaults(container: container.path)
        plist = GroupsLayout.suitePlist(suiteName, container: container.path)
        journal = GroupsLayout.suiteJournal(suiteName, container: container.path)
        lock = GroupsLayout.suiteLock(suiteName, container: container.path)
    }
}

/// One journal record: the keys a write set and removed, and the process that wrote it.
///
/// On disk: `u32le length`, `u32le crc32(payload)`, then `payload`, a binary plist dictionary
/// `{ "pid": Int, "set": {key: value}, "remove": [key] }`. A record whose length runs past the end of the file or
/// whose checksum does not match is the tail a killed writer left: readers stop there, the next writer cuts it off.
struct JournalRecord {
    var pid: Int32
    var sets: [DefaultsKey: Any]
    var removes: [DefaultsKey]

    static let headerSize = 8

    init(pid: Int32, sets: [DefaultsKey: Any], removes: [DefaultsKey]) {
        self.pid = pid
        self.sets = sets
        self.removes = removes
    }

    /// This process's id, the `pid` of the records it writes: asked once (glibc no longer caches `getpid`, and it
    /// was two system calls per write). Lockstep never forks without exec, so it never changes.
    static let currentProcess = ProcessEnvironment.processID

    func encoded() throws -> [UInt8] {
        // The hot case, an increment (or a set of one integer), skips the generic writer.
        if removes.isEmpty, sets.count == 1, let (key, value) = sets.first, type(of: value) == Int.self {
            var bytes = BinaryPlistCodec.encode(pid: Int(pid), setting: key.string, to: value as! Int, prefix: Self.headerSize)
            Self.seal(&bytes)
            return bytes
        }
        var entries: [(key: String, value: Any)] = [("pid", Int(pid))]
        if !sets.isEmpty { entries.append(("set", sets)) }
        if !removes.isEmpty { entries.append(("remove", removes.map(\.string))) }
        var bytes: [UInt8]
        if let encoded = BinaryPlistCodec.encode(entries: entries, prefix: Self.headerSize) {
            bytes = encoded
        } else {
            bytes = [UInt8](repeating: 0, count: Self.headerSize)
            bytes += try PropertyList.encode(Dictionary(entries.map { (DefaultsKey($0.key), $0.value) }, uniquingKeysWith: { first, _ in first }))
        }
        Self.seal(&bytes)
        return bytes
    }

    /// Fills in the header room before the payload: its length and checksum.
    static func seal(_ bytes: inout [UInt8]) {
        let length = UInt32(bytes.count - headerSize)
        let checksum = bytes.withUnsafeBytes { CRC32.checksum(UnsafeRawBufferPointer(rebasing: $0[headerSize...])) }
        for index in 0..<4 {
            bytes[index] = UInt8(truncatingIfNeeded: length >> UInt32(8 * index))
            bytes[4 + index] = UInt8(truncatingIfNeeded: checksum >> UInt32(8 * index))
        }
    }

    /// Decodes the record at `offset`, returning it and its size, or nil for a torn or damaged record.
    static func decode(_ bytes: [UInt8], at offset: Int) -> (JournalRecord, Int)? {
        bytes.withUnsafeBytes { decode($0, at: offset) }
    }

    /// Decodes the record at `offset`, returning it and its size, or nil for a torn or damaged record.
    static func decode(_ bytes: UnsafeRawBufferPointer, at offset: Int) -> (JournalRecord, Int)? {
        guard let (payload, size) = payload(bytes, at: offset), let record = JournalRecord(payload: payload) else { return nil }
        return (record, size)
    }

    /// The payload of the record at `offset` and the record's size, or nil when the record is torn (its length
    /// runs past the end) or damaged (its checksum does not match).
    static func payload(_ bytes: UnsafeRawBufferPointer, at offset: Int) -> (UnsafeRawBufferPointer, Int)? {
        guard bytes.count - offset >= headerSize else { return nil }
        let length = Int(readLittleEndian(bytes, at: offset))
        let checksum = readLittleEndian(bytes, at: offset + 4)
        guard length > 0, length <= bytes.count - offset - headerSize else { return nil }
        let payload = UnsafeRawBufferPointer(rebasing: bytes[(offset + headerSize)..<(offset + headerSize + length)])
        guard CRC32.checksum(payload) == checksum else { return nil }
        return (payload, headerSize + length)
    }

    /// Whether a whole, checksummed record starts anywhere after `offset`: told apart so that a bad record
    /// followed by valid ones (damage) is never taken for the torn tail a killed writer leaves, which is always
    /// last. Only asked once a bad record is found, over the bytes after it.
    static func validRecordFollows(_ bytes: UnsafeRawBufferPointer, after offset: Int) -> Bool {
        var start = offset + 1
        while start + headerSize < bytes.count {
            if payload(bytes, at: start) != nil { return true }
            start += 1
        }
        return false
    }

    /// The record a checked payload holds, or nil when it is no plist dictionary.
    init?(payload: UnsafeRawBufferPointer) {
        // The keys set are read as `DefaultsKey`s (keyed depth 2): two spellings of a key are two keys.
        guard let entries = BinaryPlistCodec.decodeEntries(payload, keyedDepth: 2)
                ?? PropertyList.decodeDictionary(payload).map({ $0.map { (key: $0.key.string, value: $0.value) } })
        else { return nil }
        self.init(pid: 0, sets: [:], removes: [])
        for (key, value) in entries.reversed() {  // a key twice: the first counts, as in a dictionary read by Foundation
            switch key {
            case "pid": pid = Int32(truncatingIfNeeded: value as? Int ?? 0)
            case "set": sets = value as? [DefaultsKey: Any] ?? (value as? [String: Any])?.byCodeUnits ?? [:]
            case "remove": removes = (value as? [Any] ?? []).compactMap { ($0 as? String).map { DefaultsKey($0) } }
            default: break
            }
        }
    }

    private static func readLittleEndian(_ bytes: UnsafeRawBufferPointer, at offset: Int) -> UInt32 {
        (0..<4).reduce(UInt32(0)) { $0 | UInt32(bytes[offset + $1]) << UInt32(8 * $1) }
    }
}

/// The record an increment writes (`{"pid": pid, "set": {key: value}}`), kept between increments of one key: the
/// next value of the same width changes only the integer's bytes and the checksum, so the record is patched in
/// place instead of laid out again. Byte for byte what `JournalRecord.encoded()` writes for it (checked by
/// `BinaryPlistCodecTests`), every record still sealed with its own length and CRC-32.
struct IntegerSetRecord {
    /// The writer's process id (this process's, for the records it writes).
    let pid: Int32
    let key: DefaultsKey
    /// The integer's width in the plist (1, 2, 4 or 8 bytes): another width moves the offset table.
    let width: Int
    private(set) var bytes: [UInt8]
    /// The integer the record sets.
    private(set) var value: Int
    /// Where the integer's big-endian bytes start in `bytes`.
    private let valuePosition: Int
    /// The payload's CRC-32, as sealed in the header.
    private var checksum: UInt32
    /// How a change of each value byte moves the checksum (`CRC32.changeTable`), made on the first patch: a record
    /// written once (a key set once) never needs it.
    private var checksumChanges: [UInt32] = []

    init(pid: Int32 = JournalRecord.currentProcess, key: DefaultsKey, value: Int) {
        self.pid = pid
        self.key = key
        self.value = value
        width = Self.width(of: value)
        bytes = BinaryPlistCodec.encode(pid: Int(pid), setting: key.string, to: value, prefix: JournalRecord.headerSize)
        // The value is the plist's last object, right before its offset table (7 offsets) and 32-byte trailer.
        let offsetSize = Int(bytes[bytes.count - 32 + 6])
        valuePosition = bytes.count - 32 - 7 * offsetSize - width
        var sealed = bytes
        JournalRecord.seal(&sealed)
        checksum = (0..<4).reduce(UInt32(0)) { $0 | UInt32(sealed[4 + $1]) << UInt32(8 * $1) }
        bytes = sealed
    }

    /// The plist integer width of `value` (negative numbers take 8 bytes).
    static func width(of value: Int) -> Int {
        value < 0 || value > Int(UInt32.max) ? 8 : value > Int(UInt16.max) ? 4 : value > Int(UInt8.max) ? 2 : 1
    }

    /// Whether `set(_:)` can write `value` for `key` into this record.
    func fits(_ key: DefaultsKey, _ value: Int) -> Bool { self.key == key && width == Self.width(of: value) }

    /// Puts `value` (of this record's width) in place and seals the record again. The checksum is moved by the
    /// bytes that changed (usually one) instead of recomputed over the whole payload: the same CRC-32, a fifth of
    /// an increment's instructions when it was recomputed (callgrind). Debug builds check it against a full one.
    mutating func set(_ value: Int) {
        if checksumChanges.isEmpty {
            checksumChanges = CRC32.changeTable(width: width, followedBy: bytes.count - valuePosition - width)
        }
        self.value = value
        let bits = UInt64(bitPattern: Int64(value))
        var checksum = self.checksum
        for index in 0..<width {
            let new = UInt8(truncatingIfNeeded: bits >> UInt64(8 * (width - 1 - index)))
            let change = bytes[valuePosition + index] ^ new
            if change != 0 {
                bytes[valuePosition + index] = new
                checksum ^= checksumChanges[index << 8 | Int(change)]
            }
        }
        self.checksum = checksum
        for index in 0..<4 { bytes[4 + index] = UInt8(truncatingIfNeeded: checksum >> UInt32(8 * index)) }
        assert(checksum == bytes.withUnsafeBytes { CRC32.checksum(UnsafeRawBufferPointer(rebasing: $0[JournalRecord.headerSize...])) })
    }

    /// Reads the record at the start of `candidate` when it is this one with only the integer's bytes changed — the
    /// next increment of the same writer, key and width — and carries the CRC-32 of its payload; takes it over.
    /// The checksum is checked by moving this record's by the bytes that changed: the same CRC-32 of the same
    /// payload, not a weaker check, without zlib going over all of it again.
    /// - Returns: the record's size and its integer, or nil when it is any other record (or damaged).
    mutating func adopt(_ candidate: UnsafeRawBufferPointer) -> (size: Int, value: Int)? {
        let count = bytes.count
        guard candidate.count >= count else { return nil }
        let same = bytes.withUnsafeBytes { mine in
            RawBytes.equal(mine, candidate, 0..<4) && RawBytes.equal(mine, candidate, JournalRecord.headerSize..<valuePosition)
                && RawBytes.equal(mine, candidate, (valuePosition + width)..<count)
        }
        guard same else { return nil }
        if checksumChanges.isEmpty {
            checksumChanges = CRC32.changeTable(width: width, followedBy: count - valuePosition - width)
        }
        var checksum = self.checksum
        var bits: UInt64 = 0
        for index in 0..<width {
            let byte = candidate[valuePosition + index]
            checksum ^= checksumChanges[index << 8 | Int(bytes[valuePosition + index] ^ byte)]
            bits = bits << 8 | UInt64(byte)
        }
        let sealed = (0..<4).reduce(UInt32(0)) { $0 | UInt32(candidate[4 + $1]) << UInt32(8 * $1) }
        guard sealed == checksum else { return nil }
        for index in 0..<width { bytes[valuePosition + index] = candidate[valuePosition + index] }
        for index in 0..<4 { bytes[4 + index] = candidate[4 + index] }
        self.checksum = checksum
        // As a plist reader reads an integer of this width: eight bytes are signed, fewer unsigned.
        value = width == 8 ? Int(Int64(bitPattern: bits)) : Int(bits)
        return (count, value)
    }
}

/// Which version of a file a cache was built from (LockstepSystem's `FileVersion`: device, inode, size, mtime, links).
typealias FileIdentity = FileVersion

/// A process's view of a suite: the parsed plist plus the journal replayed on top, refreshed incrementally.
///
/// Not thread-safe and not locked: callers hold the suite's `flock` (shared to read, exclusive to write) and an
/// in-process lock. A refresh re-parses the plist only when its identity (inode, size, mtime) changed, and reads
/// only the journal bytes appended since the last refresh.
final class SuiteState {
    let files: SuiteFiles
    /// Whether this view opens the journal read-write, creating it (writers, observers), or read-only.
    let writable: Bool
    /// The suite's values (plist + journal), with the last integer this process appended folded in.
    var values: [DefaultsKey: Any] {
        flushInteger()
        return storedValues
    }
    /// The values, except that while `integerIsPending` the key of `integerRecord` holds that record's value instead.
    private var storedValues: [DefaultsKey: Any] = [:]
    private var plistIdentity: FileIdentity?
    private var loaded = false
    private var journal: FileDescriptor?
    private var journalIdentity: FileIdentity?
    /// Bytes of the open journal already replayed (the end of its last valid record).
    private(set) var journalOffset = 0
    /// Whether the journal holds bytes past `journalOffset` that are no valid record (a killed writer's tail, or a
    /// write that failed part-way): the next append cuts it off first.
    private var hasTornTail = false
    /// Where the last replay found a bad record followed by valid ones: damage, not a torn tail (`replay`).
    private var damageOffset: Int?
    /// The last increment's record, patched for the next (`appendInteger`).
    private var integerRecord: IntegerSetRecord?
    /// Whether `integerRecord`'s value is not yet stored in `storedValues`: an increment after an increment of the
    /// same key, with nothing replayed in between, reads and writes the integer without hashing the key or casting
    /// an `Any` (the dictionary's work was two fifths of an increment's instructions, callgrind).
    private var integerIsPending = false
    /// The last one-integer record replayed from each of a few other writers (`replay`).
    private var replayed: [IntegerSetRecord] = []
    /// The key and value of the increment a replay stored last, while nothing has changed the values since: the
    /// increment that follows a replay reads its key's value here, without hashing the key or casting an `Any`.
    private var replayedInteger: KeyedInteger?
    static let replayedLimit = 8

    init(files: SuiteFiles, writable: Bool) {
        self.files = files
        self.writable = writable
    }

    deinit { journal?.close() }

    /// Brings `values` up to date with the plist and journal on disk.
    ///
    /// - Parameter changes: when non-nil, receives the keys other processes changed (records written by this
    ///   process are skipped), and any difference found when the plist was replaced.
    func refresh(changes: inout [GroupDefaults.Change]?) throws {
        // Finish the journal this view was reading first: a compaction replaces it, but the open descriptor
        // still reads the old records, so an observer learns who changed what before the plist moves on.
        let journalIsCurrent = try drainJournal(changes: &changes)
        // Whoever replaces the plist replaces or removes the journal afterwards (groups/README.md), so while the
        // open journal is still linked, the plist this view loaded is still the suite's: no path lookups needed.
        if loaded && journalIsCurrent { return }
        let plistNow = FileIdentity(path: files.plist)
        if !loaded || plistNow != plistIdentity {
            let base = try readPlist()
            reset(to: base, changes: &changes)
            plistIdentity = plistNow
            loaded = true
            closeJournal()
        }
        let journalNow = FileIdentity(path: files.journal)
        if journalNow == nil, journal != nil {
            // Someone removed the journal: the plist alone is the truth.
            try reset(to: readPlist(), changes: &changes)
            closeJournal()
        }
        if journal == nil || !(journalNow?.isSameFile(as: journalIdentity) ?? true) {
            if journal != nil { try reset(to: readPlist(), changes: &changes) }
            closeJournal()
            try openJournal()
            _ = try drainJournal(changes: &changes)
        }
    }

    /// Replays the records appended to the open journal since the last look, *without* the suite's lock: what an
    /// observer does on most wakes. Safe because a record is never changed once written and carries its checksum:
    /// one still being written fails the check and is read on the next wake (inotify reports a write once it is
    /// done), and a torn tail a writer cuts off was never applied. Reads on to the end of the file without asking
    /// its size first (one `pread` for the usual record or few); the observer hands the changes over, and only then
    /// asks `journalIsCurrent`.
    /// - Returns: false when nothing is loaded yet or no journal is open: then call `refresh` under the lock.
    func readAppended(changes: inout [GroupDefaults.Change]?) throws -> Bool {
        guard loaded, let journal else { return false }
        let chunk = 4096
        let whole = try withUnsafeTemporaryAllocation(byteCount: chunk, alignment: 8) { buffer throws(AppGroupError) -> Bool in
            let count: Int
            do throws(SystemError) { count = try journal.read(into: buffer, at: journalOffset, path: files.journal) } catch { throw AppGroupError(error) }
            replay(UnsafeRawBufferPointer(rebasing: buffer[..<count]), changes: &changes)
            return count < chunk
        }
        // More than one read's worth: the rest the sized way.
        if !whole && damageOffset == nil { _ = try drainJournal(changes: &changes, locked: false) }
        // Seemingly damaged: without the lock a record may still be being written while a later one is read, so the
        // locked refresh decides (and refuses real damage).
        if damageOffset != nil {
            damageOffset = nil
            return false
        }
        return true
    }

    /// Whether the open journal is still the suite's, asked after `readAppended`.
    /// - Returns: false once a compaction replaced or removed it (or none is open): then call `refresh` under the lock.
    func journalIsCurrent() throws -> Bool {
        guard let journal else { return false }
        do { return try journal.sizeAndLinks(path: files.journal).links > 0 } catch { throw AppGroupError(error) }
    }

    /// Journal size past which a write folds the journal into the plist: `GroupDefaults.compactionThreshold`, or
    /// the plist's size when larger, so a fold (whose cost grows with the suite) comes once per as many bytes of
    /// journal as it rewrites, and its cost per write stays the same at any suite size.
    var compactionThreshold: Int {
        max(GroupDefaults.compactionThreshold, Int(plistIdentity?.size ?? 0))
    }

    /// Appends one record and applies it. Call with the exclusive lock held, right after `refresh`.
    /// - Parameter encoded: `record.encoded()`, when the caller has it already.
    func append(_ record: JournalRecord, encoded: [UInt8]? = nil) throws {
        try append(bytes: try encoded ?? record.encoded())
        var ignored: [GroupDefaults.Change]? = nil
        apply(record, changes: &ignored)
    }

    /// Writes a sealed record at the end of the valid records (cutting a killed writer's torn tail off first).
    /// The write's one durable step: once it returns the write has happened, whatever fails after it.
    /// - Throws: `.notWritten` when the record is not all in the journal (a full disk, `RLIMIT_FSIZE`, an I/O
    ///   error): what part of it reached the file fails its checksum, is cut off again here when it can be (else
    ///   by the next writer), and no reader ever applies it.
    private func append(bytes: [UInt8]) throws {
        // Failing here, nothing is written: the error's own sentence (open, create the folder) is the truth.
        if journal == nil { try openJournal() }
        guard let journal else { return }
        do throws(SystemError) {
            if hasTornTail {
                try journal.truncate(to: journalOffset, path: files.journal)
                hasTornTail = false
            }
            try journal.write(bytes, at: journalOffset, path: files.journal)
        } catch {
            // Shrinking needs no space; should it fail too, the part written stays an invalid tail until cut.
            hasTornTail = true
            if (try? journal.truncate(to: journalOffset, path: files.journal)) != nil { hasTornTail = false }
            if error.errno?.isNoSpace == true {
                throw AppGroupError(.noSpace, subject: files.journal, detail: AppGroupErrorCode.notWritten(files.journal, error.reason))
            }
            throw AppGroupError(.notWritten, subject: files.journal, detail: error.reason)
        }
        journalOffset += bytes.count
    }

    /// Bytes past the last whole record after `refresh`: a killed writer's unfinished append, which every reader
    /// ignores and the next writer cuts; 0 when there is none.
    func unfinishedBytes() throws -> Int {
        guard hasTornTail, let journal else { return 0 }
        do { return try journal.sizeAndLinks(path: files.journal).size - journalOffset } catch { throw AppGroupError(error) }
    }

    /// The integer `key` holds when this process's last append set it and nothing was replayed since, or when the
    /// last replay's last increment set it and nothing changed the values since; else nil: an increment's fast path,
    /// without hashing the key or casting an `Any`.
    func pendingInteger(forKey key: DefaultsKey) -> Int? {
        if integerIsPending, let integerRecord, integerRecord.key == key { return integerRecord.value }
        if let replayedInteger, replayedInteger.key == key {
            assert(storedValues[key] as? Int == replayedInteger.value, "replayedInteger outlived a change of the values")
            return replayedInteger.value
        }
        return nil
    }

    /// Appends the record setting `key` to the integer `value` and applies it: `append` for an increment, without
    /// building a record (a dictionary of boxed values) and encoding it anew on every call inside the lock.
    /// Call with the exclusive lock held, right after `refresh`.
    func appendInteger(_ value: Int, forKey key: DefaultsKey) throws {
        // Patched as a local, moved out of the property and back in: patched in place, the property's access stayed
        // open across the patch's call, and Swift checked every access to it at run time (swift_beginAccess).
        var record: IntegerSetRecord
        if integerRecord?.fits(key, value) == true {
            record = integerRecord.take()!
            record.set(value)
        } else {
            flushInteger()
            record = IntegerSetRecord(key: key, value: value)
        }
        do {
            try append(bytes: record.bytes)
        } catch {
            // Not written (or only partly): the patched record no longer stands for the key's value, which the
            // pending one may have held; the next refresh reads the suite again from the disk.
            integerRecord = nil
            integerIsPending = false
            loaded = false
            throw error
        }
        integerRecord = consume record
        integerIsPending = true
    }

    /// Stores the pending integer in the dictionary: before anything else reads or changes the values.
    private func flushInteger() {
        guard integerIsPending, let integerRecord else { return }
        integerIsPending = false
        replayedInteger = nil
        storedValues[integerRecord.key] = integerRecord.value
    }

    /// Folds the journal into the plist: plist replaced atomically, then the journal replaced by an empty one.
    /// Call with the exclusive lock held, right after `refresh`. A crash in between leaves the new plist and the
    /// old journal, whose replay is idempotent (records hold values, not deltas); a failure of either step leaves
    /// the records where they were, the suite's values unchanged.
    func compact() throws {
        if journalOffset == 0 && plistIdentity != nil { return }
        removeStaleTemporaries()
        do {
            try AtomicFile.write([UInt8](PropertyList.encode(values)), to: files.plist)
            try AtomicFile.write([UInt8](), to: files.journal)
        } catch let error as SystemError {
            throw AppGroupError(error)
        }
        plistIdentity = FileIdentity(path: files.plist)
        closeJournal()
        try openJournal()
    }

    /// Removes the temp files a compactor of this suite left when it was killed (or its disk filled) between
    /// creating and renaming them. Only a holder of the exclusive lock writes them, so under that lock none is
    /// anybody's work in progress; on a full disk they are also the space the fold needs.
    private func removeStaleTemporaries() {
        for target in [files.plist, files.journal] {
            let directory = AtomicFile.parentDirectory(of: target)
            let prefix = ".\(target[target.index(after: target.lastIndex(of: "/")!)...])."
            for name in (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? [] where name.hasPrefix(prefix) && name.hasSuffix(".tmp") {
                // Exactly AtomicFile's `.<file>.<pid>.<n>.tmp`: the temp file of a suite named `<this>.plist`
                // (`.<this>.plist.plist.<pid>.<n>.tmp`) is guarded by its own lock and may be in use.
                let parts = name.dropFirst(prefix.count).dropLast(4).split(separator: ".", omittingEmptySubsequences: false)
                guard parts.count == 2, parts.allSatisfy({ !$0.isEmpty && $0.allSatisfy(\.isNumber) }) else { continue }
                _ = FileSystem.remove(directory + "/" + name)
            }
        }
    }

    private func readPlist() throws -> [DefaultsKey: Any] {
        let bytes: [UInt8]?
        do { bytes = try AtomicFile.read(files.plist) } catch { throw AppGroupError(error) }
        guard let bytes else { return [:] }
        guard let dictionary = PropertyList.decodeDictionary(Data(bytes)) else {
            // A damaged binary plist is named as such (issue 42): `bplist` is never read as text.
            let damage = bytes.starts(with: Array("bplist".utf8)) ? BinaryPropertyList.problem(bytes) : nil
            throw AppGroupError(.malformedSuite, subject: files.plist, detail: damage ?? "it is not a property-list dictionary (\(bytes.count) bytes)")
        }
        return dictionary
    }

    private func reset(to base: [DefaultsKey: Any], changes: inout [GroupDefaults.Change]?) {
        flushInteger()
        let values = storedValues
        if changes != nil, loaded {
            for (key, old) in values where !PropertyList.isEqual(old, base[key]) {
                changes?.append(GroupDefaults.Change(key: key.string, value: base[key]))
            }
            for (key, new) in base where values[key] == nil {
                changes?.append(GroupDefaults.Change(key: key.string, value: new))
            }
        }
        replayedInteger = nil
        storedValues = base
    }

    private func openJournal() throws {
        let flags = writable ? O_RDWR | O_CREAT : O_RDONLY
        do {
            if writable { try AtomicFile.createDirectories(files.journalDirectory) }
            journal = try FileDescriptor.open(files.journal, flags)
        } catch let error where error.errno == .noSuchFile {
            journal = nil
        } catch {
            throw AppGroupError(error)
        }
        journalIdentity = journal?.version()
        journalOffset = 0
        hasTornTail = false
        damageOffset = nil
    }

    private func closeJournal() {
        journal?.close()
        journal = nil
        journalIdentity = nil
        journalOffset = 0
        hasTornTail = false
    }

    /// Replays the records appended to the open journal since the last look.
    /// - Returns: whether that journal is still the suite's (false: none is open, or it was replaced or removed).
    /// - Parameter locked: whether the suite's lock is held; without it, seeming damage is left in `damageOffset`
    ///   for the caller to check under the lock.
    private func drainJournal(changes: inout [GroupDefaults.Change]?, locked: Bool = true) throws -> Bool {
        guard let journal else { return false }
        // Size and link count only (not fstat): asking for the timestamps would make every append dirty the inode.
        // A failure is an error, never "replaced": reading on as if nothing were appended would lose records.
        let identity: (size: Int, links: Int)
        do { identity = try journal.sizeAndLinks(path: files.journal) } catch { throw AppGroupError(error) }
        if identity.size > journalOffset {
            let bytes: [UInt8]
            do {
                bytes = try journal.read(at: journalOffset, count: identity.size - journalOffset, path: files.journal)
            } catch {
                throw AppGroupError(error)
            }
            bytes.withUnsafeBytes { replay($0, changes: &changes) }
            if locked, let damageOffset {
                // Under the lock no writer is mid-append: valid records after a bad one are damage. Refused, and
                // never cut or compacted over: the records after it would be lost for good. The next refresh
                // starts over from the plist, and finds it again.
                loaded = false
                closeJournal()
                throw AppGroupError(.damagedJournal, subject: files.journal, detail: "the record at byte \(damageOffset) is damaged and valid records follow it")
            }
        }
        return identity.links > 0
    }

    /// Applies the whole records at the start of `bytes` (read at `journalOffset`) and moves past them. It stops at
    /// the first torn or damaged record: only a killed writer leaves one, always at the end.
    private func replay(_ bytes: UnsafeRawBufferPointer, changes: inout [GroupDefaults.Change]?) {
        flushInteger()
        replayedInteger = nil
        // The values and the writers' models are worked on as locals, moved out of the properties and back in:
        // changed in place record after record, each access to a property ran across a call, which Swift checks at
        // run time (swift_beginAccess), and that check was a good part of replaying an increment.
        var values: [DefaultsKey: Any] = [:]
        var models: [IntegerSetRecord] = []
        swap(&values, &storedValues)
        swap(&models, &replayed)
        defer {
            swap(&values, &storedValues)
            swap(&models, &replayed)
        }
        // The last adopted record's key and value, not yet stored: increments of one key replayed in a row are
        // stored once, as the last of them (a store hashes the key).
        var adopted: KeyedInteger?
        var offset = 0
        while offset < bytes.count {
            // Other writers' increments are most of what a writer replays, each usually its writer's previous
            // record with another integer: checked and read against that one (`IntegerSetRecord.adopt`).
            if let record = Self.adopt(UnsafeRawBufferPointer(rebasing: bytes[offset...]), models: &models) {
                if let previous = adopted, previous.key != record.key { values[previous.key] = previous.value }
                adopted = KeyedInteger(key: record.key, value: record.value)
                if record.pid != JournalRecord.currentProcess {
                    changes?.append(GroupDefaults.Change(key: record.key.string, value: record.value))
                }
                offset += record.size
                continue
            }
            if let previous = adopted.take() { values[previous.key] = previous.value }
            guard let (payload, size) = JournalRecord.payload(bytes, at: offset) else { break }
            if let (pid, string, value) = BinaryPlistCodec.decodeOneIntegerSet(payload) {
                let key = DefaultsKey(string)
                values[key] = value
                if Int32(truncatingIfNeeded: pid) != JournalRecord.currentProcess {
                    changes?.append(GroupDefaults.Change(key: string, value: value))
                }
                Self.remember(UnsafeRawBufferPointer(rebasing: bytes[offset..<(offset + size)]),
                              pid: Int32(truncatingIfNeeded: pid), key: key, value: value, in: &models)
            } else if let record = JournalRecord(payload: payload) {
                Self.apply(record, to: &values, changes: &changes)
            } else {
                break
            }
            offset += size
        }
        if let previous = adopted {
            values[previous.key] = previous.value
            replayedInteger = previous
        }
        journalOffset += offset
        hasTornTail = offset < bytes.count
        damageOffset = hasTornTail && JournalRecord.validRecordFollows(bytes, after: offset) ? journalOffset : nil
    }

    /// The record at the start of `bytes` read through one of `models`, or nil.
    private static func adopt(_ bytes: UnsafeRawBufferPointer, models: inout [IntegerSetRecord]) -> AdoptedRecord? {
        for index in models.indices {
            if let (size, value) = models[index].adopt(bytes) {
                return AdoptedRecord(size: size, key: models[index].key, value: value, pid: models[index].pid)
            }
        }
        return nil
    }

    /// A key and its integer. A struct, not a tuple: an optional tuple was destroyed through the runtime's generic
    /// witnesses (`tuple_destroy`), a few hundred instructions a replayed record.
    private struct KeyedInteger {
        var key: DefaultsKey
        var value: Int
    }

    /// A record read through a writer's kept one: its size, its key and integer, and its writer.
    private struct AdoptedRecord {
        var size: Int
        var key: DefaultsKey
        var value: Int
        var pid: Int32
    }

    /// Keeps a one-integer record just replayed as the model of its writer's next ones, when it is laid out as
    /// Lockstep lays it out (its integer is then the last object, and only its bytes change from one to the next).
    private static func remember(_ record: UnsafeRawBufferPointer, pid: Int32, key: DefaultsKey, value: Int, in models: inout [IntegerSetRecord]) {
        let model = IntegerSetRecord(pid: pid, key: key, value: value)
        guard model.bytes.count == record.count, model.bytes.elementsEqual(record) else { return }
        models.removeAll { $0.pid == pid }
        if models.count == Self.replayedLimit { models.removeFirst() }
        models.append(model)
    }

    private func apply(_ record: JournalRecord, changes: inout [GroupDefaults.Change]?) {
        flushInteger()
        replayedInteger = nil
        Self.apply(record, to: &storedValues, changes: &changes)
    }

    private static func apply(_ record: JournalRecord, to values: inout [DefaultsKey: Any], changes: inout [GroupDefaults.Change]?) {
        let external = record.pid != JournalRecord.currentProcess
        for key in record.removes {
            values.removeValue(forKey: key)
            if external { changes?.append(GroupDefaults.Change(key: key.string, value: nil)) }
        }
        for (key, value) in record.sets {
            values[key] = value
            if external { changes?.append(GroupDefaults.Change(key: key.string, value: value)) }
        }
    }
}
