import BundleKit
import Foundation
import LockstepSystem

/// Resolves targets of one project, caching xcconfig files across targets and configurations.
package final class TargetResolver {
    let project: XcodeProject
    private lazy var xcconfigs = XcconfigReader(sourceRoot: project.sourceRoot)
    /// `PathText.existing` by path: targets share Info.plists, and nothing changes the files while reading.
    var existing: [String: String?] = [:]
    var sourcePaths: [String: String] = [:]
    /// `infoPlistFile` by `INFOPLIST_FILE` value.
    var infoPlistFiles: [String: (wanted: String, found: String?, shown: String, generated: Bool)] = [:]
    /// The numbers of the setting names, for every target's `BuildSettings`.
    let names = SettingNames()
    private var configurations: [String: ConfigurationState] = [:]
    /// The configuration `resolve` was last asked for.
    private var lastState: (name: String, state: ConfigurationState)?
    /// The assignments of `targetDefaultPairs`, by target index and platform: every configuration of a target has the same.
    private var targetDefaultRuns: [[SettingAssignment]?]
    /// Those that depend only on the product type, by product type.
    private var productTypeDefaults: [String: [SettingAssignment]] = [:]
    /// Info.plists and entitlements by path: extensions often share one file.
    var plists: [String: [String: Any]?] = [:]
    var infoPlists: [String: InfoPlist?] = [:]
    /// Preprocessed Info.plists, by file and the macros they were preprocessed with.
    var preprocessed: [String: (plist: InfoPlist?, failure: String?, unknownHeader: String?)] = [:]
    /// What a target without an Info.plist reads.
    private let noInfoPlist = InfoPlist()

    /// What every target of one configuration shares, made when its first target is resolved.
    private final class ConfigurationState {
        let name: String
        /// Xcode's defaults that do not depend on the target, then the project level: the middle run of every
        /// target's settings (`BuildSettings`), shared, not copied.
        let shared: [SettingAssignment]
        let projectLevel: Level
        /// The name index of the defaults that depend on the target (`targetDefaultPairs`, the same names for every
        /// target), then `shared`.
        let nameIndex: BuildSettings.NameIndex
        /// Whether every assignment of `shared` holds on a platform's SDK, by `Platform.allCases` index: the project
        /// level's conditions are the same for every target built for it.
        var sharedHolds: [Bool?] = Array(repeating: nil, count: Platform.allCases.count)
        /// The last unconditioned `SDKROOT` and `SUPPORTED_PLATFORMS` of `shared`, which decide a target's platform
        /// unless its own level sets them.
        lazy var platformSettings = (sdkroot: TargetResolver.lastUnconditioned("SDKROOT", in: shared),
                                     supported: TargetResolver.lastUnconditioned("SUPPORTED_PLATFORMS", in: shared))
        /// The platform of a target whose own runs set neither: the same for all of them, not read from the SDK's
        /// name again for each.
        lazy var sharedPlatform = TargetResolver.platform(sdkroot: platformSettings.sdkroot, supported: platformSettings.supported)
        /// The resolutions, by target index.
        var resolved: [ResolvedTarget?]

        /// `differences(from:names:)` by the earlier configuration's state, found by identity (a set asks for every
        /// target, and hashing the configuration's name each time cost more).
        private var differing: [(from: ConfigurationState, names: [Bool])] = []

        init(name: String, shared: [SettingAssignment], projectLevel: Level, nameIndex: BuildSettings.NameIndex, targets: Int) {
            self.name = name
            self.shared = shared
            self.projectLevel = projectLevel
            self.nameIndex = nameIndex
            resolved = Array(repeating: nil, count: targets)
        }

        /// By name number: whether this configuration's shared run assigns that name differently from `other`'s
        /// but for where the assignments are written. Names numbered later are in neither run.
        func differences(from other: ConfigurationState, names: SettingNames) -> [Bool] {
            if let known = differing.first(where: { $0.from === other }) { return known.names }
            func byName(_ run: [SettingAssignment]) -> [Int: [SettingAssignment]] {
                var result: [Int: [SettingAssignment]] = [:]
                for assignment in run { result[names.number(adding: assignment.name), default: []].append(assignment) }
                return result
            }
            let (mine, theirs) = (byName(shared), byName(other.shared))
            var result = [Bool](repeating: false, count: names.count)
            for number in Set(mine.keys).union(theirs.keys) {
                let (a, b) = (mine[number] ?? [], theirs[number] ?? [])
                result[number] = a.count != b.count || zip(a, b).contains { !$0.equalsButForWhereWritten($1) }
            }
            differing.append((other, result))
            return result
        }
    }

    /// The configurations' states, in the order they were first asked for.
    private var states: [ConfigurationState] = []

    /// The settings `build` reads of every target, numbered once instead of hashed for each target.
    let read: (generate: Int, infoPlist: Int, entitlements: Int, productName: Int, preprocess: Int)
    /// The deployment target setting of each platform, in `Platform.allCases` order, numbered likewise.
    private let deploymentTargets: [Int]
    /// By `CheckedKey`: `INFOPLIST_KEY_<key>` and the standard setting a generated Info.plist takes the value from.
    private let generatedNames: [(infoPlistKey: Int, standard: Int?)]

    package init(project: XcodeProject) {
        self.project = project
        targetDefaultRuns = Array(repeating: nil, count: project.targets.count * Platform.allCases.count)
        read = (names.number(adding: "GENERATE_INFOPLIST_FILE"), names.number(adding: "INFOPLIST_FILE"),
                names.number(adding: "CODE_SIGN_ENTITLEMENTS"), names.number(adding: "PRODUCT_NAME"),
                names.number(adding: "INFOPLIST_PREPROCESS"))
        deploymentTargets = Platform.allCases.map { [names] in names.number(adding: $0.deploymentTargetSetting) }
        generatedNames = CheckedKey.allCases.map { [names] in
            (names.number(adding: "INFOPLIST_KEY_" + $0.key), names.standardSettings[$0.rawValue])
        }
    }

    /// - Parameters:
    ///   - target: one of `project.targets`.
    ///   - platform: the build of a multiplatform target to resolve (<doc:ReadingProjects> "Embedded"), when it is
    ///     not the one the target's settings choose.
    package func resolve(_ target: XcodeProject.Target, configuration: String, platform: Platform) -> ResolvedTarget {
        let natural = resolve(target, configuration: configuration)
        guard natural.platform != platform else { return natural }
        let key = ASCII.joined(String(target.index), "\u{0}", configuration, "\u{0}", platform.rawValue)
        if let known = otherBuilds[key] { return known }
        let state = configurations[configuration]!
        let resolved = build(target, configuration: configuration, state: state, platform: platform)
        otherBuilds[key] = resolved
        return resolved
    }

    /// `resolve(_:configuration:platform:)`'s resolutions, by target index, configuration and platform.
    private var otherBuilds: [String: ResolvedTarget] = [:]

    /// - Parameter target: one of `project.targets`.
    package func resolve(_ target: XcodeProject.Target, configuration: String) -> ResolvedTarget {
        // A set asks for one configuration target after target: its state without hashing its name each time.
        let state = lastState.flatMap { $0.name == configuration ? $0.state : nil }
            ?? configurations[configuration] ?? makeState(configuration, first: target)
        lastState = (configuration, state)
        if let cached = state.resolved[target.index] { return cached }
        let resolved = sameButForWhereWritten(target, state: state) ?? build(target, configuration: configuration, state: state)
        state.resolved[target.index] = resolved
        return resolved
    }

    /// The state of `configuration`: its defaults that do not depend on the target (`target` is any of them), and
    /// its project level.
    private func makeState(_ configuration: String, first target: XcodeProject.Target) -> ConfigurationState {
        let ownNames = Set(Self.targetDefaultPairs(target).map(\.0))
        let defaults = Self.defaultPairs(target, configuration: configuration, project: project)
            .filter { !ownNames.contains($0.0) }.map(Self.defaultAssignment)
        // The project level is the same for every target: read once per configuration.
        let projectLevel = project.configurations.first { $0.name == configuration }
            .map { level($0, owner: "the project [\(configuration)]", targetLevel: false) } ?? Level()
        let shared = defaults + projectLevel.assignments
        let state = ConfigurationState(name: configuration, shared: shared, projectLevel: projectLevel,
                                       nameIndex: BuildSettings.NameIndex(targetDefaults(target, platform: .iOS) + shared, names: names),
                                       targets: project.targets.count)
        configurations[configuration] = state
        states.append(state)
        return state
    }

    /// `target` in the configuration of `state`, taken from its resolution in an earlier configuration whose settings
    /// it reads the same but for where they are written (Debug and Release of most projects, which assign the
    /// values `check` reads alike, and differ in settings it never reads): only its context, settings and its
    /// values' sources are this configuration's own. Nil when no earlier resolution qualifies: `build` then resolves it.
    ///
    /// The earlier resolution recorded every setting it looked up (`BuildSettings.readsTheSame`): a value it
    /// expanded looked up each setting it references, so a setting it read through another is recorded too.
    private func sameButForWhereWritten(_ target: XcodeProject.Target, state: ConfigurationState) -> ResolvedTarget? {
        guard let earlierState = states.first(where: { $0 !== state && $0.resolved[target.index]?.isReusable == true }),
              let earlier = earlierState.resolved[target.index],
              state.projectLevel.problems.isEmpty, state.projectLevel.missingIncludes.isEmpty else { return nil }
        let configuration = state.name
        let (owner, targetLevel) = ownLevel(of: target, configuration: configuration)
        guard targetLevel.problems.isEmpty, targetLevel.missingIncludes.isEmpty,
              earlier.settings.hasOwnRun(alike: targetLevel.assignments) else { return nil }
        let (settings, platform, threeRuns) = settings(target, configuration: configuration, state: state, own: targetLevel.assignments,
                                                       hasUnknownSources: false, recordingLookups: false)
        guard threeRuns, platform == earlier.platform,
              earlier.settings.readsTheSame(in: settings, differing: state.differences(from: earlierState, names: names)) else { return nil }
        let context = Self.context(of: target, owner: owner, platform: platform, configuration: configuration)
        // A value whose setting is written somewhere is sourced there in this configuration; one from the Info.plist
        // or Xcode's defaults comes from the same place in every configuration.
        var values = earlier.values
        values.resource { reference, number in
            settings.origin(of: reference, number: number).flatMap { $0.source.isDefault ? nil : $0.location }
        }
        return ResolvedTarget(
            target: target, configuration: configuration, context: context, settings: settings, plistPath: earlier.plistPath,
            values: consume values, extensionPoint: earlier.extensionPoint, hasExtensionDictionary: earlier.hasExtensionDictionary,
            appGroups: earlier.appGroups, store: earlier.store, entitlementsPath: earlier.entitlementsPath,
            productName: earlier.productName, problems: [], missingIncludes: [], targetXcconfigs: targetLevel.xcconfigFiles,
            platform: platform, unknowns: earlier.unknowns, isReusable: false)
    }

    /// The target's own level in `configuration` (empty when it lacks that configuration), and its owner as findings
    /// and sources name it: "target 'Widget' [Release]".
    private func ownLevel(of target: XcodeProject.Target, configuration: String) -> (owner: String, level: Level) {
        let owner = ASCII.joined("target '", target.name, "' [", configuration, "]")
        return (owner, target.configurations.first { $0.name == configuration }.map { level($0, owner: owner, targetLevel: true) } ?? Level())
    }

    /// How findings name the target: its owner, with the platform when it is not iOS.
    private static func context(of target: XcodeProject.Target, owner: String, platform: Platform, configuration: String) -> String {
        platform == .iOS ? owner : "target '\(target.name)' (\(platform.rawValue)) [\(configuration)]"
    }

    /// The settings of `target` in the configuration of `state`, with its own level `own`, and the platform it builds
    /// for. The three runs, low → high: its own defaults, what the configuration shares, its own level (Xcode's
    /// defaults have one assignment per name, so their order among themselves changes no value).
    /// - Returns: `threeRuns` when every assignment's conditions hold (usually: Xcode's defaults have none), and the
    ///   runs are kept as they are; otherwise the assignments that hold, in one list.
    private func settings(_ target: XcodeProject.Target, configuration: String, state: ConfigurationState, own: [SettingAssignment],
                          hasUnknownSources: Bool, recordingLookups: Bool, platform chosen: Platform? = nil) -> (settings: BuildSettings, platform: Platform, threeRuns: Bool) {
        let platform = chosen ?? platform(first: targetDefaults(target, platform: .iOS), state: state, own: own)
        let first = targetDefaults(target, platform: platform)
        let sdk = platform.sdk
        func holds(_ assignment: SettingAssignment) -> Bool {
            assignment.conditions.isEmpty || BuildSettings.conditionsHold(assignment.conditions, configuration: configuration, sdk: sdk)
        }
        let platformIndex = Self.index(of: platform)
        let sharedHolds = state.sharedHolds[platformIndex] ?? {
            let all = state.shared.allSatisfy(holds)
            state.sharedHolds[platformIndex] = all
            return all
        }()
        if sharedHolds, own.allSatisfy(holds) {
            return (BuildSettings(first: first, shared: state.shared, own: own, index: state.nameIndex, names: names,
                                  hasUnknownSources: hasUnknownSources, recordingLookups: recordingLookups), platform, true)
        }
        let raw = first + state.shared + own
        return (BuildSettings(assignments: raw.filter(holds), conditionallyDefined: Set(raw.filter { !holds($0) }.map(\.name)),
                              names: names, hasUnknownSources: hasUnknownSources), platform, false)
    }

    /// `platform`'s index in `Platform.allCases`, without making that array.
    private static func index(of platform: Platform) -> Int {
        switch platform {
        case .iOS: 0
        case .watchOS: 1
        case .tvOS: 2
        case .visionOS: 3
        case .macOS: 4
        }
    }

    /// <doc:ReadingProjects> "Platforms": the platform from SDKROOT (SUPPORTED_PLATFORMS when it is `auto`); conditions on
    /// the SDK are decided for that platform's device SDK. The configuration's run is the same for every target:
    /// searched once (`ConfigurationState.platformSettings`).
    private func platform(first: [SettingAssignment], state: ConfigurationState, own: [SettingAssignment]) -> Platform {
        let sdkroot = Self.lastUnconditioned("SDKROOT", in: own), supported = Self.lastUnconditioned("SUPPORTED_PLATFORMS", in: own)
        let firstSDKRoot = Self.lastUnconditioned("SDKROOT", in: first), firstSupported = Self.lastUnconditioned("SUPPORTED_PLATFORMS", in: first)
        if sdkroot == nil, supported == nil, firstSDKRoot == nil, firstSupported == nil { return state.sharedPlatform }
        return Self.platform(sdkroot: sdkroot ?? state.platformSettings.sdkroot ?? firstSDKRoot,
                             supported: supported ?? state.platformSettings.supported ?? firstSupported)
    }

    /// - Parameter chosen: the platform to build for, instead of the one the target's settings choose.
    private func build(_ target: XcodeProject.Target, configuration: String, state: ConfigurationState, platform chosen: Platform? = nil) -> ResolvedTarget {
        let projectLevel = state.projectLevel
        let (owner, targetLevel) = ownLevel(of: target, configuration: configuration)
        let own = targetLevel.assignments
        var problems = projectLevel.problems + targetLevel.problems
        let missingIncludes = projectLevel.missingIncludes + targetLevel.missingIncludes
        let targetXcconfigs = targetLevel.xcconfigFiles

        // A file that would define settings is missing: what nothing here defines is unknown, not empty. What the
        // settings are asked for is recorded, for a later configuration that may take this resolution.
        let (settings, platform, _) = settings(target, configuration: configuration, state: state, own: own,
                                               hasUnknownSources: !missingIncludes.isEmpty, recordingLookups: true, platform: chosen)
        let context = Self.context(of: target, owner: owner, platform: platform, configuration: configuration)

        let generate = settings.value(number: read.generate).value.uppercased() == "YES"
        // No Info.plist read: the empty one, shared (nothing is kept in it: it has no checked values).
        var plist = noInfoPlist
        var plistPath: String?
        /// The Info.plist's own path (for an XcodeGen one, the generated path, whose keys the spec marks).
        var plistFile: String?
        /// The prefix header of a preprocessed Info.plist that the checkout does not hold: its macros are unknown.
        var unknownHeader: String?
        let plistSetting = settings.value(number: read.infoPlist).value
        if !plistSetting.isEmpty {
            let (wanted, found, shown, generated) = infoPlistFile(plistSetting)
            plistPath = shown
            plistFile = found
            let preprocessed = generated ? nil : found.flatMap { preprocessedInfoPlist($0, settings: settings) }
            if let header = preprocessed?.unknownHeader {
                unknownHeader = header
                problems.append((header, "the Info.plist prefix header '\(header)' of \(context) (INFOPLIST_PREFIX_HEADER) is not in the checkout (a build phase writes such a header, usually into a git-ignored folder), so the macros it defines are unknown; the rest of the Info.plist is read as written", .warning))
            }
            if let failure = preprocessed?.failure {
                problems.append((found!, "the Info.plist of \(context) is preprocessed (INFOPLIST_PREPROCESS = YES), and \(failure)", .error))
            } else if let found, let info = preprocessed?.plist ?? infoPlist(found) {
                plist = info
            } else if let name = BuildSettings.unknownNames(in: plistSetting, among: settings.value(number: read.infoPlist).unresolved).first {
                // The path itself uses a setting the checkout cannot supply: not a missing file.
                problems.append((wanted, "INFOPLIST_FILE of \(context) is '\(plistSetting)', which uses \(name), a setting the checkout cannot supply, so its Info.plist was not read. \(Self.unknownHint(name, missingIncludes))", .warning))
            } else if let found, let damage = DamagedPropertyList.problem(at: found) {
                problems.append((found, damage + " (the INFOPLIST_FILE of \(context))", .damaged))
            } else {
                problems.append((wanted, "INFOPLIST_FILE of target '\(target.name)' [\(configuration)] is '\(plistSetting)', but '\(wanted)' \(Self.whyUnreadable(found ?? wanted))", .error))
            }
        }

        var values = ResolvedTarget.CheckedValues()
        var unknowns: [String: String] = [:]
        for checked in CheckedKey.allCases {
            let (key, standard, written) = (checked.key, checked.standardSetting, plist.checked[checked.rawValue])
            // The template (with the first setting it references, which says where the value came from), expanded.
            var unresolved: Set<String> = []
            let template: Template
            var value: String
            // A generated Info.plist's value wins over the file's when its setting is set (<doc:ReadingProjects>
            // "Reading real projects": Xcode merges the generated keys over INFOPLIST_FILE's).
            let generated = generate ? generatedTemplate(checked, standard: standard, settings: settings) : nil
            let inPlist = generated == nil ? written : nil
            if let generated {
                template = generated
                value = settings.expand(generated.text, unresolved: &unresolved)
            } else if let inPlist {
                template = Template(text: inPlist.value.text, reference: inPlist.reference, number: inPlist.number)
                value = settings.expand(inPlist.value, unresolved: &unresolved)
                // A macro of a prefix header the checkout does not hold is unknown, not text to compare.
                if let unknownHeader { value = InfoPlistPreprocessor.macrosAsUnknown(value, header: unknownHeader, unknowns: &unknowns) }
            } else {
                continue
            }
            for name in BuildSettings.unknownNames(in: value, among: unresolved) { unknowns[name] = Self.unknownHint(name, missingIncludes) }
            values[checked] = .init(template: template.text, value: value, unresolved: unresolved,
                                    source: source(of: template, key: key, plistPath: plistPath, plistFile: plistFile, settings: settings,
                                                   plist: inPlist == nil ? nil : (plist, checked)),
                                    literalInPlist: inPlist != nil && !ASCII.contains(byte: UInt8(ascii: "$"), in: template.text),
                                    reference: template.reference, referenceNumber: template.number)
        }

        func expanded(_ text: String?) -> String? {
            guard let text else { return nil }
            var ignored: Set<String> = []
            return settings.expand(text, unresolved: &ignored)
        }
        // Xcode has no INFOPLIST_KEY_ for NSExtension: even a generated Info.plist takes it from INFOPLIST_FILE.
        let extensionPoint = expanded(plist.extensionPoint) ?? expanded(plist.exExtensionPoint)

        // Entitlements: values expanded with the target's settings; `$(CFBundleIdentifier)` is the product's
        // bundle id; signing-time prefixes stay symbolic (rule `group.shared`).
        var appGroups: [String] = []
        var parentApplicationIdentifiers: [String]?
        var entitlementsPath: String?
        var appGroupsKnown = true
        let entitlementsSetting = settings.value(number: read.entitlements).value
        if !entitlementsSetting.isEmpty {
            let wanted = sourcePath(entitlementsSetting)
            if let found = existingPath(wanted), let entitlements = readPlist(found) {
                entitlementsPath = project.generated[found]?.spec ?? found
                let overlay = ["CFBundleIdentifier": values[.bundleIdentifier]?.value ?? ""]
                for group in entitlements["com.apple.security.application-groups"] as? [Any] ?? [] {
                    guard let text = group as? String else { continue }
                    var unresolved: Set<String> = []
                    appGroups.append(settings.expand(text, overlay: overlay, keepSymbolic: true, unresolved: &unresolved))
                    let unknown = BuildSettings.unknownNames(in: appGroups.last!, among: unresolved)
                    for name in unknown { unknowns[name] = Self.unknownHint(name, missingIncludes) }
                    for name in unresolved.subtracting(unknown).sorted() {
                        problems.append((found, "the app group '\(text)' in the entitlements of target '\(target.name)' [\(configuration)] uses $(\(name)), which nothing defines, so it becomes '\(appGroups.last!)'", .warning))
                    }
                }
                // rule `clip.parent`: an App Clip's parent list, `$(AppIdentifierPrefix)` kept symbolic.
                parentApplicationIdentifiers = (entitlements["com.apple.developer.parent-application-identifiers"] as? [Any])?.compactMap { value in
                    (value as? String).map { text in
                        var ignored: Set<String> = []
                        return settings.expand(text, overlay: overlay, keepSymbolic: true, unresolved: &ignored)
                    }
                }
            } else if let found = existingPath(wanted), let damage = DamagedPropertyList.problem(at: found) {
                problems.append((found, damage + " (the CODE_SIGN_ENTITLEMENTS of \(context))", .damaged))
            } else if let name = Self.innermost(BuildSettings.unknownNames(in: entitlementsSetting, among: settings.value(number: read.entitlements).unresolved)) {
                // The path itself uses a setting the checkout cannot supply (Provenance's
                // `$(ENTITLEMENTS_$(DEVELOPER_ACCOUNT_PAID:default=NO))`): which file is signed in is unknown, and so
                // are its groups, not none.
                appGroupsKnown = false
                // The file that sets it, not a path with `$(…)` in it that no tool could open.
                let setter = settings.origin(of: "CODE_SIGN_ENTITLEMENTS", number: read.entitlements).map(\.source.file)
                problems.append((setter.flatMap { $0.isEmpty ? nil : $0 } ?? wanted, "CODE_SIGN_ENTITLEMENTS of \(context) is '\(entitlementsSetting)', which uses \(name), a setting the checkout cannot supply, so its App Groups are unknown and not compared. \(Self.unknownHint(name, missingIncludes))", .warning))
            } else {
                problems.append((wanted, "CODE_SIGN_ENTITLEMENTS of target '\(target.name)' [\(configuration)] is '\(entitlementsSetting)', but '\(wanted)' does not exist or is not a property list", .warning))
            }
        }
        // Other Info.plist strings that use a setting nothing defines: a warning (rule `settings.unresolved`).
        for (key, expandable, checked) in plist.referencing where checked.map({ values[$0] == nil }) ?? true {
            let text = expandable.text
            var unresolved: Set<String> = []
            let value = settings.expand(expandable, unresolved: &unresolved)
            let unknown = BuildSettings.unknownNames(in: value, among: unresolved)
            // Xcode supplies a signing-time value to every build: nothing to warn about where no rule compares it.
            for name in unknown where !BuildSettings.signingTimeNames.contains(name) {
                problems.append((plistPath ?? project.pbxprojPath, "\(key) of \(context) is '\(text)', which uses \(name), a setting the checkout cannot supply. \(Self.unknownHint(name, missingIncludes))", .warning))
            }
            for name in unresolved.subtracting(unknown).sorted() {
                var message = "\(key) of \(context) is '\(text)', but nothing defines \(name), so Xcode builds it as '\(value)'."
                if let missing = MissingInclude.likeliest(missingIncludes) { message += " " + missing.hint }
                problems.append((plistPath ?? project.pbxprojPath, message, .warning))
            }
        }

        // rule `extension.display-name`: the plist's CFBundleDisplayName, or a generated plist's setting.
        var store = StoreFacts()
        store.isBuilt = false
        let displayName = plist.strings["CFBundleDisplayName"] ?? (generate && settings.isDefined("INFOPLIST_KEY_CFBundleDisplayName") ? "$(INFOPLIST_KEY_CFBundleDisplayName)" : nil)
        store.hasDisplayName = !(expanded(displayName) ?? "").isEmpty
        (store.activationRule, store.activationTypeProblems) = plist.activation
        store.parentApplicationIdentifiers = parentApplicationIdentifiers
        // What signing makes of the bundle id: `$(AppIdentifierPrefix)` stays symbolic, as in the entitlements.
        store.applicationIdentifier = values[.bundleIdentifier].map { "$(AppIdentifierPrefix)" + $0.value }
        // rule `os.extension-floor`: the deployment target is what a built Info.plist's MinimumOSVersion becomes.
        let deployment = settings.value(number: deploymentTargets[Self.index(of: platform)])
        if !deployment.value.isEmpty, deployment.unresolved.isEmpty { store.minimumOS = deployment.value }

        let productName = settings.value(number: read.productName).value
        // rule `settings.unresolved`: a value too long to expand is as unusable as an undefined one.
        for assignment in settings.oversized {
            let location = assignment.location
            problems.append((location.file, "\(assignment.name) of target '\(target.name)' [\(configuration)] (\(location.file), \(location.detail!)) expands to more than \(BuildSettings.maximumLength) bytes (each definition that uses $(inherited) twice doubles it), so Lockstep treats it as empty", .error))
        }

        let resolved = ResolvedTarget(
            target: target, configuration: configuration, context: context, settings: settings, plistPath: plistPath, values: consume values,
            extensionPoint: extensionPoint, hasExtensionDictionary: plist.hasExtensionDictionary,
            appGroups: appGroups, store: store, entitlementsPath: entitlementsPath, productName: productName, problems: problems,
            missingIncludes: missingIncludes, targetXcconfigs: targetXcconfigs, platform: platform, unknowns: unknowns,
            isReusable: chosen == nil && problems.isEmpty && missingIncludes.isEmpty && settings.oversized.isEmpty)
        resolved.appGroupsKnown = appGroupsKnown
        return resolved
    }

    /// Of the unknown names a value uses, the one no other is built from: `DEVELOPER_ACCOUNT_PAID`, not
    /// `ENTITLEMENTS_$(DEVELOPER_ACCOUNT_PAID)`.
    private static func innermost(_ names: [String]) -> String? {
        names.first { !$0.contains("$") } ?? names.first
    }

    /// Where an unknown setting would have come from: the likeliest missing file, else a per-developer setting.
    static func unknownHint(_ name: String, _ missing: [MissingInclude]) -> String {
        if BuildSettings.signingTimeNames.contains(name) {
            return "\(name) is set by Xcode when it signs the bundle, so the checkout does not hold it."
        }
        if BuildSettings.perDeveloperNames.contains(name) {
            return "\(name) is set by each developer (Xcode's Signing & Capabilities, or a git-ignored xcconfig), so the checkout does not hold it."
        }
        return MissingInclude.likeliest(missing).map(\.hint) ?? "Nothing in the checkout defines it."
    }

    /// The value of the last assignment of `name` in `assignments` that has no conditions. The names' byte counts
    /// are compared first: most names are longer than a small string, and comparing two such strings goes through
    /// the runtime's general comparison (two scans of every target's assignments were 1.4 M instructions of a
    /// 200-target check).
    private static func lastUnconditioned(_ name: String, in assignments: [SettingAssignment]) -> String? {
        let count = name.utf8.count
        return assignments.last { $0.name.utf8.count == count && $0.conditions.isEmpty && $0.name == name }?.value
    }

    /// <doc:ReadingProjects> "Platforms": the platform of `SDKROOT`, or of `SUPPORTED_PLATFORMS` when SDKROOT is `auto` or
    /// absent. A target that also supports iOS is checked as iOS, the build App Store Connect validates for iOS.
    static func platform(sdkroot: String?, supported: String?) -> Platform {
        if let sdkroot, let platform = Platform(sdk: sdkroot) { return platform }
        let names = (supported ?? "").split(whereSeparator: { $0 == " " || $0 == "\t" }).compactMap { Platform(sdk: String($0)) }
        return names.contains(.iOS) || names.isEmpty ? .iOS : names[0]
    }

    /// A checked value's unexpanded text, the first setting it references (which says where the value came from),
    /// and that setting's number in `names`.
    private struct Template {
        var text: String
        var reference: String?
        var number: Int?
    }

    /// GENERATE_INFOPLIST_FILE: the value Xcode generates for `checked`, which it merges over the Info.plist file's.
    ///
    /// As Xcode's build system writes it (swift-build, `InfoPlistProcessorTaskAction.defaultInfoPlistContent`):
    /// CFBundleVersion is `CURRENT_PROJECT_VERSION`, CFBundleShortVersionString `MARKETING_VERSION`, CFBundleIdentifier
    /// `PRODUCT_BUNDLE_IDENTIFIER`, CFBundlePackageType `PRODUCT_BUNDLE_PACKAGE_TYPE`, each when it is set; an
    /// `INFOPLIST_KEY_` setting of these keys is not read. WKCompanionAppBundleIdentifier is
    /// `INFOPLIST_KEY_WKCompanionAppBundleIdentifier`. Nil when the setting is not set: the file's value stands.
    private func generatedTemplate(_ checked: CheckedKey, standard: String?, settings: BuildSettings) -> Template? {
        let (key, numbers) = (checked.key, generatedNames[checked.rawValue])
        if let standard, let number = numbers.standard {
            return settings.isDefined(number: number) ? Template(text: "$(\(standard))", reference: standard, number: number) : nil
        }
        if settings.isDefined(number: numbers.infoPlistKey) {
            return Template(text: "$(INFOPLIST_KEY_\(key))", reference: "INFOPLIST_KEY_" + key, number: numbers.infoPlistKey)
        }
        return nil
    }

    /// Where a checked value came from: the plist for a literal, else the setting its first reference names; with
    /// the line and column where the reader knows them (the plist's `<key>`, the xcconfig assignment, the spec's
    /// value), or what `PbxprojPositions` needs to find the line of a pbxproj setting when a finding points at it.
    /// - Parameter plist: the Info.plist the template was read from, and its key: where the value comes from the
    ///   plist itself, that place is the same for every target that reads the file, and is kept there.
    private func source(of template: Template, key: String, plistPath: String?, plistFile: String?, settings: BuildSettings,
                        plist: (file: InfoPlist, key: CheckedKey)?) -> SourceLocation {
        guard let name = template.reference, let origin = settings.origin(of: name, number: template.number), !origin.source.isDefault else {
            if let plist, let kept = plist.file.sources[plist.key.rawValue] { return kept }
            let detail = template.reference == nil ? key : "\(key) = \(template.text)"
            let position = plistFile.flatMap { plistKeyPosition(key, in: $0) }
            let source = SourceLocation(file: plistPath ?? project.pbxprojPath, detail: detail, line: position?.line, column: position?.column)
            if let plist { plist.file.sources[plist.key.rawValue] = source }
            return source
        }
        return origin.location
    }

    /// Info.plist texts by path, read when a finding first needs a key's line.
    private var plistTexts: [String: [UInt8]?] = [:]

    /// Where `key` is written in the Info.plist at `path`: its spec value for one XcodeGen generates, else its
    /// `<key>` in an XML plist.
    private func plistKeyPosition(_ key: String, in path: String) -> (line: Int, column: Int)? {
        if let generated = project.generated[path] {
            return generated.keyMarks[key].map { ($0.line, $0.column) }
        }
        // Once per file and key: the targets that share an Info.plist ask for the same keys.
        if let cached = plistKeyPositions[path]?[key] { return cached }
        if plistTexts[path] == nil { plistTexts[path] = .some(InputFile.readIfPresent(path)) }
        let position = (plistTexts[path] ?? nil).flatMap { SourcePosition.plistKey(key, in: $0) }
        plistKeyPositions[path, default: [:]][key] = .some(position)
        return position
    }

    /// `plistKeyPosition` by file and key.
    private var plistKeyPositions: [String: [String: (line: Int, column: Int)?]] = [:]

    /// One configuration's assignments at one level (its xcconfig, then its `buildSettings`), low → high.
    private struct Level {
        var assignments: [SettingAssignment] = []
        var problems: [(file: String, message: String, severity: ProblemWeight)] = []
        var missingIncludes: [MissingInclude] = []
        /// The xcconfig files the assignments came from.
        var xcconfigFiles: Set<String> = []
    }

    private func level(_ configuration: XcodeProject.Configuration, owner: String, targetLevel: Bool) -> Level {
        var level = Level()
        if let base = configuration.baseConfigurationPath, PathText.existing(base) == nil {
            // Xcode builds such a checkout with the warning "Unable to open base configuration reference file"
            // (CocoaPods' support files before `pod install`): its settings are unknown, not an error.
            let missing = MissingInclude(path: base, includer: owner, optional: false, isBase: true)
            level.missingIncludes = [missing]
            level.problems = [(base, "Unable to open base configuration reference file '\(base)' of \(owner) (Xcode builds with this warning\(missing.generator.map { "; `\($0)` writes it" } ?? "")): the settings it defines are unknown, and rules that depend on them are warnings", .warning)]
        } else if let base = configuration.baseConfigurationPath {
            let flat = xcconfigs.flatten(base)
            for assignment in flat.assignments.map({ $0.atTargetLevel(targetLevel) }) {
                level.assignments.append(assignment)
                level.xcconfigFiles.insert(assignment.source.file)
            }
            level.problems = flat.problems
            level.missingIncludes = flat.missingIncludes
        }
        level.assignments.reserveCapacity(level.assignments.count + configuration.settings.count)
        for (key, value) in configuration.settings {
            guard let (name, conditions) = XcconfigReader.splitKey(key) else { continue }
            // A setting from an XcodeGen spec is named by its file and line there; one XcodeGen adds, by the spec.
            let mark = configuration.marks[key]
            level.assignments.append(SettingAssignment(key: key, name: name, conditions: conditions, value: value, source: SettingSource(
                file: mark?.file ?? project.pbxprojPath, line: mark?.line, configurationID: configuration.id, owner: owner,
                targetLevel: targetLevel, specRange: mark?.range, column: mark?.column)))
        }
        return level
    }

    /// Xcode's defaults that depend on the target (`targetDefaultPairs`), made once per target: those of its name
    /// are its own; those of its product type are shared by the targets of that type.
    ///
    /// PLATFORM_NAME is the platform the target is built for, last: its names are the same for every platform, so a
    /// configuration's name index holds for each (the platform is decided before these are asked for).
    private func targetDefaults(_ target: XcodeProject.Target, platform: Platform) -> [SettingAssignment] {
        let slot = target.index * Platform.allCases.count + Self.index(of: platform)
        if let made = targetDefaultRuns[slot] { return made }
        let byType = productTypeDefaults[target.productType] ?? Self.typeDefaultPairs(target).map(Self.defaultAssignment)
        productTypeDefaults[target.productType] = byType
        let made = Self.nameDefaultPairs(target).map(Self.defaultAssignment) + byType + [Self.defaultAssignment(Self.platformNamePair(platform))]
        targetDefaultRuns[slot] = made
        return made
    }

    /// Xcode's PLATFORM_NAME: the platform of the SDK a build uses (`iphoneos`), whatever SDKROOT says. With
    /// `SDKROOT = auto` (a multiplatform target) it is each build's own, never `auto`: Provenance's
    /// `CODE_SIGN_ENTITLEMENTS = $(CODE_SIGN_ENTITLEMENTS_$(PLATFORM_NAME))` picks the iOS file for its iOS build.
    private static func platformNamePair(_ platform: Platform) -> (String, String) { ("PLATFORM_NAME", platform.sdk) }

    private static func defaultAssignment(_ pair: (String, String)) -> SettingAssignment {
        SettingAssignment(key: pair.0, name: pair.0, conditions: [], value: pair.1,
                          source: SettingSource(file: "", line: nil, configurationID: nil, owner: "Xcode's default"))
    }

    /// Every default, in order.
    private static func defaultPairs(_ target: XcodeProject.Target, configuration: String, project: XcodeProject) -> [(String, String)] {
        [
            ("TARGET_NAME", target.name), ("TARGETNAME", target.name), ("PRODUCT_NAME", "$(TARGET_NAME)"),
            ("PROJECT_NAME", project.name), ("CONFIGURATION", configuration),
            ("SRCROOT", project.absoluteSourceRoot), ("PROJECT_DIR", project.absoluteSourceRoot),
            ("SOURCE_ROOT", project.absoluteSourceRoot),
            ("PROJECT_FILE_PATH", PathText.join(project.absoluteSourceRoot, project.specPath == nil ? PathText.lastComponent(of: project.path) : project.name + ".xcodeproj")), ("SDKROOT", "iphoneos"),
            ("EFFECTIVE_PLATFORM_NAME", "-$(PLATFORM_NAME)"), ("CURRENT_ARCH", "arm64"), ("ARCHS", "arm64"),
            ("EXECUTABLE_PREFIX", ""), ("EXECUTABLE_SUFFIX", ""),
            ("EXECUTABLE_NAME", "$(EXECUTABLE_PREFIX)$(PRODUCT_NAME)$(EXECUTABLE_SUFFIX)"),
            ("PRODUCT_MODULE_NAME", "$(PRODUCT_NAME:c99extidentifier)"), ("DEVELOPMENT_LANGUAGE", "en"),
            ("PRODUCT_BUNDLE_PACKAGE_TYPE", target.kind.packageType), ("WRAPPER_EXTENSION", target.kind.wrapperExtension),
            ("WRAPPER_NAME", "$(PRODUCT_NAME).$(WRAPPER_EXTENSION)"), ("FULL_PRODUCT_NAME", "$(WRAPPER_NAME)"),
            ("CONTENTS_FOLDER_PATH", "$(WRAPPER_NAME)"), ("INFOPLIST_PATH", "$(CONTENTS_FOLDER_PATH)/Info.plist"),
            ("PLUGINS_FOLDER_PATH", "$(CONTENTS_FOLDER_PATH)/PlugIns"),
            ("EXTENSIONS_FOLDER_PATH", "$(CONTENTS_FOLDER_PATH)/Extensions"),
            ("BUILD_DIR", "$(SRCROOT)/build"), ("BUILT_PRODUCTS_DIR", "$(BUILD_DIR)/$(CONFIGURATION)$(EFFECTIVE_PLATFORM_NAME)"),
            ("TARGET_BUILD_DIR", "$(BUILT_PRODUCTS_DIR)"), ("CONFIGURATION_BUILD_DIR", "$(BUILT_PRODUCTS_DIR)"),
            ("PRODUCT_TYPE", target.productType), ("DEVELOPER_DIR", "/Applications/Xcode.app/Contents/Developer"),
        ]
    }

    /// The defaults of `defaultPairs` that depend on the target: every one that reads `target` must be in one of
    /// these, those of its name, then those of its product type.
    private static func targetDefaultPairs(_ target: XcodeProject.Target) -> [(String, String)] {
        nameDefaultPairs(target) + typeDefaultPairs(target) + [platformNamePair(.iOS)]
    }

    private static func nameDefaultPairs(_ target: XcodeProject.Target) -> [(String, String)] {
        [("TARGET_NAME", target.name), ("TARGETNAME", target.name)]
    }

    private static func typeDefaultPairs(_ target: XcodeProject.Target) -> [(String, String)] {
        [("PRODUCT_BUNDLE_PACKAGE_TYPE", target.kind.packageType), ("WRAPPER_EXTENSION", target.kind.wrapperExtension),
         ("PRODUCT_TYPE", target.productType)]
    }
}
