/// A look inside binary property lists (`bplist00`) before Foundation parses them.
///
/// swift-corelibs-foundation's `PropertyListSerialization` crashes the process (SIGSEGV while bridging an `NSSet`)
/// on a binary plist holding a set of dictionaries or arrays — 45 bytes are enough, found by the fuzz loop in
/// Tests/ProofTests. Sets are not property-list types (RULES.md `defaults.plist-types`: string, integer, real,
/// bool, date, data, array, dictionary), so every reader of a plist another process or a build wrote refuses a
/// binary plist that holds one, with its own error, before handing the bytes to Foundation.
public enum BinaryPropertyList {
    /// Whether `bytes` is a binary property list with a set object (marker `0xC`) in its object table.
    ///
    /// Anything that is not a well-formed binary plist trailer answers `false`: Foundation rejects those itself.
    public static func containsSet(_ bytes: UnsafeRawBufferPointer) -> Bool {
        let count = bytes.count
        guard count >= 8 + 32, bytes.starts(with: "bplist".utf8) else { return false }
        func bigEndian(at offset: Int, size: Int) -> UInt64 {
            (0..<size).reduce(UInt64(0)) { $0 << 8 | UInt64(bytes[offset + $1]) }
        }
        // The 32-byte trailer: 6 unused bytes, offset size, reference size, object count, top object, table offset.
        let trailer = count - 32
        let offsetSize = Int(bytes[trailer + 6])
        let objects = bigEndian(at: trailer + 8, size: 8)
        let table = bigEndian(at: trailer + 24, size: 8)
        guard (1...8).contains(offsetSize), objects <= UInt64(count), table <= UInt64(trailer),
              UInt64(trailer) - table >= objects * UInt64(offsetSize) else { return false }
        for index in 0..<Int(objects) {
            let offset = bigEndian(at: Int(table) + index * offsetSize, size: offsetSize)
            if offset < UInt64(trailer), bytes[Int(offset)] >> 4 == 0xC { return true }
        }
        return false
    }

    /// `containsSet` for bytes in an array.
    public static func containsSet(_ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBytes { containsSet($0) }
    }
}
