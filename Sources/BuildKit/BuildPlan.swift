import AppGroupKit
import BundleKit
import CheckKit
import Foundation
import XcodeGenKit
import XcodeKit

/// What `lockstep build` makes of a project: one Swift module per target it runs and per module those need, each for
/// the platform of the bundle that uses it, and the bundles as `check` reads them (<doc:RunningYourProject>).
public struct BuildPlan: Sendable {
    /// One Swift module of a generated package.
    public struct Module: Sendable, Equatable {
        /// The Swift module name (`PRODUCT_MODULE_NAME`, or the package target's name).
        public var name: String
        /// Where it comes from, for the report: `target 'Widgets'`, `package FoodTruckKit`.
        public var origin: String
        public var platform: Platform
        /// The Swift files, absolute: the team's, or its stand-in's.
        public var files: [String]
        /// The `.lockstep.json` stand-in folders that replaced the module's own files, or some of them.
        public var standIns: [String]
        /// The modules it imports, by name (each planned for the same platform).
        public var dependencies: [String]
        /// `SWIFT_ACTIVE_COMPILATION_CONDITIONS`, or a package target's `.define`s.
        public var defines: [String]
        /// The Swift language mode: `SWIFT_VERSION`'s major version (`5`, `6`, `4.2`).
        public var languageMode: String
        /// A generated `main.swift` for an extension whose principal class iOS makes from its Info.plist.
        public var entry: String?
        /// The bundle an executable module runs as; nil for a library.
        public var bundle: BundleRecord?
        /// Its target's resources (asset catalogs, string catalogs …), absolute.
        public var resources: [String]
        /// Why it cannot be built at all, before the compiler is asked (a remote package with no stand-in, no entry point).
        public var blocker: String?
        /// The package products it links that neither a local package nor a package fetched by URL provides.
        public var missingProducts: [String] = []
        /// The products it links of packages fetched by URL (`RemotePackage`), which SwiftPM builds.
        public var packageProducts: [PackageProduct] = []
        /// Which of Xcode's generated asset symbols the module gets from its catalogs (`AssetSymbols`).
        var assetSymbols = AssetSymbols.Generation.resources
        /// The intent classes Xcode generates from its target's `.intentdefinition` files (`IntentClasses`), read
        /// when the plan is made, so that a file that cannot be read stops the build before anything is written.
        var intentClasses: String?

        public var isExecutable: Bool { bundle != nil }
    }

    /// A product of a package fetched by URL, as `.product(name:package:)` names it.
    public struct PackageProduct: Sendable, Equatable {
        public var name: String
        /// The package's identity (`RemotePackage.identity`).
        public var package: String
    }

    /// The project, as given.
    public var project: String
    public var configuration: String
    /// The containing app and every bundle it embeds, as `check` resolves them.
    public var bundleSet: AppBundleSet
    /// The modules by platform, each platform's package in dependency order (a module after those it imports).
    public var modules: [Module]
    /// Where the generated packages, the manifest and the build logs go.
    public var buildFolder: String
    /// Bundles `lockstep build` does not build, each with why (a share extension's UIKit view controller…).
    public var notBuilt: [(bundle: BundleRecord, reason: String)]
    /// The packages fetched by URL that the project and its local packages depend on, pinned as Xcode resolved them.
    public var remotePackages: [RemotePackage] = []

    public var platforms: [Platform] { Platform.allCases.filter { platform in modules.contains { $0.platform == platform } } }
}

extension BuildPlan {
    public struct Options: Sendable {
        public var project: String
        /// `--target`: only these targets (and the app, which every bundle needs).
        public var targets: [String]
        public var configuration: String?
        public var buildFolder: String?
        public var standIns: [String: String]
        /// `--unpinned`: each package fetched by URL at the requirement the project declares, not at the version
        /// its Package.resolved pins.
        public var unpinned: Bool

        public init(project: String, targets: [String] = [], configuration: String? = nil, buildFolder: String? = nil, standIns: [String: String] = [:],
                    unpinned: Bool = false) {
            self.project = project
            self.targets = targets
            self.configuration = configuration
            self.buildFolder = buildFolder
            self.standIns = standIns
            self.unpinned = unpinned
        }
    }

    /// Reads the project as `check` does and plans its modules.
    /// - Throws: `BundleError` for a project that cannot be read; `BuildError` for a target, file or stand-in that is
    ///   not there. Nothing is written.
    public static func make(_ options: Options) throws -> BuildPlan {
        let project: XcodeProject
        if let path = XcodeProjectInput.projectPath(for: options.project) {
            project = try XcodeProject(path: path)
        } else if let spec = XcodeGenSpec.specPath(for: options.project) {
            project = try XcodeGenSpec.load(spec).project
        } else {
            throw BundleError(.unreadable, path: options.project,
                              detail: "it is neither an .xcodeproj, a folder holding one, nor an XcodeGen spec (project.yml)")
        }
        let names = project.configurations.map(\.name)
        let configuration = options.configuration ?? (names.contains("Debug") ? "Debug" : names.first)
        // Each app's own build: another platform's build of a multiplatform app (`App.xcodeproj (tvOS) [Debug]`) is
        // checked by `check`, but its bundles run on no phone or watch.
        let sets = try XcodeProjectInput.sets(of: project, configuration: configuration).sets.filter { set in
            !Platform.allCases.contains { set.origin.contains("(\($0.rawValue)) [") }
        }
        guard let set = sets.first(where: { set in options.targets.allSatisfy { name in set.all.contains { $0.name == name } } }) ?? sets.first else {
            throw BuildError(.noRunnableTarget, subject: project.name, detail: "it has no application target, and an extension runs only inside an app")
        }
        for name in options.targets where !set.all.contains(where: { $0.name == name }) {
            let known = set.all.map(\.name).joined(separator: ", ")
            throw BuildError(.unknownTarget, subject: name, detail: "among the bundles of \(set.app.name) (\(known))")
        }
        var planner = Planner(project: project, configuration: set.configuration ?? configuration ?? "", standIns: options.standIns)
        try planner.readInputs(unpinned: options.unpinned)
        var notBuilt: [(BundleRecord, String)] = []
        for record in set.all where options.targets.isEmpty || options.targets.contains(record.name) || record.role == .host {
            if let reason = try planner.addBundle(record) { notBuilt.append((record, reason)) }
        }
        // Every bundle runs inside the app's process tree and container: without the app nothing can run.
        if let (app, reason) = notBuilt.first(where: { $0.0.role == .host }) {
            throw BuildError(.noRunnableTarget, subject: project.name, detail: "its app \(app.name) is not built: \(reason)")
        }
        try planner.addFrameworkStandIns()
        planner.propagateBlockers()
        let folder = options.buildFolder ?? PathText.join(PathText.absolute(project.sourceRoot), ".build/lockstep")
        return BuildPlan(project: options.project, configuration: set.configuration ?? configuration ?? "", bundleSet: set,
                         modules: planner.modules, buildFolder: PathText.absolute(folder), notBuilt: notBuilt, remotePackages: planner.remote)
    }
}

/// Plans modules target by target, each once per platform.
struct Planner {
    let project: XcodeProject
    let configuration: String
    let standIns: [String: String]
    let resolver: TargetResolver
    let byName: [String: XcodeProject.Target]
    let byID: [String: XcodeProject.Target]
    var inputs: [String: TargetBuildInputs] = [:]
    var packages: [LocalPackage] = []
    var remote: [RemotePackage] = []
    var modules: [BuildPlan.Module] = []

    init(project: XcodeProject, configuration: String, standIns: [String: String]) {
        self.project = project
        self.configuration = configuration
        self.standIns = standIns
        resolver = TargetResolver(project: project)
        byName = Dictionary(project.targets.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        byID = Dictionary(project.targets.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
    }

    mutating func readInputs(unpinned: Bool) throws {
        inputs = try project.buildInputs()
        packages = try project.localPackages().map(LocalPackage.load)
        // Xcode resolves the project's packages and its local packages' together, into one Package.resolved.
        let pins = try PackageResolved.path(for: project).map(PackageResolved.pins) ?? [:]
        remote = RemotePackage.merge(try project.remotePackages() + packages.flatMap(\.remotePackages), pins: pins, unpinned: unpinned)
    }

    /// A stand-in named for no module of the team's is one for an Apple framework Lockstep does not provide
    /// (`"CoreLocation": "linux/CoreLocation"`): a module of that name in every platform's package, which every other
    /// module depends on, so the team's `import CoreLocation` finds it.
    mutating func addFrameworkStandIns() throws {
        let taken = Set(modules.map(\.name)).union(packages.flatMap { Array($0.products.keys) + $0.targets.map(\.name) })
            .union(project.targets.map(\.name))
        let platforms = Platform.allCases.filter { platform in modules.contains { $0.platform == platform } }
        for (name, folder) in standIns.sorted(by: { $0.key < $1.key }) where !name.contains("/") && !taken.contains(name) {
            let files = try Self.standInFiles(folder, module: name)
            for platform in platforms {
                for index in modules.indices where modules[index].platform == platform { modules[index].dependencies.append(name) }
                modules.insert(.init(name: name, origin: "stand-in for the framework \(name)", platform: platform, files: files, standIns: [folder],
                                     dependencies: [], defines: [], languageMode: "5", entry: nil, bundle: nil, resources: [], blocker: nil), at: 0)
            }
        }
    }

    /// What stops a module it imports stops a bundle too, before the compiler is asked: the bundle's blocker names
    /// the module and why.
    mutating func propagateBlockers() {
        for index in modules.indices where modules[index].isExecutable {
            let imported = ProjectBuild.closure(of: modules[index], in: modules.filter { $0.platform == modules[index].platform })
            // Every product the bundle needs from a package fetched by URL, named at once, ready to paste.
            let missing = ProjectBuild.unique(imported.flatMap(\.missingProducts))
            if !missing.isEmpty {
                modules[index].blocker = Self.missingSentence(missing)
            } else if modules[index].blocker == nil, let blocked = imported.dropFirst().first(where: { $0.blocker != nil }) {
                modules[index].blocker = "its module \(blocked.name) (\(blocked.origin)): \(blocked.blocker!)"
            }
        }
    }

    /// The products a module needs that no package of the project provides, as one sentence with the config to paste.
    static func missingSentence(_ products: [String]) -> String? {
        guard !products.isEmpty else { return nil }
        let names = products.map { "'\($0)'" }.joined(separator: ", ")
        let config = products.map { "\"\($0)\": \"FOLDER\"" }.joined(separator: ", ")
        return "it needs the package product\(products.count == 1 ? "" : "s") \(names), which no package of the project provides (neither a local one nor one fetched from a URL); give \(products.count == 1 ? "a stand-in" : "stand-ins") in .lockstep.json: \"standIns\": {\(config)}"
    }

    /// Plans the bundle's executable and what it imports.
    /// - Returns: why the bundle is not built, or nil when it is planned.
    mutating func addBundle(_ record: BundleRecord) throws -> String? {
        guard let target = byName[record.name] else { return "no target of the project builds it" }
        var bundle = record
        // A widget extension inside a watch app is a complication (rule `widget.families`: accessory families).
        if bundle.role == .widget && bundle.platform == .watchOS { bundle.role = .complication }
        // An App Clip is an app of its own, in the app's AppClips folder (rule `clip.*`).
        if bundle.embedLocation == .appClips { bundle.role = .clip }
        let resolved = resolver.resolve(target, configuration: name(of: target))
        // A bundle id the device refuses (rule `bundle-id.charset`, which `check` reports) would name no container.
        if let identifier = bundle.bundleIdentifier, (try? Sandbox.validateBundleIdentifier(ProjectBuild.unsetAsEmpty(identifier))) == nil {
            // A setting the checkout does not define (an xcconfig each developer copies from a template) is empty
            // when Xcode builds; `check` only warns of it (rule `settings.unresolved`), so say where it comes from.
            if let unset = resolved.unknowns.keys.sorted().first(where: { identifier.contains("$(\($0))") || identifier.contains("${\($0)}") }) {
                let hint = resolved.unknowns[unset] ?? ""
                return "its bundle identifier '\(identifier)' uses \(unset), which the checkout does not define, and '\(ProjectBuild.unsetAsEmpty(identifier))' is not one a device installs. \(hint.hasSuffix(".") ? String(hint.dropLast()) : hint)"
            }
            return "its bundle identifier '\(identifier)' is not one a device installs (lockstep check reports it)"
        }
        var module = try module(for: target, resolved: resolved, platform: record.platform)
        module.bundle = bundle
        if module.blocker == nil && !module.files.contains(where: Self.declaresMain) && !module.files.contains(where: { $0.hasSuffix("/main.swift") }) {
            if let principal = Self.principalClass(resolved.plistPath), bundle.role == .notification {
                module.entry = "import UserNotifications\n\nNotificationServiceExtension.main(service: \(principal)())\n"
            } else if bundle.role == .host || bundle.role == .watch || bundle.role == .clip {
                module.blocker = "it has no @main SwiftUI App Lockstep can start (a UIKit app delegate or a storyboard starts it on a device)"
            } else {
                let kind = bundle.role == .extension ? "an extension" : bundle.role == .intent ? "an intents extension" : "a \(bundle.role.rawValue) extension"
                module.blocker = "it has no @main entry point, and \(record.platform.rawValue) starts \(kind) from a principal class Lockstep cannot make"
            }
        }
        modules.append(module)
        return nil
    }

    /// The module of a library target or an executable's own, with every module it imports planned before it.
    mutating func module(for target: XcodeProject.Target, resolved: ResolvedTarget, platform: Platform) throws -> BuildPlan.Module {
        let moduleName = Self.moduleName(resolved.settings.value("PRODUCT_MODULE_NAME").value, fallback: resolved.productName.isEmpty ? target.name : resolved.productName)
        let own = inputs[target.id] ?? TargetBuildInputs()
        let (files, replaced) = try applyingStandIns(own.swiftFiles, module: moduleName, alias: target.name, root: project.absoluteSourceRoot)
        // A missing file that is no Swift file (an Objective-C file of an uninitialized submodule, a resource) is
        // nothing Lockstep compiles.
        if replaced.isEmpty, let file = own.missing.first(where: { $0.hasSuffix(".swift") || !$0.contains(".") }) {
            throw BuildError(.missingSource, subject: target.name, detail: "builds '\(file)', which does not exist")
        }
        var dependencies: [String] = []
        var missing: [String] = []
        var packageProducts: [BuildPlan.PackageProduct] = []
        for id in target.dependencies {
            guard let library = byID[id], !library.kind.isApplication, library.kind.wrapperExtension != "appex" else { continue }
            let libraryResolved = resolver.resolve(library, configuration: name(of: library))
            let planned = try plannedLibrary(library, resolved: libraryResolved, platform: platform)
            dependencies.append(planned)
        }
        for product in own.packageProducts {
            if let planned = try planProduct(product, platform: platform) {
                dependencies += planned.modules
                packageProducts += planned.remote.map { [$0] } ?? []
            } else if !missing.contains(product) {
                missing.append(product)
            }
        }
        let settings = resolved.settings
        var module = BuildPlan.Module(
            name: moduleName, origin: "target '\(target.name)'", platform: platform, files: files, standIns: replaced,
            dependencies: dependencies,
            defines: Self.defines(settings.value("SWIFT_ACTIVE_COMPILATION_CONDITIONS").value, otherFlags: settings.value("OTHER_SWIFT_FLAGS").value),
            languageMode: Self.languageMode(settings.value("SWIFT_VERSION").value), entry: nil, bundle: nil,
            resources: own.resources, blocker: Self.missingSentence(missing), missingProducts: missing, packageProducts: packageProducts)
        module.assetSymbols = AssetSymbols.Generation(symbols: settings.value("ASSETCATALOG_COMPILER_GENERATE_ASSET_SYMBOLS").value,
                                                      extensions: settings.value("ASSETCATALOG_COMPILER_GENERATE_SWIFT_ASSET_SYMBOL_EXTENSIONS").value)
        // A stand-in for the whole module brings its own classes; Xcode's Objective-C classes are no Swift to compile.
        if standIns[moduleName] == nil && standIns[target.name] == nil && settings.value("INTENTS_CODEGEN_LANGUAGE").value != "Objective-C" {
            module.intentClasses = try IntentClasses.source(own.intentDefinitions)
        }
        return module
    }

    /// Plans a framework or library target once per platform. - Returns: its module name.
    private mutating func plannedLibrary(_ target: XcodeProject.Target, resolved: ResolvedTarget, platform: Platform) throws -> String {
        let moduleName = Self.moduleName(resolved.settings.value("PRODUCT_MODULE_NAME").value, fallback: resolved.productName.isEmpty ? target.name : resolved.productName)
        if modules.contains(where: { $0.name == moduleName && $0.platform == platform }) { return moduleName }
        let module = try module(for: target, resolved: resolved, platform: platform)
        modules.append(module)
        return module.name
    }

    /// Plans the targets of a local package's product, a stand-in for a product, or finds the package fetched by URL
    /// that provides it (`package`, its identity, when the manifest names it).
    /// - Returns: the module names and the product SwiftPM builds, or nil when nothing provides the product.
    private mutating func planProduct(_ product: String, package identity: String? = nil, platform: Platform) throws -> (modules: [String], remote: BuildPlan.PackageProduct?)? {
        if let folder = standIns[product] {
            if !modules.contains(where: { $0.name == product && $0.platform == platform }) {
                modules.append(.init(name: product, origin: "stand-in \(folder)", platform: platform, files: try Self.standInFiles(folder, module: product),
                                     standIns: [folder], dependencies: [], defines: [], languageMode: "5", entry: nil, bundle: nil, resources: [], blocker: nil))
            }
            return ([product], nil)
        }
        guard let package = packages.first(where: { $0.products[product] != nil }) else {
            // A manifest's by-name dependency (`dependencies: ["SwiftSoup"]`) is a product of the package of that name.
            let fetched = remote.first { package in identity.map { package.identity == $0 } ?? package.products.contains(product) }
                ?? remote.first { identity == nil && $0.identity == product.lowercased() }
            return fetched.map { ([], BuildPlan.PackageProduct(name: product, package: $0.identity)) }
        }
        var names: [String] = []
        for target in package.products[product] ?? [] { names.append(try planPackageTarget(target, in: package, platform: platform)) }
        return (names, nil)
    }

    private mutating func planPackageTarget(_ name: String, in package: LocalPackage, platform: Platform) throws -> String {
        if modules.contains(where: { $0.name == name && $0.platform == platform }) { return name }
        guard let target = package.targets.first(where: { $0.name == name }) else { return name }
        var dependencies: [String] = []
        var missing: [String] = []
        var packageProducts: [BuildPlan.PackageProduct] = []
        for dependency in target.dependencies {
            if package.targets.contains(where: { $0.name == dependency }) {
                dependencies.append(try planPackageTarget(dependency, in: package, platform: platform))
            } else if let planned = try planProduct(dependency, package: target.productPackages[dependency], platform: platform) {
                dependencies += planned.modules
                packageProducts += planned.remote.map { [$0] } ?? []
            } else if !missing.contains(dependency) {
                missing.append(dependency)
            }
        }
        let (files, replaced) = try applyingStandIns(target.swiftFiles, module: name, alias: nil, root: target.folder)
        modules.append(.init(name: name, origin: "package \(package.name)", platform: platform, files: files, standIns: replaced,
                             dependencies: dependencies, defines: target.defines, languageMode: package.languageMode,
                             entry: nil, bundle: nil, resources: target.resources, blocker: Self.missingSentence(missing),
                             missingProducts: missing, packageProducts: packageProducts))
        return name
    }

    /// The configuration a target is built with: the asked one, or its default when it lacks it (as Xcode does).
    private func name(of target: XcodeProject.Target) -> String {
        target.configurations.contains { $0.name == configuration } ? configuration
            : (target.defaultConfiguration ?? target.configurations.first?.name ?? configuration)
    }

    // MARK: settings as Swift sees them

    /// Xcode's module name: `PRODUCT_MODULE_NAME`, or the product name with every character that cannot start or
    /// continue an identifier made `_`.
    static func moduleName(_ setting: String, fallback: String) -> String {
        let written = setting.isEmpty || setting.contains("$(") ? fallback : setting
        var name = String(written.map { $0.isLetter || $0.isNumber || $0 == "_" ? $0 : "_" })
        if let first = name.first, first.isNumber { name = "_" + name }
        return name.isEmpty ? "Module" : name
    }

    /// `SWIFT_ACTIVE_COMPILATION_CONDITIONS`, and the `-D NAME` / `-DNAME` of `OTHER_SWIFT_FLAGS` (how older projects
    /// define theirs); nothing else of `OTHER_SWIFT_FLAGS` is passed on.
    static func defines(_ conditions: String, otherFlags: String = "") -> [String] {
        var names = conditions.split(separator: " ").map(String.init)
        let flags = otherFlags.split(separator: " ").map(String.init)
        for (index, flag) in flags.enumerated() where flag.hasPrefix("-D") {
            if flag == "-D" { if index + 1 < flags.count { names.append(flags[index + 1]) } } else { names.append(String(flag.dropFirst(2))) }
        }
        var result: [String] = []
        for name in names where name != "$(inherited)" && !name.contains("$(") && !name.isEmpty && !result.contains(name) {
            result.append(name)
        }
        return result
    }

    /// `SWIFT_VERSION` as a language mode SwiftPM takes; Xcode's default, 5, when unset.
    static func languageMode(_ setting: String) -> String {
        if setting.hasPrefix("6") { return "6" }
        if setting.hasPrefix("4.2") { return "4.2" }
        if setting.hasPrefix("4") { return "4" }
        return "5"
    }

    /// Whether the file declares the program's entry point (`@main` at the start of a line).
    static func declaresMain(_ path: String) -> Bool {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return false }
        return text.split(separator: "\n").contains { line in
            let trimmed = line.drop { $0 == " " || $0 == "\t" }
            return trimmed.hasPrefix("@main") && (trimmed.count == 5 || !(trimmed.dropFirst(5).first!.isLetter))
        }
    }

    /// `NSExtension.NSExtensionPrincipalClass` without its module prefix (`$(PRODUCT_MODULE_NAME).NotificationService`).
    static func principalClass(_ plist: String?) -> String? {
        guard let plist, let contents = try? PropertyListFile.dictionary(at: plist),
              let principal = (contents["NSExtension"] as? [String: Any])?["NSExtensionPrincipalClass"] as? String else { return nil }
        let name = principal.split(separator: ".").last.map(String.init) ?? principal
        return name.allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" } && !name.isEmpty ? name : nil
    }

    /// A module's files after `.lockstep.json`'s stand-ins: `"Module"` (or its target's name, `alias`) replaces them
    /// all; `"Module/Sub/Folder"` replaces only those below `Sub/Folder` of `root` (the project's folder for a
    /// target, the target's folder for a package target), and `"Module/Sub/File.swift"` that one file, with the
    /// stand-in's files.
    /// - Returns: the files, and the stand-in folders used.
    func applyingStandIns(_ files: [String], module: String, alias: String?, root: String) throws -> (files: [String], standIns: [String]) {
        if let folder = standIns[module] ?? alias.flatMap({ standIns[$0] }) {
            return (try Self.standInFiles(folder, module: module), [folder])
        }
        var result = files
        var used: [String] = []
        for (key, folder) in standIns.sorted(by: { $0.key < $1.key }) {
            guard let prefix = [module, alias].compactMap({ $0 }).first(where: { key.hasPrefix($0 + "/") }) else { continue }
            // A folder's files, or one file: a team changes the one file that cannot build and keeps its folder.
            let path = PathText.join(root, String(key.dropFirst(prefix.count + 1)))
            let isReplaced = { (file: String) in file == path || file.hasPrefix(path + "/") }
            guard result.contains(where: isReplaced) else {
                throw BuildError(.missingStandIn, subject: key, detail: "names '\(path)', which neither is nor holds one of the module's Swift files")
            }
            result.removeAll(where: isReplaced)
            result += try Self.standInFiles(folder, module: key)
            used.append(folder)
        }
        return (result, used)
    }

    /// The Swift files of a stand-in folder.
    static func standInFiles(_ folder: String, module: String) throws -> [String] {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw BuildError(.missingStandIn, subject: module, detail: "is '\(folder)', which is not a folder (it is named in .lockstep.json's \"standIns\")")
        }
        var inputs = TargetBuildInputs()
        inputs.add(folder: folder)
        guard !inputs.swiftFiles.isEmpty else {
            throw BuildError(.missingStandIn, subject: module, detail: "is '\(folder)', which holds no Swift file")
        }
        return inputs.swiftFiles
    }
}
