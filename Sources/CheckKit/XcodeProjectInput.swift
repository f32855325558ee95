import BundleKit
import Foundation
import XcodeGenKit
import XcodeKit

/// Reading and bumping real Xcode projects (`.xcodeproj`): the entry points `lockstep check` and
/// `lockstep bump` call.
public enum XcodeProjectInput {
    /// The result of reading one project: a bundle set per (containing app target, configuration), plus the
    /// findings only a project can produce (`settings.unresolved`, `settings.target-override`).
    public struct Result: Sendable {
        public var sets: [AppBundleSet]
        public var findings: [Finding]
        /// The build configurations read, in project order.
        public var configurations: [String]
        public init(sets: [AppBundleSet], findings: [Finding], configurations: [String] = []) {
            self.sets = sets
            self.findings = findings
            self.configurations = configurations
        }
    }

    /// Whether `path` is an `.xcodeproj`, its `project.pbxproj`, or a folder holding exactly one `.xcodeproj`.
    /// - Returns: the `.xcodeproj` path, or nil.
    public static func projectPath(for path: String) -> String? {
        let manager = FileManager.default
        var trimmed = path
        while trimmed.count > 1 && trimmed.hasSuffix("/") { trimmed.removeLast() }
        if trimmed.hasSuffix("/project.pbxproj") || trimmed == "project.pbxproj" {
            trimmed = PathText.parent(of: trimmed)
        }
        if trimmed.hasSuffix(".xcodeproj") {
            return manager.fileExists(atPath: trimmed + "/project.pbxproj") ? trimmed : nil
        }
        var isDirectory: ObjCBool = false
        guard manager.fileExists(atPath: trimmed, isDirectory: &isDirectory), isDirectory.boolValue,
              let entries = try? manager.contentsOfDirectory(atPath: trimmed) else { return nil }
        let projects = entries.filter { $0.hasSuffix(".xcodeproj") && manager.fileExists(atPath: "\(trimmed)/\($0)/project.pbxproj") }
        return projects.count == 1 ? PathText.join(trimmed, projects[0]) : nil
    }

    /// Reads the project at `path` (an `.xcodeproj`) for every configuration, or only `configuration`.
    ///
    /// Each application target that no other target embeds is a containing app; its bundle set holds the
    /// targets it embeds (PlugIns, Extensions, Watch, and what a watch app embeds in turn).
    /// - Throws: `BundleError` (`.invalidProject`, `.unreadable`, `.unknownConfiguration`) when nothing
    ///   could be read or the configuration does not exist.
    public static func load(_ path: String, configuration: String? = nil) throws -> Result {
        let project = try XcodeProject(path: path)
        return try ProjectReading(project: project, configuration: configuration).result()
    }

    /// Reads the XcodeGen spec at `path` as the project `xcodegen generate` writes from it
    /// (<doc:ReadingProjects> "XcodeGen specs"): the same bundle sets and findings, plus the spec's own (`spec.*`).
    /// - Throws: `BundleError.invalidSpec` naming file, line and column; the reading errors of `load`.
    public static func load(spec path: String, configuration: String? = nil,
                            environment: [String: String] = ProcessInfo.processInfo.environment) throws -> Result {
        let spec = try XcodeGenSpec.load(path, environment: environment)
        var result = try ProjectReading(project: spec.project, configuration: configuration).result()
        result.findings = spec.issues.map(Finding.init(spec:)) + result.findings
        return result
    }

    /// The bundle sets and findings of a project already read: `lockstep build` reads its targets' files from the
    /// same project, and its manifest carries exactly the values `check` reports.
    package static func sets(of project: XcodeProject, configuration: String?) throws(BundleError) -> Result {
        try ProjectReading(project: project, configuration: configuration).result()
    }
}

/// Turns a parsed project into bundle sets and findings.
struct ProjectReading {
    let project: XcodeProject
    /// The lines of the project's pbxproj settings, for the findings that point at one.
    let positions: PbxprojPositions
    let resolver: TargetResolver
    let configurations: [String]
    let byID: [String: XcodeProject.Target]
    /// By target index: the targets its copy phases embed (those `byID` finds), in order, each with where it is
    /// embedded. The embedding rules and the bundle sets walk this graph for every target: by index, not by hashing
    /// each id again.
    /// The builds each embed is filtered to (`platformFilters`, nil for every build) come along.
    let embedded: [[(index: Int, location: EmbedLocation, filters: [PlatformFilter]?)]]
    /// `scriptNames(_:)` of the project: the unknown values its version-writing Run Script phases stand for.
    let scriptNames: [String: String]

    init(project: XcodeProject, configuration: String?) throws(BundleError) {
        self.project = project
        positions = PbxprojPositions(project)
        resolver = TargetResolver(project: project)
        scriptNames = Self.scriptNames(project)
        byID = Dictionary(project.targets.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        embedded = project.targets.map { [byID] target in
            target.embeds.compactMap { embed in byID[embed.targetID].map { ($0.index, embed.location, embed.platformFilters) } }
        }
        // The project's configurations are the ones a build can ask for (`xcodebuild -configuration`).
        var names = project.configurations.map(\.name)
        if names.isEmpty { names = project.targets.first?.configurations.map(\.name) ?? [] }
        if let configuration {
            guard names.contains(configuration) else {
                throw BundleError(.unknownConfiguration, path: project.path,
                                  detail: "'\(configuration)'; its configurations are \(names.joined(separator: ", "))")
            }
            names = [configuration]
        }
        configurations = names
    }

    /// The containing apps: application targets that no target embeds. An App Clip is not a containing app of its
    /// own: embedded in `AppClips`, it is a bundle of its app's set (rule `clip.*`).
    ///
    /// An app that only its own embedded bundles embed (itself, or a cycle of copy phases, which Xcode cannot
    /// build) is still a containing app, so its real extensions are checked; `embeddingCycles` reports the cycle.
    var apps: [XcodeProject.Target] {
        // Who embeds each application target (the others cannot be containing apps whoever embeds them).
        var embedders: [Int: [Int]] = [:]
        for target in project.targets {
            for (child, _, _) in embedded[target.index] where project.targets[child].kind.isApplication {
                embedders[child, default: []].append(target.index)
            }
        }
        return project.targets.filter { target in
            guard target.kind.isApplication,
                  target.productType != "com.apple.product-type.application.on-demand-install-capable" else { return false }
            let others = embedders[target.index] ?? []
            return others.isEmpty || others.allSatisfy { reaches($0, from: target.index) }
        }
    }

    /// Whether the target at `start` embeds the one at `goal`, directly or through the bundles it embeds (itself
    /// included: a target reaches itself).
    func reaches(_ goal: Int, from start: Int) -> Bool {
        guard start != goal else { return true }
        // Most targets embed nothing: no walk.
        guard !embedded[start].isEmpty else { return false }
        var seen = [Bool](repeating: false, count: embedded.count)
        var queue = [start]
        seen[start] = true
        while let next = queue.popLast() {
            for (child, _, _) in embedded[next] where !seen[child] {
                if child == goal { return true }
                seen[child] = true
                queue.append(child)
            }
        }
        return false
    }

    /// One bundle in a set: its resolution and where it sits. Its record is made straight into the set's arrays:
    /// a copy kept here retained every field of each record again.
    struct Member {
        var resolved: ResolvedTarget
        var bundlePath: String
        var location: EmbedLocation?
    }

    /// The app and every target it embeds, recursively, for one configuration: the members, and their records
    /// (the app's, then the embedded bundles' in the same order).
    /// - Parameter build: another build of a multiplatform app than its own platform's (its tvOS build, its Mac
    ///   Catalyst build): only the bundles filtered to that build, each resolved as its platform.
    func members(of app: XcodeProject.Target, configuration: String, build: PlatformFilter? = nil) -> (members: [Member], app: BundleRecord, embedded: [BundleRecord]) {
        var result: [Member] = []
        var embeddedRecords: [BundleRecord] = []
        var appRecord: BundleRecord?
        // By target index: a set of ids hashed each target's id for every set.
        var visited = [Bool](repeating: false, count: project.targets.count)
        func visit(_ target: XcodeProject.Target, location: EmbedLocation?, parentPath: String?) {
            guard !visited[target.index] else { return }
            visited[target.index] = true
            // A target lacking this configuration is built with its default one, as Xcode does.
            let name = target.configurations.contains { $0.name == configuration } ? configuration
                : (target.defaultConfiguration ?? target.configurations.first?.name ?? configuration)
            let resolved = build?.platform.map { resolver.resolve(target, configuration: name, platform: $0) } ?? resolver.resolve(target, configuration: name)
            let kind = target.kind
            let file = ASCII.joined(resolved.productName.isEmpty ? target.name : resolved.productName, ".", kind.wrapperExtension)
            let path = parentPath.map { ASCII.joined($0, "/", location!.rawValue, "/", file) } ?? file
            result.append(Member(resolved: resolved, bundlePath: path, location: location))
            // The first member is the app (testing the optional record for nil copied it whole).
            if result.count == 1 {
                appRecord = record(resolved, location: location, kind: kind, path: path)
            } else {
                embeddedRecords.append(record(resolved, location: location, kind: kind, path: path))
            }
            // <doc:ReadingProjects> "Embedded": a target's own build embeds what is not filtered away from it (a watch
            // app's, watchOS); another build of the app, at the app's level, only what is filtered to it.
            let thisBuild = build ?? PlatformFilter(resolved.platform)
            for (index, location, filters) in embedded[target.index] {
                if let filters, !filters.contains(thisBuild) { continue }
                if build != nil, target.index == app.index, filters == nil { continue }
                // A framework or plug-in bundle a copy phase puts in PlugIns is no app extension
                // (<doc:ReadingProjects> "Embedded"): the extension rules are about .appex and the apps of Watch and AppClips.
                let child = project.targets[index]
                guard child.kind.isApplication || child.kind.wrapperExtension == "appex" else { continue }
                visit(child, location: location, parentPath: path)
            }
        }
        visit(app, location: nil, parentPath: nil)
        return (result, appRecord!, embeddedRecords)
    }

    private func record(_ resolved: ResolvedTarget, location: EmbedLocation?, kind: ProductKind, path: String) -> BundleRecord {
        func value(_ key: CheckedKey) -> String? { resolved.values.text(key) }
        let point = resolved.extensionPoint
        let role: BundleRole
        if location == nil {
            role = .host
        } else if kind.isWatchApp || location == .watch {
            role = .watch
        } else {
            role = BundleRole(extensionPoint: point)
        }
        return withScriptedVersions(BundleRecord(
            name: resolved.target.name, role: role, bundleIdentifier: value(.bundleIdentifier),
            shortVersion: value(.shortVersion), buildVersion: value(.buildVersion),
            extensionPoint: point, hasExtensionDictionary: resolved.hasExtensionDictionary,
            companionAppBundleIdentifier: value(.companionAppBundleIdentifier), packageType: value(.packageType),
            appGroups: resolved.appGroups, appGroupsKnown: resolved.appGroupsKnown, embedLocation: location, bundlePath: path,
            source: SourceLocation(file: resolved.plistPath ?? project.pbxprojPath, detail: resolved.context),
            valueSources: valueSources(resolved), platform: resolved.platform, unknowns: resolved.unknowns, store: resolved.store,
            infoPlistWrittenByXcode: resolved.target.productType == Self.watchOnlyContainer), resolved)
    }

    /// Where each checked value came from; the rules point their findings there.
    private func valueSources(_ resolved: ResolvedTarget) -> ValueSources {
        var sources = resolved.values.sources(reserving: 1)
        if let entitlements = resolved.entitlementsPath {
            let key = "com.apple.security.application-groups"
            sources[key] = SourceLocation(file: entitlements, detail: key)
        }
        return sources
    }

    func result() throws(BundleError) -> XcodeProjectInput.Result {
        var sets: [AppBundleSet] = []
        // One finding per problem: what every configuration shares is reported once, naming them all
        // ("[Debug, Release]"), and an xcconfig many targets read reports its missing include once, under the
        // first bundle that reads it.
        var order: [String] = []
        var merged: [String: (finding: Finding, configurations: [String])] = [:]
        func add(_ finding: Finding, configuration: String?) {
            var template = finding
            if let configuration { template.message = ASCII.replacing("[\(configuration)]", with: "[\u{0}]", in: finding.message) }
            let key = "\(finding.rule)\u{0}\(finding.severity)\u{0}\(finding.path)\u{0}\(template.message)"
            if merged[key] == nil { order.append(key) }
            // A project-level problem comes once per target: its configuration is named once.
            if let configuration, merged[key]?.configurations.contains(configuration) != true {
                merged[key, default: (template, [])].configurations.append(configuration)
            } else if merged[key] == nil {
                merged[key] = (template, [])
            }
        }

        let projectName = PathText.lastComponent(of: project.path)
        var privacyChecked: Set<String> = []
        for finding in embeddingCycles() + projectFileFindings() { add(finding, configuration: nil) }
        for app in apps {
            for configuration in configurations {
                var builds: [PlatformFilter?] = [nil]
                // The targets of the app's own build: another build reports only the problems of its other targets,
                // as a target's settings are the same in every build (issue 42).
                var reported: Set<Int> = []
                var index = 0
                while index < builds.count {
                    let build = builds[index]
                    index += 1
                    let (members, appRecord, embedded) = members(of: app, configuration: configuration, build: build)
                    for member in members { if let refusal = DamagedPropertyList.refusal(member.resolved.problems) { throw refusal } }
                    for member in members where !member.resolved.appGroups.isEmpty && !privacyChecked.contains(member.resolved.target.id) {
                        privacyChecked.insert(member.resolved.target.id)
                        for finding in try privacyFindings(member) { add(finding, configuration: nil) }
                    }
                    let host = members[0]
                    for member in members where reported.insert(member.resolved.target.index).inserted {
                        findingsFor(member, host: host) { add($0, configuration: configuration) }
                    }
                    let origin = build == nil ? "\(projectName) [\(configuration)]" : "\(projectName) (\(host.resolved.platform.rawValue)) [\(configuration)]"
                    var set = AppBundleSet(app: appRecord, embedded: embedded, origin: origin, configuration: configuration)
                    set.pbxproj = positions
                    sets.append(set)
                    if build == nil { builds += otherBuilds(of: app, host: host.resolved).map { $0 } }
                }
            }
            for finding in unembeddedDependencies(of: app) { add(finding, configuration: nil) }
        }
        for finding in configurationDrift(sets) { add(finding, configuration: nil) }
        let findings = order.map { key -> Finding in
            var (finding, names) = merged[key]!
            finding.message = ASCII.replacing("[\u{0}]", with: "[\(names.joined(separator: ", "))]", in: finding.message)
            return finding
        }
        if sets.isEmpty, let problem = project.problems.first {
            throw BundleError(.invalidProject, path: project.path, detail: problem)
        }
        return .init(sets: sets, findings: findings, configurations: configurations)
    }

    /// `message` as a sentence: a capital first letter, unless it starts with a path (a relative project path such
    /// as `ios/Flutter/Release.xcconfig:2:` must stay as written), and a final period.
    static func sentence(_ message: String) -> String {
        let startsWithPath = message.prefix { $0 != " " }.contains("/")
        return (startsWithPath ? message : message.prefix(1).uppercased() + message.dropFirst()) + (message.hasSuffix(".") ? "" : ".")
    }
}
