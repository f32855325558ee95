import Foundation
import LockstepSystem

/// Property-list values as UserDefaults and WatchConnectivity accept them (rule `defaults.plist-types`):
/// `String`, integers, `Double`/`Float`, `Bool`, `Date`, `Data`, arrays and string-keyed dictionaries of these.
public enum PropertyList {
    /// Checks that `value` is a property list, returning it in canonical form (`Int`, `Double`, `Bool`, `String`,
    /// `Date`, `Data`, `[Any]`, `[String: Any]`).
    ///
    /// - Parameter key: the key the value is for, named in the error.
    /// - Throws: `.invalidValue` naming the key and the offending type; on a device this is the crash
    ///   "Attempt to insert non-property list object".
    public static func validate(_ value: Any, key: String) throws(AppGroupError) -> Any {
        guard let canonical = canonicalize(value) else {
            throw AppGroupError(.invalidValue, subject: key, detail: "a \(describeType(value)) is not a property-list type (string, number, boolean, date, data, array, dictionary with string keys); on a device: \"Attempt to insert non-property list object\"")
        }
        return canonical
    }

    /// The property-list encodings Lockstep writes.
    public enum Format: Sendable {
        /// Apple's binary property list (`bplist00`).
        case binary
        /// The XML property list.
        case xml
    }

    /// `value` encoded as a property list, or nil when some part of it is not one.
    ///
    /// Classified and written here, never by Foundation: swift-corelibs-foundation hands a Swift array to
    /// CoreFoundation by bridging it to `NSArray`, which needs `Array`'s `_ObjectiveCBridgeable` conformance, and
    /// in an executable linked with `--static-swift-stdlib` that conformance is missing (it lives in an archive
    /// member of libFoundation.a no symbol pulls in). The array then reaches CoreFoundation as an opaque box and
    /// `PropertyListSerialization` refuses every plist holding one: `lockstep up` failed with WCError 7010.
    public static func data(_ value: Any, format: Format) -> Data? {
        guard let canonical = canonicalize(value) else { return nil }
        switch format {
        case .binary: return BinaryPlistCodec.encode(canonical).map { Data($0) }
        case .xml: return XMLPlistWriter.encode(canonical).map { Data($0) }
        }
    }

    /// Whether two property lists are equal (used to report only real changes).
    public static func isEqual(_ a: Any?, _ b: Any?) -> Bool {
        switch (a, b) {
        case (nil, nil): return true
        case (nil, _), (_, nil): return false
        case (let a as Bool, let b as Bool): return a == b
        case (let a as Int, let b as Int): return a == b
        case (let a as UInt64, let b as UInt64): return a == b
        case (let a as Double, let b as Double): return a == b
        case (let a as String, let b as String): return a == b
        case (let a as Date, let b as Date): return a == b
        case (let a as Data, let b as Data): return a == b
        case (let a as [Any], let b as [Any]):
            return a.count == b.count && zip(a, b).allSatisfy { isEqual($0, $1) }
        case (let a as [String: Any], let b as [String: Any]):
            return a.count == b.count && a.allSatisfy { isEqual($0.value, b[$0.key]) }
        case (let a as [DefaultsKey: Any], let b as [DefaultsKey: Any]):
            return a.count == b.count && a.allSatisfy { isEqual($0.value, b[$0.key]) }
        default: return false
        }
    }

    /// The canonical form of a property list (`Int`, `Double`, `Bool`, `String`, `Date`, `Data`, `[Any]`,
    /// `[String: Any]`), or nil when some part of it is not one.
    public static func canonicalize(_ value: Any) -> Any? {
        // Exact type checks first: casting with `as` bridges numbers (an NSNumber 1 casts to Bool).
        let type = Swift.type(of: value)
        if type == Bool.self { return value as! Bool }
        if type == Int.self { return value as! Int }
        // 2⁶³…2⁶⁴−1 is legal in a plist (other tools write it): kept as UInt64, the rest as Int.
        if type == UInt64.self { let value = value as! UInt64; return value <= UInt64(Int.max) ? Int(value) : value }
        if type == Double.self { return value as! Double }
        if type == String.self { return value as! String }
        if type == Float.self { return Double(value as! Float) }
        // Concrete types before protocols and bridging: the first cast of a type to `any BinaryInteger` or to
        // `NSNumber` searches the conformances of every loaded library (a visible part of a process's start-up),
        // and none of these types is a number.
        switch value {
        case let value as String: return value
        case let value as Date: return value
        case let value as Data: return value
        case let value as [Any]:
            var result: [Any] = []
            result.reserveCapacity(value.count)
            for element in value {
                guard let element = canonicalize(element) else { return nil }
                result.append(element)
            }
            return result
        case let value as [String: Any]:
            var result: [String: Any] = [:]
            for (key, element) in value {
                guard let element = canonicalize(element) else { return nil }
                result[key] = element
            }
            return result
        case let value as any BinaryInteger: return Int(exactly: value) ?? UInt64(exactly: value).map { $0 as Any }
        case let value as NSNumber:
            switch String(cString: value.objCType) {
            case "c" where String(describing: Swift.type(of: value)).contains("Boolean"): return value.boolValue
            case "d", "f": return value.doubleValue
            // Unsigned 64-bit: past Int.max it is no integer a property list holds (int64Value would wrap it negative).
            case "Q", "L": return value.uint64Value <= UInt64(Int.max) ? Int(value.uint64Value) : value.uint64Value
            default: return Int(value.int64Value)
            }
        case let value as [DefaultsKey: Any]:
            // A suite's keys, each spelling its own (`DefaultsKey`).
            var result = [DefaultsKey: Any](minimumCapacity: value.count)
            for (key, element) in value {
                guard let element = canonicalize(element) else { return nil }
                result[key] = element
            }
            return result
        case let value as [AnyHashable: Any]:
            var result: [String: Any] = [:]
            for (key, element) in value {
                guard let key = key.base as? String, let element = canonicalize(element) else { return nil }
                result[key] = element
            }
            return result
        default: return nil
        }
    }

    /// The type name of `value` as a refusal says it (a container names the first element that is no property list).
    public static func describeType(_ value: Any) -> String {
        switch value {
        case let value as [Any]: return value.first(where: { canonicalize($0) == nil }).map(describeType) ?? "Array"
        case let value as [String: Any]: return value.values.first(where: { canonicalize($0) == nil }).map(describeType) ?? "Dictionary"
        default: return String(describing: type(of: value))
        }
    }

    /// Encodes a dictionary as a binary plist (`bplist00`), the format macOS's cfprefsd writes.
    /// - Throws: `.invalidValue` naming a key whose value is not a property list (callers validated them before).
    static func encode(_ dictionary: [DefaultsKey: Any]) throws(AppGroupError) -> [UInt8] {
        if let bytes = BinaryPlistCodec.encode(dictionary) { return bytes }
        // Property lists in another form (an NSNumber, a Float) take the canonical one first.
        var canonical = [DefaultsKey: Any](minimumCapacity: dictionary.count)
        for (key, value) in dictionary { canonical[key] = try validate(value, key: key.string) }
        return BinaryPlistCodec.encode(canonical)!  // canonical values always encode
    }

    /// Decodes a dictionary plist (binary, XML or OpenStep), or nil when it is not one. Its own keys are kept as
    /// written, two spellings of a key two keys (`DefaultsKey`), when the plist is binary; Foundation, which reads
    /// the others, has made them Swift strings, one key, already.
    static func decodeDictionary(_ bytes: UnsafeRawBufferPointer) -> [DefaultsKey: Any]? {
        // The hand-written reader first (binary plists of canonical values); anything it does not take goes to
        // Foundation, which decides. `bplist` means binary only: a damaged one is unreadable, never OpenStep text
        // (Foundation's fallback read one as {bplist00 = bplist00}), and one that would expand exponentially is refused.
        if bytes.starts(with: "bplist".utf8), BinaryPropertyList.problem(bytes) != nil { return nil }
        if let object = BinaryPlistCodec.decode(bytes, keyedDepth: 1) { return object as? [DefaultsKey: Any] }
        // Foundation would crash on a set (BinaryPropertyList); a set is not a property-list type anyway.
        guard !BinaryPropertyList.containsSet(bytes) else { return nil }
        let protected = LeadingByteOrderMark.protect(bytes)
        guard let object = try? PropertyListSerialization.propertyList(from: protected.map { Data($0) } ?? Data(bytes), options: [], format: nil),
              let dictionary = canonicalize(object) as? [String: Any] else { return nil }
        return (protected == nil ? dictionary : LeadingByteOrderMark.restore(dictionary) as? [String: Any])?.byCodeUnits
    }

    /// Foundation's XML reader drops a U+FEFF at the start of a `<string>` or `<key>` (written raw or as `&#xFEFF;`),
    /// so a value another program stored with one would lose it here and on the next write. Before Foundation reads
    /// the text, such a leading U+FEFF becomes U+FDD0 (a noncharacter no real value holds; nothing is done when the
    /// text already has one), and after, U+FDD0 at the start of a string becomes U+FEFF again.
    enum LeadingByteOrderMark {
        static let bom: [UInt8] = [0xEF, 0xBB, 0xBF], sentinel: [UInt8] = [0xEF, 0xB7, 0x90]
        static let forms: [[UInt8]] = [bom, Array("&#xFEFF;".utf8), Array("&#xfeff;".utf8), Array("&#65279;".utf8)]

        /// The XML text with each leading U+FEFF replaced, or nil when it has none (or is no XML text).
        static func protect(_ bytes: UnsafeRawBufferPointer) -> [UInt8]? {
            let text = Array(bytes)
            guard text.count < 1 << 26, !contains(text, sentinel), contains(text, Array("<plist".utf8)) else { return nil }
            var out: [UInt8] = []
            out.reserveCapacity(text.count)
            var index = 0, changed = false
            while index < text.count {
                out.append(text[index])
                index += 1
                guard out.last == UInt8(ascii: ">"), out.count >= 5,
                      out.suffix(8).elementsEqual("<string>".utf8) || out.suffix(5).elementsEqual("<key>".utf8) else { continue }
                if let form = forms.first(where: { text[index...].starts(with: $0) }) {
                    out += sentinel
                    index += form.count
                    changed = true
                }
            }
            return changed ? out : nil
        }

        static func restore(_ value: Any) -> Any {
            switch value {
            case let string as String:
                guard string.unicodeScalars.first?.value == 0xFDD0 else { return string }
                return "\u{FEFF}" + String(string.unicodeScalars.dropFirst())
            case let array as [Any]: return array.map(restore)
            case let dictionary as [String: Any]:
                var result: [String: Any] = [:]
                for (key, element) in dictionary { result[restore(key) as! String] = restore(element) }
                return result
            default: return value
            }
        }

        private static func contains(_ text: [UInt8], _ needle: [UInt8]) -> Bool {
            guard text.count >= needle.count else { return false }
            return (0...(text.count - needle.count)).contains { text[$0..<($0 + needle.count)].elementsEqual(needle) }
        }
    }

    /// `decodeDictionary` for bytes in `Data`.
    static func decodeDictionary(_ data: Data) -> [DefaultsKey: Any]? {
        data.withUnsafeBytes { decodeDictionary($0) }
    }
}
