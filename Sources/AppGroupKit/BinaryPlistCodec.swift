import Foundation

/// A hand-written binary property list (`bplist00`) writer and reader for `PropertyList`'s canonical values.
///
/// Why: swift-corelibs-foundation's `PropertyListSerialization` bridges every value through `NS` objects, which
/// made encoding a one-key journal record ~60 % of an increment (inside the suite's exclusive lock) and folding
/// a 100,000-key suite ~0.7 s. The bytes are still plain `bplist00` (Apple's format, as Python's `plistlib`
/// reads it), so the on-disk protocol (groups/README.md) does not change, and `PropertyListSerialization` reads
/// what this writes (Tests/AppGroupKitTests/BinaryPlistCodecTests checks both ways).
///
/// The reader answers nil for anything it does not take (another format, a 128-bit integer, a set, a UID,
/// damaged or cyclic object tables …): callers then ask Foundation, so the reader only ever speeds things up.
enum BinaryPlistCodec {
    // MARK: Writing

    /// The binary plist of `root`, or nil when some part of it is not a canonical property-list value.
    static func encode(_ root: Any) -> [UInt8]? {
        guard let count = objectCount(root) else { return nil }
        var writer = Writer(objectCount: count)
        guard writer.write(root, index: 0) else { return nil }
        return writer.finish()
    }

    /// The binary plist of a dictionary given as its entries (keys distinct), without building the dictionary
    /// first: a journal record's top level.
    /// - Parameter prefix: zero bytes to leave before the plist (a journal record's header, filled in later),
    ///   so the record is built in one buffer.
    static func encode(entries: [(key: String, value: Any)], prefix: Int = 0) -> [UInt8]? {
        var count = 1 + entries.count
        for entry in entries {
            guard let inner = objectCount(entry.value) else { return nil }
            count += inner
        }
        var writer = Writer(objectCount: count, prefix: prefix)
        writer.offsets[0] = writer.bytes.count - prefix
        guard writer.write(entries: entries) else { return nil }
        return writer.finish()
    }

    /// Whether `string` is ASCII (written as bytes; anything else as UTF-16), checked over its contiguous UTF-8 when
    /// it has it (a native string does): no per-index checks.
    static func isASCII(_ string: String) -> Bool {
        string.utf8.withContiguousStorageIfAvailable { !$0.contains { $0 >= 0x80 } } ?? string.utf8.allSatisfy { $0 < 0x80 }
    }

    /// The binary plist of `{"pid": pid, "set": {key: value}}`, the record an increment writes, byte for byte what
    /// `encode(entries:prefix:)` writes for it, without classifying boxed values or building containers.
    ///
    /// Laid out in one exactly sized buffer: this runs on every `set` of an integer and every increment, inside the
    /// time a change takes to reach another process, where the general writer's many small appends cost 5,000
    /// instructions a record. `BinaryPlistCodecTests` checks it against the general writer.
    static func encode(pid: Int, setting key: String, to value: Int, prefix: Int) -> [UInt8] {
        // The objects, as the general writer numbers them: 0 the record {1 "pid": 3 pid, 2 "set": 4 {5 key: 6 value}}.
        func integerSize(_ value: Int) -> Int { value < 0 ? 8 : Writer.byteCount(value) }
        func headerSize(_ count: Int) -> Int { count < 15 ? 1 : 2 + integerSize(count) }
        let utf8 = key.utf8
        let isASCII = Self.isASCII(key)
        let keyUnits = isASCII ? utf8.count : key.utf16.count
        var offsets = (0, 0, 0, 0, 0, 0, 0)
        offsets.0 = 8
        offsets.1 = offsets.0 + 5
        offsets.3 = offsets.1 + 4
        offsets.2 = offsets.3 + 1 + integerSize(pid)
        offsets.4 = offsets.2 + 4
        offsets.5 = offsets.4 + 3
        offsets.6 = offsets.5 + headerSize(keyUnits) + (isASCII ? keyUnits : 2 * keyUnits)
        let table = offsets.6 + 1 + integerSize(value)
        let offsetSize = Writer.byteCount(table)
        let count = prefix + table + 7 * offsetSize + 32
        return [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            var position = 0
            func byte(_ value: UInt8) { buffer[position] = value; position += 1 }
            func bigEndian(_ value: UInt64, _ size: Int) {
                var shift = (size - 1) * 8
                while shift >= 0 { byte(UInt8(truncatingIfNeeded: value >> UInt64(shift))); shift -= 8 }
            }
            func integer(_ value: Int) {
                let size = integerSize(value)
                byte(0x10 | UInt8(size.trailingZeroBitCount))
                bigEndian(UInt64(bitPattern: Int64(value)), size)
            }
            func header(_ marker: UInt8, _ count: Int) {
                if count < 15 { byte(marker << 4 | UInt8(count)) } else { byte(marker << 4 | 0xF); integer(count) }
            }
            for _ in 0..<prefix { byte(0) }
            for character in Writer.magic { byte(character) }
            for character: UInt8 in [0xD2, 1, 2, 3, 4, 0x53, 0x70, 0x69, 0x64] { byte(character) }  // {…}, "pid"
            integer(pid)
            for character: UInt8 in [0x53, 0x73, 0x65, 0x74, 0xD1, 5, 6] { byte(character) }  // "set", {…}
            if isASCII {
                header(0x5, keyUnits)
                for unit in utf8 { byte(unit) }
            } else {
                // Non-ASCII strings are UTF-16 big-endian, counted in code units.
                header(0x6, keyUnits)
                for unit in key.utf16 { bigEndian(UInt64(unit), 2) }
            }
            integer(value)
            withUnsafeBytes(of: offsets) { table in
                for offset in table.bindMemory(to: Int.self) { bigEndian(UInt64(offset), offsetSize) }
            }
            for _ in 0..<6 { byte(0) }
            byte(UInt8(offsetSize))
            byte(1)  // references: seven objects fit one byte
            bigEndian(7, 8)
            bigEndian(0, 8)  // the top object
            bigEndian(UInt64(table), 8)
            initialized = position
        }
    }

    /// The objects `value` takes in the object table (every key, value and container is one), nil when not canonical.
    private static func objectCount(_ value: Any) -> Int? {
        switch Node(value) {
        case .scalar: return 1
        case .dictionary(let dictionary): return objectCount(values: dictionary.values)
        case .keyed(let dictionary): return objectCount(values: dictionary.values)
        case .array(let array):
            var count = 1
            for element in array {
                guard let inner = objectCount(element) else { return nil }
                count += inner
            }
            return count
        case nil: return nil
        }
    }

    /// A dictionary's objects: itself, a key per value, and each value's.
    private static func objectCount<Values: Collection<Any>>(values: Values) -> Int? {
        var count = 1 + values.count
        for element in values {
            guard let inner = objectCount(element) else { return nil }
            count += inner
        }
        return count
    }

    /// A value classified once (also by `XMLPlistWriter`). Exact type checks come first: they are cheap, where a
    /// failing `as?` cast is not (it tries every bridging), and `as?` would bridge numbers (an `NSNumber` 1 casts
    /// to Bool).
    enum Node {
        /// `keyed`: a suite's top level, or a journal record's keys set (`DefaultsKey`: two spellings are two keys).
        case scalar(Scalar), dictionary([String: Any]), keyed([DefaultsKey: Any]), array([Any])

        init?(_ value: Any) {
            let type = Swift.type(of: value)
            if type == Int.self { self = .scalar(.int(value as! Int)) }
            else if type == UInt64.self { self = .scalar(.uint(value as! UInt64)) }
            else if type == String.self { self = .scalar(.string(value as! String)) }
            else if type == Bool.self { self = .scalar(.bool(value as! Bool)) }
            else if type == Double.self { self = .scalar(.real(value as! Double)) }
            else if type == [String: Any].self { self = .dictionary(value as! [String: Any]) }
            else if type == [Any].self { self = .array(value as! [Any]) }
            else if type == [DefaultsKey: Any].self { self = .keyed(value as! [DefaultsKey: Any]) }
            else if type == Date.self { self = .scalar(.date(value as! Date)) }
            else if type == Data.self { self = .scalar(.data(value as! Data)) }
            else if let string = value as? String { self = .scalar(.string(string)) }
            else if let dictionary = value as? [String: Any] { self = .dictionary(dictionary) }
            else if let array = value as? [Any] { self = .array(array) }
            else if let date = value as? Date { self = .scalar(.date(date)) }
            else if let data = value as? Data { self = .scalar(.data(data)) }
            else { return nil }
        }
    }

    enum Scalar {
        /// `uint` holds only values above `Int.max` (canonical values keep the rest as `Int`).
        case bool(Bool), int(Int), uint(UInt64), real(Double), string(String), date(Date), data(Data)
    }

    /// Writes objects depth-first; a container reserves its children's indices before writing their references,
    /// so every object is written once, in one pass, and the offset table maps index → position.
    private struct Writer {
        static let magic: [UInt8] = Array("bplist00".utf8)

        var bytes: [UInt8]
        var offsets: [Int]
        var nextIndex = 1
        let referenceSize: Int
        /// Where the plist starts in `bytes`: offsets count from there.
        let base: Int

        init(objectCount: Int, prefix: Int = 0) {
            bytes = []
            bytes.reserveCapacity(prefix + 64 + 16 * objectCount)
            bytes.append(contentsOf: repeatElement(0, count: prefix))
            bytes.append(contentsOf: Self.magic)
            base = prefix
            offsets = [Int](repeating: 0, count: objectCount)
            // Sized for the object count, not the largest index, as Apple's writer does: the same byte count.
            referenceSize = Self.byteCount(objectCount)
        }

        mutating func write(_ value: Any, index: Int) -> Bool {
            offsets[index] = bytes.count - base
            switch Node(value) {
            case .scalar(let scalar):
                write(scalar)
                return true
            case .dictionary(let dictionary):
                return write(entries: dictionary)
            case .keyed(let dictionary):
                return write(entries: dictionary)
            case .array(let array):
                let first = nextIndex
                nextIndex += array.count
                header(0xA, count: array.count)
                for index in 0..<array.count { append(UInt64(first + index), size: referenceSize) }
                for (position, element) in array.enumerated() {
                    guard write(element, index: first + position) else { return false }
                }
                return true
            case nil:
                return false
            }
        }

        /// A dictionary object (its offset already recorded) from its entries: a dictionary's own, keyed by
        /// `String` or `DefaultsKey` (not mapped to strings first: a mapped entry was copied through the runtime's
        /// generic witnesses, a tenth of a 100,000-key suite's fold).
        mutating func write<Key: PlistKey, Entries: Collection<(key: Key, value: Any)>>(entries: Entries) -> Bool {
            let count = entries.count
            let keys = nextIndex, values = nextIndex + count
            nextIndex += 2 * count
            header(0xD, count: count)
            for index in 0..<(2 * count) { append(UInt64(keys + index), size: referenceSize) }
            for (position, (key, element)) in entries.enumerated() {
                offsets[keys + position] = bytes.count - base
                write(.string(key.plistString))
                guard write(element, index: values + position) else { return false }
            }
            return true
        }

        private mutating func write(_ scalar: Scalar) {
            switch scalar {
            case .bool(let value): bytes.append(value ? 0x09 : 0x08)
            case .int(let value): integer(value)
            case .uint(let value):
                // 2⁶³…2⁶⁴−1: a 16-byte integer whose high half is zero, as Apple's and Python's writers store it.
                bytes.append(0x14)
                append(0, size: 8)
                append(value, size: 8)
            case .real(let value):
                bytes.append(0x23)
                append(value.bitPattern, size: 8)
            case .date(let value):
                bytes.append(0x33)
                append(value.timeIntervalSinceReferenceDate.bitPattern, size: 8)
            case .data(let value):
                header(0x4, count: value.count)
                bytes.append(contentsOf: value)
            case .string(let value):
                let utf8 = value.utf8
                if BinaryPlistCodec.isASCII(value) {
                    header(0x5, count: utf8.count)
                    bytes.append(contentsOf: utf8)
                } else {
                    // Non-ASCII strings are UTF-16 big-endian, counted in code units.
                    let utf16 = value.utf16
                    header(0x6, count: utf16.count)
                    for unit in utf16 { append(UInt64(unit), size: 2) }
                }
            }
        }

        /// Integers 0...2³²−1 take 1, 2 or 4 unsigned bytes; the rest 8 bytes, two's complement (as Apple's writer).
        private mutating func integer(_ value: Int) {
            let size = value < 0 ? 8 : Self.byteCount(value)
            bytes.append(0x10 | UInt8(size.trailingZeroBitCount))
            append(UInt64(bitPattern: Int64(value)), size: size)
        }

        /// A marker with its count: in the low nibble below 15, else nibble 0xF and an integer object.
        private mutating func header(_ marker: UInt8, count: Int) {
            if count < 15 {
                bytes.append(marker << 4 | UInt8(count))
            } else {
                bytes.append(marker << 4 | 0xF)
                integer(count)
            }
        }

        /// `value` big-endian in `size` bytes. A plain loop: this runs a dozen times per journal record, inside
        /// the time a change takes to reach another process.
        private mutating func append(_ value: UInt64, size: Int) {
            var shift = (size - 1) * 8
            while shift >= 0 {
                bytes.append(UInt8(truncatingIfNeeded: value >> UInt64(shift)))
                shift -= 8
            }
        }

        /// 1, 2, 4 or 8: the bytes an unsigned value needs.
        static func byteCount(_ value: Int) -> Int {
            value <= 0xFF ? 1 : value <= 0xFFFF ? 2 : value <= 0xFFFF_FFFF ? 4 : 8
        }

        /// The offset table and the 32-byte trailer.
        mutating func finish() -> [UInt8] {
            let table = bytes.count - base
            let offsetSize = Self.byteCount(table)
            for offset in offsets { append(UInt64(offset), size: offsetSize) }
            bytes.append(contentsOf: repeatElement(0, count: 6))
            bytes.append(UInt8(offsetSize))
            bytes.append(UInt8(referenceSize))
            append(UInt64(offsets.count), size: 8)
            append(0, size: 8)  // the top object
            append(UInt64(table), size: 8)
            return bytes
        }
    }

    // MARK: Reading

    /// The value of a binary plist in canonical form (`Int`, `Double`, `Bool`, `String`, `Date`, `Data`, `[Any]`,
    /// `[String: Any]`), or nil when these bytes are not one this reader takes (ask Foundation then).
    /// - Parameter keyedDepth: dictionaries less deep than this are `[DefaultsKey: Any]` (1: a suite's top level).
    static func decode(_ bytes: UnsafeRawBufferPointer, keyedDepth: Int = 0) -> Any? {
        guard var reader = Reader(bytes, keyedDepth: keyedDepth) else { return nil }
        return reader.object(reader.top, depth: 0)
    }

    /// The entries of a binary plist whose top object is a dictionary, in file order, without building the
    /// dictionary (a journal record's top level); nil as `decode`, or when the top object is no dictionary.
    /// - Parameter keyedDepth: as for `decode` (2: a journal record's keys set).
    static func decodeEntries(_ bytes: UnsafeRawBufferPointer, keyedDepth: Int = 0) -> [(key: String, value: Any)]? {
        guard var reader = Reader(bytes, keyedDepth: keyedDepth) else { return nil }
        return reader.entries(reader.top, depth: 0)
    }

    /// `(pid, key, value)` when these bytes are exactly what `encode(pid:setting:to:prefix:)` writes (an
    /// increment's record), read in place without boxing values or building containers; nil for any other
    /// plist, which `decodeEntries` then reads. Every other process replays each such record inside the suite's
    /// lock, so its cost is paid once per writer on every write.
    static func decodeOneIntegerSet(_ bytes: UnsafeRawBufferPointer) -> (pid: Int, key: String, value: Int)? {
        guard let reader = Reader(bytes, keyedDepth: 0) else { return nil }
        return reader.oneIntegerSet()
    }

    private struct Reader {
        let bytes: UnsafeRawBufferPointer
        let offsetSize: Int
        let referenceSize: Int
        let objectCount: Int
        let top: Int
        let table: Int
        /// Objects may only lie between the header and the offset table.
        let end: Int
        /// Objects visited so far: shared subtrees could otherwise make a small file expand without bound.
        var visits = 0
        /// Dictionaries less deep than this are read as `[DefaultsKey: Any]`: keys that differ only in their
        /// normalisation stay two.
        let keyedDepth: Int

        init?(_ bytes: UnsafeRawBufferPointer, keyedDepth: Int) {
            self.keyedDepth = keyedDepth
            guard bytes.count >= 8 + 1 + 32, bytes.starts(with: "bplist00".utf8) else { return nil }
            self.bytes = bytes
            let trailer = bytes.count - 32
            offsetSize = Int(bytes[trailer + 6])
            referenceSize = Int(bytes[trailer + 7])
            let objects = Self.bigEndian(bytes, at: trailer + 8, size: 8)
            let top = Self.bigEndian(bytes, at: trailer + 16, size: 8)
            let table = Self.bigEndian(bytes, at: trailer + 24, size: 8)
            guard [1, 2, 4, 8].contains(offsetSize), [1, 2, 4, 8].contains(referenceSize),
                  objects > 0, top < objects, table >= 9, table <= UInt64(trailer),
                  objects <= (UInt64(trailer) - table) / UInt64(offsetSize) else { return nil }
            objectCount = Int(objects)
            self.top = Int(top)
            self.table = Int(table)
            end = Int(table)
        }

        static func bigEndian(_ bytes: UnsafeRawBufferPointer, at offset: Int, size: Int) -> UInt64 {
            var value: UInt64 = 0
            for index in offset..<(offset + size) { value = value << 8 | UInt64(bytes[index]) }
            return value
        }

        mutating func object(_ index: Int, depth: Int) -> Any? {
            visits += 1
            // Nesting deeper than 128 levels is left to Foundation: this reader's stack use stays bounded.
            guard depth < 128, visits <= 4 * objectCount + 1024, index >= 0, index < objectCount else { return nil }
            let position = Self.bigEndian(bytes, at: table + index * offsetSize, size: offsetSize)
            guard position >= 8, position < UInt64(end) else { return nil }
            let start = Int(position)
            let marker = bytes[start]
            switch marker >> 4 {
            case 0x0:
                return marker == 0x08 ? false : marker == 0x09 ? true : nil
            case 0x1:
                if marker == 0x14 { return unsigned(at: start) }
                return integer(at: start)?.value
            case 0x2:
                guard marker == 0x22 || marker == 0x23 else { return nil }
                let size = marker == 0x22 ? 4 : 8
                guard size <= end - start - 1 else { return nil }
                let bits = Self.bigEndian(bytes, at: start + 1, size: size)
                return size == 4 ? Double(Float(bitPattern: UInt32(bits))) : Double(bitPattern: bits)
            case 0x3:
                guard marker == 0x33, 8 <= end - start - 1 else { return nil }
                return Date(timeIntervalSinceReferenceDate: Double(bitPattern: Self.bigEndian(bytes, at: start + 1, size: 8)))
            case 0x4:
                guard let (count, first) = length(at: start), count <= end - first else { return nil }
                return Data(bytes[first..<(first + count)])
            case 0x5:
                return ascii(at: start)
            case 0x6:
                guard let (count, first) = length(at: start), count <= (end - first) / 2 else { return nil }
                var scalars = String.UnicodeScalarView()
                let raw = bytes
                var units = (0..<count).lazy.map { UInt16(Self.bigEndian(raw, at: first + 2 * $0, size: 2)) }.makeIterator()
                var decoder = UTF16()
                decoding: while true {
                    switch decoder.decode(&units) {
                    case .scalarValue(let scalar): scalars.append(scalar)
                    case .emptyInput: break decoding
                    case .error: return nil  // a lone surrogate: let Foundation decide
                    }
                }
                return String(scalars)
            case 0xA:
                guard let references = references(at: start, perEntry: 1) else { return nil }
                var array: [Any] = []
                array.reserveCapacity(references.count)
                for entry in 0..<references.count {
                    guard let element = object(reference(references.first, entry), depth: depth + 1) else { return nil }
                    array.append(element)
                }
                return array
            case 0xD:
                guard let entries = entries(at: start, depth: depth) else { return nil }
                if depth < keyedDepth {
                    var dictionary = [DefaultsKey: Any](minimumCapacity: entries.count)
                    for (key, value) in entries where dictionary[DefaultsKey(key)] == nil { dictionary[DefaultsKey(key)] = value }
                    return dictionary
                }
                // Reserving is worth it for big dictionaries only: it is a generic (unspecialized) call.
                var dictionary: [String: Any] = entries.count > 64 ? Dictionary(minimumCapacity: entries.count) : [:]
                // A key twice (only in a damaged file): the first one counts, as with Foundation.
                for (key, value) in entries where dictionary[key] == nil { dictionary[key] = value }
                return dictionary
            default:
                return nil  // null, fill, UID, set, UTF-8 strings (bplist15+): not property-list types here
            }
        }

        /// The objects `encode(pid:setting:to:prefix:)` lays out: dictionary 0 → keys 1 ("pid"), 2 ("set") and values
        /// 3 (an integer), 4 (a dictionary of key 5, an ASCII string, to value 6, an integer).
        func oneIntegerSet() -> (pid: Int, key: String, value: Int)? {
            guard objectCount == 7, top == 0, referenceSize == 1 else { return nil }
            func start(_ index: Int) -> Int? {
                let position = Self.bigEndian(bytes, at: table + index * offsetSize, size: offsetSize)
                return position >= 8 && position < UInt64(end) ? Int(position) : nil
            }
            func isDictionary(_ start: Int, references: [UInt8]) -> Bool {
                bytes[start] == 0xD0 | UInt8(references.count / 2) && references.count < end - start
                    && references.indices.allSatisfy { bytes[start + 1 + $0] == references[$0] }
            }
            func isASCII(_ start: Int, _ text: StaticString) -> Bool {
                let count = text.utf8CodeUnitCount
                guard bytes[start] == 0x50 | UInt8(count), count < end - start else { return false }
                return (0..<count).allSatisfy { bytes[start + 1 + $0] == text.utf8Start[$0] }
            }
            guard let top = start(0), isDictionary(top, references: [1, 2, 3, 4]),
                  let pidKey = start(1), isASCII(pidKey, "pid"), let setKey = start(2), isASCII(setKey, "set"),
                  let pidStart = start(3), let pid = integer(at: pidStart),
                  let inner = start(4), isDictionary(inner, references: [5, 6]),
                  let keyStart = start(5), bytes[keyStart] >> 4 == 0x5, let key = ascii(at: keyStart),
                  let valueStart = start(6), let value = integer(at: valueStart)
            else { return nil }
            return (pid.value, key, value.value)
        }

        private func ascii(at start: Int) -> String? {
            guard let (count, first) = length(at: start), count <= end - first else { return nil }
            let slice = UnsafeRawBufferPointer(rebasing: bytes[first..<(first + count)])
            guard slice.allSatisfy({ $0 < 0x80 }) else { return nil }
            return String(decoding: slice, as: UTF8.self)
        }

        /// The entries of the dictionary object `index`, in file order.
        mutating func entries(_ index: Int, depth: Int) -> [(key: String, value: Any)]? {
            guard index >= 0, index < objectCount else { return nil }
            let position = Self.bigEndian(bytes, at: table + index * offsetSize, size: offsetSize)
            guard position >= 8, position < UInt64(end), bytes[Int(position)] >> 4 == 0xD else { return nil }
            return entries(at: Int(position), depth: depth)
        }

        private mutating func entries(at start: Int, depth: Int) -> [(key: String, value: Any)]? {
            guard let references = references(at: start, perEntry: 2) else { return nil }
            var entries: [(key: String, value: Any)] = []
            entries.reserveCapacity(references.count)
            for entry in 0..<references.count {
                guard let key = object(reference(references.first, entry), depth: depth + 1) as? String,
                      let value = object(reference(references.first, references.count + entry), depth: depth + 1)
                else { return nil }
                entries.append((key, value))
            }
            return entries
        }

        /// An integer object at `start`: 1, 2 and 4 bytes unsigned, 8 bytes two's complement; its end.
        private func integer(at start: Int) -> (value: Int, end: Int)? {
            let marker = bytes[start]
            guard marker >> 4 == 0x1, marker & 0xF <= 3 else { return nil }
            let size = 1 << Int(marker & 0xF)
            guard size <= end - start - 1 else { return nil }
            let bits = Self.bigEndian(bytes, at: start + 1, size: size)
            return (size == 8 ? Int(Int64(bitPattern: bits)) : Int(bits), start + 1 + size)
        }

        /// A 16-byte integer: an unsigned 64-bit value (high half zero), `Int` when it fits, else `UInt64`; or a
        /// negative 64-bit one (high half all ones). Nil for anything wider, which no property list holds.
        private func unsigned(at start: Int) -> Any? {
            guard 16 <= end - start - 1 else { return nil }
            let high = Self.bigEndian(bytes, at: start + 1, size: 8), low = Self.bigEndian(bytes, at: start + 9, size: 8)
            if high == 0 { return low <= UInt64(Int.max) ? Int(low) : low }
            if high == .max, low > UInt64(Int.max) { return Int(Int64(bitPattern: low)) }
            return nil
        }

        /// The count in a marker's low nibble, or in the integer object after it; and where the content starts.
        private func length(at start: Int) -> (count: Int, first: Int)? {
            let nibble = Int(bytes[start] & 0xF)
            if nibble != 0xF { return (nibble, start + 1) }
            guard start + 1 < end, let (count, first) = integer(at: start + 1), count >= 0 else { return nil }
            return (count, first)
        }

        /// A container's entry count and the position of its first reference, checked to fit.
        private func references(at start: Int, perEntry: Int) -> (count: Int, first: Int)? {
            guard let (count, first) = length(at: start), count <= (end - first) / (referenceSize * perEntry) else { return nil }
            return (count, first)
        }

        private func reference(_ first: Int, _ entry: Int) -> Int {
            Int(truncatingIfNeeded: Self.bigEndian(bytes, at: first + entry * referenceSize, size: referenceSize))
        }
    }
}
