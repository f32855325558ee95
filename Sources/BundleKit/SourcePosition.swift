import AppGroupKit

/// Where a key or a setting is written in a text file, so that a finding about it carries a line (and column):
/// found when a value's source is made, by scanning the file's text, not kept for every key while reading.
package enum SourcePosition {
    /// The 1-based line and column (in bytes) of `offset` in `bytes`.
    package static func lineAndColumn(of offset: Int, in bytes: [UInt8]) -> (line: Int, column: Int) {
        var line = 1, lineStart = 0
        for index in 0..<min(offset, bytes.count) where bytes[index] == 0x0A {
            line += 1
            lineStart = index + 1
        }
        return (line, offset - lineStart + 1)
    }

    /// Where `<key>KEY</key>` is in an XML property list (the last one, as a reader keeps the last of a key written
    /// twice); nil for a binary or OpenStep plist, or a key it does not hold.
    package static func plistKey(_ key: String, in bytes: [UInt8]) -> (line: Int, column: Int)? {
        guard !bytes.starts(with: Array("bplist".utf8)) else { return nil }
        let needle = Array("<key>\(XMLPlistWriter.escaped(key))</key>".utf8)
        guard needle.count <= bytes.count else { return nil }
        var found: Int?
        var index = 0
        while index + needle.count <= bytes.count {
            if bytes[index] == UInt8(ascii: "<"), bytes[index..<(index + needle.count)].elementsEqual(needle) {
                found = index
                index += needle.count
            } else {
                index += 1
            }
        }
        return found.map { lineAndColumn(of: $0, in: bytes) }
    }

    /// The offsets where the lines of a text start: a line number by binary search, for a reader that asks many
    /// times of one large file (a resolver placing every checked setting of 200 targets in a 1 MB project.pbxproj
    /// scanned the file from its start for each).
    package struct LineIndex: Sendable {
        package let starts: [Int]

        package init(_ bytes: [UInt8]) {
            var starts = [0]
            for (index, byte) in bytes.enumerated() where byte == 0x0A { starts.append(index + 1) }
            self.starts = starts
        }

        /// As `SourcePosition.lineAndColumn(of:in:)`: the 1-based line and column (in bytes) of `offset`.
        package func lineAndColumn(of offset: Int) -> (line: Int, column: Int) {
            var low = 0, high = starts.count - 1
            while low < high {
                let middle = (low + high + 1) / 2
                if starts[middle] <= offset { low = middle } else { high = middle - 1 }
            }
            return (low + 1, offset - starts[low] + 1)
        }
    }
}
