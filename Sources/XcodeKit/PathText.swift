import Foundation

/// Path helpers on plain strings (build settings and pbxproj paths are strings, not URLs).
package enum PathText {
    package static func parent(of path: String) -> String {
        let trimmed = path.hasSuffix("/") && path.count > 1 ? String(path.dropLast()) : path
        guard let slash = trimmed.lastIndex(of: "/") else { return "." }
        return slash == trimmed.startIndex ? "/" : String(trimmed[..<slash])
    }

    package static func lastComponent(of path: String) -> String {
        // An ASCII path's characters are its bytes: read as bytes (the characters' way counts and splits the whole
        // path, some thousand instructions for each file of a resources phase).
        if let last = path.utf8.withContiguousStorageIfAvailable({ bytes -> String? in
            guard ASCIIPath.isASCII(bytes) else { return nil }
            let trimmed = bytes.count > 1 && bytes.last == ASCIIPath.slash ? bytes.count - 1 : bytes.count
            var end = trimmed
            while end > 0 && bytes[end - 1] == ASCIIPath.slash { end -= 1 }
            // Nothing but slashes: `split` gives no component, and the trimmed path is the answer.
            guard end > 0 else { return String(decoding: UnsafeBufferPointer(rebasing: bytes[..<trimmed]), as: UTF8.self) }
            var start = end
            while start > 0 && bytes[start - 1] != ASCIIPath.slash { start -= 1 }
            return String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self)
        }) ?? nil {
            return last
        }
        return lastComponentByCharacters(of: path)
    }

    /// `lastComponent`, character by character: what the byte reading of an ASCII path must equal.
    static func lastComponentByCharacters(of path: String) -> String {
        let trimmed = path.hasSuffix("/") && path.count > 1 ? String(path.dropLast()) : path
        return trimmed.split(separator: "/").last.map(String.init) ?? trimmed
    }

    /// `relative` against `base`, unless it is absolute; `.` and `..` removed textually.
    /// `path` made absolute against the working directory, `.` and `..` folded.
    package static func absolute(_ path: String) -> String {
        path.hasPrefix("/") ? join("/", path) : join(FileManager.default.currentDirectoryPath, path)
    }

    package static func join(_ base: String, _ relative: String) -> String {
        // ASCII paths (nearly all) are joined as bytes: the characters' way splits into substrings and joins them.
        var base = base, relative = relative
        if let joined = relative.withUTF8({ relative in base.withUTF8 { base in ASCIIPath.join(base, relative) } }) {
            return joined
        }
        return joinByCharacters(base, relative)
    }

    /// `join`, character by character: what the byte joining of ASCII paths must equal.
    static func joinByCharacters(_ base: String, _ relative: String) -> String {
        let combined = relative.hasPrefix("/") ? relative : base + "/" + relative
        var parts: [Substring] = []
        for part in combined.split(separator: "/", omittingEmptySubsequences: true) {
            if part == "." { continue }
            if part == "..", let last = parts.last, last != ".." { parts.removeLast(); continue }
            parts.append(part)
        }
        let joined = parts.joined(separator: "/")
        return combined.hasPrefix("/") ? "/" + joined : (joined.isEmpty ? "." : joined)
    }

    /// `relative` inside the relative folder `base` ("" for none), still relative: how spec paths are rebased.
    package static func joinRelative(_ base: String, _ relative: String) -> String {
        guard !base.isEmpty, !relative.hasPrefix("/") else { return relative }
        let joined = join(base, relative)
        return joined == "." ? "" : joined
    }

    /// The file at `path`, or — for projects written on macOS's case-insensitive file system — the one whose
    /// name differs only in case (<doc:ReadingProjects> "Reading real projects").
    package static func existing(_ path: String) -> String? {
        let manager = FileManager.default
        if manager.fileExists(atPath: path) { return path }
        var current = path.hasPrefix("/") ? "/" : "."
        for component in path.split(separator: "/").map(String.init) {
            let candidate = current == "/" ? "/" + component : current + "/" + component
            if component == "." || component == ".." || manager.fileExists(atPath: candidate) {
                current = candidate
                continue
            }
            guard let match = (try? manager.contentsOfDirectory(atPath: current))?
                .first(where: { $0.lowercased() == component.lowercased() }) else { return nil }
            current = current == "/" ? "/" + match : current + "/" + match
        }
        return path.hasPrefix("/") ? current : String(current.dropFirst(2))  // without the "./" it started from
    }
}

/// `PathText`'s joining and last component on the bytes of ASCII paths, where each byte is a character.
private enum ASCIIPath {
    static let slash = UInt8(ascii: "/")
    static let dot = UInt8(ascii: ".")

    static func isASCII(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var high: UInt8 = 0
        for byte in bytes { high |= byte }
        return high < 0x80
    }

    /// `PathText.joinByCharacters(base, relative)`, or nil when either is not ASCII.
    static func join(_ base: UnsafeBufferPointer<UInt8>, _ relative: UnsafeBufferPointer<UInt8>) -> String? {
        guard isASCII(base), isASCII(relative) else { return nil }
        let absolute = relative.first == slash
        // The components of base (unless relative is absolute), then of relative, each as (which, range).
        var parts: [(fromBase: Bool, range: Range<Int>)] = []
        func add(_ bytes: UnsafeBufferPointer<UInt8>, fromBase: Bool) {
            var index = 0
            while index < bytes.count {
                while index < bytes.count && bytes[index] == slash { index += 1 }
                let start = index
                while index < bytes.count && bytes[index] != slash { index += 1 }
                guard index > start else { continue }
                let length = index - start
                if length == 1 && bytes[start] == dot { continue }
                if length == 2 && bytes[start] == dot && bytes[start + 1] == dot, let last = parts.last,
                   !isDotDot(last.fromBase ? base : relative, last.range) {
                    parts.removeLast()
                    continue
                }
                parts.append((fromBase, start..<index))
            }
        }
        if !absolute { add(base, fromBase: true) }
        add(relative, fromBase: false)
        // `base + "/" + relative` starts with a slash when base does, or is empty.
        let combinedIsAbsolute = absolute || base.isEmpty || base.first == slash
        var out: [UInt8] = []
        out.reserveCapacity(base.count + relative.count + 2)
        if combinedIsAbsolute { out.append(slash) }
        for (index, part) in parts.enumerated() {
            if index > 0 { out.append(slash) }
            out.append(contentsOf: UnsafeBufferPointer(rebasing: (part.fromBase ? base : relative)[part.range]))
        }
        if out.isEmpty { return "." }
        return String(decoding: out, as: UTF8.self)
    }

    private static func isDotDot(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Bool {
        range.count == 2 && bytes[range.lowerBound] == dot && bytes[range.lowerBound + 1] == dot
    }
}
