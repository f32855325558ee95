/// What `check` reads from a bundle's Mach-O executable: the symbols it imports (rule `privacy.manifest`).
///
/// Thin 32/64-bit and universal (fat, fat64) files; imports from the symbol table (`LC_SYMTAB`: undefined external
/// symbols) and from chained fixups (`LC_DYLD_CHAINED_FIXUPS`, how iOS 15+ executables import). Every offset and
/// count is checked against the file before it is used, so a truncated or hostile file gives nil (it cannot be
/// read) or fewer symbols — never a crash, and never more work than its size. Architectures are read in place
/// (`ByteView`), never copied: a 300 MB executable costs its own size once.
enum MachO {
    /// The most symbols read from one executable (a large app imports tens of thousands).
    static let maximumSymbols = 1_000_000

    /// The architectures of `binary`: each slice of a universal file (`fat_arch` 20 bytes or `fat_arch_64` 32,
    /// big-endian), or the file itself; empty when a universal header points outside the file.
    static func architectures(_ binary: ByteView) -> [ByteView] {
        guard binary.count >= 8 else { return [] }
        let magic = binary.bigEndian32(at: 0)
        guard magic == 0xCAFE_BABE || magic == 0xCAFE_BABF else { return [binary] }
        let is64 = magic == 0xCAFE_BABF
        let count = Int(binary.bigEndian32(at: 4)), entry = is64 ? 32 : 20
        guard count >= 1, count <= 64, 8 + count * entry <= binary.count else { return [] }
        return (0..<count).compactMap { index in
            let base = 8 + index * entry
            let offset = is64 ? Int(clamping: binary.bigEndian64(at: base + 8)) : Int(binary.bigEndian32(at: base + 8))
            let size = is64 ? Int(clamping: binary.bigEndian64(at: base + 16)) : Int(binary.bigEndian32(at: base + 12))
            return binary.window(offset, size)
        }
    }

    /// The minimum OS version `binary` was built for (its first architecture's `LC_BUILD_VERSION`, or the older
    /// `LC_VERSION_MIN_*`), as `14.0` or `16.4.1`; nil when it says none or is not a Mach-O file. Universal files of
    /// either header (fat and fat64) are read alike (ITMS-90208 compares this with MinimumOSVersion).
    static func minimumOS(in binary: [UInt8]) -> String? {
        guard let bytes = architectures(ByteView(binary)).first else { return nil }
        let magic = bytes.littleEndian32(at: 0)
        guard magic == 0xFEED_FACF || magic == 0xFEED_FACE else { return nil }
        var position = magic == 0xFEED_FACF ? 32 : 28
        for _ in 0..<min(Int(bytes.littleEndian32(at: 16)), 65_536) {
            guard position + 16 <= bytes.count else { return nil }
            let command = bytes.littleEndian32(at: position), size = Int(bytes.littleEndian32(at: position + 4))
            guard size >= 8, size <= bytes.count - position else { return nil }
            // LC_BUILD_VERSION: platform, minos; LC_VERSION_MIN_MACOSX/IPHONEOS/TVOS/WATCHOS: version.
            let encoded: UInt32? = command == 0x32 ? bytes.littleEndian32(at: position + 12)
                : [0x24, 0x25, 0x2F, 0x30].contains(command) ? bytes.littleEndian32(at: position + 8) : nil
            if let encoded {
                // xxxx.yy.zz in nibbles.
                let (major, minor, patch) = (encoded >> 16, (encoded >> 8) & 0xFF, encoded & 0xFF)
                return patch == 0 ? "\(major).\(minor)" : "\(major).\(minor).\(patch)"
            }
            position += size
        }
        return nil
    }

    /// The names of the symbols `binary` imports, across its architectures; nil when it is not a Mach-O file.
    static func importedSymbols(in binary: [UInt8]) -> Set<String>? {
        var symbols: Set<String> = []
        var read = false
        for slice in architectures(ByteView(binary)) {
            guard let found = thinSymbols(slice) else { continue }
            symbols.formUnion(found)
            read = true
        }
        return read ? symbols : nil
    }

    /// The imports of one thin Mach-O file (little-endian, as every Apple architecture since PowerPC).
    private static func thinSymbols(_ bytes: ByteView) -> Set<String>? {
        guard bytes.count >= 28 else { return nil }
        let magic = bytes.littleEndian32(at: 0)
        guard magic == 0xFEED_FACF || magic == 0xFEED_FACE else { return nil }
        let is64 = magic == 0xFEED_FACF
        var position = is64 ? 32 : 28
        let commands = Int(bytes.littleEndian32(at: 16))
        guard commands <= 65_536 else { return nil }
        var symbols: Set<String> = []
        for _ in 0..<commands {
            guard position + 8 <= bytes.count else { return nil }
            let command = bytes.littleEndian32(at: position), size = Int(bytes.littleEndian32(at: position + 4))
            guard size >= 8, size <= bytes.count - position else { return nil }
            switch command {
            case 0x2 where size >= 24:  // LC_SYMTAB: symoff, nsyms, stroff, strsize
                symbolTable(bytes, is64: is64, symbols: Int(bytes.littleEndian32(at: position + 8)),
                            count: Int(bytes.littleEndian32(at: position + 12)), strings: Int(bytes.littleEndian32(at: position + 16)),
                            stringsSize: Int(bytes.littleEndian32(at: position + 20)), into: &symbols)
            case 0x8000_0034 where size >= 16:  // LC_DYLD_CHAINED_FIXUPS: dataoff, datasize
                chainedImports(bytes, at: Int(bytes.littleEndian32(at: position + 8)), size: Int(bytes.littleEndian32(at: position + 12)), into: &symbols)
            default:
                break
            }
            position += size
        }
        return symbols
    }

    /// Undefined external symbols (`n_type & N_TYPE == N_UNDF` with `N_EXT`): what the executable imports.
    private static func symbolTable(_ bytes: ByteView, is64: Bool, symbols offset: Int, count: Int, strings: Int, stringsSize: Int, into result: inout Set<String>) {
        let entry = is64 ? 16 : 12
        guard offset >= 0, count >= 0, count <= maximumSymbols, offset <= bytes.count, count <= (bytes.count - offset) / entry,
              strings >= 0, stringsSize >= 0, strings <= bytes.count, stringsSize <= bytes.count - strings else { return }
        for index in 0..<count {
            let base = offset + index * entry
            let type = bytes[base + 4]
            guard type & 0x0E == 0, type & 0x01 == 1, type & 0xE0 == 0 else { continue }  // N_UNDF, N_EXT, not a stab
            if let name = bytes.string(at: strings + Int(bytes.littleEndian32(at: base)), end: strings + stringsSize) { result.insert(name) }
        }
    }

    /// The imports of `dyld_chained_fixups_header` (mach-o/fixup-chains.h): formats 1 (DYLD_CHAINED_IMPORT),
    /// 2 (…_ADDEND) and 3 (…_ADDEND64); names uncompressed (symbols_format 0).
    private static func chainedImports(_ bytes: ByteView, at offset: Int, size: Int, into result: inout Set<String>) {
        guard offset >= 0, size >= 28, offset <= bytes.count, size <= bytes.count - offset else { return }
        let importsOffset = Int(bytes.littleEndian32(at: offset + 8)), symbolsOffset = Int(bytes.littleEndian32(at: offset + 12))
        let count = Int(bytes.littleEndian32(at: offset + 16)), format = bytes.littleEndian32(at: offset + 20)
        guard bytes.littleEndian32(at: offset + 24) == 0, (1...3).contains(format), count <= maximumSymbols else { return }
        let entry = format == 3 ? 16 : format == 2 ? 8 : 4
        guard importsOffset <= size, count <= (size - importsOffset) / entry, symbolsOffset <= size else { return }
        for index in 0..<count {
            let base = offset + importsOffset + index * entry
            let nameOffset = format == 3 ? Int(bytes.littleEndian32(at: base + 4)) : Int(bytes.littleEndian32(at: base) >> 9)
            if let name = bytes.string(at: offset + symbolsOffset + nameOffset, end: offset + size) { result.insert(name) }
        }
    }
}

/// A part of a file's bytes (one architecture of a universal executable), read in place: offsets are relative to
/// its start, and every read outside it gives 0 or nil.
struct ByteView {
    let bytes: [UInt8]
    let start: Int
    let count: Int

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
        start = 0
        count = bytes.count
    }

    private init(_ bytes: [UInt8], start: Int, count: Int) {
        self.bytes = bytes
        self.start = start
        self.count = count
    }

    /// The `size` bytes at `offset`, or nil when they are not all inside this view.
    func window(_ offset: Int, _ size: Int) -> ByteView? {
        guard offset >= 0, size >= 0, offset <= count, size <= count - offset else { return nil }
        return ByteView(bytes, start: start + offset, count: size)
    }

    /// The byte at `offset`, which the caller has checked is inside the view.
    subscript(offset: Int) -> UInt8 { bytes[start + offset] }

    /// The bytes of `range` (inside the view), copied.
    func copy(_ range: Range<Int>) -> [UInt8] { Array(bytes[(start + range.lowerBound)..<(start + range.upperBound)]) }

    func bigEndian32(at offset: Int) -> UInt32 {
        guard offset >= 0, offset + 4 <= count else { return 0 }
        let i = start + offset
        return UInt32(bytes[i]) << 24 | UInt32(bytes[i + 1]) << 16 | UInt32(bytes[i + 2]) << 8 | UInt32(bytes[i + 3])
    }

    func littleEndian32(at offset: Int) -> UInt32 {
        guard offset >= 0, offset + 4 <= count else { return 0 }
        let i = start + offset
        return UInt32(bytes[i]) | UInt32(bytes[i + 1]) << 8 | UInt32(bytes[i + 2]) << 16 | UInt32(bytes[i + 3]) << 24
    }

    func bigEndian64(at offset: Int) -> UInt64 {
        guard offset >= 0, offset + 8 <= count else { return 0 }
        return UInt64(bigEndian32(at: offset)) << 32 | UInt64(bigEndian32(at: offset + 4))
    }

    /// The NUL-terminated string at `offset`, which must end before `end`.
    func string(at offset: Int, end: Int) -> String? {
        guard offset >= 0, offset < end, end <= count,
              let nul = bytes[(start + offset)..<(start + end)].firstIndex(of: 0), nul > start + offset else { return nil }
        return String(decoding: bytes[(start + offset)..<nul], as: UTF8.self)
    }
}
