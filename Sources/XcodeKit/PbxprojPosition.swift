import BundleKit
import Synchronization

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

/// The lines of a project.pbxproj's settings, found when a finding first points at one: a resolver hands out each
/// checked value's `SourceLocation` with `pbxprojSetting` instead of its line, and the rules ask this for the line
/// of the values they report. Shared by the bundle sets of one project (they are `Sendable`): the object index and
/// the line starts are made once, under a lock, by the first finding that needs them.
package final class PbxprojPositions: Sendable, Equatable {
    let path: String
    let bytes: [UInt8]
    private let objectRanges: [(id: String, range: Range<Int>)]
    private let index = Mutex<(objects: [String: Range<Int>], lines: SourcePosition.LineIndex)?>(nil)

    package init(_ project: XcodeProject) {
        path = project.pbxprojPath
        bytes = project.bytes
        objectRanges = project.objectRanges
    }

    /// The same project file.
    package static func == (a: PbxprojPositions, b: PbxprojPositions) -> Bool { a.path == b.path && a.bytes == b.bytes }

    /// `location` with its line and column, when it is a setting of this project.pbxproj whose line was left to be
    /// found; else `location` as it is.
    package func located(_ location: SourceLocation) -> SourceLocation {
        guard location.line == nil, location.file == path, let setting = location.pbxprojSetting else { return location }
        let position = index.withLock { index -> (line: Int, column: Int)? in
            // The last object of an id, as the parser keeps the last of a key written twice.
            let (objects, lines) = index ?? (Dictionary(objectRanges, uniquingKeysWith: { _, last in last }), SourcePosition.LineIndex(bytes))
            index = (objects, lines)
            return objects[setting.object].flatMap { SourcePosition.pbxprojSetting(setting.key, in: bytes, object: $0, lines: lines) }
        }
        var located = location
        located.line = position?.line
        located.column = position?.column
        return located
    }
}
