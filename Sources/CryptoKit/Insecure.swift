// SHA-1 as FIPS 180-4 defines it (§4.1.1 its functions, §4.2.1 its constants, §5.3.1 its initial value, §6.1.2 the
// computation), and MD5 as RFC 1321 defines it (§3.3 its initial value, §3.4 the four rounds, its table T of
// floor(2^32 × |sin i|)). Both are broken for signatures; apps still use them for checksums and cache keys, which is
// why CryptoKit keeps them under `Insecure`.

extension Insecure {
    /// The SHA-1 hash function (FIPS 180-4).
    public struct SHA1: HashFunction {
        public typealias Digest = SHA1Digest
        public static let blockByteCount = 64
        var blocks = MerkleDamgard<SHA1Compression>()

        public init() {}
        public mutating func update(bufferPointer: UnsafeRawBufferPointer) { blocks.update(bufferPointer) }
        public func finalize() -> SHA1Digest { SHA1Digest(_bytes: blocks.finalize()) }
    }

    /// The MD5 hash function (RFC 1321).
    public struct MD5: HashFunction {
        public typealias Digest = MD5Digest
        public static let blockByteCount = 64
        var blocks = MerkleDamgard<MD5Compression>()

        public init() {}
        public mutating func update(bufferPointer: UnsafeRawBufferPointer) { blocks.update(bufferPointer) }
        public func finalize() -> MD5Digest { MD5Digest(_bytes: blocks.finalize()) }
    }
}

/// SHA-1's compression of one 64-byte block into five 32-bit words (FIPS 180-4 §6.1.2).
struct SHA1Compression: CompressionFunction {
    static let blockByteCount = 64
    static let lengthIsLittleEndian = false
    var state: [UInt32] = [0x67452301, 0xefcdab89, 0x98badcfe, 0x10325476, 0xc3d2e1f0]

    mutating func compress(_ block: ArraySlice<UInt8>) {
        var w = bigEndianWords(block, as: UInt32.self)
        for t in 16..<80 { w.append((w[t - 3] ^ w[t - 8] ^ w[t - 14] ^ w[t - 16]).rotatedLeft(1)) }
        var (a, b, c, d, e) = (state[0], state[1], state[2], state[3], state[4])
        for t in 0..<80 {
            let f: UInt32, k: UInt32
            switch t {
            case 0..<20: (f, k) = ((b & c) | (~b & d), 0x5a827999)
            case 20..<40: (f, k) = (b ^ c ^ d, 0x6ed9eba1)
            case 40..<60: (f, k) = ((b & c) | (b & d) | (c & d), 0x8f1bbcdc)
            default: (f, k) = (b ^ c ^ d, 0xca62c1d6)
            }
            (e, d, c, b, a) = (d, c, b.rotatedLeft(30), a, a.rotatedLeft(5) &+ f &+ e &+ k &+ w[t])
        }
        for (index, value) in [a, b, c, d, e].enumerated() { state[index] &+= value }
    }

    var digestBytes: [UInt8] { bigEndianBytes(state) }
}

/// MD5's compression of one 64-byte block into four 32-bit words (RFC 1321 §3.4), whose words are little-endian.
struct MD5Compression: CompressionFunction {
    static let blockByteCount = 64
    static let lengthIsLittleEndian = true
    static let t: [UInt32] = [
        0xd76aa478, 0xe8c7b756, 0x242070db, 0xc1bdceee, 0xf57c0faf, 0x4787c62a, 0xa8304613, 0xfd469501,
        0x698098d8, 0x8b44f7af, 0xffff5bb1, 0x895cd7be, 0x6b901122, 0xfd987193, 0xa679438e, 0x49b40821,
        0xf61e2562, 0xc040b340, 0x265e5a51, 0xe9b6c7aa, 0xd62f105d, 0x02441453, 0xd8a1e681, 0xe7d3fbc8,
        0x21e1cde6, 0xc33707d6, 0xf4d50d87, 0x455a14ed, 0xa9e3e905, 0xfcefa3f8, 0x676f02d9, 0x8d2a4c8a,
        0xfffa3942, 0x8771f681, 0x6d9d6122, 0xfde5380c, 0xa4beea44, 0x4bdecfa9, 0xf6bb4b60, 0xbebfbc70,
        0x289b7ec6, 0xeaa127fa, 0xd4ef3085, 0x04881d05, 0xd9d4d039, 0xe6db99e5, 0x1fa27cf8, 0xc4ac5665,
        0xf4292244, 0x432aff97, 0xab9423a7, 0xfc93a039, 0x655b59c3, 0x8f0ccc92, 0xffeff47d, 0x85845dd1,
        0x6fa87e4f, 0xfe2ce6e0, 0xa3014314, 0x4e0811a1, 0xf7537e82, 0xbd3af235, 0x2ad7d2bb, 0xeb86d391,
    ]
    /// The rotation of each step: four per round, repeated four times in the round.
    static let shifts = [[7, 12, 17, 22], [5, 9, 14, 20], [4, 11, 16, 23], [6, 10, 15, 21]]
    var state: [UInt32] = [0x67452301, 0xefcdab89, 0x98badcfe, 0x10325476]

    mutating func compress(_ block: ArraySlice<UInt8>) {
        let x = bigEndianWords(block, as: UInt32.self).map(\.byteSwapped)
        var (a, b, c, d) = (state[0], state[1], state[2], state[3])
        for i in 0..<64 {
            let round = i / 16
            let f: UInt32, k: Int
            switch round {
            case 0: (f, k) = ((b & c) | (~b & d), i)
            case 1: (f, k) = ((b & d) | (c & ~d), (5 * i + 1) % 16)
            case 2: (f, k) = (b ^ c ^ d, (3 * i + 5) % 16)
            default: (f, k) = (c ^ (b | ~d), (7 * i) % 16)
            }
            let rotated = (a &+ f &+ x[k] &+ Self.t[i]).rotatedLeft(Self.shifts[round][i % 4])
            (a, b, c, d) = (d, b &+ rotated, b, c)
        }
        for (index, value) in [a, b, c, d].enumerated() { state[index] &+= value }
    }

    var digestBytes: [UInt8] { state.flatMap { word in (0..<4).map { UInt8(truncatingIfNeeded: word >> (8 * $0)) } } }
}
