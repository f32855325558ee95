import BundleKit
import Foundation
import LockstepSystem

/// ASCII character classes on UTF-8 bytes: build-setting names and references are ASCII, and testing a byte is
/// far cheaper than a Unicode property lookup on a `Character` (which `check` would do for every byte of every
/// setting of every target).
package enum ASCII {
    package static func isLetter(_ byte: UInt8) -> Bool { (byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "z") }
    package static func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }
    /// `[A-Za-z0-9_]`.
    static func isIdentifier(_ byte: UInt8) -> Bool { isLetter(byte) || isDigit(byte) || byte == UInt8(ascii: "_") }
    package static func isASCII(_ text: some StringProtocol) -> Bool {
        let fast = text.utf8.withContiguousStorageIfAvailable { buffer -> Bool in
            // Eight bytes at a time: no byte has its top bit set.
            let raw = UnsafeRawBufferPointer(buffer)
            var i = 0
            while i + 8 <= raw.count {
                if raw.loadUnaligned(fromByteOffset: i, as: UInt64.self) & 0x8080_8080_8080_8080 != 0 { return false }
                i += 8
            }
            while i < raw.count {
                if raw[i] >= 0x80 { return false }
                i += 1
            }
            return true
        }
        return fast ?? text.utf8.allSatisfy { $0 < 0x80 }
    }

    /// `text.utf8.contains(byte)`, searched in the contiguous UTF-8: iterating a `String.UTF8View` generically costs
    /// many times more, and `check` asks this of every setting of every target.
    package static func contains(byte: UInt8, in text: some StringProtocol) -> Bool {
        text.utf8.withContiguousStorageIfAvailable { $0.contains(byte) } ?? text.utf8.contains(byte)
    }

    /// `text.utf8.allSatisfy(test)`, tested in the contiguous UTF-8 (iterating a `String.UTF8View` generically costs
    /// many times more).
    package static func allSatisfy(_ text: String, _ test: (UInt8) -> Bool) -> Bool {
        text.utf8.withContiguousStorageIfAvailable { $0.allSatisfy(test) } ?? text.utf8.allSatisfy(test)
    }

    /// ASCII without a carriage return: one `Character` per byte ("\r\n" is one Character), so counts, prefixes and
    /// offsets in bytes are the same as in Characters. Both tests in one pass of eight bytes a step, on a `String`:
    /// the rules ask it of every bundle path and identifier, from other modules, where a generic version ran
    /// unspecialized.
    package static func isOneBytePerCharacter(_ text: String) -> Bool {
        var text = text
        return text.withUTF8 { buffer in
            let raw = UnsafeRawBufferPointer(buffer)
            var i = 0
            while i + 8 <= raw.count {
                let word = raw.loadUnaligned(fromByteOffset: i, as: UInt64.self)
                // A zero byte of `word ^ 0x0D…` is a carriage return (the classic has-zero-byte test, exact when
                // no byte has its top bit set, which the first test rules out).
                let carriageReturns = word ^ 0x0D0D_0D0D_0D0D_0D0D
                let hasCarriageReturn = (carriageReturns &- 0x0101_0101_0101_0101) & ~carriageReturns & 0x8080_8080_8080_8080
                if word & 0x8080_8080_8080_8080 != 0 || hasCarriageReturn != 0 { return false }
                i += 8
            }
            while i < raw.count {
                if raw[i] >= 0x80 || raw[i] == 0x0D { return false }
                i += 1
            }
            return true
        }
    }

    /// The strings one after another, made at their final size: an interpolation grows its buffer as it goes, an
    /// allocation and a copy each time (a name between two literals cost 2,000 instructions; the names of every
    /// target, bundle path and setting source were a sixteenth of a 200-target check).
    @inlinable
    package static func joined(_ parts: String...) -> String {
        var count = 0
        for part in parts { count += part.utf8.count }
        return String(unsafeUninitializedCapacity: count) { buffer in
            var offset = 0
            for var part in parts {
                // Native and small strings have contiguous UTF-8; a bridged one is made so.
                part.withUTF8 { bytes in
                    if let source = bytes.baseAddress { (buffer.baseAddress! + offset).update(from: source, count: bytes.count) }
                    offset += bytes.count
                }
            }
            return offset
        }
    }

    /// `text.replacingOccurrences(of: target, with: replacement)`, done on bytes when both are ASCII (where
    /// Foundation's comparison is byte equality); Foundation's otherwise.
    package static func replacing(_ target: String, with replacement: String, in text: String) -> String {
        guard isASCII(text), isASCII(target), !target.isEmpty else {
            return text.replacingOccurrences(of: target, with: replacement)
        }
        let bytes = Array(text.utf8), needle = Array(target.utf8)
        guard bytes.count >= needle.count else { return text }
        var out: [UInt8] = []
        var i = 0, copied = 0
        while i + needle.count <= bytes.count {
            if bytes[i] == needle[0] && bytes[i..<(i + needle.count)].elementsEqual(needle) {
                if out.isEmpty { out.reserveCapacity(bytes.count) }
                out += bytes[copied..<i]
                out += replacement.utf8
                i += needle.count
                copied = i
            } else {
                i += 1
            }
        }
        guard copied > 0 else { return text }
        out += bytes[copied...]
        return String(decoding: out, as: UTF8.self)
    }

    /// `text.utf8.starts(with: prefix.utf8)`, compared in the contiguous UTF-8.
    package static func hasPrefix(_ prefix: String, _ text: String) -> Bool {
        guard prefix.utf8.count <= text.utf8.count else { return false }
        let fast = text.utf8.withContiguousStorageIfAvailable { bytes in
            prefix.utf8.withContiguousStorageIfAvailable { UnsafeBufferPointer(rebasing: bytes[..<$0.count]).elementsEqual($0) }
        }
        return (fast ?? nil) ?? text.utf8.starts(with: prefix.utf8)
    }

    /// `text.contains(target)` (Foundation's), done on bytes when both are ASCII, in place (no copy of either): the
    /// C library's `memchr` finds each place the first byte is, `memcmp` compares the rest. `check` asks this of
    /// every setting it expands and of every finding's message.
    package static func contains(_ target: String, in text: String) -> Bool {
        guard isASCII(text), isASCII(target), !target.isEmpty else { return text.contains(target) }
        var text = text, target = target
        return text.withUTF8 { bytes in
            target.withUTF8 { needle in
                guard bytes.count >= needle.count, let base = bytes.baseAddress, let first = needle.baseAddress else { return false }
                let last = base + (bytes.count - needle.count)
                var start = base
                while start <= last, let found = memchr(start, Int32(first.pointee), last - start + 1) {
                    let candidate = UnsafePointer(found.assumingMemoryBound(to: UInt8.self))
                    if memcmp(candidate, first, needle.count) == 0 { return true }
                    start = candidate + 1
                }
                return false
            }
        }
    }

    /// `text.allSatisfy(unicode)`, tested on bytes with `ascii` when the text is ASCII. Only for predicates that
    /// agree on ASCII (`isLetter`/`isNumber` are exactly `[A-Za-z]`/`[0-9]` there; "\r\n", one `Character`, fails both).
    static func allSatisfy(_ text: Substring, _ ascii: (UInt8) -> Bool, else unicode: (Character) -> Bool) -> Bool {
        isASCII(text) ? text.utf8.allSatisfy(ascii) : text.allSatisfy(unicode)
    }
}

extension BundleRecord {
    /// The unknown settings `value` is built from, by name.
    package func unknownNames(in value: String?) -> [String] {
        guard let value, !unknowns.isEmpty, ASCII.contains(byte: UInt8(ascii: "$"), in: value) else { return [] }
        return unknowns.keys.filter { ASCII.contains(BuildSettings.unknownSymbol($0), in: value) }.sorted()
    }
}
