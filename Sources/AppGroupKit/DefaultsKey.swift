/// A key of a defaults suite, equal to another only when their code units are the same.
///
/// Why not `String`: Swift compares and hashes strings by canonical equivalence, so "café" written with U+00E9 and
/// with "e" + U+0301 are one `String` key, while iOS keeps a suite in an `NSDictionary` whose `NSString` keys compare
/// by UTF-16 code units: two keys, two values. A suite keyed by `String` read the second key's value for the first,
/// and merged the two keys of a plist another program wrote at its next fold. UTF-8 and UTF-16 spell the same
/// scalars, so comparing UTF-8 bytes is comparing UTF-16 code units. (A Swift `String` keeps the scalars it was
/// made of: only its `==` and hash normalise.)
package struct DefaultsKey: Hashable, Sendable, CustomStringConvertible, ExpressibleByStringLiteral {
    package let string: String

    package init(_ string: String) { self.string = string }

    package init(stringLiteral string: String) { self.string = string }

    package var description: String { string }

    package static func == (a: DefaultsKey, b: DefaultsKey) -> Bool {
        // An increment compares its key with the kept record's twice, and a generic comparison of the UTF-8 views
        // more than doubled its instructions. Usually both are one string (the caller's, kept with the record):
        // the same representation, told at once; else the bytes, eight at a time.
        let identical = withUnsafeBytes(of: a.string) { x in withUnsafeBytes(of: b.string) { y in RawBytes.equal(x, y, 0..<x.count) } }
        if identical { return true }
        let x = a.string.utf8, y = b.string.utf8
        guard x.count == y.count else { return false }
        let same = x.withContiguousStorageIfAvailable { x in
            y.withContiguousStorageIfAvailable { y in RawBytes.equal(UnsafeRawBufferPointer(x), UnsafeRawBufferPointer(y), 0..<x.count) }
        }
        return (same ?? nil) ?? x.elementsEqual(y)  // native strings (all of them on Linux) are contiguous
    }

    package func hash(into hasher: inout Hasher) {
        let utf8 = string.utf8
        if utf8.withContiguousStorageIfAvailable({ hasher.combine(bytes: UnsafeRawBufferPointer($0)) }) == nil {
            Array(utf8).withUnsafeBytes { hasher.combine(bytes: $0) }  // the same hash as the contiguous bytes
        }
    }
}

/// A dictionary key as a property list writes it.
protocol PlistKey {
    var plistString: String { get }
}

extension String: PlistKey {
    var plistString: String { self }
}

extension DefaultsKey: PlistKey {
    var plistString: String { string }
}

/// Byte ranges compared eight bytes at a time.
enum RawBytes {
    static func equal(_ a: UnsafeRawBufferPointer, _ b: UnsafeRawBufferPointer, _ range: Range<Int>) -> Bool {
        var index = range.lowerBound
        while index + 8 <= range.upperBound {
            if a.loadUnaligned(fromByteOffset: index, as: UInt64.self) != b.loadUnaligned(fromByteOffset: index, as: UInt64.self) { return false }
            index += 8
        }
        while index < range.upperBound {
            if a[index] != b[index] { return false }
            index += 1
        }
        return true
    }
}

extension Dictionary where Key == DefaultsKey {
    /// The dictionary keyed by the keys' strings; of two keys that are one `String` (canonically equivalent
    /// spellings), the one first in code-unit order counts, so the answer does not depend on hashing.
    var byString: [String: Value] {
        var result = [String: Value](minimumCapacity: count)
        for (key, value) in self { result[key.string] = value }
        if result.count == count { return result }
        // Two spellings of one key (rare): chosen again, in order.
        result.removeAll(keepingCapacity: true)
        for key in keys.sorted(by: { $0.string.utf8.lexicographicallyPrecedes($1.string.utf8) }) where result[key.string] == nil {
            result[key.string] = self[key]
        }
        return result
    }
}

extension Dictionary where Key == String {
    /// The dictionary keyed by code units (a dictionary read by Foundation, whose keys are already distinct).
    var byCodeUnits: [DefaultsKey: Value] {
        var result = [DefaultsKey: Value](minimumCapacity: count)
        for (key, value) in self { result[DefaultsKey(key)] = value }
        return result
    }
}
