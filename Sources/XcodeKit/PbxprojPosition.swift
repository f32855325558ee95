import BundleKit

/// Where a setting is written in a project.pbxproj, for findings that point at its line.
extension SourcePosition {
    /// Where the setting `key` (`KEY = value;`) is in one object of a project.pbxproj.
    /// - Parameter lines: the file's `LineIndex`, for a caller that asks many times (else the file is scanned).
    package static func pbxprojSetting(_ key: String, in bytes: [UInt8], object: Range<Int>, lines: LineIndex? = nil) -> (line: Int, column: Int)? {
        guard object.lowerBound >= 0, object.upperBound <= bytes.count,
              let value = pbxprojValueRange(of: key, in: bytes[object]) else { return nil }
        // Back from the value to the key's first byte: over `=`, blanks, the key (perhaps quoted).
        var start = object.lowerBound + value.lowerBound
        while start > object.lowerBound, bytes[start - 1] != 0x0A && bytes[start - 1] != 0x09 && bytes[start - 1] != UInt8(ascii: "{")
                && bytes[start - 1] != UInt8(ascii: ";") {
            start -= 1
        }
        while start < bytes.count, bytes[start] == 0x20 { start += 1 }
        return lines?.lineAndColumn(of: start) ?? lineAndColumn(of: start, in: bytes)
    }

    /// The byte range of the value of `key` inside one pbxproj object's text (`KEY = value;`).
    package static func pbxprojValueRange(of key: String, in object: [UInt8]) -> Range<Int>? {
        pbxprojValueRange(of: key, in: object[...])
    }

    /// `pbxprojValueRange(of:in:)` in the object's bytes inside the whole file, without copying them out; the
    /// range is from the object's start.
    static func pbxprojValueRange(of key: String, in slice: ArraySlice<UInt8>) -> Range<Int>? {
        let needles = [Array(key.utf8), Array("\"\(key)\"".utf8)]
        return slice.withUnsafeBufferPointer { object -> Range<Int>? in
            // Most bytes start neither needle: two comparisons before going through the needles.
            let firsts = (needles[0].first, UInt8(ascii: "\""))
            var index = 0
            while index < object.count {
                let byte = object[index]
                guard byte == firsts.0 || byte == firsts.1 || firsts.0 == nil else {
                    index += 1
                    continue
                }
                for needle in needles where (needle.isEmpty || byte == needle[0]) && index + needle.count <= object.count
                    && object[index..<(index + needle.count)].elementsEqual(needle) {
                    let before = index == 0 ? UInt8(ascii: " ") : object[index - 1]
                    guard before == 0x20 || before == 0x09 || before == 0x0A || before == UInt8(ascii: "{") || before == UInt8(ascii: ";") else { continue }
                    var cursor = index + needle.count
                    while cursor < object.count, object[cursor] == 0x20 || object[cursor] == 0x09 { cursor += 1 }
                    guard cursor < object.count, object[cursor] == UInt8(ascii: "=") else { continue }
                    cursor += 1
                    while cursor < object.count, object[cursor] == 0x20 || object[cursor] == 0x09 { cursor += 1 }
                    let start = cursor
                    if cursor < object.count, object[cursor] == UInt8(ascii: "\"") {
                        cursor += 1
                        while cursor < object.count, object[cursor] != UInt8(ascii: "\"") { cursor += object[cursor] == UInt8(ascii: "\\") ? 2 : 1 }
                        return start..<min(cursor + 1, object.count)
                    }
                    while cursor < object.count, object[cursor] != UInt8(ascii: ";") { cursor += 1 }
                    return start..<cursor
                }
                index += 1
            }
            return nil
        }
    }
}
