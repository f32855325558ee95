import BundleKit
import Foundation
import LockstepSystem

// The files a target's settings name, found as Xcode finds them: Info.plists (preprocessed or not), paths relative
// to the project folder, and names written on macOS's case-insensitive file system.
extension TargetResolver {
    /// A path from a build setting: <doc:Rules> "Bundles and versions", relative to the folder holding the .xcodeproj.
    func sourcePath(_ setting: String) -> String {
        if let cached = sourcePaths[setting] { return cached }
        var path = PathText.join(project.sourceRoot, setting)
        // `$(SRCROOT)/…` is absolute; shown the way the user named the project, like every other path.
        let root = project.absoluteSourceRoot
        if path.hasPrefix(root + "/"), project.sourceRoot != root {
            path = PathText.join(project.sourceRoot, String(path.dropFirst(root.count + 1)))
        }
        sourcePaths[setting] = path
        return path
    }

    func existingPath(_ path: String) -> String? {
        if let cached = existing[path] { return cached }
        // What XcodeGen generates exists once the project is generated, whatever the checkout holds now.
        if project.generated[path] != nil { return path }
        let found = PathText.existing(path)
        existing[path] = found
        return found
    }

    /// What `build` reads from one Info.plist, taken out of the property list once per file (extensions often
    /// share one), not once per target and configuration; a class, as every target that reads the file is handed it.
    final class InfoPlist {
        /// The top-level string values.
        var strings: [String: String] = [:]
        /// The top-level strings that reference a setting (contain `$`), by key, and which checked key each is.
        var referencing: [(key: String, text: ExpandableText, checked: CheckedKey?)] = []
        /// By `CheckedKey`: the key's value (nil when absent or not a string) and the first setting it references.
        var checked: [(value: ExpandableText, reference: String?, number: Int?)?] = CheckedKey.allCases.map { _ in nil }
        /// By `CheckedKey`: where a value that comes from the file itself (a literal, or a reference to one of
        /// Xcode's defaults) is written, made when the first target that reads the file asks.
        var sources: [SourceLocation?] = CheckedKey.allCases.map { _ in nil }
        var extensionPoint: String?
        var exExtensionPoint: String?
        /// Whether there is an `NSExtension` or `EXAppExtensionAttributes` dictionary.
        var hasExtensionDictionary = false
        /// rule `extension.activation-rule`, extension.plist-types.
        var activation: (rule: String?, problems: [String]) = (nil, [])

        init() {}

        /// - Parameter names: the project's setting names, which the strings are expanded over.
        init(_ plist: [String: Any], names: SettingNames) {
            for (key, any) in plist.sorted(by: { $0.key < $1.key }) {
                guard let text = any as? String else { continue }
                strings[key] = text
                if ASCII.contains(byte: UInt8(ascii: "$"), in: text) {
                    referencing.append((key, ExpandableText(text, names: names), CheckedKey.allCases.first { $0.key == key }))
                }
            }
            checked = CheckedKey.allCases.map { key in
                strings[key.key].map { text in
                    let reference = BuildSettings.references(in: text, limit: 1).first
                    return (ExpandableText(text, names: names), reference, reference.map(names.number(adding:)))
                }
            }
            let nsExtension = plist["NSExtension"] as? [String: Any]
            let exAttributes = plist["EXAppExtensionAttributes"] as? [String: Any]
            extensionPoint = nsExtension?["NSExtensionPointIdentifier"] as? String
            exExtensionPoint = exAttributes?["EXExtensionPointIdentifier"] as? String
            hasExtensionDictionary = nsExtension != nil || exAttributes != nil
            activation = StoreFacts.activation(plist)
        }
    }

    /// The Info.plist an `INFOPLIST_FILE` value names: the path it names, the file that exists there, the path
    /// findings name it by, and whether XcodeGen generates it. Once per value: targets share Info.plists, and each
    /// looked its path up in three tables again.
    func infoPlistFile(_ setting: String) -> (wanted: String, found: String?, shown: String, generated: Bool) {
        if let known = infoPlistFiles[setting] { return known }
        // <doc:Rules> "Bundles and versions": paths in build settings are relative to the folder holding the .xcodeproj.
        let wanted = sourcePath(setting)
        let found = existingPath(wanted)
        let generated = found.flatMap { project.generated[$0] }
        // A plist XcodeGen generates is named by the spec that defines it.
        let file = (wanted, found, generated?.spec ?? found ?? wanted, generated != nil)
        infoPlistFiles[setting] = file
        return file
    }


    /// With `INFOPLIST_PREPROCESS = YES`, the Info.plist at `path` run through the C preprocessor as Xcode does
    /// (`InfoPlistPreprocessor`), cached by file and macros; nil when the target does not preprocess it.
    /// A prefix header the checkout does not hold (WooCommerce's is written by a build phase into a git-ignored
    /// `DerivedSources/`) is unknown, not an error and not empty: the Info.plist is read without its macros, and
    /// `unknownHeader` names it.
    /// - Parameter path: an Info.plist XcodeGen does not generate.
    func preprocessedInfoPlist(_ path: String, settings: BuildSettings) -> (plist: InfoPlist?, failure: String?, unknownHeader: String?)? {
        guard settings.value(number: read.preprocess).value.uppercased() == "YES" else { return nil }
        let header = settings.value("INFOPLIST_PREFIX_HEADER").value
        let definitions = settings.value("INFOPLIST_PREPROCESSOR_DEFINITIONS").value
        let flags = settings.value("INFOPLIST_OTHER_PREPROCESSOR_FLAGS").value
        let key = [path, header, definitions, flags].joined(separator: "\u{0}")
        if let cached = preprocessed[key] { return cached }
        var result: (plist: InfoPlist?, failure: String?, unknownHeader: String?) = (nil, nil, nil)
        do throws(InfoPlistPreprocessor.Failure) {
            var preprocessor = InfoPlistPreprocessor(definitions: definitions, flags: flags)
            if !header.isEmpty {
                let headerPath = sourcePath(header)
                if existingPath(headerPath) == nil {
                    result.unknownHeader = headerPath
                } else {
                    try preprocessor.include(header: headerPath)
                }
            }
            guard let bytes = InputFile.readIfPresent(path) else { throw InfoPlistPreprocessor.Failure.invalid("'\(path)' cannot be read") }
            let text = try preprocessor.process(String(decoding: bytes, as: UTF8.self), file: path)
            if let dictionary = try? PropertyListFile.dictionary(Array(text.utf8), path: path) {
                result.plist = InfoPlist(dictionary, names: names)
            } else {
                result.failure = "after preprocessing it is not a property list"
            }
        } catch {
            switch error { case .invalid(let sentence): result.failure = sentence }
        }
        preprocessed[key] = result
        return result
    }

    func infoPlist(_ path: String) -> InfoPlist? {
        if let cached = infoPlists[path] { return cached }
        let info = readPlist(path).map { InfoPlist($0, names: names) }
        infoPlists[path] = info
        return info
    }

    func readPlist(_ path: String) -> [String: Any]? {
        if let generated = project.generated[path] { return generated.contents }
        if let cached = plists[path] { return cached }
        let plist = Self.readPlist(path)
        plists[path] = plist
        return plist
    }

    /// Why the property list at `path` gave nothing: it is missing, not a regular file, or not a property list.
    package static func whyUnreadable(_ path: String) -> String {
        do {
            guard let bytes = try InputFile.readIfExists(path) else { return "does not exist" }
            _ = try PropertyListFile.dictionary(bytes, path: path)
            return "is not a property list"
        } catch let error as BundleError {
            return "cannot be read (\(error.detail))"
        } catch {
            return "is not a property list"
        }
    }

    package static func readPlist(_ path: String) -> [String: Any]? {
        guard let bytes = InputFile.readIfPresent(path) else { return nil }
        return try? PropertyListFile.dictionary(bytes, path: path)
    }
}
