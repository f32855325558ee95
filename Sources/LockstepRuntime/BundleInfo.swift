import AppGroupKit
import BundleKit
import Foundation
import LockstepSystem

/// A bundle's Info.plist as the device has it: what a process reads through `Bundle.main` (LockstepFoundation).
///
/// A manifest bundle gives it with its `infoPlist` file, an inline `"info"` object of further keys (the inline key
/// wins), and its own fields, which win over both (`CFBundleIdentifier`, the versions, `NSExtensionPointIdentifier`
/// …), as Xcode writes the build settings into the built Info.plist. Installing copies the keys into
/// `installed.json` (each bundle's `"info"`), so the installed file stays self-contained.
public enum BundleInfo {
    /// The manifest field holding further Info.plist keys inline.
    public static let field = "info"

    /// The Info.plist keys of `manifest`'s bundles that its fields do not already say, from the manifest file's
    /// `infoPlist` files and inline `info` objects: the app first, then each embedded bundle in manifest order.
    /// Empty dictionaries where a bundle has none, or when the manifest has no file (the embedded default).
    static func extraKeys(of manifest: Manifest) -> [[String: JSONValue]] {
        let empty = Array(repeating: [String: JSONValue](), count: manifest.bundles.count)
        guard let path = manifest.path, let bytes = try? AtomicFile.read(path),
              case .object(let root)? = try? JSONValue.parse(bytes, path: path) else { return empty }
        let directory = AtomicFile.parentDirectory(of: path)
        var objects: [[String: JSONValue]?] = []
        if case .object(let app)? = root["app"] { objects.append(app) } else { objects.append(nil) }
        if case .array(let items)? = root["embedded"] {
            for item in items { if case .object(let object) = item { objects.append(object) } else { objects.append(nil) } }
        }
        guard objects.count == manifest.bundles.count else { return empty }
        return objects.map { object in
            guard let object else { return [:] }
            var keys: [String: JSONValue] = [:]
            if case .string(let relative)? = object["infoPlist"] {
                let file = relative.hasPrefix("/") ? relative : "\(directory)/\(relative)"
                // The manifest was read with this file a moment ago; a file gone since gives only the inline keys.
                if let plist = try? PropertyListFile.dictionary(at: file) {
                    for (key, value) in plist { if let json = json(value) { keys[key] = json } }
                }
            }
            if case .object(let inline)? = object[field] { keys.merge(inline) { $1 } }
            return keys
        }
    }

    /// The Info.plist of `record` in the installed manifest at `installedPath`: its `info` keys with the record's
    /// own values over them.
    public static func dictionary(for record: BundleRecord, installedPath: String?) -> [String: Any] {
        var info: [String: Any] = [:]
        if let installedPath, let bytes = try? AtomicFile.read(installedPath),
           case .object(let root)? = try? JSONValue.parse(bytes, path: installedPath) {
            var objects: [JSONValue] = root["app"].map { [$0] } ?? []
            if case .array(let items)? = root["embedded"] { objects += items }
            let object = objects.first { $0["bundleIdentifier"] == record.bundleIdentifier.map(JSONValue.string) }
            if case .object(let keys)? = object?[field] {
                for (key, value) in keys { info[key] = foundation(value) }
            }
        }
        info["CFBundleName"] = record.name
        info["CFBundleInfoDictionaryVersion"] = "6.0"
        if let identifier = record.bundleIdentifier { info["CFBundleIdentifier"] = identifier }
        if let version = record.shortVersion { info["CFBundleShortVersionString"] = version }
        if let build = record.buildVersion { info["CFBundleVersion"] = build }
        if let packageType = record.packageType { info["CFBundlePackageType"] = packageType }
        if let executable = record.executable { info["CFBundleExecutable"] = (executable as NSString).lastPathComponent }
        if let companion = record.companionAppBundleIdentifier { info["WKCompanionAppBundleIdentifier"] = companion }
        if record.supportsLiveActivities { info["NSSupportsLiveActivities"] = true }
        if let point = record.extensionPoint {
            var extensionInfo = info["NSExtension"] as? [String: Any] ?? [:]
            extensionInfo["NSExtensionPointIdentifier"] = point
            info["NSExtension"] = extensionInfo
        }
        return info
    }

    /// A property-list value as JSON; nil for a type JSON cannot hold as it is (a date becomes its ISO 8601 text,
    /// data its base64 text).
    static func json(_ value: Any) -> JSONValue? {
        switch value {
        case let text as String: return .string(text)
        case let flag as Bool where type(of: value) == Bool.self: return .bool(flag)
        // Foundation's plist reader on Linux gives NSNumber for <real> and <integer>, and an NSNumber holding 3.0
        // also casts to Int: its C type says which it is, so `as? Double` still works on the value read back.
        case let number as NSNumber where type(of: value) is NSNumber.Type:
            let type = String(cString: number.objCType)
            return type == "d" || type == "f" ? .number(number.doubleValue) : .integer(number.intValue)
        case let number as Int: return .integer(number)
        case let number as Double: return .number(number)
        case let date as Date: return .string(ISO8601DateFormatter().string(from: date))
        case let data as Data: return .string(data.base64EncodedString())
        case let array as [Any]: return .array(array.compactMap(json))
        case let dictionary as [String: Any]: return .object(dictionary.compactMapValues(json))
        default: return nil
        }
    }

    /// A JSON value as Foundation's property-list types.
    static func foundation(_ value: JSONValue) -> Any {
        switch value {
        case .string(let text): text
        case .integer(let number): number
        case .number(let number): number
        case .bool(let flag): flag
        case .array(let items): items.map(foundation)
        case .object(let members): members.mapValues(foundation)
        case .null: NSNull()
        }
    }
}

extension SimulatedProcess {
    /// This process's bundle's Info.plist, as `Bundle.main.infoDictionary` has it on a device (`BundleInfo`).
    public var infoDictionary: [String: Any] {
        BundleInfo.dictionary(for: bundle, installedPath: manifest.path ?? Manifest.installedPath(groupsRoot: groupsRoot))
    }
}
