import Foundation

/// A hand-written XML property list writer for `PropertyList`'s canonical values, byte for byte what
/// CoreFoundation's writer gives (Tests/AppGroupKitTests/PropertyListDataTests checks): tab indents, dictionary
/// keys in UTF-16 order, reals to 17 significant digits, dates to the second in UTC, data as base64 in lines of at
/// most 76 characters. So the payloads and files other processes (or Python's `plistlib`) read do not change.
///
/// Why not Foundation: see `PropertyList.data(_:format:)`.
package enum XMLPlistWriter {
    private static let header = Array("""
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
        <plist version="1.0">

        """.utf8)

    /// The XML plist of `root`, or nil when some part of it is not a canonical property-list value.
    static func encode(_ root: Any) -> [UInt8]? {
        var bytes = header
        guard write(root, indent: 0, into: &bytes) else { return nil }
        bytes += "</plist>\n".utf8
        return bytes
    }

    private static func write(_ value: Any, indent: Int, into bytes: inout [UInt8]) -> Bool {
        tabs(indent, into: &bytes)
        switch BinaryPlistCodec.Node(value) {
        case .scalar(.string(let string)):
            element("string", escaped(string), into: &bytes)
        case .scalar(.int(let int)):
            element("integer", String(int), into: &bytes)
        case .scalar(.uint(let int)):
            element("integer", String(int), into: &bytes)
        case .scalar(.real(let real)):
            element("real", text(real), into: &bytes)
        case .scalar(.bool(let bool)):
            bytes += (bool ? "<true/>\n" : "<false/>\n").utf8
        case .scalar(.date(let date)):
            element("date", text(date), into: &bytes)
        case .scalar(.data(let data)):
            return container("data", isEmpty: false, indent: indent, into: &bytes) { bytes in
                base64(data, indent: indent, into: &bytes)
                return true
            }
        case .array(let array):
            return container("array", isEmpty: array.isEmpty, indent: indent, into: &bytes) { bytes in
                for element in array {
                    guard write(element, indent: indent + 1, into: &bytes) else { return false }
                }
                return true
            }
        case .dictionary(let dictionary):
            return write(entries: dictionary.map { (key: $0.key, value: $0.value) }, indent: indent, into: &bytes)
        case .keyed(let dictionary):
            return write(entries: dictionary.map { (key: $0.key.string, value: $0.value) }, indent: indent, into: &bytes)
        case nil:
            return false
        }
        return true
    }

    /// A dictionary's element from its entries (keys distinct), its tabs already written.
    private static func write(entries: [(key: String, value: Any)], indent: Int, into bytes: inout [UInt8]) -> Bool {
        container("dict", isEmpty: entries.isEmpty, indent: indent, into: &bytes) { bytes in
            // CFStringCompare without options: UTF-16 code units, not Swift's Unicode-aware `<`.
            for (key, value) in entries.sorted(by: { $0.key.utf16.lexicographicallyPrecedes($1.key.utf16) }) {
                tabs(indent + 1, into: &bytes)
                element("key", escaped(key), into: &bytes)
                guard write(value, indent: indent + 1, into: &bytes) else { return false }
            }
            return true
        }
    }

    /// `<tag>`, what `content` writes (false: a value that is not a property list), and `</tag>` at `indent`; `<tag/>`
    /// when `isEmpty`, as CoreFoundation writes an empty array or dictionary.
    private static func container(_ tag: String, isEmpty: Bool, indent: Int, into bytes: inout [UInt8],
                                  _ content: (inout [UInt8]) -> Bool) -> Bool {
        guard !isEmpty else {
            bytes += "<\(tag)/>\n".utf8
            return true
        }
        bytes += "<\(tag)>\n".utf8
        guard content(&bytes) else { return false }
        tabs(indent, into: &bytes)
        bytes += "</\(tag)>\n".utf8
        return true
    }

    private static func element(_ tag: String, _ text: String, into bytes: inout [UInt8]) {
        bytes += "<\(tag)>\(text)</\(tag)>\n".utf8
    }

    private static func tabs(_ count: Int, into bytes: inout [UInt8]) {
        bytes += repeatElement(UInt8(ascii: "\t"), count: count)
    }

    /// Only `<`, `>` and `&` are escaped, as CoreFoundation does (and as `check` looks a key up in a plist's text).
    package static func escaped(_ string: String) -> String {
        var result = ""
        for scalar in string.unicodeScalars {
            switch scalar {
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "&": result += "&amp;"
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    private static func text(_ real: Double) -> String {
        if real.isNaN { return "nan" }
        if real.isInfinite { return real > 0 ? "+infinity" : "-infinity" }
        if real == 0 { return "0.0" }
        // C's printf, not Foundation's String(format:): that sets up locale machinery on first use, most of the
        // cost of a process's first envelope.
        var buffer = [CChar](repeating: 0, count: 32)
        let count = withVaList([real]) { vsnprintf(&buffer, buffer.count, "%.17g", $0) }
        return String(decoding: buffer.prefix(Int(count)).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// `YYYY-MM-DDThh:mm:ssZ`, the second truncated.
    private static func text(_ date: Date) -> String {
        var seconds = time_t((date.timeIntervalSince1970).rounded(.down))
        var parts = tm()
        gmtime_r(&seconds, &parts)
        // printf's %0Nd: the sign counts toward the width.
        func digits(_ value: Int32, _ width: Int) -> String {
            let text = String(value.magnitude)
            let sign = value < 0 ? "-" : ""
            return sign + String(repeating: "0", count: max(0, width - sign.count - text.count)) + text
        }
        return "\(digits(parts.tm_year + 1900, 4))-\(digits(parts.tm_mon + 1, 2))-\(digits(parts.tm_mday, 2))T"
            + "\(digits(parts.tm_hour, 2)):\(digits(parts.tm_min, 2)):\(digits(parts.tm_sec, 2))Z"
    }

    /// Base64 as CoreFoundation writes it: a line ends once it reaches 76 characters less 8 per indent (indents
    /// capped at 8), checked after each input byte, so a line may run one character over.
    private static func base64(_ data: Data, indent: Int, into bytes: inout [UInt8]) {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)
        let indent = min(indent, 8)
        var line: [UInt8] = []
        func flush() {
            tabs(indent, into: &bytes)
            bytes += line
            bytes.append(UInt8(ascii: "\n"))
            line.removeAll(keepingCapacity: true)
        }
        var previous: UInt8 = 0
        for (index, byte) in data.enumerated() {
            switch index % 3 {
            case 0: line.append(alphabet[Int(byte >> 2)])
            case 1: line.append(alphabet[Int((previous & 0x03) << 4 | byte >> 4)])
            default:
                line.append(alphabet[Int((previous & 0x0F) << 2 | byte >> 6)])
                line.append(alphabet[Int(byte & 0x3F)])
            }
            previous = byte
            if line.count >= 76 - 8 * indent { flush() }
        }
        switch data.count % 3 {
        case 1: line += [alphabet[Int((previous & 0x03) << 4)], UInt8(ascii: "="), UInt8(ascii: "=")]
        case 2: line += [alphabet[Int((previous & 0x0F) << 2)], UInt8(ascii: "=")]
        default: break
        }
        if !line.isEmpty { flush() }
    }
}
