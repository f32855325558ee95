/// A look inside binary property lists (`bplist00`) before Foundation parses them.
///
/// swift-corelibs-foundation's `PropertyListSerialization` crashes the process (SIGSEGV while bridging an `NSSet`)
/// on a binary plist holding a set of dictionaries or arrays — 45 bytes are enough, found by the fuzz loop in
/// Tests/ProofTests. Sets are not property-list types (rule `defaults.plist-types`: string, integer, real,
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

    /// The most values a binary plist may expand to, counting every object as often as it is referenced: Apple's
    /// writer shares only strings, numbers, dates and data, so a real file expands to about its object count. A
    /// hostile one whose arrays each reference the next one twice expands to 2^depth values from a kilobyte.
    public static let maximumExpandedValues = 4_000_000

    /// How deep containers may nest: Foundation's reader, and ours, recurse once per level.
    public static let maximumDepth = 512

    /// Why `bytes`, which start with `bplist`, cannot be read as a binary property list; nil when they can.
    ///
    /// Checks the trailer, the offset table, every object's header and references against the file, that no
    /// container contains itself, how deep containers nest, and how many values reading it would make
    /// (`maximumExpandedValues`, or 64 per object in a larger file): every reader of a plist another program wrote
    /// asks this first, so a damaged file is refused — never read as OpenStep text, never expanded exponentially.
    /// - Returns: a clause for "… is not a readable property list: <clause>".
    public static func problem(_ bytes: UnsafeRawBufferPointer) -> String? {
        let count = bytes.count
        guard count >= 8 + 1 + 32, bytes.starts(with: "bplist00".utf8) else {
            return bytes.starts(with: "bplist00".utf8) ? "it is a truncated binary property list"
                : "it starts like a binary property list, but of a version other than bplist00"
        }
        func bigEndian(at offset: Int, size: Int) -> Int? {
            var value: UInt64 = 0
            for index in 0..<size { value = value << 8 | UInt64(bytes[offset + index]) }
            return value <= UInt64(Int.max) ? Int(value) : nil
        }
        let trailer = count - 32
        let offsetSize = Int(bytes[trailer + 6]), referenceSize = Int(bytes[trailer + 7])
        guard (1...8).contains(offsetSize), (1...8).contains(referenceSize),
              let objects = bigEndian(at: trailer + 8, size: 8), let top = bigEndian(at: trailer + 16, size: 8),
              let table = bigEndian(at: trailer + 24, size: 8),
              objects >= 1, objects <= count, top < objects, table >= 8, table <= trailer,
              (trailer - table) / offsetSize >= objects else {
            return "its binary property list trailer or offset table is damaged"
        }
        // Each object's children (for arrays, sets and dictionaries), read and bounds-checked once.
        var children: [[Int]] = Array(repeating: [], count: objects)
        for index in 0..<objects {
            guard let start = bigEndian(at: table + index * offsetSize, size: offsetSize), start >= 8, start < table else {
                return "object \(index) of its binary property list lies outside the file"
            }
            let marker = bytes[start] >> 4, low = Int(bytes[start] & 0x0F)
            var length = low, first = start + 1
            if [0x4, 0x5, 0x6, 0x8, 0xA, 0xC, 0xD].contains(marker) && low == 0x0F {
                // The length is an integer object that follows: 0x1n, then 2^n bytes.
                guard first < table, bytes[first] >> 4 == 0x1 else { return "object \(index) of its binary property list has a damaged length" }
                let size = 1 << Int(bytes[first] & 0x0F)
                guard size <= 8, first + 1 + size <= table, let value = bigEndian(at: first + 1, size: size) else {
                    return "object \(index) of its binary property list has a damaged length"
                }
                length = value
                first += 1 + size
            }
            let perEntry: Int
            switch marker {
            case 0x0: continue
            case 0x1: guard low <= 4, start + 1 + (1 << low) <= table else { return "integer \(index) of its binary property list is damaged" }; continue
            case 0x2: guard low <= 3, start + 1 + (1 << low) <= table else { return "real \(index) of its binary property list is damaged" }; continue
            case 0x3: guard start + 9 <= table else { return "date \(index) of its binary property list is damaged" }; continue
            case 0x4, 0x5, 0x8:
                guard length <= table - first else { return "object \(index) of its binary property list runs past its end" }
                continue
            case 0x6:
                guard length <= (table - first) / 2 else { return "string \(index) of its binary property list runs past its end" }
                continue
            case 0xA, 0xC: perEntry = 1
            case 0xD: perEntry = 2
            default: return "object \(index) of its binary property list has an unknown type (marker 0x\(String(bytes[start], radix: 16)))"
            }
            guard length <= (table - first) / (referenceSize * perEntry) else {
                return "container \(index) of its binary property list runs past its end"
            }
            var references: [Int] = []
            references.reserveCapacity(length * perEntry)
            for entry in 0..<(length * perEntry) {
                guard let reference = bigEndian(at: first + entry * referenceSize, size: referenceSize), reference < objects else {
                    return "container \(index) of its binary property list refers to an object that does not exist"
                }
                references.append(reference)
            }
            children[index] = references
        }
        // From the top object, depth first and without recursion: a container met again while it is open is a
        // cycle; each container's expanded size is counted once and shared by every reference to it.
        let limit = max(maximumExpandedValues, 64 * objects)
        var size = Array(repeating: 0, count: objects)  // 0: not yet counted
        var open = Array(repeating: false, count: objects)
        var stack: [(object: Int, next: Int, total: Int)] = [(top, 0, 1)]
        open[top] = true
        while var frame = stack.popLast() {
            if frame.next < children[frame.object].count {
                let child = children[frame.object][frame.next]
                frame.next += 1
                if open[child] { return "its binary property list contains itself (object \(child) is inside its own contents)" }
                if size[child] > 0 || children[child].isEmpty {
                    frame.total += max(size[child], 1)
                    guard frame.total <= limit else {
                        return "its binary property list shares its objects so that reading it would make more than \(limit) values"
                    }
                    stack.append(frame)
                } else {
                    stack.append(frame)
                    guard stack.count < maximumDepth else { return "its containers nest more than \(maximumDepth) levels deep" }
                    open[child] = true
                    stack.append((child, 0, 1))
                }
                continue
            }
            open[frame.object] = false
            size[frame.object] = frame.total
            guard var parent = stack.popLast() else { break }
            parent.total += frame.total
            guard parent.total <= limit else {
                return "its binary property list shares its objects so that reading it would make more than \(limit) values"
            }
            stack.append(parent)
        }
        return nil
    }

    /// `problem` for bytes in an array.
    public static func problem(_ bytes: [UInt8]) -> String? {
        bytes.withUnsafeBytes { problem($0) }
    }

    /// `containsSet` for bytes in an array.
    public static func containsSet(_ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBytes { containsSet($0) }
    }
}
