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
        // Native strings have contiguous UTF-8 (`withUTF8` copies only a bridged one): compared as two buffers.
        var a = a.string, b = b.string
        return a.withUTF8 { a in b.withUTF8 { b in a.count == b.count && a.elementsEqual(b) } }
    }

    package func hash(into hasher: inout Hasher) {
        var string = string
        string.withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
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
