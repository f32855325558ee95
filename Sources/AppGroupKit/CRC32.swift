import CZlib

/// CRC-32 (IEEE 802.3): zlib's `crc32()`, the same one Python's `zlib.crc32` computes. Every journal record is
/// checksummed when written and again by every process that replays it, inside the suite's lock.
enum CRC32 {
    static func checksum(_ bytes: UnsafeRawBufferPointer) -> UInt32 {
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return 0 }
        // zlib takes a length of `uInt` (32 bits): a record is at most a few MB, but fold larger input in chunks.
        var crc: uLong = 0
        var offset = 0
        while offset < bytes.count {
            let length = min(bytes.count - offset, Int(UInt32.max))
            crc = CZlib.crc32(crc, base.advanced(by: offset).assumingMemoryBound(to: Bytef.self), uInt(length))
            offset += length
        }
        return UInt32(truncatingIfNeeded: crc)
    }

    static func checksum(_ bytes: [UInt8]) -> UInt32 { bytes.withUnsafeBytes { checksum($0) } }

    /// How the checksum of a payload moves when one byte of a `width`-byte field followed by `trailing` bytes
    /// changes: entry `index << 8 | change` is what to XOR into it when the field's byte `index` is XORed with
    /// `change`. CRC-32 is linear: for payloads of one length crc(a) ⊕ crc(b) = L(a ⊕ b), where L is the CRC without
    /// its initial and final inversion, and a difference confined to one byte followed by `n` bytes is L of that
    /// byte and `n` zeros (the zeros before it leave L's register at 0). Each bit's entry comes from zlib's `crc32`
    /// (started from all ones, so the register starts at 0, and inverted back), the other entries by XOR.
    static func changeTable(width: Int, followedBy trailing: Int) -> [UInt32] {
        var table = [UInt32](repeating: 0, count: width << 8)
        var zeros = [UInt8](repeating: 0, count: width + trailing)
        for index in 0..<width {
            let rest = width - index + trailing - 1
            for bit in 0..<8 {
                zeros[0] = 1 << UInt8(bit)
                let linear = zeros.withUnsafeBytes { buffer in
                    guard let base = buffer.baseAddress else { return uLong(0) }
                    return CZlib.crc32(0xFFFF_FFFF, base.assumingMemoryBound(to: Bytef.self), uInt(rest + 1))
                }
                table[index << 8 | 1 << bit] = UInt32(truncatingIfNeeded: linear) ^ 0xFFFF_FFFF
            }
            zeros[0] = 0
            for change in 3..<256 where change & (change - 1) != 0 {
                let low = change & -change
                table[index << 8 | change] = table[index << 8 | low] ^ table[index << 8 | (change ^ low)]
            }
        }
        return table
    }
}
