// The framing the five hash functions share (Merkle–Damgård): the message is cut into blocks, each compressed into
// the state, and the last one padded with a 1 bit, zeros and the message's length in bits, so that the length
// fills the block's last eighth (FIPS 180-4 §5.1; RFC 1321 §3.1–3.2, where the length is little-endian).

/// One hash function's compression of a block into its state.
protocol CompressionFunction: Sendable {
    static var blockByteCount: Int { get }
    /// MD5 writes the message length little-endian; the SHA family big-endian.
    static var lengthIsLittleEndian: Bool { get }
    init()
    /// Compresses one block of exactly `blockByteCount` bytes into the state.
    mutating func compress(_ block: ArraySlice<UInt8>)
    /// The state as the digest's bytes.
    var digestBytes: [UInt8] { get }
}

/// A message being hashed: the compressed state of its whole blocks and the bytes of the block not yet full.
struct MerkleDamgard<Compression: CompressionFunction>: Sendable {
    var compression: Compression
    var pending: [UInt8] = []
    var messageByteCount: UInt64 = 0

    init(_ compression: Compression = Compression()) { self.compression = compression }

    mutating func update(_ bytes: UnsafeRawBufferPointer) {
        messageByteCount &+= UInt64(bytes.count)
        pending.append(contentsOf: bytes)
        let whole = pending.count - pending.count % Compression.blockByteCount
        var start = 0
        while start < whole {
            compression.compress(pending[start..<start + Compression.blockByteCount])
            start += Compression.blockByteCount
        }
        pending.removeFirst(whole)
    }

    /// The digest of the message so far; the message itself can go on being updated.
    func finalize() -> [UInt8] {
        let block = Compression.blockByteCount
        let lengthByteCount = block / 8
        var last = pending
        last.append(0x80)
        while last.count % block != block - lengthByteCount { last.append(0) }
        // The length in bits fits 64 bits; SHA-384 and SHA-512's 128-bit field starts with 64 zero bits.
        let bits = messageByteCount &* 8
        let littleEndian = (0..<8).map { UInt8(truncatingIfNeeded: bits >> (8 * $0)) }
        let zeros = [UInt8](repeating: 0, count: lengthByteCount - 8)
        last += Compression.lengthIsLittleEndian ? littleEndian + zeros : zeros + littleEndian.reversed()
        var compression = self.compression
        var start = 0
        while start < last.count {
            compression.compress(last[start..<start + block])
            start += block
        }
        return compression.digestBytes
    }
}

/// The block's bytes as words, most significant byte first (the SHA family's order).
func bigEndianWords<Word: FixedWidthInteger & UnsignedInteger>(_ block: ArraySlice<UInt8>, as: Word.Type) -> [Word] {
    let size = Word.bitWidth / 8
    return stride(from: block.startIndex, to: block.endIndex, by: size).map { start in
        block[start..<start + size].reduce(Word(0)) { $0 << 8 | Word($1) }
    }
}

/// The words' bytes, most significant byte first.
func bigEndianBytes<Word: FixedWidthInteger>(_ words: [Word]) -> [UInt8] {
    words.flatMap { word in (0..<Word.bitWidth / 8).reversed().map { UInt8(truncatingIfNeeded: word >> (8 * $0)) } }
}

extension FixedWidthInteger where Self: UnsignedInteger {
    /// The bits rotated right by `count` (FIPS 180-4 §3.2's ROTR).
    func rotatedRight(_ count: Int) -> Self { self >> count | self << (Self.bitWidth - count) }
    /// The bits rotated left by `count` (ROTL; RFC 1321's <<<).
    func rotatedLeft(_ count: Int) -> Self { self << count | self >> (Self.bitWidth - count) }
}
