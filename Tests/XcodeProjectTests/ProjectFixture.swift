import CheckKit
import Foundation
import LockstepTestSupport

/// Writes project.pbxproj text the way Xcode does (sections, `/* comments */`, quoting only where needed),
/// from a short description, so each test states only what its project is about.
struct ProjectFixture {
    struct Embed {
        var target: String
        var spec: Int
        var dstPath: String = ""
        var platformFilter: String? = nil
        /// Xcode 26's `dstSubfolder = PlugIns;` (or `Product` …), written instead of `dstSubfolderSpec`.
        var subfolder: String? = nil
        var platformFilters: [String]? = nil
    }

    struct Target {
        var name: String
        var productType: String
        /// Settings for every configuration.
        var settings: [String: String] = [:]
        /// Settings for one configuration only (merged over `settings`).
        var perConfiguration: [String: [String: String]] = [:]
        /// The target's xcconfig, relative to the project folder (a file reference in a group).
        var xcconfig: String? = nil
        /// An xcconfig of its own for some configurations, instead of `xcconfig`.
        var xcconfigPerConfiguration: [String: String] = [:]
        var embeds: [Embed] = []
        var isa = "PBXNativeTarget"
        /// The target's own configurations, when they differ from the project's.
        var configurations: [String]? = nil
        /// The targets it depends on (PBXTargetDependency), by name.
        var dependencies: [String] = []
        /// Files its resources phase copies, relative to the project folder.
        var resources: [String] = []
        /// Run Script phases, by name: their shell script.
        var scripts: [String: String] = [:]
        /// Files its sources phase compiles, relative to the project folder.
        var sources: [String] = []
        /// Those of `sources` whose build file says `ATTRIBUTES = (no_codegen, )` (an intent definition's "No
        /// Generated Classes").
        var noCodegen: Set<String> = []
        /// Synchronized folders (objectVersion 77), each with the paths its exception set leaves out of this target.
        var synchronized: [String: [String]] = [:]
        /// Products of Swift packages it links (`packageProductDependencies`).
        var packageProducts: [String] = []
        /// Products of Swift packages its Frameworks phase links (`productRef`) that `packageProductDependencies`
        /// does not list.
        var linkedProducts: [String] = []
        /// Products of packages fetched from a URL it links, each with the package's URL (`remotePackages`).
        var remoteProducts: [(product: String, url: String)] = []

        /// An application target with its bundle identifier and Info.plist (nil: Xcode generates it), embedding
        /// the extensions `embeds` in PlugIns.
        static func app(_ name: String, identifier: String, plist: String?, settings: [String: String] = [:], embeds: [String] = []) -> Target {
            Target(name: name, productType: "com.apple.product-type.application", settings: basics(identifier, plist).merging(settings) { $1 },
                   embeds: embeds.map { Embed(target: $0, spec: 13) })
        }

        /// An app extension target with its bundle identifier and Info.plist (nil: Xcode generates it).
        static func appExtension(_ name: String, identifier: String, plist: String?, settings: [String: String] = [:]) -> Target {
            Target(name: name, productType: "com.apple.product-type.app-extension", settings: basics(identifier, plist).merging(settings) { $1 })
        }

        private static func basics(_ identifier: String, _ plist: String?) -> [String: String] {
            ["PRODUCT_BUNDLE_IDENTIFIER": identifier].merging(plist.map { ["INFOPLIST_FILE": $0] } ?? ["GENERATE_INFOPLIST_FILE": "YES"]) { $1 }
        }
    }

    var projectSettings: [String: String] = [:]
    /// The project level's settings that differ by configuration, over `projectSettings`.
    var projectPerConfiguration: [String: [String: String]] = [:]
    var projectXcconfig: String? = nil
    var configurations = ["Debug", "Release"]
    var targets: [Target] = []
    var objectVersion = 56
    /// Uses `baseConfigurationReferenceAnchor` + a `PBXFileSystemSynchronizedRootGroup` (objectVersion 77).
    var synchronizedXcconfigFolder: String? = nil
    /// Local Swift packages (`XCLocalSwiftPackageReference`), relative to the project folder.
    var localPackages: [String] = []
    /// `XCRemoteSwiftPackageReference`s: the URL and the body of the `requirement` dictionary.
    var remotePackages: [(url: String, requirement: String)] = []

    func pbxproj() -> String {
        var serial = 0
        func id() -> String { serial += 1; return String(format: "A1B2C3D4%016lX", serial) }
        let remoteIDs = remotePackages.map { _ in id() }
        var sections: [String: [String]] = [:]
        func add(_ isa: String, _ text: String) { sections[isa, default: []].append(text) }

        let projectID = id(), mainGroup = id(), productsGroup = id()
        var groupChildren: [String: [String]] = [:]  // group folder → child ids
        var fileRefs: [String: String] = [:]  // xcconfig path → id
        var syncGroupID: String?
        if let folder = synchronizedXcconfigFolder {
            let group = id()
            syncGroupID = group
            add("PBXFileSystemSynchronizedRootGroup", "\t\t\(group) /* \(folder) */ = {isa = PBXFileSystemSynchronizedRootGroup; explicitFileTypes = {}; explicitFolders = (); path = \(folder); sourceTree = \"<group>\"; };")
            groupChildren["", default: []].append(group)
        }
        func reference(_ path: String) -> String {
            if let existing = fileRefs[path] { return existing }
            let ref = id()
            fileRefs[path] = ref
            let folder = (path as NSString).deletingLastPathComponent
            let file = (path as NSString).lastPathComponent
            add("PBXFileReference", "\t\t\(ref) /* \(file) */ = {isa = PBXFileReference; lastKnownFileType = text.xcconfig; path = \(Self.quote(file)); sourceTree = \"<group>\"; };")
            groupChildren[folder, default: []].append(ref)
            return ref
        }
        func configurationList(owner: String, names: [String], settings: (String) -> [String: String], xcconfig xcconfigOf: (String) -> String?) -> String {
            let list = id()
            var ids: [String] = []
            for name in names {
                let config = id()
                ids.append(config)
                let body = settings(name).sorted { $0.key < $1.key }
                    .map { "\t\t\t\t\(Self.quote($0.key)) = \(Self.quote($0.value));" }.joined(separator: "\n")
                var base = ""
                if let xcconfig = xcconfigOf(name) {
                    if let syncGroupID, let folder = synchronizedXcconfigFolder, xcconfig.hasPrefix(folder + "/") {
                        base = "\t\t\tbaseConfigurationReferenceAnchor = \(syncGroupID) /* \(folder) */;\n\t\t\tbaseConfigurationReferenceRelativePath = \(Self.quote(String(xcconfig.dropFirst(folder.count + 1))));\n"
                    } else {
                        base = "\t\t\tbaseConfigurationReference = \(reference(xcconfig)) /* \((xcconfig as NSString).lastPathComponent) */;\n"
                    }
                }
                add("XCBuildConfiguration", "\t\t\(config) /* \(name) */ = {\n\t\t\tisa = XCBuildConfiguration;\n\(base)\t\t\tbuildSettings = {\n\(body)\n\t\t\t};\n\t\t\tname = \(name);\n\t\t};")
            }
            add("XCConfigurationList", "\t\t\(list) /* Build configuration list for \(owner) */ = {\n\t\t\tisa = XCConfigurationList;\n\t\t\tbuildConfigurations = (\n\(ids.map { "\t\t\t\t\($0)," }.joined(separator: "\n"))\n\t\t\t);\n\t\t\tdefaultConfigurationIsVisible = 0;\n\t\t\tdefaultConfigurationName = Release;\n\t\t};")
            return list
        }

        var targetIDs: [String: String] = [:]
        var productIDs: [String: String] = [:]
        for target in targets {
            targetIDs[target.name] = id()
            productIDs[target.name] = id()
        }
        for target in targets {
            let product = productIDs[target.name]!
            let wrapper = target.productType.contains("application") ? "app" : target.productType.contains("framework") ? "framework" : target.productType.contains("test") ? "xctest" : "appex"
            add("PBXFileReference", "\t\t\(product) /* \(target.name).\(wrapper) */ = {isa = PBXFileReference; explicitFileType = wrapper.\(wrapper); includeInIndex = 0; path = \(Self.quote(target.name + "." + wrapper)); sourceTree = BUILT_PRODUCTS_DIR; };")
            groupChildren["#products", default: []].append(product)
            var phases: [String] = []
            for (offset, embed) in target.embeds.enumerated() {
                let phase = id(), file = id()
                phases.append(phase)
                let filter = (embed.platformFilter.map { " platformFilter = \($0);" } ?? "")
                    + (embed.platformFilters.map { " platformFilters = (\($0.map { $0 + ", " }.joined())); " } ?? "")
                let destination = embed.subfolder.map { "dstSubfolder = \($0);" } ?? "dstSubfolderSpec = \(embed.spec);"
                add("PBXBuildFile", "\t\t\(file) /* \(embed.target) in Embed \(offset) */ = {isa = PBXBuildFile; fileRef = \(productIDs[embed.target]!) /* \(embed.target) */;\(filter) settings = {ATTRIBUTES = (RemoveHeadersOnCopy, ); }; };")
                add("PBXCopyFilesBuildPhase", "\t\t\(phase) /* Embed \(offset) */ = {\n\t\t\tisa = PBXCopyFilesBuildPhase;\n\t\t\tbuildActionMask = 2147483647;\n\t\t\tdstPath = \(Self.quote(embed.dstPath));\n\t\t\t\(destination)\n\t\t\tfiles = (\n\t\t\t\t\(file) /* \(embed.target) in Embed \(offset) */,\n\t\t\t);\n\t\t\tname = \"Embed \(offset)\";\n\t\t\trunOnlyForDeploymentPostprocessing = 0;\n\t\t};")
            }
            // The files of a Resources or Sources phase, each a build file of a reference in its folder's group.
            for (isa, name, paths) in [("PBXResourcesBuildPhase", "Resources", target.resources), ("PBXSourcesBuildPhase", "Sources", target.sources)] where !paths.isEmpty {
                let phase = id()
                var files: [String] = []
                for path in paths {
                    let file = id()
                    files.append(file)
                    let attributes = target.noCodegen.contains(path) ? " settings = {ATTRIBUTES = (no_codegen, ); };" : ""
                    add("PBXBuildFile", "\t\t\(file) /* \(path) in \(name) */ = {isa = PBXBuildFile; fileRef = \(reference(path));\(attributes) };")
                }
                phases.append(phase)
                add(isa, "\t\t\(phase) /* \(name) */ = {\n\t\t\tisa = \(isa);\n\t\t\tfiles = (\n\(files.map { "\t\t\t\t\($0)," }.joined(separator: "\n"))\n\t\t\t);\n\t\t};")
            }
            var synchronizedIDs: [String] = []
            for (folder, excluded) in target.synchronized.sorted(by: { $0.key < $1.key }) {
                let group = id(), exceptions = id()
                synchronizedIDs.append(group)
                add("PBXFileSystemSynchronizedBuildFileExceptionSet", "\t\t\(exceptions) = {isa = PBXFileSystemSynchronizedBuildFileExceptionSet; membershipExceptions = (\(excluded.map { Self.quote($0) + ", " }.joined())); target = \(targetIDs[target.name]!) /* \(target.name) */; };")
                add("PBXFileSystemSynchronizedRootGroup", "\t\t\(group) /* \(folder) */ = {isa = PBXFileSystemSynchronizedRootGroup; exceptions = (\(exceptions), ); explicitFileTypes = {}; explicitFolders = (); path = \(Self.quote(folder)); sourceTree = \"<group>\"; };")
                groupChildren["", default: []].append(group)
            }
            var productDependencyIDs: [String] = []
            for product in target.packageProducts {
                let dependency = id()
                productDependencyIDs.append(dependency)
                add("XCSwiftPackageProductDependency", "\t\t\(dependency) /* \(product) */ = {isa = XCSwiftPackageProductDependency; productName = \(Self.quote(product)); };")
            }
            for (product, url) in target.remoteProducts {
                let dependency = id()
                productDependencyIDs.append(dependency)
                let package = remoteIDs[remotePackages.firstIndex { $0.url == url }!]
                add("XCSwiftPackageProductDependency", "\t\t\(dependency) /* \(product) */ = {isa = XCSwiftPackageProductDependency; package = \(package); productName = \(Self.quote(product)); };")
            }
            if !target.linkedProducts.isEmpty {
                let phase = id()
                var files: [String] = []
                for product in target.linkedProducts {
                    let dependency = id(), file = id()
                    files.append(file)
                    add("XCSwiftPackageProductDependency", "\t\t\(dependency) /* \(product) */ = {isa = XCSwiftPackageProductDependency; productName = \(Self.quote(product)); };")
                    add("PBXBuildFile", "\t\t\(file) /* \(product) in Frameworks */ = {isa = PBXBuildFile; productRef = \(dependency) /* \(product) */; };")
                }
                phases.append(phase)
                add("PBXFrameworksBuildPhase", "\t\t\(phase) /* Frameworks */ = {\n\t\t\tisa = PBXFrameworksBuildPhase;\n\t\t\tfiles = (\n\(files.map { "\t\t\t\t\($0)," }.joined(separator: "\n"))\n\t\t\t);\n\t\t};")
            }
            for (name, script) in target.scripts.sorted(by: { $0.key < $1.key }) {
                let phase = id()
                phases.append(phase)
                add("PBXShellScriptBuildPhase", "\t\t\(phase) /* \(name) */ = {\n\t\t\tisa = PBXShellScriptBuildPhase;\n\t\t\tbuildActionMask = 2147483647;\n\t\t\tfiles = (\n\t\t\t);\n\t\t\tname = \(Self.quote(name));\n\t\t\tshellPath = /bin/sh;\n\t\t\tshellScript = \(Self.quote(script));\n\t\t};")
            }
            var dependencyIDs: [String] = []
            for dependency in target.dependencies {
                let dependencyID = id()
                dependencyIDs.append(dependencyID)
                add("PBXTargetDependency", "\t\t\(dependencyID) /* PBXTargetDependency */ = {isa = PBXTargetDependency; target = \(targetIDs[dependency]!) /* \(dependency) */; };")
            }
            let list = configurationList(owner: "\(target.isa) \"\(target.name)\"", names: target.configurations ?? configurations, settings: { target.settings.merging(target.perConfiguration[$0] ?? [:]) { $1 } }, xcconfig: { target.xcconfigPerConfiguration[$0] ?? target.xcconfig })
            add(target.isa, "\t\t\(targetIDs[target.name]!) /* \(target.name) */ = {\n\t\t\tisa = \(target.isa);\n\t\t\tbuildConfigurationList = \(list) /* Build configuration list for \(target.isa) \"\(target.name)\" */;\n\t\t\tbuildPhases = (\n\(phases.map { "\t\t\t\t\($0) /* Embed */," }.joined(separator: "\n"))\n\t\t\t);\n\t\t\tdependencies = (\n\(dependencyIDs.map { "\t\t\t\t\($0)," }.joined(separator: "\n"))\n\t\t\t);\n\(synchronizedIDs.isEmpty ? "" : "\t\t\tfileSystemSynchronizedGroups = (\(synchronizedIDs.map { $0 + ", " }.joined()));\n")\(productDependencyIDs.isEmpty ? "" : "\t\t\tpackageProductDependencies = (\(productDependencyIDs.map { $0 + ", " }.joined()));\n")\t\t\tname = \(Self.quote(target.name));\n\t\t\tproductName = \(Self.quote(target.name));\n\t\t\tproductReference = \(product) /* \(target.name).\(wrapper) */;\n\t\t\tproductType = \"\(target.productType)\";\n\t\t};")
        }
        var packageReferenceIDs: [String] = []
        for (reference, package) in zip(remoteIDs, remotePackages) {
            packageReferenceIDs.append(reference)
            add("XCRemoteSwiftPackageReference", "\t\t\(reference) = {isa = XCRemoteSwiftPackageReference; repositoryURL = \(Self.quote(package.url)); requirement = {\(package.requirement)}; };")
        }
        for package in localPackages {
            let reference = id()
            packageReferenceIDs.append(reference)
            add("XCLocalSwiftPackageReference", "\t\t\(reference) /* XCLocalSwiftPackageReference \"\(package)\" */ = {isa = XCLocalSwiftPackageReference; relativePath = \(Self.quote(package)); };")
        }
        let packageReferenceList = packageReferenceIDs.isEmpty ? "" : "\t\t\tpackageReferences = (\(packageReferenceIDs.map { $0 + ", " }.joined()));\n"
        let projectList = configurationList(owner: "PBXProject \"Fixture\"", names: configurations, settings: { projectSettings.merging(projectPerConfiguration[$0] ?? [:]) { $1 } }, xcconfig: { _ in projectXcconfig })

        // Groups: one per folder of a referenced xcconfig, under the main group.
        var mainChildren = groupChildren[""] ?? []
        for (folder, children) in groupChildren.sorted(by: { $0.key < $1.key }) where !folder.isEmpty && folder != "#products" {
            let group = id()
            mainChildren.append(group)
            add("PBXGroup", "\t\t\(group) /* \(folder) */ = {\n\t\t\tisa = PBXGroup;\n\t\t\tchildren = (\n\(children.map { "\t\t\t\t\($0)," }.joined(separator: "\n"))\n\t\t\t);\n\t\t\tpath = \(Self.quote(folder));\n\t\t\tsourceTree = \"<group>\";\n\t\t};")
        }
        mainChildren.append(productsGroup)
        add("PBXGroup", "\t\t\(productsGroup) /* Products */ = {\n\t\t\tisa = PBXGroup;\n\t\t\tchildren = (\n\(groupChildren["#products", default: []].map { "\t\t\t\t\($0)," }.joined(separator: "\n"))\n\t\t\t);\n\t\t\tname = Products;\n\t\t\tsourceTree = \"<group>\";\n\t\t};")
        add("PBXGroup", "\t\t\(mainGroup) = {\n\t\t\tisa = PBXGroup;\n\t\t\tchildren = (\n\(mainChildren.map { "\t\t\t\t\($0)," }.joined(separator: "\n"))\n\t\t\t);\n\t\t\tsourceTree = \"<group>\";\n\t\t};")
        add("PBXProject", "\t\t\(projectID) /* Project object */ = {\n\t\t\tisa = PBXProject;\n\t\t\tattributes = {\n\t\t\t\tBuildIndependentTargetsInParallel = 1;\n\t\t\t\tLastUpgradeCheck = 1540;\n\t\t\t};\n\t\t\tbuildConfigurationList = \(projectList) /* Build configuration list for PBXProject \"Fixture\" */;\n\t\t\tcompatibilityVersion = \"Xcode 14.0\";\n\t\t\tdevelopmentRegion = en;\n\t\t\tmainGroup = \(mainGroup);\n\(packageReferenceList)\t\t\tproductRefGroup = \(productsGroup) /* Products */;\n\t\t\tprojectDirPath = \"\";\n\t\t\tprojectRoot = \"\";\n\t\t\ttargets = (\n\(targets.map { "\t\t\t\t\(targetIDs[$0.name]!) /* \($0.name) */," }.joined(separator: "\n"))\n\t\t\t);\n\t\t};")

        var text = "// !$*UTF8*$!\n{\n\tarchiveVersion = 1;\n\tclasses = {\n\t};\n\tobjectVersion = \(objectVersion);\n\tobjects = {\n"
        for isa in sections.keys.sorted() {
            text += "\n/* Begin \(isa) section */\n" + sections[isa]!.joined(separator: "\n") + "\n/* End \(isa) section */\n"
        }
        text += "\t};\n\trootObject = \(projectID) /* Project object */;\n}\n"
        return text
    }

    /// This project as `name.xcodeproj` in a checkout of `files`, read once at `configuration`.
    func load(with files: [String: String], name: String = "App", configuration: String? = "Release") throws -> XcodeProjectInput.Result {
        try FixtureTree.loadProject(files.merging(["\(name).xcodeproj/project.pbxproj": pbxproj()]) { $1 }, "\(name).xcodeproj",
                                    configuration: configuration)
    }

    /// Xcode's quoting: bare when only `[A-Za-z0-9_$/:.-]`, else in double quotes with `\"` and `\\`.
    static func quote(_ value: String) -> String {
        if !value.isEmpty, value.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "_$/:.-".contains($0)) }) { return value }
        return "\"" + value.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
    }
}

/// A folder of files written for one test, removed by `cleanUp`.
struct FixtureTree {
    let root: URL
    var path: String { root.path }

    init(_ files: [String: String]) throws {
        root = TestSupport.temporaryDirectory("xcode")
        try write(files)
    }

    func write(_ files: [String: String]) throws {
        for (relative, text) in files {
            let url = root.appendingPathComponent(relative)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try text.write(to: url, atomically: true, encoding: .utf8)
        }
    }

    func read(_ relative: String) throws -> String {
        try String(contentsOf: root.appendingPathComponent(relative), encoding: .utf8)
    }

    func cleanUp() { TestSupport.cleanUp(root) }

    /// `files` written to a fresh checkout, its project `project` read at `configuration`, and the checkout removed:
    /// for a test that reads a project once.
    static func loadProject(_ files: [String: String], _ project: String = "App.xcodeproj", configuration: String? = "Release") throws -> XcodeProjectInput.Result {
        let tree = try FixtureTree(files)
        defer { tree.cleanUp() }
        return try XcodeProjectInput.load(tree.path + "/" + project, configuration: configuration)
    }

    /// An XML Info.plist with `entries` (string values, or a nested dictionary of strings for NSExtension).
    static func plist(_ entries: [String: Any]) -> String {
        func render(_ value: Any, indent: String) -> String {
            if let dictionary = value as? [String: Any] {
                return "\(indent)<dict>\n" + dictionary.sorted { $0.key < $1.key }.map {
                    "\(indent)\t<key>\($0.key)</key>\n" + render($0.value, indent: indent + "\t")
                }.joined() + "\(indent)</dict>\n"
            }
            if let array = value as? [String] {
                return "\(indent)<array>\n" + array.map { "\(indent)\t<string>\($0)</string>\n" }.joined() + "\(indent)</array>\n"
            }
            return "\(indent)<string>\(value)</string>\n"
        }
        return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<!DOCTYPE plist PUBLIC \"-//Apple//DTD PLIST 1.0//EN\" \"http://www.apple.com/DTDs/PropertyList-1.0.dtd\">\n<plist version=\"1.0\">\n" + render(entries, indent: "") + "</plist>\n"
    }
}
