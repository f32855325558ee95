/// A fast hash of strings for Lockstep's own tables (project ids, the parser's strings, findings), in place of
/// `Hasher`'s SipHash: eight bytes a step, each step multiplied and folded so that every byte reaches the top bits.
/// A table whose probing an input could make long takes a seed from `Hasher` (`newSeed`), so an input cannot choose
/// keys that all land in one slot; the parser's string table probes eight slots at most, then makes the string, and
/// needs none.
package enum StringHash {
    /// A seed from `Hasher`'s (fixed when `SWIFT_DETERMINISTIC_HASHING` is set).
    package static func newSeed() -> UInt64 {
        var hasher = Hasher()
        hasher.combine(0 as UInt8)
        return UInt64(truncatingIfNeeded: hasher.finalize())
    }

    /// The hash of `key` for a table that compares keys as `String`s do, by canonical equivalence: equal keys hash
    /// alike. An ASCII key is its own normal form; another key equals an ASCII one only if each of its scalars is
    /// ASCII or one of the three whose canonical decomposition is a single ASCII character, and then hashes as that
    /// ASCII key. Any other key hashes with `String`'s own hash, which normalizes.
    package static func hash(_ key: String, seed: UInt64) -> UInt64 {
        if let hash = key.utf8.withContiguousStorageIfAvailable({ bytes(UnsafeRawBufferPointer($0), seed: seed) }),
           hash.isASCII {
            return hash.value
        }
        var folded: [UInt8] = []
        for scalar in key.unicodeScalars {
            switch scalar.value {
            case 0..<0x80: folded.append(UInt8(scalar.value))
            case 0x37E: folded.append(UInt8(ascii: ";"))  // GREEK QUESTION MARK
            case 0x1FEF: folded.append(UInt8(ascii: "`"))  // GREEK VARIA
            case 0x212A: folded.append(UInt8(ascii: "K"))  // KELVIN SIGN
            default: return UInt64(truncatingIfNeeded: key.hashValue) ^ seed
            }
        }
        return folded.withUnsafeBytes { bytes($0, seed: seed) }.value
    }

    /// The hash of `raw`, for a table that compares its keys byte for byte, and whether every byte is ASCII.
    @inline(__always)
    package static func bytes(_ raw: UnsafeRawBufferPointer, seed: UInt64) -> (value: UInt64, isASCII: Bool) {
        let multiplier: UInt64 = 0x9E37_79B9_7F4A_7C15
        var hash = (seed ^ UInt64(truncatingIfNeeded: raw.count)) &* multiplier
        var high: UInt64 = 0
        var i = 0
        while i + 8 <= raw.count {
            let word = raw.loadUnaligned(fromByteOffset: i, as: UInt64.self)
            high |= word
            hash = (hash ^ word) &* multiplier
            hash ^= hash >> 32
            i += 8
        }
        var tail: UInt64 = 0
        while i < raw.count {
            tail = tail << 8 | UInt64(raw[i])
            i += 1
        }
        hash = (hash ^ tail) &* multiplier
        return (hash ^ (hash >> 29), (high | tail) & 0x8080_8080_8080_8080 == 0)
    }
}
