import BundleKit
import Foundation
import LockstepSystem

/// Where a node of an XcodeGen spec is written: for findings ("project.yml, line 12") and for `bump`, which rewrites
/// a scalar's bytes. A project generated from a spec keeps one for each setting and generated Info.plist key.
package struct YAMLMark: Sendable {
    package var file: String
    /// 1-based.
    package var line: Int
    /// 1-based, in bytes.
    package var column: Int
    /// The bytes the node's text occupies in the file (a quoted scalar: its quotes included).
    package var range: Range<Int>

    package init(file: String, line: Int, column: Int, range: Range<Int>) {
        self.file = file
        self.line = line
        self.column = column
        self.range = range
    }
}

/// The parts of a `project.pbxproj` that bundles and versions depend on: configurations, native targets and
/// which target embeds which (<doc:ReadingProjects> "Reading real projects").
package struct XcodeProject {
    /// One `XCBuildConfiguration`.
    package struct Configuration {
        package var id: String
        package var name: String
        /// `buildSettings`, arrays joined with spaces as Xcode does when it expands them.
        package var settings: [(name: String, value: String)]
        /// The xcconfig this configuration is based on, resolved to a path (nil when there is none).
        package var baseConfigurationPath: String?
        /// For a project generated from an XcodeGen spec: where the spec writes each setting, by key.
        package var marks: [String: YAMLMark] = [:]

        package init(id: String, name: String, settings: [(name: String, value: String)], baseConfigurationPath: String?, marks: [String: YAMLMark] = [:]) {
            self.id = id
            self.name = name
            self.settings = settings
            self.baseConfigurationPath = baseConfigurationPath
            self.marks = marks
        }
    }

    /// A property list XcodeGen writes when it generates the project (`info:` and `entitlements:` of a target):
    /// read instead of the file on disk, which the next `xcodegen generate` replaces.
    package struct GeneratedPlist {
        package var contents: [String: Any]
        /// The spec file that defines it, which findings name.
        package var spec: String
        /// Where the spec writes each key's value (`info.properties`), for `bump`.
        package var keyMarks: [String: YAMLMark]

        package init(contents: [String: Any], spec: String, keyMarks: [String: YAMLMark]) {
            self.contents = contents
            self.spec = spec
            self.keyMarks = keyMarks
        }
    }

    /// One target embedded into another by a `PBXCopyFilesBuildPhase`.
    package struct Embed {
        package var targetID: String
        package var location: EmbedLocation
        /// The builds that embed it (`platformFilter`, `platformFilters`); nil for every build of the target.
        package var platformFilters: [PlatformFilter]?

        package init(targetID: String, location: EmbedLocation, platformFilters: [PlatformFilter]? = nil) {
            self.targetID = targetID
            self.location = location
            self.platformFilters = platformFilters
        }
    }

    /// One `PBXNativeTarget`.
    ///
    /// Immutable and shared (a class, not a struct of ten fields): resolving, embedding and the project rules hand
    /// each target around, and every copy of a struct retained and released each of its strings and arrays.
    package final class Target {
        /// Where it is in `XcodeProject.targets`, so that what is kept per target is kept in arrays.
        package let index: Int
        package let id: String
        package let name: String
        package let productType: String
        /// What `productType` builds: read once here, as every configuration of the target asks.
        package let kind: ProductKind
        package let configurations: [Configuration]
        /// `defaultConfigurationName`: what Xcode builds the target with when asked for a configuration it lacks.
        package let defaultConfiguration: String?
        package let embeds: [Embed]
        /// The targets it depends on (`PBXTargetDependency`): built first, embedded only if a copy phase says so.
        package let dependencies: [String]
        /// The `PrivacyInfo.xcprivacy` files it copies (its resources phase, or a synchronized folder of its own).
        package let privacyManifests: [String]
        /// Its Run Script phases that write a version into the built Info.plist.
        package let versionScripts: [VersionScript]

        package init(index: Int, id: String, name: String, productType: String, kind: ProductKind, configurations: [Configuration], defaultConfiguration: String?, embeds: [Embed], dependencies: [String] = [], privacyManifests: [String] = [], versionScripts: [VersionScript] = []) {
            self.index = index
            self.id = id
            self.name = name
            self.productType = productType
            self.kind = kind
            self.configurations = configurations
            self.defaultConfiguration = defaultConfiguration
            self.embeds = embeds
            self.dependencies = dependencies
            self.privacyManifests = privacyManifests
            self.versionScripts = versionScripts
        }
    }

    /// The `.xcodeproj` folder, as given.
    package var path: String
    package var pbxprojPath: String
    /// The folder holding the `.xcodeproj`, as given: what build-setting paths are relative to.
    package var sourceRoot: String
    /// The same folder as an absolute path: `$(SRCROOT)` and `$(PROJECT_DIR)` are always absolute in Xcode, so a
    /// setting such as `$(SRCROOT)/App/Info.plist` names the same file whatever path the user gave.
    package var absoluteSourceRoot: String
    package var name: String
    package var configurations: [Configuration]
    package var targets: [Target]
    /// The byte range of each object in `bytes`, in file order (empty for an XML or binary project.pbxproj).
    package var objectRanges: [(id: String, range: Range<Int>)]
    package var bytes: [UInt8]
    /// Broken references that only lose part of the project: reported as findings, not thrown.
    package var problems: [String]
    /// The property lists an XcodeGen spec generates, by the path the project reads them at.
    package var generated: [String: GeneratedPlist] = [:]
    /// The XcodeGen spec this project is generated from (nil for an .xcodeproj).
    package var specPath: String?
    /// For a spec: each target's build inputs by target id, and the local packages it names (`buildInputs()`).
    package var specInputs: [String: TargetBuildInputs] = [:]
    package var specLocalPackages: [String] = []
    /// For a spec: the packages it fetches from a URL (`remotePackages()`).
    package var specRemotePackages: [RemotePackageReference] = []

    /// Reads `path/project.pbxproj`.
    /// - Throws: `BundleError` when the file is missing, is not an OpenStep plist, or has no root project.
    package init(path: String) throws(BundleError) {
        self.path = path
        pbxprojPath = path + "/project.pbxproj"
        sourceRoot = PathText.parent(of: path)
        absoluteSourceRoot = PathText.absolute(sourceRoot)
        name = ASCII.replacing(".xcodeproj", with: "", in: PathText.lastComponent(of: path))
        problems = []
        bytes = try InputFile.read(pbxprojPath)
        let document = try Self.document(bytes, path: path)
        objectRanges = document.objectRanges
        guard let objects = document.root["objects"]?.dictionary.map(ObjectIndex.init),
              let rootID = document.root["rootObject"]?.string else {
            throw BundleError(.invalidProject, path: path, detail: "project.pbxproj has no 'objects' or no 'rootObject'")
        }
        guard let root = objects[rootID]?.dictionary, root["isa"]?.string == "PBXProject" else {
            throw BundleError(.invalidProject, path: path, detail: "the rootObject \(rootID) is not a PBXProject in project.pbxproj (unknown object reference)")
        }
        var reader = ObjectReader(objects: objects, sourceRoot: sourceRoot)
        if let main = root["mainGroup"]?.string { reader.indexGroups(from: main) }
        configurations = reader.configurations(list: root["buildConfigurationList"]?.string, owner: "the project")
        // Product file reference → target, to know which target a copy phase embeds.
        // Each listed once: a project that lists one target 100,000 times is one target, not 100,000 to resolve.
        let targetIDs = Self.unique((root["targets"]?.array ?? []).compactMap(\.string))
        var productOwner = IDTable<String>(capacity: targetIDs.count)
        for id in targetIDs {
            if let product = objects[id]?.dictionary?["productReference"]?.string { productOwner[product] = id }
        }
        var targets: [Target] = []
        // A project has a few product types for all its targets.
        var kinds: [String: ProductKind] = [:]
        var scripts = VersionScript.Reader(objects: objects, sourceRoot: sourceRoot)
        for id in targetIDs {
            guard let object = objects[id]?.dictionary else {
                reader.problems.append("the project lists target \(id), an object that does not exist (unknown object reference)")
                continue
            }
            // Aggregate and legacy targets build no bundle (<doc:Rules> "Bundles and versions": not embedded bundles).
            guard object["isa"]?.string == "PBXNativeTarget" else { continue }
            let name = object["name"]?.string ?? id
            let list = object["buildConfigurationList"]?.string
            let productType = object["productType"]?.string ?? ""
            let kind = kinds[productType] ?? ProductKind(productType)
            kinds[productType] = kind
            let phases = (object["buildPhases"]?.array ?? []).compactMap(\.string)
            targets.append(Target(
                index: targets.count, id: id, name: name, productType: productType, kind: kind,
                configurations: reader.configurations(list: list, owner: "target '\(name)'"),
                defaultConfiguration: list.flatMap { objects[$0]?.dictionary?["defaultConfigurationName"]?.string },
                embeds: reader.embeds(phases: phases, productOwner: productOwner, owner: name),
                dependencies: (object["dependencies"]?.array ?? []).compactMap { $0.string.flatMap { objects[$0]?.dictionary?["target"]?.string } },
                privacyManifests: reader.privacyManifests(phases: phases,
                                                          synchronized: (object["fileSystemSynchronizedGroups"]?.array ?? []).compactMap(\.string)),
                versionScripts: scripts.read(phases: phases)))
        }
        self.targets = targets
        problems = reader.problems
    }
}

extension XcodeProject {
    /// The parsed `project.pbxproj` at `path`: an OpenStep plist as Xcode writes it, or the XML or binary plist some
    /// tools rewrite it as.
    static func document(_ bytes: [UInt8], path: String) throws(BundleError) -> OpenStepParser.Document {
        if bytes.starts(with: Array("<?xml".utf8)) || bytes.starts(with: Array("bplist".utf8)) {
            // Xcode also opens a pbxproj some tools rewrite as an XML plist; `bump` then cannot edit it in place.
            // A binary one is checked first: damaged, cyclic or exponentially shared, it is refused (issue 20).
            if bytes.starts(with: Array("bplist".utf8)), let problem = BinaryPropertyList.problem(bytes) {
                throw BundleError(.invalidProject, path: path, detail: "project.pbxproj is not a readable property list: \(problem)")
            }
            guard !BinaryPropertyList.containsSet(bytes),  // Foundation would crash on a set
                  let root = (try? PropertyListSerialization.propertyList(from: Data(bytes), options: [], format: nil)).flatMap(Self.openStep)?.dictionary else {
                throw BundleError(.invalidProject, path: path, detail: "project.pbxproj is not a valid property list")
            }
            return OpenStepParser.Document(root: root, objectRanges: [])
        } else {
            do {
                return try OpenStepParser.parse(bytes)
            } catch {
                throw BundleError(.invalidProject, path: path, detail: "project.pbxproj is not a valid property list: \(error.message)")
            }
        }
    }
}

extension XcodeProject {
    /// The project `xcodegen generate` writes from the spec at `specPath`, in the spec's folder.
    package init(specPath: String, name: String, configurations: [Configuration], targets: [Target], generated: [String: GeneratedPlist]) {
        path = specPath
        pbxprojPath = specPath
        sourceRoot = PathText.parent(of: specPath)
        absoluteSourceRoot = PathText.absolute(sourceRoot)
        self.name = name
        self.configurations = configurations
        self.targets = targets
        objectRanges = []
        bytes = []
        problems = []
        self.generated = generated
        self.specPath = specPath
    }

    /// `ids` without repeats, in first-seen order: object lists in a hostile project repeat ids to multiply work.
    static func unique(_ ids: [String]) -> [String] {
        // Most lists (a target's phases, a list's configurations) are a handful of ids: compared, not hashed.
        if ids.count <= 8 {
            var result: [String] = []
            result.reserveCapacity(ids.count)
            for id in ids where !result.contains(id) { result.append(id) }
            return result
        }
        var seen = IDTable<Void>(capacity: ids.count)
        return ids.filter { seen.insert($0, ()) }
    }

    /// A Foundation property list as the OpenStep values the reader works on.
    static func openStep(_ value: Any) -> OpenStepValue? {
        switch value {
        case let string as String: return .string(string)
        case let number as NSNumber: return .string(number.stringValue)
        case let data as Data: return .data(Array(data))
        case let array as [Any]: return .array(array.compactMap(openStep))
        case let dictionary as [String: Any]: return .dictionary(OpenStepDictionary(dictionary.compactMapValues(openStep).map { ($0.key, $0.value) }))
        default: return nil
        }
    }
}

/// Walks the object graph; collects broken references as problems instead of failing. `XcodeProject.buildInputs`
/// walks the same graph for the files each target builds.
struct ObjectReader {
    let objects: ObjectIndex
    let sourceRoot: String
    var parents: IDTable<String>
    var problems: [String] = []

    init(objects: ObjectIndex, sourceRoot: String) {
        self.objects = objects
        self.sourceRoot = sourceRoot
        parents = IDTable(capacity: objects.count)
    }

    mutating func indexGroups(from group: String) {
        var stack = [group]
        var seen = IDTable<Void>(capacity: objects.count)
        // A file listed in two groups is pushed twice: skip the repeat, and go on with the rest of the tree.
        while let id = stack.popLast() {
            guard seen.insert(id, ()) else { continue }
            guard let children = objects[id]?.dictionary?["children"]?.array else { continue }
            for case .string(let child) in children {
                parents[child] = id
                stack.append(child)
            }
        }
    }

    /// The path of a file reference or group, following `sourceTree` up the groups tree.
    func path(of id: String) -> String? {
        var depth = 0
        var id = id
        var components: [String] = []
        while depth < 256 {
            depth += 1
            guard let object = objects[id]?.dictionary else { return nil }
            if let path = object["path"]?.string { components.append(path) }
            switch object["sourceTree"]?.string ?? "<group>" {
            case "<absolute>":
                return components.reversed().joined(separator: "/")
            case "SOURCE_ROOT":
                return PathText.join(sourceRoot, components.reversed().joined(separator: "/"))
            case "<group>":
                guard let parent = parents[id] else {
                    // The main group (or a reference outside the tree): relative to the project folder.
                    return PathText.join(sourceRoot, components.reversed().joined(separator: "/"))
                }
                id = parent
            default:
                return nil  // BUILT_PRODUCTS_DIR, SDKROOT…: not a source file.
            }
        }
        return nil
    }

    /// Whether the file reference `id` may resolve to a `PrivacyInfo.xcprivacy`: its path's last component is the
    /// one of its own `path` (unless that is empty, `.` or `..`), so the others need no walk up the groups (an app's
    /// resources phase lists hundreds of files).
    private func mayBePrivacyManifest(_ id: String) -> Bool {
        guard let own = objects[id]?.dictionary?["path"]?.string, !own.isEmpty else { return true }
        let last = PathText.lastComponent(of: own)
        return last == "PrivacyInfo.xcprivacy" || last == "." || last == ".."
    }

    /// rule `privacy.manifest`: the `PrivacyInfo.xcprivacy` files a target copies — from its resources phase,
    /// or found in a synchronized folder of its own (objectVersion 77), a few levels deep.
    func privacyManifests(phases: [String], synchronized: [String]) -> [String] {
        var result: [String] = []
        for phase in phases {
            guard let object = objects[phase]?.dictionary, object["isa"]?.string == "PBXResourcesBuildPhase" else { continue }
            for file in (object["files"]?.array ?? []).compactMap(\.string) {
                guard let reference = objects[file]?.dictionary?["fileRef"]?.string, mayBePrivacyManifest(reference),
                      let path = path(of: reference),
                      PathText.lastComponent(of: path) == "PrivacyInfo.xcprivacy" else { continue }
                result.append(path)
            }
        }
        for group in synchronized {
            guard let folder = path(of: group), let files = FileManager.default.enumerator(atPath: folder) else { continue }
            var visited = 0
            for case let file as String in files {
                visited += 1
                if visited > 10_000 { break }  // a synchronized folder is a target's sources, not a disk
                if PathText.lastComponent(of: file) == "PrivacyInfo.xcprivacy" { result.append(folder + "/" + file) }
            }
        }
        return result
    }

    /// - Parameter owner: made only for a problem's sentence.
    mutating func configurations(list: String?, owner: @autoclosure () -> String) -> [XcodeProject.Configuration] {
        guard let list else {
            problems.append("\(owner()) has no buildConfigurationList")
            return []
        }
        guard let ids = objects[list]?.dictionary?["buildConfigurations"]?.array else {
            problems.append("\(owner()) refers to configuration list \(list), an object that does not exist (unknown object reference)")
            return []
        }
        var result: [XcodeProject.Configuration] = []
        result.reserveCapacity(ids.count)
        for id in XcodeProject.unique(ids.compactMap(\.string)) {
            guard let object = objects[id]?.dictionary, let name = object["name"]?.string else {
                problems.append("\(owner()) refers to build configuration \(id), an object that does not exist (unknown object reference)")
                continue
            }
            // In the order of their names.
            let written = object["buildSettings"]?.dictionary?.sortedLastEntries ?? []
            var settings: [(name: String, value: String)] = []
            settings.reserveCapacity(written.count)
            for member in written {
                switch member.value {
                case .string(let s): settings.append((member.key, s))
                case .array(let items): settings.append((member.key, items.compactMap(\.string).joined(separator: " ")))
                default: continue
                }
            }
            var base: String?
            if let reference = object["baseConfigurationReference"]?.string {
                base = path(of: reference)
                if base == nil {
                    problems.append("\(owner()) [\(name)] is based on xcconfig reference \(reference), which does not resolve to a file (unknown object reference)")
                }
            } else if let anchor = object["baseConfigurationReferenceAnchor"]?.string,
                      let relative = object["baseConfigurationReferenceRelativePath"]?.string {
                // objectVersion 70+: an anchor (a PBXFileSystemSynchronizedRootGroup) plus a path inside it.
                if let folder = path(of: anchor) { base = folder + "/" + relative } else {
                    problems.append("\(owner()) [\(name)] is based on an xcconfig anchored at \(anchor), which does not resolve to a folder (unknown object reference)")
                }
            }
            result.append(.init(id: id, name: name, settings: settings, baseConfigurationPath: base))
        }
        return result
    }

    mutating func embeds(phases: [String], productOwner: IDTable<String>, owner: String) -> [XcodeProject.Embed] {
        var result: [XcodeProject.Embed] = []
        for phaseID in XcodeProject.unique(phases) {
            guard let phase = objects[phaseID]?.dictionary else {
                problems.append("target '\(owner)' lists build phase \(phaseID), an object that does not exist (unknown object reference)")
                continue
            }
            guard phase["isa"]?.string == "PBXCopyFilesBuildPhase" else { continue }
            // <doc:ReadingProjects> "Embedded": 13 or PlugIns; 16 or Product (the products directory) + Watch or
            // AppClips; the ExtensionKit folder.
            let folder = CopyPhaseDestination.folder(spec: phase["dstSubfolderSpec"]?.string, subfolder: phase["dstSubfolder"]?.string)
            guard let location = CopyPhaseDestination.location(folder: folder, destination: phase["dstPath"]?.string ?? "") else { continue }
            for fileID in XcodeProject.unique((phase["files"]?.array ?? []).compactMap(\.string)) {
                guard let file = objects[fileID]?.dictionary else {
                    problems.append("target '\(owner)' embeds build file \(fileID), an object that does not exist (unknown object reference)")
                    continue
                }
                var filters = (file["platformFilters"]?.array ?? []).compactMap(\.string)
                if let filter = file["platformFilter"]?.string { filters.append(filter) }
                guard let reference = file["fileRef"]?.string, let target = productOwner[reference] else { continue }
                // <doc:ReadingProjects> "Embedded": platformFilter(s) restrict embedding to the builds they name, each
                // checked as its platform.
                result.append(.init(targetID: target, location: location, platformFilters: filters.isEmpty ? nil : PlatformFilter.parse(filters)))
            }
        }
        return result
    }
}


/// A table keyed by pbxproj object ids (or any strings), hashed with a multiplicative hash of their UTF-8 bytes
/// instead of `Hasher`.
///
/// Reading a project follows a reference (a 24-character id) for every object it visits, and indexes the groups by
/// child: SipHash of the ids through `[String: …]` was a tenth of reading DuckDuckGo's iOS project. Each table takes
/// a seed from `Hasher`, so a project cannot choose ids that all land in one slot. Only lookups and insertions: it
/// is never enumerated, so its order shows nowhere.
struct IDTable<Value> {
    private struct Entry {
        var key: String
        var value: Value
    }

    private var entries: [Entry] = []
    /// An entry's index + 1 in `entries` (low 32 bits) and its hash's low 32 bits (not those that chose the
    /// slot), compared before its key; 0 is a free slot. Never more than half full.
    private var slots: [UInt64]
    /// 64 - log2(slots.count): the hash's top bits pick the slot.
    private var shift: Int
    private let seed: UInt64

    init(capacity: Int) {
        var bits = 3
        while 1 << bits < 2 * capacity && bits < 31 { bits += 1 }
        slots = Array(repeating: 0, count: 1 << bits)
        shift = 64 - bits
        seed = StringHash.newSeed()
        entries.reserveCapacity(capacity)
    }

    var count: Int { entries.count }

    /// The value for `key`; setting nil is not supported (nothing is ever removed).
    subscript(key: String) -> Value? {
        get {
            let entry = slots[find(key).slot]
            return entry == 0 ? nil : entries[Self.index(entry)].value
        }
        set {
            guard let newValue else { return }
            let (slot, hash) = find(key)
            if slots[slot] != 0 { entries[Self.index(slots[slot])].value = newValue } else { add(key, newValue, hash, at: slot) }
        }
    }

    /// Adds `key` with `value` unless it is there; whether it was added.
    mutating func insert(_ key: String, _ value: Value) -> Bool {
        let (slot, hash) = find(key)
        guard slots[slot] == 0 else { return false }
        add(key, value, hash, at: slot)
        return true
    }

    private mutating func add(_ key: String, _ value: Value, _ hash: UInt64, at slot: Int) {
        entries.append(Entry(key: key, value: value))
        slots[slot] = hash << 32 | UInt64(entries.count)
        if 2 * entries.count > slots.count { grow() }
    }

    private static func index(_ entry: UInt64) -> Int { Int(truncatingIfNeeded: entry & 0xFFFF_FFFF) - 1 }

    private mutating func grow() {
        let old = slots
        slots = Array(repeating: 0, count: slots.count * 2)
        shift -= 1
        for entry in old where entry != 0 {
            var slot = Int(truncatingIfNeeded: hash(entries[Self.index(entry)].key) >> UInt64(shift))
            while slots[slot] != 0 { slot = (slot + 1) & (slots.count - 1) }
            slots[slot] = entry
        }
    }

    /// The slot holding `key`, or the free slot where it would go; and the key's hash.
    private func find(_ key: String) -> (slot: Int, hash: UInt64) {
        let hash = hash(key)
        let mask = slots.count - 1
        var slot = Int(truncatingIfNeeded: hash >> UInt64(shift))
        while true {
            let entry = slots[slot]
            if entry == 0 || (entry ^ hash << 32) >> 32 == 0 && entries[Self.index(entry)].key == key { return (slot, hash) }
            slot = (slot + 1) & mask
        }
    }

    private func hash(_ key: String) -> UInt64 { StringHash.hash(key, seed: seed) }
}

/// The root's `objects` by id, each key with its last value (`OpenStepDictionary.lastValues`): the parsed members
/// themselves, found through a table of their indices hashed as `IDTable` hashes, instead of a copy of each id and
/// object (a retain and a release of each, a third of building the table).
struct ObjectIndex {
    private let members: [OpenStepDictionary.Member]
    /// A member's index + 1 (low 32 bits) and its hash's low 32 bits; 0 is a free slot. At most half full.
    private var slots: [UInt64]
    private let shift: Int
    private let seed = StringHash.newSeed()

    init(_ dictionary: OpenStepDictionary) {
        members = dictionary.entries
        var bits = 3
        while 1 << bits < 2 * members.count { bits += 1 }
        slots = Array(repeating: 0, count: 1 << bits)
        shift = 64 - bits
        for index in members.indices {
            // A key written twice: its slot takes the later member.
            let (slot, hash) = find(members[index].key)
            slots[slot] = hash << 32 | UInt64(index + 1)
        }
    }

    var count: Int { members.count }

    subscript(id: String) -> OpenStepValue? {
        let entry = slots[find(id).slot]
        return entry == 0 ? nil : members[Int(truncatingIfNeeded: entry & 0xFFFF_FFFF) - 1].value
    }

    private func find(_ key: String) -> (slot: Int, hash: UInt64) {
        let hash = StringHash.hash(key, seed: seed)
        let mask = slots.count - 1
        var slot = Int(truncatingIfNeeded: hash >> UInt64(shift))
        while true {
            let entry = slots[slot]
            if entry == 0 || (entry ^ hash << 32) >> 32 == 0 && members[Int(truncatingIfNeeded: entry & 0xFFFF_FFFF) - 1].key == key {
                return (slot, hash)
            }
            slot = (slot + 1) & mask
        }
    }
}

