import Foundation
import LockstepRuntime
import Synchronization

/// Foundation's `Bundle`, whose `main` is the simulated process's bundle: `Bundle.main.infoDictionary`,
/// `object(forInfoDictionaryKey:)` and `bundleIdentifier` give the bundle's Info.plist as the manifest states it
/// (its `infoPlist` file, its inline `info` keys and its own fields), as on a device.
///
/// Foundation on Linux reads `Bundle.main`'s Info.plist from the executable's folder — one file for every
/// executable SwiftPM builds there — and its `Bundle` cannot be subclassed from outside. A module that reads its
/// Info.plist names this class instead, in the same Linux-only block as `UserDefaults`:
///
/// ```swift
/// #if os(Linux)
/// @_exported import LockstepFoundation
/// typealias UserDefaults = LockstepFoundation.UserDefaults
/// typealias Bundle = LockstepFoundation.Bundle
/// #endif
/// ```
///
/// Everything else forwards to Foundation's bundle (`foundationBundle`): resources, localizations, `Bundle(for:)`.
/// In no simulated process (a plain `swift test`), `main` is Foundation's main bundle.
open class Bundle: NSObject, @unchecked Sendable {  // @unchecked: immutable after init; Foundation's Bundle is thread-safe.
    /// The Foundation bundle this one forwards to.
    public let foundationBundle: Foundation.Bundle
    /// The Info.plist of a simulated process's bundle, which replaces the file Foundation would read.
    private let simulatedInfo: [String: Any]?

    /// Wraps one of Foundation's bundles.
    public init(_ bundle: Foundation.Bundle) {
        foundationBundle = bundle
        simulatedInfo = nil
        super.init()
    }

    private init(main: Foundation.Bundle, info: [String: Any]) {
        foundationBundle = main
        simulatedInfo = info
        super.init()
    }

    /// The bundle of the simulated process this code runs in, with the manifest's Info.plist; Foundation's main
    /// bundle in no simulated process.
    open class var main: Bundle {
        guard let process = SimulatedProcess.current, let identifier = process.bundle.bundleIdentifier else {
            return Bundle(Foundation.Bundle.main)
        }
        return mainInstance.withLock { cached in
            if let cached, cached.bundleIdentifier == identifier { return cached }
            let made = Bundle(main: Foundation.Bundle.main, info: process.infoDictionary)
            cached = made
            return made
        }
    }
    private static let mainInstance = Mutex<Bundle?>(nil)

    public convenience init?(path: String) {
        guard let bundle = Foundation.Bundle(path: path) else { return nil }
        self.init(bundle)
    }

    public convenience init?(url: URL) {
        guard let bundle = Foundation.Bundle(url: url) else { return nil }
        self.init(bundle)
    }

    public convenience init(for aClass: AnyClass) { self.init(Foundation.Bundle(for: aClass)) }

    public convenience init?(identifier: String) {
        let main = Bundle.main
        if let info = main.simulatedInfo, main.bundleIdentifier == identifier {
            self.init(main: main.foundationBundle, info: info)
            return
        }
        guard let bundle = Foundation.Bundle(identifier: identifier) else { return nil }
        self.init(bundle)
    }

    // MARK: Info.plist

    open var infoDictionary: [String: Any]? { simulatedInfo ?? foundationBundle.infoDictionary }
    open var localizedInfoDictionary: [String: Any]? { simulatedInfo ?? foundationBundle.localizedInfoDictionary }
    open var bundleIdentifier: String? {
        simulatedInfo.map { $0["CFBundleIdentifier"] as? String } ?? foundationBundle.bundleIdentifier
    }
    open func object(forInfoDictionaryKey key: String) -> Any? {
        if let simulatedInfo { return simulatedInfo[key] }
        return foundationBundle.object(forInfoDictionaryKey: key)
    }

    // MARK: Forwarded to Foundation

    open var bundleURL: URL { foundationBundle.bundleURL }
    open var bundlePath: String { foundationBundle.bundlePath }
    open var resourceURL: URL? { foundationBundle.resourceURL }
    open var resourcePath: String? { foundationBundle.resourcePath }
    open var executableURL: URL? { foundationBundle.executableURL }
    open var executablePath: String? { foundationBundle.executablePath }
    open var builtInPlugInsURL: URL? { foundationBundle.builtInPlugInsURL }
    open var privateFrameworksURL: URL? { foundationBundle.privateFrameworksURL }
    open var appStoreReceiptURL: URL? { foundationBundle.appStoreReceiptURL }
    open var isLoaded: Bool { foundationBundle.isLoaded }
    open var localizations: [String] { foundationBundle.localizations }
    open var preferredLocalizations: [String] { foundationBundle.preferredLocalizations }
    open var developmentLocalization: String? { foundationBundle.developmentLocalization }

    open func url(forResource name: String?, withExtension ext: String?) -> URL? {
        resource(name, ext, in: nil) ?? foundationBundle.url(forResource: name, withExtension: ext)
    }
    open func url(forResource name: String?, withExtension ext: String?, subdirectory subpath: String?) -> URL? {
        resource(name, ext, in: subpath) ?? foundationBundle.url(forResource: name, withExtension: ext, subdirectory: subpath)
    }
    open func urls(forResourcesWithExtension ext: String?, subdirectory subpath: String?) -> [URL]? {
        foundationBundle.urls(forResourcesWithExtension: ext, subdirectory: subpath)?.map { $0 as URL }
    }
    open func path(forResource name: String?, ofType ext: String?) -> String? {
        resource(name, ext, in: nil)?.path ?? foundationBundle.path(forResource: name, ofType: ext)
    }
    open func path(forResource name: String?, ofType ext: String?, inDirectory subpath: String?) -> String? {
        resource(name, ext, in: subpath)?.path ?? foundationBundle.path(forResource: name, ofType: ext, inDirectory: subpath)
    }

    /// A resource of the simulated bundle (the manifest's `resources`), found as a built bundle finds it: a file
    /// copied to the bundle's top level, a file in a copied folder named `subpath`, or a file of a `.lproj` folder.
    private func resource(_ name: String?, _ ext: String?, in subpath: String?) -> URL? {
        guard simulatedInfo != nil, let resources = SimulatedProcess.current?.bundle.resources, name != nil || ext != nil else { return nil }
        func matches(_ file: String) -> Bool {
            let url = URL(fileURLWithPath: file)
            let base = url.deletingPathExtension().lastPathComponent
            if let name, let ext, !ext.isEmpty { return url.lastPathComponent == "\(name).\(ext.hasPrefix(".") ? String(ext.dropFirst()) : ext)" }
            if let name { return url.lastPathComponent == name || base == name && ext == nil }
            return url.pathExtension == ext
        }
        for resource in resources {
            let last = URL(fileURLWithPath: resource).lastPathComponent
            var isFolder: ObjCBool = false
            _ = FileManager.default.fileExists(atPath: resource, isDirectory: &isFolder)
            if subpath == nil && matches(resource) { return URL(fileURLWithPath: resource) }
            // The simulated device's language is English: a bundle's other localizations are not its (a key missing
            // from en.lproj falls back to the development table, as on a device, never to ar.lproj).
            if isFolder.boolValue && (last == subpath || subpath == nil && Self.deviceLocalizations.contains(last)),
               let inside = try? FileManager.default.contentsOfDirectory(atPath: resource),
               let found = inside.sorted().first(where: { matches(resource + "/" + $0) }) {
                return URL(fileURLWithPath: resource + "/" + found)
            }
        }
        return nil
    }
    /// The `.lproj` folders the simulated device (set to English) reads.
    static let deviceLocalizations: Set<String> = ["en.lproj", "Base.lproj", "English.lproj"]

    open func paths(forResourcesOfType ext: String?, inDirectory subpath: String?) -> [String] {
        foundationBundle.paths(forResourcesOfType: ext, inDirectory: subpath)
    }
    /// The key's text in the simulated bundle's string catalog (`Table.xcstrings`) or `.strings` table (in an
    /// `.lproj` folder), in the development language (`en`, else the catalog's source language); else `value`, else
    /// the key, as Foundation answers for a key no table has.
    open func localizedString(forKey key: String, value: String?, table tableName: String?) -> String {
        guard simulatedInfo != nil else { return foundationBundle.localizedString(forKey: key, value: value, table: tableName) }
        let table = (tableName?.isEmpty ?? true) ? "Localizable" : tableName!
        if let text = strings(of: table)[key] { return text }
        return (value?.isEmpty ?? true) ? key : value!
    }

    /// A table's texts, the catalog's over the `.strings` file's, read once per process: a bundle's resources do not
    /// change while it runs, and every `Text` of every picture looks its key up here.
    private func strings(of table: String) -> [String: String] {
        if let known = Self.tables.withLock({ $0[table] }) { return known }
        var texts = resource(table, "strings", in: nil).map(Self.stringsTable) ?? [:]
        texts.merge(resource(table, "xcstrings", in: nil).map(Self.catalogTable) ?? [:]) { _, catalog in catalog }
        Self.tables.withLock { $0[table] = texts }
        return texts
    }

    /// The simulated bundle's tables by name (a process runs one bundle).
    private static let tables = Mutex<[String: [String: String]]>([:])

    /// An `.xcstrings` catalog's texts (JSON: `strings.KEY.localizations.LANG.stringUnit.value`), in the development
    /// language (`en`, else the catalog's source language).
    static func catalogTable(_ url: URL) -> [String: String] {
        guard let data = try? Data(contentsOf: url), let root = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any],
              let entries = root["strings"] as? [String: Any] else { return [:] }
        let source = root["sourceLanguage"] as? String ?? "en"
        var texts: [String: String] = [:]
        for (key, entry) in entries {
            let localizations = (entry as? [String: Any])?["localizations"] as? [String: Any] ?? [:]
            for language in ["en", source] {
                if let unit = (localizations[language] as? [String: Any])?["stringUnit"] as? [String: Any], let value = unit["value"] as? String {
                    texts[key] = value
                    break
                }
            }
        }
        return texts
    }

    /// A `.strings` file's `"key" = "value";` pairs (comments and escapes as the format has them).
    static func stringsTable(_ url: URL) -> [String: String] {
        guard let data = try? Data(contentsOf: url),
              let table = (try? PropertyListSerialization.propertyList(from: data, format: nil)) as? [String: String] else { return [:] }
        return table
    }
}

/// Foundation's `NSLocalizedString` for a `LockstepFoundation.Bundle` (the shim's `Bundle`), so a call naming the
/// bundle compiles unchanged.
public func NSLocalizedString(_ key: String, tableName: String? = nil, bundle: Bundle, value: String = "", comment: String) -> String {
    bundle.localizedString(forKey: key, value: value, table: tableName)
}
