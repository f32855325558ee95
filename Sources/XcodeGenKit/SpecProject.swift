import BundleKit
import Foundation
import XcodeKit

/// The project XcodeGen generates from a spec, as an `XcodeProject` for the same resolver and rules as a real
/// `.xcodeproj`, plus what only a spec can get wrong (<doc:ReadingProjects> "XcodeGen specs").
package struct SpecProject {
    package var project: XcodeProject
    /// What only a spec gets wrong (rules `spec.*`), which `check` reports beside the rules' findings.
    package var issues: [SpecIssue]

    /// Builds the generated project from the spec's merged root mapping.
    /// - Throws: `BundleError.invalidSpec` for what `xcodegen generate` refuses (no `name`, an unknown target
    ///   type or platform, a dependency on a target that does not exist).
    init(path: String, root: YAMLNode) throws(BundleError) {
        var reader = SpecReader(path: path, root: root)
        try reader.read()
        project = reader.project()
        issues = reader.issues
    }
}

/// Something XcodeGen turns into other than what the spec seems to say, where it is written and why: `check`
/// reports each as a finding of its rule (`spec.version-number`, `spec.watch-not-embedded`, `spec.embed-false`).
package struct SpecIssue: Sendable {
    package enum Kind: Sendable {
        /// A version YAML reads as a number (rule `spec.version-number`).
        case versionNumber
        /// A watch app with `supportedDestinations` copied as a resource (rule `spec.watch-not-embedded`).
        case watchNotEmbedded
        /// An embeddable dependency with `embed: false` (rule `spec.embed-false`).
        case embedFalse
    }

    package var kind: Kind
    /// The target concerned (the project's name for a project-level setting).
    package var bundle: String
    package var mark: YAMLMark
    package var message: String
}

/// A target of the spec, after templates and multi-platform expansion.
struct SpecTarget {
    var name: String
    var node: YAMLNode
    /// `com.apple.product-type.…`.
    var productType: String
    var platform: String
    /// By priority (iOS, tvOS, watchOS, visionOS, macOS, macCatalyst), as XcodeGen sorts them.
    var supportedDestinations: [String]
    var deploymentTarget: String?
    var dependencies: [Dependency]
    var info: (path: String, properties: YAMLNode?, mark: YAMLMark)?
    var entitlements: (path: String, properties: YAMLNode?, mark: YAMLMark)?
    var configFiles: [String: String]
    var sources: [String]

    struct Dependency {
        var target: String
        var embed: Bool?
        var copy: (destination: String, subpath: String)?
        var platformFilter: String?
        var mark: YAMLMark
    }

    var kind: ProductKind { ProductKind(productType) }
    var shortType: String { ASCII.replacing("com.apple.product-type.", with: "", in: productType) }
    var isExtension: Bool { shortType.contains("extension") && !shortType.contains("system-extension") && shortType != "driver-extension" }
    var isApp: Bool { kind.isApplication }
    /// XcodeGen's `defaultLinkage`: what a dependent app does not embed.
    var isStatic: Bool { shortType == "library.static" || shortType == "framework.static" }
}

struct SpecReader {
    let path: String
    let root: YAMLNode
    var name = ""
    /// Configurations, sorted by name, with their type (debug/release) when given.
    var configs: [(name: String, type: String?)] = [("Debug", "debug"), ("Release", "release")]
    var bundleIdPrefix: String?
    var projectDeploymentTargets: [(setting: String, version: String)] = []
    var applyProjectPresets = true
    var applyTargetPresets = true
    var settingGroups: [String: YAMLNode] = [:]
    var projectConfigFiles: [String: String] = [:]
    var targets: [SpecTarget] = []
    var issues: [SpecIssue] = []
    let xcconfigs: XcconfigReader
    let groupCache = GroupCache()

    final class GroupCache {
        var settings: [String: [Setting]] = [:]
    }

    init(path: String, root: YAMLNode) {
        self.path = path
        self.root = root
        xcconfigs = XcconfigReader(sourceRoot: PathText.parent(of: path))
    }

    var folder: String { PathText.parent(of: path) }

    func invalid(_ node: YAMLNode?, _ message: String) -> BundleError {
        guard let node else { return BundleError(.invalidSpec, path: path, detail: message) }
        return BundleError(.invalidSpec, path: node.mark.file, detail: "line \(node.mark.line), column \(node.mark.column): \(message)")
    }

    mutating func read() throws(BundleError) {
        guard let name = root["name"]?.string, !name.isEmpty else {
            throw invalid(nil, "it has no 'name', which XcodeGen requires (the .xcodeproj's name)")
        }
        self.name = name
        if let configs = root["configs"]?.pairs, !configs.isEmpty {
            self.configs = configs.map { ($0.key, $0.value.string?.lowercased()) }.sorted { $0.name < $1.name }
        }
        if let options = root["options"] {
            bundleIdPrefix = options["bundleIdPrefix"]?.string
            for (platform, value) in options["deploymentTarget"]?.pairs ?? [] {
                guard let setting = Self.deploymentTargetSetting(platform), !setting.isEmpty else { continue }
                projectDeploymentTargets.append((setting, try version(value)))
            }
            switch options["settingPresets"]?.string {
            case "none": (applyProjectPresets, applyTargetPresets) = (false, false)
            case "project": (applyProjectPresets, applyTargetPresets) = (true, false)
            case "targets": (applyProjectPresets, applyTargetPresets) = (false, true)
            default: break
            }
        }
        for (key, value) in (root["settingGroups"] ?? root["settingPresets"])?.pairs ?? [] { settingGroups[key] = value }
        projectConfigFiles = Self.stringMap(root["configFiles"])

        var targetNodes = Self.resolveMultiplatform(root["targets"]?.pairs ?? [])
        targetNodes = Self.resolveTemplates(targetNodes, templates: root["targetTemplates"]?.pairs ?? [])
        targetNodes = Self.resolveMultiplatform(targetNodes)
        var names = Set<String>()
        for (key, node) in targetNodes.sorted(by: { $0.key < $1.key }) {
            names.insert(node["name"]?.string ?? key)
            // A legacy target (`legacy:`, type "") runs a tool and builds no bundle, like an aggregate target.
            if node["legacy"] != nil || node["type"]?.string == "" { continue }
            targets.append(try target(key, node))
        }
        for (key, _) in root["aggregateTargets"]?.pairs ?? [] { names.insert(key) }
        for target in targets {
            for dependency in target.dependencies where !names.contains(dependency.target) && !dependency.target.contains("/") {
                throw BundleError(.invalidSpec, path: dependency.mark.file, detail: "line \(dependency.mark.line), column \(dependency.mark.column): target '\(target.name)' depends on target '\(dependency.target)', which the spec does not define")
            }
        }
        specIssues()
    }

    // MARK: targets

    static let productTypes: Set<String> = [
        "application", "application.watchapp", "application.watchapp2", "application.watchapp2-container",
        "application.messages", "application.on-demand-install-capable", "app-extension", "app-extension.messages",
        "app-extension.messages-sticker-pack", "app-extension.intents-service", "extensionkit-extension",
        "watchkit-extension", "watchkit2-extension", "tv-app-extension", "framework", "framework.static",
        "xcframework", "library.dynamic", "library.static", "bundle", "bundle.unit-test", "bundle.ui-testing",
        "bundle.ocunit-test", "tool", "xpc-service", "instruments-package", "xcode-extension", "driver-extension",
        "system-extension", "metal-library",
    ]

    static let platforms = ["iOS", "tvOS", "macOS", "watchOS", "visionOS", "auto"]
    static let destinationPriority = ["iOS", "tvOS", "watchOS", "visionOS", "macOS", "macCatalyst"]

    func target(_ key: String, _ node: YAMLNode) throws(BundleError) -> SpecTarget {
        guard node.pairs != nil else { throw invalid(node, "target '\(key)' is not a mapping of its keys (type, platform, …)") }
        let name = node["name"]?.string ?? key
        let typeText = node["type"]?.string ?? ""
        let short = ASCII.replacing("com.apple.product-type.", with: "", in: typeText)
        guard Self.productTypes.contains(short) else {
            throw invalid(node["type"] ?? node, "target '\(name)' has type '\(typeText)', which XcodeGen does not know (application, app-extension, extensionkit-extension, application.watchapp2, …)")
        }
        var destinations: [String] = []
        if let list = node["supportedDestinations"] {
            for item in list.sequence ?? [list] {
                guard let text = item.string, Self.destinationPriority.contains(text) else {
                    throw invalid(item, "target '\(name)' lists supported destination '\(item.string ?? "")', which is none of \(Self.destinationPriority.joined(separator: ", "))")
                }
                destinations.append(text)
            }
            if destinations.contains("macCatalyst") && !destinations.contains("iOS") { destinations.append("iOS") }
            destinations.sort { Self.destinationPriority.firstIndex(of: $0)! < Self.destinationPriority.firstIndex(of: $1)! }
        }
        var platform = node["platform"]?.string ?? ""
        if platform.isEmpty && node["supportedDestinations"] != nil { platform = "auto" }
        guard Self.platforms.contains(platform) else {
            throw invalid(node["platform"] ?? node, "target '\(name)' has platform '\(platform)', which is none of \(Self.platforms.joined(separator: ", "))")
        }
        var deployment: String?
        if let value = node["deploymentTarget"], value.string != nil { deployment = try version(value) }

        var dependencies: [SpecTarget.Dependency] = []
        for item in node["dependencies"]?.sequence ?? [] {
            guard item.pairs != nil else { throw invalid(item, "a dependency of target '\(name)' is not a mapping (- target: Name)") }
            // Only a dependency for this platform counts (`platforms:`, when given).
            if let platforms = item["platforms"]?.sequence, !platforms.contains(where: { $0.string == platform }) { continue }
            guard let reference = item["target"]?.string else { continue }  // frameworks, SDKs, packages: no bundles
            var copy: (String, String)?
            if let phase = item["copy"] {
                copy = (phase["destination"]?.string ?? "", phase["subpath"]?.string ?? "")
            }
            dependencies.append(.init(target: reference, embed: item["embed"].flatMap(SpecNode.bool), copy: copy,
                                      platformFilter: item["platformFilter"]?.string, mark: item.mark))
        }
        func plist(_ key: String) throws(BundleError) -> (String, YAMLNode?, YAMLMark)? {
            guard let value = node[key] else { return nil }
            guard let plistPath = value["path"]?.string, !plistPath.isEmpty else {
                throw invalid(value, "target '\(name)' has '\(key)' without a 'path', which XcodeGen requires")
            }
            return (plistPath, value["properties"], value.mark)
        }
        var sources: [String] = []
        if let list = node["sources"] {
            for item in list.sequence ?? [list] {
                if let text = item.string { sources.append(text) } else if let text = item["path"]?.string { sources.append(text) }
            }
        }
        return SpecTarget(name: name, node: node, productType: "com.apple.product-type.\(short)", platform: platform,
                          supportedDestinations: destinations, deploymentTarget: deployment, dependencies: dependencies,
                          info: try plist("info"), entitlements: try plist("entitlements"),
                          configFiles: Self.stringMap(node["configFiles"]), sources: sources)
    }

    /// A deployment target as XcodeGen writes it: major.minor, and .patch only when it is not 0.
    func version(_ node: YAMLNode) throws(BundleError) -> String {
        let text = node.settingText
        let parts = text.split(separator: ".", omittingEmptySubsequences: false).map { Int($0) }
        guard !parts.isEmpty, parts.count <= 3, parts.allSatisfy({ $0 != nil }) else {
            throw invalid(node, "'\(text)' is not a version (major.minor[.patch])")
        }
        let numbers = parts.map { $0! } + [0, 0]
        return "\(numbers[0]).\(numbers[1])" + (numbers[2] > 0 ? ".\(numbers[2])" : "")
    }

    static func deploymentTargetSetting(_ platform: String) -> String? {
        ["iOS": "IPHONEOS_DEPLOYMENT_TARGET", "tvOS": "TVOS_DEPLOYMENT_TARGET", "watchOS": "WATCHOS_DEPLOYMENT_TARGET",
         "macOS": "MACOSX_DEPLOYMENT_TARGET", "visionOS": "XROS_DEPLOYMENT_TARGET", "auto": ""][platform]
    }

    static func stringMap(_ node: YAMLNode?) -> [String: String] {
        var map: [String: String] = [:]
        for (key, value) in node?.pairs ?? [] { if let text = value.string { map[key] = text } }
        return map
    }

    /// XcodeGen's multi-platform targets: `platform: [iOS, tvOS]` makes one target per platform, named with
    /// `platformPrefix` + name + `platformSuffix` (default `_<platform>`), with `${platform}` expanded.
    static func resolveMultiplatform(_ targets: [(key: String, value: YAMLNode)]) -> [(key: String, value: YAMLNode)] {
        var result: [(key: String, value: YAMLNode)] = []
        for (name, target) in targets {
            guard let platforms = target["platform"]?.sequence else { result.append((name, target)); continue }
            for platformNode in platforms {
                guard let platform = platformNode.string else { continue }
                var copy = SpecNode.expand(target, variables: ["platform": platform])
                guard var pairs = copy.pairs else { continue }
                let suffix = copy["platformSuffix"]?.string ?? "_\(platform)"
                let prefix = copy["platformPrefix"]?.string ?? ""
                SpecNode.set(&pairs, "platform", YAMLNode(kind: .scalar(platform, plain: false), mark: platformNode.mark))
                SpecNode.set(&pairs, "productName", YAMLNode(kind: .scalar(name, plain: false), mark: target.mark))
                // PRODUCT_NAME stays the target's name without the suffix.
                var settings = copy["settings"] ?? YAMLNode(kind: .mapping([]), mark: target.mark)
                let structured = settings["configs"] != nil || settings["groups"] != nil || settings["base"] != nil
                var settingPairs = (structured ? settings["base"]?.pairs : settings.pairs) ?? []
                if !settingPairs.contains(where: { $0.key == "PRODUCT_NAME" }) {
                    settingPairs.append(("PRODUCT_NAME", YAMLNode(kind: .scalar(name, plain: false), mark: target.mark)))
                }
                if structured {
                    var base = settings["base"] ?? YAMLNode(kind: .mapping([]), mark: target.mark)
                    base.kind = .mapping(settingPairs)
                    var outer = settings.pairs ?? []
                    SpecNode.set(&outer, "base", base)
                    settings.kind = .mapping(outer)
                } else {
                    settings.kind = .mapping(settingPairs)
                }
                SpecNode.set(&pairs, "settings", settings)
                if let deployment = target["deploymentTarget"], deployment.pairs != nil {
                    if let value = deployment[platform] { SpecNode.set(&pairs, "deploymentTarget", value) } else { pairs.removeAll { $0.key == "deploymentTarget" } }
                }
                copy.kind = .mapping(pairs)
                result.append((prefix + name + suffix, copy))
            }
        }
        return result
    }

    /// XcodeGen's `targetTemplates`: each template a target lists (and the templates they list, in XcodeGen's
    /// order) merged under the target, then `${target_name}` and `templateAttributes` expanded.
    static func resolveTemplates(_ targets: [(key: String, value: YAMLNode)], templates: [(key: String, value: YAMLNode)]) -> [(key: String, value: YAMLNode)] {
        let byName = Dictionary(templates.map { ($0.key, $0.value) }, uniquingKeysWith: { _, last in last })
        func collect(_ node: YAMLNode, into all: inout [String], seen: inout Set<String>, at index: inout Int) {
            for template in node["templates"]?.sequence?.compactMap(\.string) ?? [] where !seen.contains(template) {
                guard let templateNode = byName[template] else { continue }
                all.insert(template, at: index)
                seen.insert(template)
                collect(templateNode, into: &all, seen: &seen, at: &index)
                index += 1
            }
        }
        // The templates merged, by the list of templates a target names: targets that name the same templates (50
        // targets of one chain of 3,000) share one merge.
        var mergedTemplates: [[String]: YAMLNode?] = [:]
        return targets.map { name, target in
            let listed = target["templates"]?.sequence?.compactMap(\.string) ?? []
            let merged: YAMLNode?
            if let cached = mergedTemplates[listed] {
                merged = cached
            } else {
                var names: [String] = []
                var seen: Set<String> = []
                var index = 0
                collect(target, into: &names, seen: &seen, at: &index)
                var made = YAMLNode(kind: .mapping([]), mark: target.mark)
                for template in names { made = SpecNode.merge(byName[template]!, onto: made) }
                merged = names.isEmpty ? nil : made
                mergedTemplates[listed] = merged
            }
            guard let merged else { return (name, target) }
            var result = SpecNode.merge(target, onto: merged)
            result = SpecNode.expand(result, variables: ["target_name": name])
            var attributes: [String: String] = [:]
            for (key, value) in result["templateAttributes"]?.pairs ?? [] { if let text = value.string { attributes[key] = text } }
            if !attributes.isEmpty { result = SpecNode.expand(result, variables: attributes) }
            return (name, result)
        }
    }

    // MARK: settings

    /// One build setting as XcodeGen writes it, with where the spec says it.
    struct Setting {
        var key: String
        var value: String
        var mark: YAMLMark?
    }

    /// XcodeGen's `getBuildSettings(settings:config:)`: the groups, then `base` (or the flat mapping), then each
    /// `configs` entry whose name the configuration's name contains (unless another configuration has exactly
    /// that name).
    func settings(_ node: YAMLNode?, config: String, visited: Set<String> = []) -> [Setting] {
        guard let node, let pairs = node.pairs else { return [] }
        let structured = node["configs"] != nil || node["groups"] != nil || node["base"] != nil
        guard structured else { return pairs.map { Setting(key: $0.key, value: $0.value.settingText, mark: $0.value.mark) } }
        var result: [Setting] = []
        for group in (node["groups"] ?? node["presets"])?.sequence?.compactMap(\.string) ?? [] where !visited.contains(group) {
            // Each group's settings are made once per configuration: groups that list the same groups again and
            // again, level after level, would otherwise take time exponential in their depth.
            let key = config + "\u{0}" + group
            if let cached = groupCache.settings[key] { result += cached; continue }
            let made = settings(settingGroups[group], config: config, visited: visited.union([group]))
            groupCache.settings[key] = made
            result += made
        }
        result += (node["base"]?.pairs ?? []).map { Setting(key: $0.key, value: $0.value.settingText, mark: $0.value.mark) }
        for (variant, settingsNode) in node["configs"]?.pairs ?? [] where config.lowercased().contains(variant.lowercased()) {
            let exact = configs.first { $0.name == variant }
            if exact == nil || exact!.name == config {
                result += settings(settingsNode, config: config, visited: visited)
            }
        }
        // One per key, at its last place (later settings win, as in XcodeGen's dictionary): groups that each list the
        // next two would otherwise double the list at every level (32 levels: 3.3 GB).
        var seen = Set<String>()
        guard result.contains(where: { !seen.insert($0.key).inserted }) else { return result }
        seen = []
        return Array(result.reversed().filter { seen.insert($0.key).inserted }.reversed())
    }

    /// The keys an xcconfig (and its includes) sets: XcodeGen's presets never override them.
    func configFileKeys(_ relative: String?) -> Set<String> {
        guard let relative else { return [] }
        return Set(xcconfigs.flatten(PathText.join(folder, relative)).assignments.map(\.key))
    }

    func projectSettings(config: (name: String, type: String?)) -> [Setting] {
        var result: [Setting] = []
        if let first = targets.first?.platform, targets.allSatisfy({ $0.platform == first }), let sdk = Self.sdkRoot[first] {
            result.append(Setting(key: "SDKROOT", value: sdk))
        }
        if config.type != nil, applyProjectPresets {
            result.append(Setting(key: "PRODUCT_NAME", value: "$(TARGET_NAME)"))  // base.yml
        }
        result += projectDeploymentTargets.map { Setting(key: $0.setting, value: $0.version) }
        let fromFile = configFileKeys(projectConfigFiles[config.name])
        result.removeAll { fromFile.contains($0.key) }
        return result + settings(root["settings"], config: config.name)
    }

    static let sdkRoot = ["iOS": "iphoneos", "tvOS": "appletvos", "watchOS": "watchos", "macOS": "macosx", "visionOS": "xros", "auto": "auto"]

    /// XcodeGen's setting presets, the settings of them that Lockstep's rules read.
    static let platformPresets: [String: [(String, String)]] = [
        "iOS": [("SDKROOT", "iphoneos"), ("TARGETED_DEVICE_FAMILY", "1,2")],
        "tvOS": [("SDKROOT", "appletvos"), ("TARGETED_DEVICE_FAMILY", "3")],
        "macOS": [("SDKROOT", "macosx")],
        "watchOS": [("SDKROOT", "watchos"), ("SKIP_INSTALL", "YES"), ("TARGETED_DEVICE_FAMILY", "4")],
        "visionOS": [("SDKROOT", "xros"), ("TARGETED_DEVICE_FAMILY", "7")],
    ]
    static let productPresets: [String: [(String, String)]] = [
        "framework": [("CURRENT_PROJECT_VERSION", "1"), ("DEFINES_MODULE", "YES"), ("VERSIONING_SYSTEM", "apple-generic"),
                      ("DYLIB_COMPATIBILITY_VERSION", "1"), ("DYLIB_CURRENT_VERSION", "1"), ("SKIP_INSTALL", "YES")],
        "framework.static": [("CURRENT_PROJECT_VERSION", "1"), ("DEFINES_MODULE", "YES"), ("VERSIONING_SYSTEM", "apple-generic"),
                             ("DYLIB_COMPATIBILITY_VERSION", "1"), ("DYLIB_CURRENT_VERSION", "1"), ("SKIP_INSTALL", "YES")],
        "library.static": [("SKIP_INSTALL", "YES")],
        "tv-app-extension": [("SKIP_INSTALL", "YES")],
        "bundle.unit-test": [("BUNDLE_LOADER", "$(TEST_HOST)")],
        "bundle.ui-testing": [("BUNDLE_LOADER", "$(TEST_HOST)")],
    ]
    static let destinationPresets: [String: [(String, String)]] = [
        "iOS": [("SUPPORTED_PLATFORMS", "iphoneos iphonesimulator"), ("TARGETED_DEVICE_FAMILY", "1,2"), ("SUPPORTS_MACCATALYST", "NO")],
        "tvOS": [("SUPPORTED_PLATFORMS", "appletvos appletvsimulator"), ("TARGETED_DEVICE_FAMILY", "3")],
        "watchOS": [("SUPPORTED_PLATFORMS", "watchos watchsimulator"), ("TARGETED_DEVICE_FAMILY", "4")],
        "visionOS": [("SUPPORTED_PLATFORMS", "xros xrsimulator"), ("TARGETED_DEVICE_FAMILY", "7")],
        "macOS": [("SUPPORTED_PLATFORMS", "macosx"), ("SUPPORTS_MACCATALYST", "NO")],
        "macCatalyst": [("SUPPORTS_MACCATALYST", "YES")],
    ]

    /// XcodeGen's `getTargetBuildSettings`: presets, deployment target, then the target's own settings.
    func targetSettings(_ target: SpecTarget, config: (name: String, type: String?)) -> [Setting] {
        var result: [Setting] = []
        if applyTargetPresets {
            let platform = target.platform == "auto" ? (target.supportedDestinations.first.flatMap { Self.platformPresets[$0] != nil ? $0 : nil } ?? "auto") : target.platform
            result += (Self.platformPresets[platform] ?? []).map { Setting(key: $0.0, value: $0.1) }
            result += (Self.productPresets[target.shortType] ?? []).map { Setting(key: $0.0, value: $0.1) }
            if target.platform == "auto" { result.append(Setting(key: "SDKROOT", value: "auto")) }
            if !target.supportedDestinations.isEmpty {
                var platforms: [String] = []
                var families: [String] = []
                for destination in target.supportedDestinations {
                    for (key, value) in Self.destinationPresets[destination] ?? [] {
                        result.append(Setting(key: key, value: value))
                        if key == "SUPPORTED_PLATFORMS" { platforms += value.split(separator: " ").map(String.init) }
                        if key == "TARGETED_DEVICE_FAMILY" { families += value.split(separator: ",").map(String.init) }
                    }
                }
                result.append(Setting(key: "SUPPORTED_PLATFORMS", value: platforms.joined(separator: " ")))
                result.append(Setting(key: "TARGETED_DEVICE_FAMILY", value: families.joined(separator: ",")))
            }
        }
        if let version = target.deploymentTarget {
            let platforms = target.supportedDestinations.isEmpty ? [target.platform] : target.supportedDestinations
            for platform in platforms {
                if let setting = Self.deploymentTargetSetting(platform), !setting.isEmpty { result.append(Setting(key: setting, value: version)) }
            }
        }
        let fromFiles = configFileKeys(target.configFiles[config.name]).union(configFileKeys(projectConfigFiles[config.name]))
        result.removeAll { fromFiles.contains($0.key) }
        return result + settings(target.node["settings"], config: config.name)
    }

    // MARK: the generated project

    func project() -> XcodeProject {
        var generated: [String: XcodeProject.GeneratedPlist] = [:]
        var projectTargets: [XcodeProject.Target] = []
        var inputs: [String: TargetBuildInputs] = [:]
        let byName = Dictionary(targets.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        let projectLevel = configs.map(projectSettings(config:))
        for (index, target) in targets.enumerated() {
            let infoPlist = infoPlistPath(target)
            var configurations: [XcodeProject.Configuration] = []
            for (configIndex, config) in configs.enumerated() {
                var settings = targetSettings(target, config: config)
                if let entitlements = target.entitlements {
                    settings.append(Setting(key: "CODE_SIGN_ENTITLEMENTS", value: entitlements.path, mark: entitlements.mark))
                }
                if !settings.contains(where: { $0.key == "INFOPLIST_FILE" }), let infoPlist {
                    settings.append(Setting(key: "INFOPLIST_FILE", value: infoPlist, mark: target.info?.mark))
                }
                // XcodeGen's `targetHasBuildSetting`: the target's settings or xcconfig, the project's settings or xcconfig.
                let idKey = "PRODUCT_BUNDLE_IDENTIFIER"
                let hasIdentifier = (settings + projectLevel[configIndex]).contains { $0.key == idKey }
                    || configFileKeys(target.configFiles[config.name]).contains(idKey)
                    || configFileKeys(projectConfigFiles[config.name]).contains(idKey)
                if let prefix = bundleIdPrefix, !hasIdentifier {
                    let escaped = String(target.name.replacingOccurrences(of: "_", with: "-").unicodeScalars
                        .filter { CharacterSet.alphanumerics.contains($0) || $0 == "-" || $0 == "." }.map(Character.init))
                    settings.append(Setting(key: "PRODUCT_BUNDLE_IDENTIFIER", value: "\(prefix).\(escaped)", mark: root["options"]?["bundleIdPrefix"]?.mark))
                }
                configurations.append(configuration(config.name, settings, xcconfig: target.configFiles[config.name], id: "\(target.name) [\(config.name)]"))
            }
            // XcodeGen writes the Info.plist and entitlements files from `info:` and `entitlements:` on every run.
            if let info = target.info {
                var contents = Self.defaultInfoPlist(target)
                var marks: [String: YAMLMark] = [:]
                for (key, value) in info.properties?.pairs ?? [] {
                    contents[key] = value.propertyListValue
                    marks[key] = value.mark
                }
                generated[PathText.join(folder, info.path)] = .init(contents: contents, spec: info.mark.file, keyMarks: marks)
            }
            if let entitlements = target.entitlements {
                var contents: [String: Any] = [:]
                for (key, value) in entitlements.properties?.pairs ?? [] { contents[key] = value.propertyListValue }
                generated[PathText.join(folder, entitlements.path)] = .init(contents: contents, spec: entitlements.mark.file, keyMarks: [:])
            }
            var embeds: [XcodeProject.Embed] = []
            for dependency in target.dependencies {
                guard let embedded = byName[dependency.target], let location = embedLocation(of: embedded, by: target, dependency) else { continue }
                // XcodeGen's platformFilter: iOS → "ios", macOS → "maccatalyst" (<doc:ReadingProjects> "Embedded").
                let filters: [PlatformFilter]? = switch dependency.platformFilter {
                case "iOS": [.ios]
                case "macOS": [.maccatalyst]
                default: nil
                }
                embeds.append(.init(targetID: embedded.name, location: location, platformFilters: filters))
            }
            projectTargets.append(XcodeProject.Target(
                index: index, id: target.name, name: target.name, productType: target.productType, kind: target.kind,
                configurations: configurations, defaultConfiguration: root["options"]?["defaultConfig"]?.string ?? configs.last?.name,
                embeds: embeds, dependencies: target.dependencies.map(\.target), privacyManifests: privacyManifests(target)))
            inputs[target.name] = buildInputs(target)
        }
        let projectConfigurations = zip(configs, projectLevel).map { config, settings in
            configuration(config.name, settings, xcconfig: projectConfigFiles[config.name], id: "the project [\(config.name)]")
        }
        var project = XcodeProject(specPath: path, name: name, configurations: projectConfigurations, targets: projectTargets, generated: generated)
        project.specInputs = inputs
        // `packages:` with a `path:` are local packages; the others are fetched by Xcode (a stand-in replaces them).
        project.specLocalPackages = (root["packages"]?.pairs ?? []).compactMap { _, node in
            node["path"]?.string.map { PathText.join(PathText.absolute(folder), $0) }
        }
        project.specRemotePackages = remotePackages()
        return project
    }

    func configuration(_ name: String, _ settings: [Setting], xcconfig: String?, id: String) -> XcodeProject.Configuration {
        var marks: [String: YAMLMark] = [:]
        for setting in settings { marks[setting.key] = setting.mark }
        // Later settings win, as in XcodeGen's dictionary: one per key, at its last position.
        var seen = Set<String>()
        let unique = settings.reversed().filter { seen.insert($0.key).inserted }.reversed()
        return XcodeProject.Configuration(id: id, name: name, settings: unique.map { ($0.key, $0.value) },
                                          baseConfigurationPath: xcconfig.map { PathText.join(folder, $0) }, marks: marks)
    }

    /// XcodeGen's `getInfoPlists`: `INFOPLIST_FILE` in the target's settings wins (left as it is), then `info.path`,
    /// then the first `Info.plist` among the target's sources.
    func infoPlistPath(_ target: SpecTarget) -> String? {
        if let info = target.info { return info.path }
        for source in target.sources {
            let full = PathText.join(folder, source)
            if PathText.lastComponent(of: source) == "Info.plist", FileManager.default.fileExists(atPath: full) { return source }
            if let found = Self.find(named: "Info.plist", under: full) {
                return PathText.joinRelative(source, found)
            }
        }
        return nil
    }

    /// The PrivacyInfo.xcprivacy files among the target's sources: XcodeGen copies every resource it finds there.
    func privacyManifests(_ target: SpecTarget) -> [String] {
        target.sources.compactMap { source in
            let full = PathText.join(folder, source)
            if PathText.lastComponent(of: source) == "PrivacyInfo.xcprivacy" { return full }
            return Self.find(named: "PrivacyInfo.xcprivacy", under: full).map { PathText.join(full, $0) }
        }
    }

    /// The first file named `name` below the folder `root`, relative to it, in a bounded breadth-first walk.
    static func find(named name: String, under root: String) -> String? {
        var queue = [""]
        var visited = 0
        while !queue.isEmpty, visited < 20_000 {
            let relative = queue.removeFirst()
            let folder = relative.isEmpty ? root : PathText.join(root, relative)
            guard let entries = try? FileManager.default.contentsOfDirectory(atPath: folder) else { continue }
            for entry in entries.sorted() {
                visited += 1
                let child = relative.isEmpty ? entry : relative + "/" + entry
                if entry == name { return child }
                var isDirectory: ObjCBool = false
                if FileManager.default.fileExists(atPath: PathText.join(root, child), isDirectory: &isDirectory), isDirectory.boolValue,
                   !entry.hasPrefix("."), !entry.hasSuffix(".xcassets") { queue.append(child) }
            }
        }
        return nil
    }

    /// XcodeGen's `InfoPlistGenerator`: the keys it writes before `info.properties`.
    static func defaultInfoPlist(_ target: SpecTarget) -> [String: Any] {
        var plist: [String: Any] = [
            "CFBundleIdentifier": "$(PRODUCT_BUNDLE_IDENTIFIER)", "CFBundleInfoDictionaryVersion": "6.0",
            "CFBundleName": "$(PRODUCT_NAME)", "CFBundleDevelopmentRegion": "$(DEVELOPMENT_LANGUAGE)",
            "CFBundleShortVersionString": "1.0", "CFBundleVersion": "1",
        ]
        if target.shortType != "bundle" { plist["CFBundleExecutable"] = "$(EXECUTABLE_NAME)" }
        switch target.shortType {
        case "bundle.unit-test", "bundle.ui-testing", "bundle": plist["CFBundlePackageType"] = "BNDL"
        case "application", "application.watchapp2": plist["CFBundlePackageType"] = "APPL"
        case "framework": plist["CFBundlePackageType"] = "FMWK"
        case "xpc-service", "app-extension": plist["CFBundlePackageType"] = "XPC!"
        default: break
        }
        return plist
    }

    /// Where XcodeGen's `PBXProjGenerator` embeds a target dependency, if it does: an app embeds every dependency
    /// that is not static unless `embed: false`; extensions go to PlugIns (ExtensionKit ones to Extensions), App
    /// Clips to AppClips, and a watch app to Watch only when its `platform` is watchOS.
    func embedLocation(of embedded: SpecTarget, by target: SpecTarget, _ dependency: SpecTarget.Dependency) -> EmbedLocation? {
        let embed = dependency.embed ?? (!embedded.isStatic && target.isApp)
        guard embed else { return nil }
        if let copy = dependency.copy {
            switch copy.destination {
            case "plugins": return .plugIns
            case "productsDirectory":
                if copy.subpath.contains("Watch") { return .watch }
                if copy.subpath.contains("EXTENSIONS_FOLDER_PATH") && !copy.subpath.contains("SYSTEM") { return .extensions }
                if copy.subpath.hasSuffix("AppClips") { return .appClips }
                return nil
            default: return nil
            }
        }
        if embedded.shortType == "extensionkit-extension" { return .extensions }
        if embedded.isExtension { return .plugIns }
        if embedded.shortType == "application.on-demand-install-capable" { return .appClips }
        if embedded.isApp && embedded.platform == "watchOS" { return .watch }
        return nil
    }

    // MARK: spec rules

    /// What XcodeGen turns into something other than what the spec seems to say (rule `spec.*`).
    mutating func specIssues() {
        for (key, node) in Self.versionValues(root, skipping: ["targets", "targetTemplates"]) {
            if let message = Self.versionNumberProblem(key, node, owner: "") {
                issues.append(SpecIssue(kind: .versionNumber, bundle: name, mark: node.mark, message: message))
            }
        }
        for target in targets {
            // rule `spec.watch-not-embedded`
            for dependency in target.dependencies where target.isApp && dependency.copy == nil {
                guard let embedded = targets.first(where: { $0.name == dependency.target }), embedded.isApp,
                      embedded.platform == "auto", embedded.supportedDestinations.contains("watchOS"),
                      !(target.platform == "auto" && target.supportedDestinations.contains("watchOS")) else { continue }
                issues.append(SpecIssue(kind: .watchNotEmbedded, bundle: embedded.name, mark: dependency.mark,
                    message: "Target '\(target.name)' depends on the watch app '\(embedded.name)' (line \(dependency.mark.line)), but XcodeGen embeds a watch app in Watch only when its platform is watchOS; with `supportedDestinations` it copies it as a resource, and the iPhone app ships without it. Set `platform: watchOS` on '\(embedded.name)'."))
            }
            // rule `spec.embed-false`
            for dependency in target.dependencies where target.isApp && dependency.embed == false {
                guard let embedded = targets.first(where: { $0.name == dependency.target }),
                      embedded.isExtension || embedded.shortType == "application.on-demand-install-capable" || (embedded.isApp && embedded.platform == "watchOS") else { continue }
                issues.append(SpecIssue(kind: .embedFalse, bundle: embedded.name, mark: dependency.mark,
                    message: "Target '\(target.name)' depends on '\(embedded.name)' with `embed: false` (line \(dependency.mark.line)): XcodeGen builds it but copies it into no bundle, so the app ships without it. Remove `embed: false` unless a script embeds it."))
            }
            // rule `spec.version-number`
            for (key, node) in Self.versionValues(target.node, skipping: []) {
                if let message = Self.versionNumberProblem(key, node, owner: " of target '\(target.name)'") {
                    issues.append(SpecIssue(kind: .versionNumber, bundle: target.name, mark: node.mark, message: message))
                }
            }
        }
    }

    /// rule `spec.version-number`: a version written unquoted that YAML reads as a number. In a build setting
    /// that matters when XcodeGen writes other text (`1.10` → `1.1`); in `info.properties` always, as the
    /// Info.plist then holds a number where App Store Connect requires a string.
    static func versionNumberProblem(_ key: String, _ node: YAMLNode, owner: String) -> String? {
        guard case .scalar(let text, true) = node.kind, let typed = node.typed, typed != .string(text) else { return nil }
        let kind = switch typed {
        case .null: "null"
        case .timestamp: "a date"
        case .bool: "a boolean"
        default: "a number"
        }
        if key.hasPrefix("CFBundle") {
            return "\(key)\(owner) is written \(text) (line \(node.mark.line)), which YAML reads as \(kind), so XcodeGen writes \(kind == "a number" ? "a number" : "something other than that text") into the Info.plist, where App Store Connect requires a string. Quote it: \(key): \"\(text)\"."
        }
        guard typed.settingText != text else { return nil }
        return "\(key)\(owner) is written \(text) (line \(node.mark.line)), which YAML reads as \(kind), so XcodeGen writes '\(typed.settingText)'. Quote it: \(key): \"\(text)\"."
    }

    static let versionKeys: Set<String> = ["MARKETING_VERSION", "CURRENT_PROJECT_VERSION", "CFBundleVersion", "CFBundleShortVersionString"]

    /// Every version setting or Info.plist key in `node` (settings, setting groups, info properties), in file
    /// order, leaving out the top-level keys `skipping`.
    static func versionValues(_ node: YAMLNode, skipping: Set<String>) -> [(String, YAMLNode)] {
        var result: [(String, YAMLNode)] = []
        var stack: [YAMLNode] = [YAMLNode(kind: .mapping((node.pairs ?? []).filter { !skipping.contains($0.key) }), mark: node.mark)]
        while let next = stack.popLast() {
            for (key, value) in next.pairs ?? [] {
                if versionKeys.contains(key), value.string != nil { result.append((key, value)) } else { stack.append(value) }
            }
            for item in next.sequence ?? [] { stack.append(item) }
        }
        return result.sorted { $0.1.mark.range.lowerBound < $1.1.mark.range.lowerBound }
    }
}
