/// The entitlements a signed Mach-O executable carries in its code signature: where a device build keeps them
/// when the bundle has no `archived-expanded-entitlements.xcent`.
///
/// Layout (xnu `osfmk/kern/cs_blobs.h`): the `LC_CODE_SIGNATURE` load command points at a SuperBlob
/// (`CSMAGIC_EMBEDDED_SIGNATURE`, big-endian) whose index holds a blob of type `CSSLOT_ENTITLEMENTS` with magic
/// `CSMAGIC_EMBEDDED_ENTITLEMENTS` followed by an XML property list. Every offset is checked against the file.
enum CodeSignature {
    /// The entitlements plist bytes in `binary`, or `nil` if it is not a signed Mach-O or has none.
    static func entitlements(in binary: [UInt8]) -> [UInt8]? {
        // A universal binary (fat or fat64): the signature of the first architecture (each slice is signed with the
        // same entitlements), read in place.
        guard let bytes = MachO.architectures(ByteView(binary)).first else { return nil }
        // MH_MAGIC_64 / MH_MAGIC, little-endian (arm64, x86_64).
        let magic = bytes.littleEndian32(at: 0)
        guard magic == 0xFEED_FACF || magic == 0xFEED_FACE else { return nil }
        let headerSize = magic == 0xFEED_FACF ? 32 : 28
        guard bytes.count >= headerSize else { return nil }
        let commandCount = Int(bytes.littleEndian32(at: 16))
        var position = headerSize
        for _ in 0..<commandCount {
            guard position + 16 <= bytes.count else { return nil }
            let command = bytes.littleEndian32(at: position)
            let size = Int(bytes.littleEndian32(at: position + 4))
            if command == 0x1D {  // LC_CODE_SIGNATURE
                return superBlobEntitlements(bytes, at: Int(bytes.littleEndian32(at: position + 8)),
                                             size: Int(bytes.littleEndian32(at: position + 12)))
            }
            guard size >= 8 else { return nil }
            position += size
        }
        return nil
    }

    private static func superBlobEntitlements(_ binary: ByteView, at offset: Int, size: Int) -> [UInt8]? {
        guard offset >= 0, size >= 12, offset <= binary.count, size <= binary.count - offset,
              binary.bigEndian32(at: offset) == 0xFADE_0CC0 else { return nil }  // CSMAGIC_EMBEDDED_SIGNATURE
        let count = Int(binary.bigEndian32(at: offset + 8))
        for index in 0..<count {
            let entry = offset + 12 + index * 8
            guard entry + 8 <= offset + size else { return nil }
            guard binary.bigEndian32(at: entry) == 5 else { continue }  // CSSLOT_ENTITLEMENTS
            let blob = offset + Int(binary.bigEndian32(at: entry + 4))
            guard blob + 8 <= offset + size, binary.bigEndian32(at: blob) == 0xFADE_7171 else { return nil }  // CSMAGIC_EMBEDDED_ENTITLEMENTS
            let length = Int(binary.bigEndian32(at: blob + 4))
            guard length >= 8, blob + length <= offset + size else { return nil }
            return binary.copy((blob + 8)..<(blob + length))
        }
        return nil
    }
}

extension Array where Element == UInt8 {
    func bigEndian32(at offset: Int) -> UInt32 {
        guard offset >= 0, offset + 4 <= count else { return 0 }
        return UInt32(self[offset]) << 24 | UInt32(self[offset + 1]) << 16 | UInt32(self[offset + 2]) << 8 | UInt32(self[offset + 3])
    }

    func littleEndian32(at offset: Int) -> UInt32 {
        guard offset >= 0, offset + 4 <= count else { return 0 }
        return UInt32(self[offset]) | UInt32(self[offset + 1]) << 8 | UInt32(self[offset + 2]) << 16 | UInt32(self[offset + 3]) << 24
    }
}
