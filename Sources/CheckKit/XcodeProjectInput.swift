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

    /// Reads the XcodeGen spec at `path` as the project `xcodegen generate` writes from it (<doc:Rules> "Bundles and versions"
    /// "XcodeGen specs"): the same bundle sets and findings, plus the spec's own (`spec.*`).
    /// - Throws: `BundleError.invalidSpec` naming file, line and column; the reading errors of `load`.
    public static func load(spec path: String, configuration: String? = nil,
                            environment: [String: String] = ProcessInfo.processInfo.environment) throws -> Result {
        let spec = try XcodeGenSpec.load(path, environment: environment)
        var result = try ProjectReading(project: spec.project, configuration: configuration).result()
        result.findings = spec.issues.map(Finding.init(spec:)) + result.findings
        return result
    }
}

extension Finding {
    /// What a spec gets wrong, as the finding of its rule (rules `spec.*`, all warnings: the project builds).
    init(spec issue: SpecIssue) {
        let rule: RuleID = switch issue.kind {
        case .versionNumber: .specVersionNumber
        case .watchNotEmbedded: .specWatchNotEmbedded
        case .embedFalse: .specEmbedFalse
        }
        self.init(rule: rule, severity: .warning, bundle: issue.bundle, path: issue.mark.file, message: issue.message,
                  line: issue.mark.line, column: issue.mark.column)
    }
}

/// Turns a parsed project into bundle sets and findings.
struct ProjectReading {
    let project: XcodeProject
    let resolver: TargetResolver
    let configurations: [String]
    private let byID: [String: XcodeProject.Target]

    init(project: XcodeProject, configuration: String?) throws(BundleError) {
        self.project = project
        resolver = TargetResolver(project: project)
        byID = Dictionary(project.targets.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
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
        var embedders: [String: [String]] = [:]
        for target in project.targets {
            for embed in target.embeds { embedders[embed.targetID, default: []].append(target.id) }
        }
        return project.targets.filter { target in
            guard target.kind.isApplication,
                  target.productType != "com.apple.product-type.application.on-demand-install-capable" else { return false }
            let others = embedders[target.id] ?? []
            return others.isEmpty || others.allSatisfy { reachable(from: target.id).contains($0) }
        }
    }

    /// The targets `id` embeds, directly or through the bundles it embeds, itself included.
    func reachable(from id: String) -> Set<String> {
        var seen: Set<String> = [id]
        var queue = [id]
        while let next = queue.popLast() {
            for embed in byID[next]?.embeds ?? [] where seen.insert(embed.targetID).inserted { queue.append(embed.targetID) }
        }
        return seen
    }

    /// A target whose copy phases embed its own product, directly or through the bundles it embeds: Xcode would copy a
    /// bundle into itself. One finding per target on such a cycle.
    func embeddingCycles() -> [Finding] {
        project.targets.compactMap { target in
            let direct = target.embeds.contains { $0.targetID == target.id }
            guard direct || target.embeds.contains(where: { reachable(from: $0.targetID).contains(target.id) }) else { return nil }
            return Finding(rule: .bundleEmbedCycle, severity: .error, bundle: target.name, path: project.pbxprojPath,
                message: direct ? "Target '\(target.name)' embeds its own product in a Copy Files phase: a bundle cannot contain itself."
                    : "Target '\(target.name)' embeds a bundle that embeds '\(target.name)' in turn (a cycle of Copy Files phases): a bundle cannot contain itself.")
        }
    }

    /// One bundle in a set: its resolution, where it sits, and its record.
    struct Member {
        var resolved: ResolvedTarget
        var record: BundleRecord
    }

    /// The app and every target it embeds, recursively, for one configuration.
    func members(of app: XcodeProject.Target, configuration: String) -> [Member] {
        var result: [Member] = []
        var visited: Set<String> = []
        func visit(_ target: XcodeProject.Target, location: EmbedLocation?, parentPath: String?) {
            guard visited.insert(target.id).inserted else { return }
            // A target lacking this configuration is built with its default one, as Xcode does.
            let name = target.configurations.contains { $0.name == configuration } ? configuration
                : (target.defaultConfiguration ?? target.configurations.first?.name ?? configuration)
            let resolved = resolver.resolve(target, configuration: name)
            let kind = target.kind
            let file = "\(resolved.productName.isEmpty ? target.name : resolved.productName).\(kind.wrapperExtension)"
            let path = parentPath.map { "\($0)/\(location!.rawValue)/\(file)" } ?? file
            result.append(Member(resolved: resolved, record: record(resolved, location: location, kind: kind, path: path)))
            for embed in target.embeds {
                // A framework or plug-in bundle a copy phase puts in PlugIns is no app extension (<doc:Rules> "Bundles and versions"
                // "Embedded"): the extension rules are about .appex and the apps of Watch and AppClips.
                guard let child = byID[embed.targetID], child.kind.isApplication || child.kind.wrapperExtension == "appex" else { continue }
                visit(child, location: embed.location, parentPath: path)
            }
        }
        visit(app, location: nil, parentPath: nil)
        return result
    }

    private func record(_ resolved: ResolvedTarget, location: EmbedLocation?, kind: ProductKind, path: String) -> BundleRecord {
        func value(_ key: CheckedKey) -> String? { resolved.values[key]?.value }
        let point = resolved.extensionPoint
        let role: BundleRole
        if location == nil {
            role = .host
        } else if kind.isWatchApp || location == .watch {
            role = .watch
        } else if point == "com.apple.widgetkit-extension" {
            role = .widget
        } else if point == "com.apple.appintents-extension" || point == "com.apple.intents-service" {
            role = .intent
        } else {
            role = .extension
        }
        return BundleRecord(
            name: resolved.target.name, role: role, bundleIdentifier: value(.bundleIdentifier),
            shortVersion: value(.shortVersion), buildVersion: value(.buildVersion),
            extensionPoint: point, hasExtensionDictionary: resolved.hasExtensionDictionary,
            companionAppBundleIdentifier: value(.companionAppBundleIdentifier), packageType: value(.packageType),
            appGroups: resolved.appGroups, embedLocation: location, bundlePath: path,
            source: SourceLocation(file: resolved.plistPath ?? project.pbxprojPath, detail: resolved.context),
            valueSources: valueSources(resolved), platform: resolved.platform, unknowns: resolved.unknowns, store: resolved.store,
            infoPlistWrittenByXcode: resolved.target.productType == "com.apple.product-type.application.watchapp2-container")
    }

    /// Where each checked value came from; the rules point their findings there.
    private func valueSources(_ resolved: ResolvedTarget) -> [String: SourceLocation] {
        var sources = resolved.values.mapValues(\.source)
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
        for finding in embeddingCycles() { add(finding, configuration: nil) }
        for problem in project.problems {
            add(Finding(rule: .settingsUnresolved, severity: .error, bundle: projectName, path: project.pbxprojPath,
                        message: "In \(project.pbxprojPath), \(problem)."), configuration: nil)
        }
        for app in apps {
            for configuration in configurations {
                let members = members(of: app, configuration: configuration)
                for member in members where !member.resolved.appGroups.isEmpty && !privacyChecked.contains(member.resolved.target.id) {
                    privacyChecked.insert(member.resolved.target.id)
                    for finding in privacyFindings(member) { add(finding, configuration: nil) }
                }
                let host = members[0]
                for member in members {
                    findingsFor(member, host: host) { add($0, configuration: configuration) }
                }
                sets.append(AppBundleSet(app: host.record, embedded: members.dropFirst().map(\.record),
                                         origin: "\(projectName) [\(configuration)]", configuration: configuration))
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

    /// rule `privacy.manifest` for a project: a target that claims an App Group evidently reads the group's
    /// UserDefaults suite, a required-reason API. The project shows no imports, so a missing declaration is a warning
    /// (a built app's executable decides); an invalid manifest it copies is an error.
    private func privacyFindings(_ member: Member) -> [Finding] {
        let target = member.resolved.target
        let bundle = member.record.bundlePath
        let category = "NSPrivacyAccessedAPICategoryUserDefaults"
        var findings: [Finding] = []
        var declared = false
        for path in target.privacyManifests {
            guard let plist = TargetResolver.readPlist(path) else {
                findings.append(Finding(rule: .privacyManifestInvalid, severity: .error, bundle: bundle, path: path,
                    message: "App Store Connect rejects app submissions that include invalid privacy manifest files. (\(path) \(TargetResolver.whyUnreadable(path)).)"))
                continue
            }
            let (categories, problems) = PrivacyManifest.read(plist)
            declared = declared || categories.contains(category)
            if !problems.isEmpty {
                findings.append(Finding(rule: .privacyManifestInvalid, severity: .error, bundle: bundle, path: path,
                    message: "App Store Connect rejects app submissions that include invalid privacy manifest files. (\(problems.joined(separator: "; ")).)"))
            }
        }
        guard !declared else { return findings }
        let copies = target.privacyManifests.isEmpty ? "copies no PrivacyInfo.xcprivacy" : "copies a PrivacyInfo.xcprivacy that does not declare it"
        findings.append(Finding(rule: .privacyManifest, severity: .warning, bundle: bundle, path: member.record.valueSources["com.apple.security.application-groups"]?.file ?? project.pbxprojPath,
            message: "Target '\(target.name)' claims the App Group '\(member.resolved.appGroups[0])', so its code reads the group's UserDefaults suite (\(category), reason 1C8F.1), but it \(copies): App Store Connect sends ITMS-91053 naming its executable when the build imports NSUserDefaults. (A project shows no imports; check the built .app to be sure.)"))
        return findings
    }

    /// rule `group.config-drift`: a bundle that claims App Groups in one build configuration and none in another
    /// — commonly Debug has them and Release not, so the widget works in development and shows no data when shipped.
    /// Different groups per configuration (`group.x` in Release, `group.x-debug` in Debug) are a choice, not drift:
    /// `group.shared` compares them with the app's in each configuration.
    private func configurationDrift(_ sets: [AppBundleSet]) -> [Finding] {
        guard configurations.count > 1 else { return [] }
        var seen: [String: [(configuration: String, groups: [String], file: String)]] = [:]
        var order: [(key: String, bundle: String)] = []
        for set in sets {
            let configuration = set.origin.split(separator: "[").last.map { String($0.dropLast()) } ?? set.origin
            for bundle in set.all where bundle.appGroupsKnown {
                // One app target's bundle: two apps of a project may both build a `NetNewsWire.app`.
                let key = "\(set.app.name)\u{0}\(bundle.bundlePath)"
                if seen[key] == nil { order.append((key, bundle.bundlePath)) }
                seen[key, default: []].append((configuration, bundle.appGroups,
                                               bundle.valueSources["com.apple.security.application-groups"]?.file ?? bundle.source.file))
            }
        }
        return order.compactMap { key, bundle in
            let all = seen[key]!
            let with = all.filter { !$0.groups.isEmpty }, without = all.filter { $0.groups.isEmpty }
            guard let first = with.first, !without.isEmpty else { return nil }
            return Finding(rule: .groupConfigDrift, severity: .warning, bundle: bundle, path: first.file,
                message: "\(bundle) claims the App Group '\(first.groups[0])' in \(with.map(\.configuration).joined(separator: ", ")) but no App Group in \(without.map(\.configuration).joined(separator: ", ")): built that way it shares nothing with its app (a widget that works in development shows no data when shipped).")
        }
    }

    /// Extensions and watch apps the app's targets depend on but no Copy Files phase embeds: a run-script phase may
    /// copy them into the app, and then nothing here checks their versions. A note, so that is not silent.
    private func unembeddedDependencies(of app: XcodeProject.Target) -> [Finding] {
        let embedded = Set(project.targets.flatMap { $0.embeds.map(\.targetID) })
        var findings: [Finding] = []
        var seen: Set<String> = [app.id]
        var queue = [app]
        while let target = queue.popLast() {
            for id in target.dependencies + target.embeds.map(\.targetID) where seen.insert(id).inserted {
                guard let dependency = byID[id] else { continue }
                queue.append(dependency)
                let kind = dependency.kind
                guard !embedded.contains(id), kind.isWatchApp || kind.packageType == "XPC!",
                      !ASCII.contains("system-extension", in: dependency.productType) else { continue }
                findings.append(Finding(rule: .bundleNotEmbedded, severity: .note, bundle: app.name, path: project.pbxprojPath,
                    message: "Target '\(app.name)' depends on '\(dependency.name)' (\(dependency.productType)), but no Copy Files phase of the project embeds it: if a script embeds it, its versions are not checked."))
            }
        }
        return findings
    }

    private func findingsFor(_ member: Member, host: Member, into add: (Finding) -> Void) {
        let resolved = member.resolved
        let bundle = member.record.bundlePath
        let context = resolved.context
        for problem in resolved.problems {
            add(Finding(rule: .settingsUnresolved, severity: problem.severity == .error ? .error : .warning, bundle: bundle, path: problem.file,
                        message: Self.sentence(problem.message)))
        }
        for checked in CheckedKey.allCases {
            guard let value = resolved.values[checked], !value.unresolved.isEmpty else { continue }
            let key = checked.key
            // An unknown (a setting the checkout cannot supply) is not empty: the rules decide on it, and warn
            // where their verdict depends on it (<doc:ReadingProjects> "What the checkout does not hold").
            let unknown = Set(BuildSettings.unknownNames(in: value.value, among: value.unresolved))
            for name in value.unresolved.subtracting(unknown).sorted() {
                // rule `settings.unresolved`: an error when it empties a compared version or bundle id.
                let compared = checked != .packageType
                var message = "\(key) of \(context) is '\(value.template)', but nothing defines \(name), so Xcode builds it as '\(value.value)' (agvtool and fastlane read the literal '\(value.template)')."
                if let missing = MissingInclude.likeliest(resolved.missingIncludes) { message += " " + missing.hint }
                add(Finding(rule: .settingsUnresolved, severity: compared ? .error : .warning, bundle: bundle,
                            path: value.source.file, message: message, line: value.source.line, column: value.source.column,
                            values: [key, name, value.template]))
            }
        }
        guard member.record.embedLocation != nil else { return }
        // rule `settings.target-override`: an embedded target that sets the version itself, and uses it.
        for checked in [CheckedKey.buildVersion, .shortVersion] {
            let (key, setting) = (checked.key, checked.standardSetting!)
            // The cheap tests first: most targets inherit the setting, so its winner is not at target level.
            guard let value = resolved.values[checked], !value.literalInPlist,
                  let index = resolved.settings.winner(setting) else { continue }
            let assignment = resolved.settings.assignments[index]
            guard assignment.source.targetLevel, BuildSettings.references(in: value.template).contains(setting),
                  !assignment.usesInherited, assignment.soleReference != setting,
                  !host.resolved.targetXcconfigs.contains(assignment.source.file) else { continue }
            var where_ = assignment.location
            // A pbxproj setting's line, found in its configuration's object now that a finding needs it.
            if where_.line == nil, assignment.source.file == project.pbxprojPath, let id = assignment.source.configurationID,
               let range = project.objectRanges.last(where: { $0.id == id })?.range,
               let position = SourcePosition.pbxprojSetting(assignment.key, in: project.bytes, object: range) {
                where_.line = position.line
                where_.column = position.column
            }
            let hostValue = host.resolved.values[checked]?.value ?? "none"
            add(Finding(rule: .settingsTargetOverride, severity: .warning, bundle: member.record.bundlePath, path: assignment.source.file,
                        message: "\(context) sets \(setting) = \(assignment.value) itself (\(where_.file), \(where_.detail!)) instead of inheriting the project's, and its \(key) uses it (the containing app '\(host.resolved.target.name)' has '\(hostValue)'): the root cause of most \(key) mismatches. Remove the target's setting so it inherits.",
                        values: [setting, assignment.value, hostValue]).with(line: where_.line, column: where_.column))
        }
    }
}
