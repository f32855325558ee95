import BundleKit
import Foundation

/// What a target compiles and copies: the files `lockstep build` turns into a Swift package
/// (<doc:RunningYourProject>). Read from the target's Sources and Resources build phases and its synchronized folders
/// (objectVersion 77), or from an XcodeGen spec's `sources`.
package struct TargetBuildInputs: Sendable, Equatable {
    /// The Swift files it compiles, absolute, in build-phase order.
    package var swiftFiles: [String] = []
    /// The resources it copies, absolute: asset catalogs and `.lproj` folders as one entry each.
    package var resources: [String] = []
    /// The Swift package products it links (`packageProductDependencies`, a spec's `- package:`).
    package var packageProducts: [String] = []
    /// Files and folders it names that are not there (Xcode stops the build at the first).
    package var missing: [String] = []
    /// Its `.intentdefinition` files whose classes Xcode generates into it (all but "No Generated Classes"), absolute.
    package var intentDefinitions: [String] = []

    package init(swiftFiles: [String] = [], resources: [String] = [], packageProducts: [String] = []) {
        self.swiftFiles = swiftFiles
        self.resources = resources
        self.packageProducts = packageProducts
    }

    /// The files below `folder` as a target's synchronized folder or a spec's source path gives them: Swift files
    /// compiled, everything else but property lists and entitlements copied, a bundle-like folder (`.xcassets`,
    /// `.lproj`…) as one resource. `excluded` are paths relative to `folder` (a synchronized folder's exceptions).
    package mutating func add(folder: String, excluded: Set<String> = []) {
        add(folder: folder) { excluded.contains($0) }
    }

    /// The files below `folder`, but those whose path relative to it `isExcluded` says to leave out (a spec's
    /// `excludes` globs). A folder left out is not entered.
    package mutating func add(folder: String, isExcluded: (String) -> Bool) {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder, isDirectory: &isDirectory) else {
            missing.append(folder)
            return
        }
        guard isDirectory.boolValue else {
            add(file: folder)
            return
        }
        var queue = [""]
        var next = 0
        var visited = 0
        while next < queue.count {
            let relative = queue[next]
            next += 1
            let path = relative.isEmpty ? folder : folder + "/" + relative
            let entries = ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).sorted()
            for entry in entries where !entry.hasPrefix(".") {
                visited += 1
                if visited > 20_000 { return }  // a target's sources, not a disk
                let child = relative.isEmpty ? entry : relative + "/" + entry
                if isExcluded(child) { continue }
                var childIsDirectory: ObjCBool = false
                _ = FileManager.default.fileExists(atPath: folder + "/" + child, isDirectory: &childIsDirectory)
                if childIsDirectory.boolValue && !Self.isBundleLike(entry) {
                    // A folder holding a Package.swift is a local package, which Xcode builds as one, not the
                    // target's own files.
                    if !FileManager.default.fileExists(atPath: folder + "/" + child + "/Package.swift") { queue.append(child) }
                } else {
                    add(file: folder + "/" + child)
                }
            }
        }
    }

    /// One file of a build phase or folder, by its extension.
    package mutating func add(file written: String) {
        // A project written on macOS's case-insensitive file system may name a file in another case.
        guard let path = PathText.existing(written) else {
            missing.append(written)
            return
        }
        let name = PathText.lastComponent(of: path)
        if name.hasSuffix(".swift") {
            if !swiftFiles.contains(path) { swiftFiles.append(path) }
        } else if name.hasSuffix(".intentdefinition") {
            if !intentDefinitions.contains(path) { intentDefinitions.append(path) }
        } else if !Self.notCopied.contains(where: { name.hasSuffix($0) }) && !resources.contains(path) {
            resources.append(path)
        }
    }

    /// Folders Xcode treats as one resource.
    static func isBundleLike(_ name: String) -> Bool {
        [".xcassets", ".lproj", ".bundle", ".xcdatamodeld", ".scnassets", ".storyboardc", ".docc"].contains { name.hasSuffix($0) }
    }

    /// What a synchronized folder holds that is not copied as a resource: the Info.plist and entitlements (build
    /// settings name them), other code, and files only Xcode reads.
    static let notCopied = ["Info.plist", ".entitlements", ".h", ".m", ".mm", ".c", ".cpp", ".xcconfig", ".md", ".docc",
                            ".intentdefinition", ".xcprivacy", ".storekit", ".xctestplan", ".modulemap"]
}

extension XcodeProject {
    /// Every native target's build inputs, by target id; a spec's come from its `sources` (`specInputs`).
    /// - Throws: `BundleError` when the pbxproj cannot be read again (it was read once already).
    package func buildInputs() throws(BundleError) -> [String: TargetBuildInputs] {
        if specPath != nil { return specInputs }
        let document = try Self.document(bytes, path: path)
        guard let objects = document.root["objects"]?.dictionary.map(ObjectIndex.init),
              let rootID = document.root["rootObject"]?.string, let root = objects[rootID]?.dictionary else { return [:] }
        var reader = ObjectReader(objects: objects, sourceRoot: absoluteSourceRoot)
        if let main = root["mainGroup"]?.string { reader.indexGroups(from: main) }
        var result: [String: TargetBuildInputs] = [:]
        for target in targets {
            guard let object = objects[target.id]?.dictionary else { continue }
            var inputs = TargetBuildInputs()
            for phase in (object["buildPhases"]?.array ?? []).compactMap(\.string) {
                guard let phaseObject = objects[phase]?.dictionary, let isa = phaseObject["isa"]?.string else { continue }
                // A product the Frameworks phase links (`productRef`) that `packageProductDependencies` does not
                // list: Xcode links it all the same (Bark's notification service and swift-markdown).
                if isa == "PBXFrameworksBuildPhase" {
                    for file in (phaseObject["files"]?.array ?? []).compactMap(\.string) {
                        guard let product = objects[file]?.dictionary?["productRef"]?.string,
                              let name = objects[product]?.dictionary?["productName"]?.string, !inputs.packageProducts.contains(name) else { continue }
                        inputs.packageProducts.append(name)
                    }
                    continue
                }
                guard isa == "PBXSourcesBuildPhase" || isa == "PBXResourcesBuildPhase" else { continue }
                for file in (phaseObject["files"]?.array ?? []).compactMap(\.string) {
                    guard let reference = objects[file]?.dictionary?["fileRef"]?.string, let path = reader.path(of: reference) else { continue }
                    // An intent definition whose target membership says "No Generated Classes" gives the target none.
                    let attributes = objects[file]?.dictionary?["settings"]?.dictionary?["ATTRIBUTES"]?.array ?? []
                    if attributes.contains(where: { $0.string == "no_codegen" }) { continue }
                    // A variant group (Localizable.strings in several .lproj folders) is its children's files; a
                    // localized intent definition is its base file (Base.lproj), which Xcode generates from, the
                    // others being its strings.
                    if objects[reference]?.dictionary?["isa"]?.string == "PBXVariantGroup" {
                        let children = (objects[reference]?.dictionary?["children"]?.array ?? []).compactMap(\.string).compactMap(reader.path(of:))
                        if let definition = children.first(where: { $0.hasSuffix(".intentdefinition") }) {
                            inputs.add(file: definition)
                            continue
                        }
                        for childPath in children { inputs.add(file: PathText.parent(of: childPath)) }
                    } else {
                        inputs.add(file: path)
                    }
                }
            }
            for group in (object["fileSystemSynchronizedGroups"]?.array ?? []).compactMap(\.string) {
                guard let folder = reader.path(of: group) else { continue }
                inputs.add(folder: folder, excluded: Self.membershipExceptions(of: group, target: target.id, objects: objects))
            }
            for dependency in (object["packageProductDependencies"]?.array ?? []).compactMap(\.string) {
                if let product = objects[dependency]?.dictionary?["productName"]?.string, !inputs.packageProducts.contains(product) {
                    inputs.packageProducts.append(product)
                }
            }
            result[target.id] = inputs
        }
        return result
    }

    /// The local Swift packages the project refers to, absolute: `XCLocalSwiftPackageReference`s, and package
    /// folders added to the project as file references (how Xcode 14 and earlier refer to a local package).
    package func localPackages() throws(BundleError) -> [String] {
        if specPath != nil { return specLocalPackages }
        let document = try Self.document(bytes, path: path)
        guard let objects = document.root["objects"]?.dictionary.map(ObjectIndex.init),
              let rootID = document.root["rootObject"]?.string, let root = objects[rootID]?.dictionary else { return [] }
        var reader = ObjectReader(objects: objects, sourceRoot: absoluteSourceRoot)
        var result: [String] = []
        for reference in (root["packageReferences"]?.array ?? []).compactMap(\.string) {
            guard let object = objects[reference]?.dictionary, object["isa"]?.string == "XCLocalSwiftPackageReference",
                  let relative = object["relativePath"]?.string else { continue }
            result.append(PathText.join(absoluteSourceRoot, relative))
        }
        guard let main = root["mainGroup"]?.string else { return result }
        reader.indexGroups(from: main)
        var stack = [main]
        var visited = 0
        while let id = stack.popLast(), visited < 100_000 {
            visited += 1
            guard let object = objects[id]?.dictionary else { continue }
            if let children = object["children"]?.array {
                stack.append(contentsOf: children.compactMap(\.string))
            } else if object["isa"]?.string == "PBXFileReference", let path = reader.path(of: id),
                      FileManager.default.fileExists(atPath: path + "/Package.swift") {
                let folder = PathText.join("/", path)
                if !result.contains(folder) { result.append(folder) }
            } else if object["isa"]?.string == "PBXFileSystemSynchronizedRootGroup", let path = reader.path(of: id) {
                // Xcode 16 finds a local package in a synchronized folder (NetNewsWire's Modules/): the folder
                // itself, or a folder right inside it, holding a Package.swift.
                let children = ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).sorted().map { path + "/" + $0 }
                for candidate in [path] + children where FileManager.default.fileExists(atPath: candidate + "/Package.swift") {
                    let folder = PathText.join("/", candidate)
                    if !result.contains(folder) { result.append(folder) }
                }
            }
        }
        return result
    }

    /// The paths a synchronized folder leaves out of `target` (`PBXFileSystemSynchronizedBuildFileExceptionSet`).
    private static func membershipExceptions(of group: String, target: String, objects: ObjectIndex) -> Set<String> {
        var excluded: Set<String> = []
        for exception in (objects[group]?.dictionary?["exceptions"]?.array ?? []).compactMap(\.string) {
            guard let set = objects[exception]?.dictionary, set["target"]?.string == target else { continue }
            for path in (set["membershipExceptions"]?.array ?? []).compactMap(\.string) { excluded.insert(path) }
        }
        return excluded
    }
}
