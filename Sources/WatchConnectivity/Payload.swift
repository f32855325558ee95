import AppGroupKit
import Foundation
import LockstepSystem

/// Property-list payloads: validation, the observed size limits, and the on-disk encoding.
///
/// Payloads cross the link as XML property lists (readable by any language: Python's `plistlib`, for one). The size
/// limits apply to the binary property-list encoding, the compact form the device sends (rule `wc.limits`).
public enum Payload {
    /// Observed: 65,536 bytes for a message or a user-info transfer.
    public static let messageLimit = 65_536
    /// Observed: 262,144 bytes for the application context.
    public static let contextLimit = 262_144

    /// Checks plist types and size, returning the payload in canonical form, as an envelope carries it.
    /// - Throws: `WCError` 7010 for a non-plist value, 7009 above `limit`.
    public static func encode(_ payload: [String: Any], limit: Int, what: String) throws(WCError) -> [String: Any] {
        // PropertyList classifies the values itself: Foundation's check depends on bridging that a statically
        // linked executable lacks for arrays (PropertyList.data).
        guard let canonical = PropertyList.canonicalize(payload) as? [String: Any], let binary = PropertyList.data(canonical, format: .binary) else {
            throw WCError(.payloadUnsupportedTypes, "\(what) may hold only strings, numbers, booleans, dates, data, arrays and dictionaries")
        }
        guard binary.count <= limit else {
            throw WCError(.payloadTooLarge, "\(what) is \(binary.count) bytes, over the \(limit)-byte limit")
        }
        return canonical
    }

    /// Reads an envelope written by `envelope` (or by another language following the protocol).
    public static func decode(_ data: Data) -> [String: Any]? {
        // Foundation would crash on a set (BinaryPropertyList); a set is not a property-list type anyway.
        guard !data.withUnsafeBytes(BinaryPropertyList.containsSet) else { return nil }
        return (try? PropertyListSerialization.propertyList(from: data, format: nil)) as? [String: Any]
    }

    /// Encodes an envelope (our own fields, always plist types).
    static func envelope(_ fields: [String: Any]) -> Data {
        PropertyList.data(fields, format: .xml) ?? Data()
    }
}
