import BundleKit
import Foundation
import LockstepSystem

/// A read-only tree of files: a folder on disk or the inside of a zip.
package protocol BundleTree {
    /// The file's bytes, or `nil` if there is no such file.
    /// - Throws: `BundleError` when it cannot be read or is larger than `limit` bytes.
    func read(_ relative: String, limit: Int) throws -> [UInt8]?
    /// The names directly inside the folder `relative` (`""`: the root), sorted.
    func children(_ relative: String) -> [String]
    /// How reports name the file.
    func display(_ relative: String) -> String
    /// The bytes of every file below the folder `relative`, uncompressed.
    func size(_ relative: String) -> Int
}

package struct FileTree: BundleTree {
    let root: String

    package init(root: String) { self.root = root }

    package func read(_ relative: String, limit: Int) throws -> [UInt8]? {
        try InputFile.readIfExists(display(relative), limit: limit)
    }

    package func children(_ relative: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: display(relative))) ?? []).sorted()
    }

    package func display(_ relative: String) -> String {
        relative.isEmpty ? root : root == "." ? relative : "\(root)/\(relative)"
    }

    package func size(_ relative: String) -> Int {
        let folder = display(relative)
        guard let files = FileManager.default.enumerator(atPath: folder) else { return 0 }
        var total = 0
        for case let file as String in files {
            guard let status = try? FileSystem.status("\(folder)/\(file)"), status.kind == .regular else { continue }
            total += status.size
        }
        return total
    }
}

package struct ZipTree: BundleTree {
    let zip: ZipArchive

    package init(_ zip: ZipArchive) { self.zip = zip }

    package func read(_ relative: String, limit: Int) throws -> [UInt8]? { try zip.read(relative, limit: limit) }

    package func children(_ relative: String) -> [String] {
        let prefix = relative.isEmpty ? "" : relative + "/"
        var names = Set<String>()
        for name in zip.entries.keys where name.hasPrefix(prefix) {
            if let first = name.dropFirst(prefix.count).split(separator: "/").first { names.insert(String(first)) }
        }
        return names.sorted()
    }

    package func size(_ relative: String) -> Int {
        zip.entries.values.reduce(0) { $0 + ($1.name.hasPrefix(relative + "/") ? $1.uncompressedSize : 0) }
    }

    /// `App.ipa:Payload/App.app/Info.plist`: the archive, then the entry inside it.
    package func display(_ relative: String) -> String { "\(zip.path):\(relative)" }
}

/// Reads a built `.app` and the bundles embedded in it.
///
/// Entitlements of a built bundle, in this order: `archived-expanded-entitlements.xcent` (Xcode copies it into
/// archived and exported bundles), a `*.entitlements` file in the bundle folder (unsigned and fixture builds),
/// then the code signature of the `CFBundleExecutable` (where a signed device build always has them). With none
/// of these (an unsigned build), the bundle's App Groups are unknown and the group rules say so in a note.
package enum BuiltApp {
    package static func read(_ tree: BundleTree, app folder: String) throws -> AppBundleSet {
        let appName = (folder as NSString).lastPathComponent
        let app = try record(tree, folder: folder, bundlePath: appName, role: .host, location: nil)
        var set = AppBundleSet(app: app, embedded: try embedded(tree, folder: folder, bundlePath: appName), origin: tree.display(folder))
        // rule `bundle-id.duplicate` extended to frameworks: the app's and every bundle's own Frameworks folder.
        for bundle in set.all {
            let bundleFolder = folder + bundle.bundlePath.dropFirst(appName.count)
            let (contents, isMac) = Self.contents(tree, bundleFolder)
            let frameworks = "\(contents)/Frameworks"
            for name in tree.children(frameworks) where name.hasSuffix(".framework") {
                let plistPath = isMac ? "\(frameworks)/\(name)/Resources/Info.plist" : "\(frameworks)/\(name)/Info.plist"
                guard let bytes = try? tree.read(plistPath, limit: ZipArchive.maximumEntrySize),
                      let plist = try? PropertyListFile.dictionary(bytes, path: tree.display(plistPath)),
                      let identifier = plist["CFBundleIdentifier"] as? String else { continue }
                set.frameworks.append(.init(bundlePath: "\(bundle.bundlePath)\(isMac ? "/Contents" : "")/Frameworks/\(name)", identifier: identifier,
                                            source: tree.display(plistPath)))
            }
        }
        return set
    }

    /// The folder of a bundle that holds its Info.plist and PlugIns: the bundle itself on iOS, `Contents` in a Mac
    /// bundle (`X.app/Contents/Info.plist`, `X.app/Contents/PlugIns`).
    private static func contents(_ tree: BundleTree, _ folder: String) -> (folder: String, isMac: Bool) {
        let children = tree.children(folder)
        return !children.contains("Info.plist") && children.contains("Contents") ? (folder + "/Contents", true) : (folder, false)
    }

    /// The bundles inside `folder`, and the bundles they embed in turn (a watch app's own widget). A Mac app's
    /// `Contents/Library/SystemExtensions` are not app extensions (<doc:ReadingProjects> "Platforms"), so they are not read.
    private static func embedded(_ tree: BundleTree, folder bundleFolder: String, bundlePath bundleRoot: String) throws -> [BundleRecord] {
        var result: [BundleRecord] = []
        let (folder, isMac) = contents(tree, bundleFolder)
        let bundlePath = isMac ? bundleRoot + "/Contents" : bundleRoot
        for location in [EmbedLocation.plugIns, .extensions, .watch, .appClips] {
            let suffix = location == .watch || location == .appClips ? ".app" : ".appex"
            for child in tree.children("\(folder)/\(location.rawValue)") where child.hasSuffix(suffix) {
                let childFolder = "\(folder)/\(location.rawValue)/\(child)"
                let childPath = "\(bundlePath)/\(location.rawValue)/\(child)"
                result.append(try record(tree, folder: childFolder, bundlePath: childPath,
                                         role: location == .watch ? .watch : .extension, location: location))
                result += try embedded(tree, folder: childFolder, bundlePath: childPath)
            }
        }
        return result
    }

    private static func record(_ tree: BundleTree, folder bundleFolder: String, bundlePath: String, role: BundleRole, location: EmbedLocation?) throws -> BundleRecord {
        let (folder, isMac) = contents(tree, bundleFolder)
        let plistPath = "\(folder)/Info.plist"
        guard let bytes = try tree.read(plistPath, limit: ZipArchive.maximumEntrySize) else {
            throw BundleError(.unreadable, path: tree.display(plistPath), detail: "the bundle \(bundlePath) has no Info.plist")
        }
        let name = ((bundleFolder as NSString).lastPathComponent as NSString).deletingPathExtension
        var record = BundleRecord(name: name, role: role, embedLocation: location, bundlePath: bundlePath,
                                  source: SourceLocation(file: tree.display(plistPath)), platform: isMac ? .macOS : .iOS)
        let plist = try PropertyListFile.dictionary(bytes, path: tree.display(plistPath))
        // The key's line in a file; not in an archive's entry, whose lines a report could only attach to the archive.
        PropertyListFile.apply(infoPlist: plist, path: tree.display(plistPath), to: &record, text: tree is FileTree ? bytes : nil)
        if role == .extension { record.role = roleOfExtension(record.extensionPoint) }

        record.appGroupsKnown = false
        let executable = (plist["CFBundleExecutable"] as? String).map { isMac ? "MacOS/" + $0 : $0 }
        // Only a name inside the bundle (a Mac app's in MacOS/): never a path that leaves it.
        let binaryPath = executable.flatMap { name in
            !name.contains("/") || name.hasPrefix("MacOS/") && name.filter({ $0 == "/" }).count == 1 ? "\(folder)/\(name)" : nil
        }
        // An executable that cannot be read only loses what it would tell: its imports and signed entitlements.
        let binary = binaryPath.flatMap { try? tree.read($0, limit: maximumExecutableSize) }
        if let executable, let binary, let symbols = MachO.importedSymbols(in: binary) {
            record.privacy = try privacyFacts(tree, folder: folder, isMac: isMac, bundlePath: bundlePath, executable: executable, symbols: symbols)
        }
        var signed: [String: Any]?
        if let (path, entitlements) = try entitlements(tree, folder: folder, binaryPath: binaryPath, binary: binary) {
            signed = try PropertyListFile.dictionary(entitlements, path: tree.display(path))
            record.appGroups = PropertyListFile.appGroups(entitlements: signed!)
            record.appGroupsKnown = true
            record.valueSources["com.apple.security.application-groups"] = SourceLocation(file: tree.display(path))
        }
        record.signing = signingFacts(tree, folder: folder, signed: signed)
        record.store = storeFacts(plist, tree: tree, folder: folder, isMac: isMac, isExtension: location == .plugIns || location == .extensions,
                                  binary: binary)
        record.store?.applicationIdentifier = signed?["application-identifier"] as? String
        record.store?.parentApplicationIdentifiers = signed?["com.apple.developer.parent-application-identifiers"] as? [String]
        if location == .appClips { record.store?.size = tree.size(bundleFolder) }
        return record
    }

    /// The bundle's entitlements plist and where it was found: `archived-expanded-entitlements.xcent`, a
    /// `*.entitlements` file, or the code signature of the executable.
    private static func entitlements(_ tree: BundleTree, folder: String, binaryPath: String?, binary: [UInt8]?) throws -> (String, [UInt8])? {
        for candidate in ["archived-expanded-entitlements.xcent"] + tree.children(folder).filter({ $0.hasSuffix(".entitlements") }) {
            let path = "\(folder)/\(candidate)"
            if let bytes = try tree.read(path, limit: ZipArchive.maximumEntrySize) { return (path, bytes) }
        }
        guard let binaryPath, let binary, let entitlements = CodeSignature.entitlements(in: binary) else { return nil }
        return (binaryPath, entitlements)
    }

    /// rule `signing.profile`: the bundle's `embedded.mobileprovision`, when it has one.
    private static func signingFacts(_ tree: BundleTree, folder: String, signed: [String: Any]?) -> SigningFacts? {
        let path = "\(folder)/embedded.mobileprovision"
        guard let der = try? tree.read(path, limit: ZipArchive.maximumEntrySize) else { return nil }
        var facts = SigningFacts(profilePath: tree.display(path))
        facts.signed = signed.map(SigningFacts.Entitlements.init)
        guard let content = ProvisioningProfile.content(der),
              let profile = try? PropertyListFile.dictionary(content, path: facts.profilePath) else {
            facts.readable = false
            return facts
        }
        facts.team = (profile["TeamIdentifier"] as? [Any])?.first as? String
        facts.allowed = SigningFacts.Entitlements(profile["Entitlements"] as? [String: Any] ?? [:])
        return facts
    }

    /// <doc:Rules> "The App Store's other embedded-bundle rules": minimum OS versions, what an extension nests, its display name and activation rule.
    private static func storeFacts(_ plist: [String: Any], tree: BundleTree, folder: String, isMac: Bool, isExtension: Bool, binary: [UInt8]?) -> StoreFacts {
        var facts = StoreFacts()
        facts.minimumOS = (plist[isMac ? "LSMinimumSystemVersion" : "MinimumOSVersion"] as? String) ?? (plist["MinimumOSVersion"] as? String)
        facts.executableMinimumOS = binary.flatMap(MachO.minimumOS(in:))
        facts.hasDisplayName = !((plist["CFBundleDisplayName"] as? String) ?? "").isEmpty
        if isExtension {
            // ITMS-90206: an extension may not carry its own Frameworks; ITMS-90205: nor other bundles.
            let children = tree.children(folder)
            if children.contains("Frameworks") { facts.nested.append("Frameworks") }
            for child in children where [".app", ".appex", ".framework", ".bundle"].contains(where: { child.hasSuffix($0) }) && child != "PlugIns" {
                facts.nested.append(child)
            }
            (facts.activationRule, facts.activationTypeProblems) = StoreFacts.activation(plist)
        }
        return facts
    }

    /// rule `privacy.manifest`: the categories the executable's imports show, and what the bundle's
    /// `PrivacyInfo.xcprivacy` (in `Contents/Resources` of a Mac bundle) declares.
    private static func privacyFacts(_ tree: BundleTree, folder: String, isMac: Bool, bundlePath: String, executable: String, symbols: Set<String>) throws -> PrivacyFacts {
        // App Store Connect names the file relative to the app: "PlugIns/NotificationService.appex/NotificationService".
        let inApp = bundlePath.split(separator: "/").dropFirst().joined(separator: "/")
        var facts = PrivacyFacts(executable: inApp.isEmpty ? executable : inApp + "/" + executable,
                                 used: PrivacyManifest.categories(usedBy: symbols), declared: nil, manifestPath: nil, problems: [])
        let path = isMac ? "\(folder)/Resources/PrivacyInfo.xcprivacy" : "\(folder)/PrivacyInfo.xcprivacy"
        guard let bytes = try tree.read(path, limit: ZipArchive.maximumEntrySize) else { return facts }
        facts.manifestPath = tree.display(path)
        do {
            let (declared, problems) = PrivacyManifest.read(try PropertyListFile.dictionary(bytes, path: tree.display(path)))
            (facts.declared, facts.problems) = (declared, problems)
        } catch {
            (facts.declared, facts.problems) = ([], ["it is not a readable property list"])
        }
        return facts
    }

    /// The largest executable read for its code signature.
    static let maximumExecutableSize = 512 << 20

    /// The simulated role of an extension, from its extension point (<doc:Design> "The manifest").
    static func roleOfExtension(_ point: String?) -> BundleRole {
        BundleRole(extensionPoint: point)
    }
}
