/// What `check` reads from a bundle's Mach-O executable: the symbols it imports (RULES.md `privacy.manifest`).
///
/// Thin 32/64-bit and universal (fat, fat64) files; imports from the symbol table (`LC_SYMTAB`: undefined external
/// symbols) and from chained fixups (`LC_DYLD_CHAINED_FIXUPS`, how iOS 15+ executables import). Every offset and
/// count is checked against the file before it is used, so a truncated or hostile file gives nil (it cannot be
/// read) or fewer symbols — never a crash, and never more work than its size.
enum MachO {
    /// The most symbols read from one executable (a large app imports tens of thousands).
    static let maximumSymbols = 1_000_000

    /// The minimum OS version `binary` was built for (its first architecture's `LC_BUILD_VERSION`, or the older
    /// `LC_VERSION_MIN_*`), as `14.0` or `16.4.1`; nil when it says none or is not a Mach-O file.
    static func minimumOS(in binary: [UInt8]) -> String? {
        guard binary.count >= 8 else { return nil }
        var bytes = binary
        if binary.bigEndian32(at: 0) == 0xCAFE_BABE, binary.bigEndian32(at: 4) >= 1, binary.count >= 28 {
            let offset = Int(binary.bigEndian32(at: 16)), size = Int(binary.bigEndian32(at: 20))
            guard offset <= binary.count, size <= binary.count - offset else { return nil }
            bytes = Array(binary[offset..<(offset + size)])
        }
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
        guard binary.count >= 8 else { return nil }
        let magic = binary.bigEndian32(at: 0)
        if magic == 0xCAFE_BABE || magic == 0xCAFE_BABF {
            // Universal: each architecture's slice (fat_arch is 20 bytes, fat_arch_64 32, big-endian).
            let is64 = magic == 0xCAFE_BABF
            let count = Int(binary.bigEndian32(at: 4)), entry = is64 ? 32 : 20
            guard count >= 1, count <= 64, 8 + count * entry <= binary.count else { return nil }
            var symbols: Set<String> = []
            var read = false
            for index in 0..<count {
                let base = 8 + index * entry
                let offset = is64 ? Int(clamping: binary.bigEndian64(at: base + 8)) : Int(binary.bigEndian32(at: base + 8))
                let size = is64 ? Int(clamping: binary.bigEndian64(at: base + 16)) : Int(binary.bigEndian32(at: base + 12))
                guard offset >= 0, size >= 0, offset <= binary.count, size <= binary.count - offset,
                      let slice = thinSymbols(binary[offset..<(offset + size)]) else { continue }
                symbols.formUnion(slice)
                read = true
            }
            return read ? symbols : nil
        }
        return thinSymbols(binary[...])
    }

    /// The imports of one thin Mach-O file (little-endian, as every Apple architecture since PowerPC).
    private static func thinSymbols(_ file: ArraySlice<UInt8>) -> Set<String>? {
        let bytes = Array(file)
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
    private static func symbolTable(_ bytes: [UInt8], is64: Bool, symbols offset: Int, count: Int, strings: Int, stringsSize: Int, into result: inout Set<String>) {
        let entry = is64 ? 16 : 12
        guard offset >= 0, count >= 0, count <= maximumSymbols, offset <= bytes.count, count <= (bytes.count - offset) / entry,
              strings >= 0, stringsSize >= 0, strings <= bytes.count, stringsSize <= bytes.count - strings else { return }
        for index in 0..<count {
            let base = offset + index * entry
            let type = bytes[base + 4]
            guard type & 0x0E == 0, type & 0x01 == 1, type & 0xE0 == 0 else { continue }  // N_UNDF, N_EXT, not a stab
            if let name = string(bytes, at: strings + Int(bytes.littleEndian32(at: base)), end: strings + stringsSize) { result.insert(name) }
        }
    }

    /// The imports of `dyld_chained_fixups_header` (mach-o/fixup-chains.h): formats 1 (DYLD_CHAINED_IMPORT),
    /// 2 (…_ADDEND) and 3 (…_ADDEND64); names uncompressed (symbols_format 0).
    private static func chainedImports(_ bytes: [UInt8], at offset: Int, size: Int, into result: inout Set<String>) {
        guard offset >= 0, size >= 28, offset <= bytes.count, size <= bytes.count - offset else { return }
        let importsOffset = Int(bytes.littleEndian32(at: offset + 8)), symbolsOffset = Int(bytes.littleEndian32(at: offset + 12))
        let count = Int(bytes.littleEndian32(at: offset + 16)), format = bytes.littleEndian32(at: offset + 20)
        guard bytes.littleEndian32(at: offset + 24) == 0, (1...3).contains(format), count <= maximumSymbols else { return }
        let entry = format == 3 ? 16 : format == 2 ? 8 : 4
        guard importsOffset <= size, count <= (size - importsOffset) / entry, symbolsOffset <= size else { return }
        for index in 0..<count {
            let base = offset + importsOffset + index * entry
            let nameOffset = format == 3 ? Int(bytes.littleEndian32(at: base + 4)) : Int(bytes.littleEndian32(at: base) >> 9)
            if let name = string(bytes, at: offset + symbolsOffset + nameOffset, end: offset + size) { result.insert(name) }
        }
    }

    /// The NUL-terminated string at `start`, which must end before `end`.
    private static func string(_ bytes: [UInt8], at start: Int, end: Int) -> String? {
        guard start >= 0, start < end, end <= bytes.count, let nul = bytes[start..<end].firstIndex(of: 0), nul > start else { return nil }
        return String(decoding: bytes[start..<nul], as: UTF8.self)
    }
}

extension Array where Element == UInt8 {
    fileprivate func bigEndian64(at offset: Int) -> UInt64 {
        (0..<8).reduce(UInt64(0)) { $0 << 8 | UInt64(self[offset + $1]) }
    }
}
