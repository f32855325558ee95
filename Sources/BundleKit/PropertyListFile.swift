import Foundation
import LockstepSystem

/// Reading Info.plist and `.entitlements` files: XML, binary and OpenStep property lists.
///
/// Built apps usually hold binary plists (<doc:ReadingProjects> "Packaging of a built app"). The format is told from the first
/// bytes, never from the file name: binary and XML go to `PropertyListSerialization`, OpenStep to `OpenStepParser`,
/// because on a malformed OpenStep plist Foundation prints its own line to stderr before our one sentence.
public enum PropertyListFile {
    /// Reads the file at `path` as a property list whose root is a dictionary.
    /// - Throws: `BundleError.unreadable` when the file cannot be read, `.notAPropertyList` otherwise.
    public static func dictionary(at path: String) throws -> [String: Any] {
        try dictionary(InputFile.read(path), path: path)
    }

    /// Parses `bytes` (named `path` in errors) as a property list whose root is a dictionary.
    public static func dictionary(_ bytes: [UInt8], path: String) throws -> [String: Any] {
        // Foundation would crash on a set (BinaryPropertyList); a set is not a property-list type anyway.
        guard !BinaryPropertyList.containsSet(bytes) else {
            throw BundleError(.notAPropertyList, path: path, detail: "it holds a set, which is not a property-list type")
        }
        // `bplist` means binary only: a damaged file is refused, never read as OpenStep text, and one whose shared
        // objects would expand exponentially (or that contains itself) is refused before Foundation reads it.
        if bytes.starts(with: Array("bplist".utf8)), let problem = BinaryPropertyList.problem(bytes) {
            throw BundleError(.notAPropertyList, path: path, detail: problem)
        }
        let root: Any
        do {
            if isOpenStep(bytes) {
                root = foundationValue(.dictionary(try OpenStepParser.parse(bytes).root))
            } else {
                root = try PropertyListSerialization.propertyList(from: Data(bytes), options: [], format: nil)
            }
        } catch {
            throw BundleError(.notAPropertyList, path: path, detail: "it is not an XML, binary or OpenStep property list, or it is truncated")
        }
        guard let dictionary = root as? [String: Any] else {
            // A dictionary with a key that is not a string (a binary plist can hold one) is named as such.
            if let keyed = root as? [AnyHashable: Any], let key = keyed.keys.first(where: { !($0.base is String) }) {
                throw BundleError(.notAPropertyList, path: path, detail: "a key of its root dictionary is not a string (\(String(describing: key.base).prefix(40))); property-list keys are strings")
            }
            throw BundleError(.notAPropertyList, path: path, detail: "its root is not a dictionary")
        }
        return dictionary
    }

    /// Whether `bytes` are neither a binary plist (`bplist`) nor XML (`<`, after a UTF-8 byte-order mark and
    /// white space) nor UTF-16 (only XML is written so): what Foundation would read as OpenStep.
    private static func isOpenStep(_ bytes: [UInt8]) -> Bool {
        if bytes.starts(with: Array("bplist".utf8)) || bytes.starts(with: [0xFE, 0xFF]) || bytes.starts(with: [0xFF, 0xFE]) {
            return false
        }
        let text = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? bytes.dropFirst(3) : bytes[...]
        return text.first { $0 != 0x20 && $0 != 0x09 && $0 != 0x0A && $0 != 0x0D } != UInt8(ascii: "<")
    }

    /// The value `PropertyListSerialization` gives for the same OpenStep text.
    private static func foundationValue(_ value: OpenStepValue) -> Any {
        switch value {
        case .string(let string): return string
        case .array(let array): return array.map(foundationValue)
        case .dictionary(let dictionary): return dictionary.lastValues.mapValues(foundationValue)
        case .data(let bytes): return Data(bytes)
        }
    }

    /// Writes the facts the rules need from an Info.plist into `record`; a key the plist lacks leaves the
    /// record's value as it was.
    package static func apply(infoPlist plist: [String: Any], path: String, to record: inout BundleRecord, text: [UInt8]? = nil) {
        func string(_ key: String) -> String? {
            guard let value = plist[key] as? String else { return nil }
            let position = text.flatMap { SourcePosition.plistKey(key, in: $0) }
            record.valueSources[key] = SourceLocation(file: path, detail: key, line: position?.line, column: position?.column)
            return value
        }
        // rule `version.missing`: a non-string value counts as missing, so only strings are taken.
        record.bundleIdentifier = string("CFBundleIdentifier") ?? record.bundleIdentifier
        record.shortVersion = string("CFBundleShortVersionString") ?? record.shortVersion
        record.buildVersion = string("CFBundleVersion") ?? record.buildVersion
        record.packageType = string("CFBundlePackageType") ?? record.packageType
        record.companionAppBundleIdentifier = string("WKCompanionAppBundleIdentifier") ?? record.companionAppBundleIdentifier
        if let name = plist["CFBundleName"] as? String, record.name.isEmpty { record.name = name }
        // <doc:ReadingProjects> "Platforms": a built bundle names its platform (an iOS app that also lists others is checked as
        // iOS); a Mac app may say only LSMinimumSystemVersion.
        let supported = (plist["CFBundleSupportedPlatforms"] as? [Any] ?? []).compactMap { ($0 as? String).flatMap(Platform.init(supportedPlatform:)) }
        if let platform = supported.contains(.iOS) ? .iOS : supported.first
            ?? (plist["DTPlatformName"] as? String).flatMap({ Platform(sdk: $0) })
            ?? (plist["LSMinimumSystemVersion"] is String ? .macOS : nil) {
            record.platform = platform
        }
        record.supportsLiveActivities = (plist["NSSupportsLiveActivities"] as? Bool) ?? (plist["NSSupportsLiveActivities"] as? NSNumber)?.boolValue ?? record.supportsLiveActivities
        let rule = ((plist["NSExtension"] as? [String: Any])?["NSExtensionAttributes"] as? [String: Any])?["NSExtensionActivationRule"]
        for (key, value) in (rule as? [String: Any]) ?? [:] where key.hasPrefix("NSExtensionActivationSupports") {
            if let count = (value as? NSNumber)?.intValue ?? (value as? Int) ?? (value as? Bool).map({ $0 ? 1 : 0 }) {
                record.activationSupports[key] = count
            }
        }
        // rule `extension.point`: NSExtension (PlugIns/) or EXAppExtensionAttributes (ExtensionKit, Extensions/).
        if let attributes = plist["NSExtension"] as? [String: Any] {
            record.hasExtensionDictionary = true
            record.extensionPoint = attributes["NSExtensionPointIdentifier"] as? String ?? record.extensionPoint
        } else if let attributes = plist["EXAppExtensionAttributes"] as? [String: Any] {
            record.hasExtensionDictionary = true
            record.extensionPoint = attributes["EXExtensionPointIdentifier"] as? String ?? record.extensionPoint
        }
    }

    /// The App Groups an entitlements plist claims (`com.apple.security.application-groups`, rule `group.entitlement`).
    package static func appGroups(entitlements plist: [String: Any]) -> [String] {
        plist["com.apple.security.application-groups"] as? [String] ?? []
    }
}
