import BundleKit
import XcodeKit

// The rules only an Xcode project or spec can break (<doc:Rules> "Bundles and versions"): settings a checked value
// uses, a target's own version settings, and how targets are embedded (<doc:ReadingProjects> "Embedded").

extension RuleCatalog {
    static let projectRules = RuleDescription.parse("""
        settings.unresolved | error | Bundles and versions
        A build setting a checked value uses is defined; a value the checkout cannot supply is unknown, and a warning.
        Apple: Xcode builds a $(VAR) that nothing defines as the empty string; Xcode warns "Unable to open base configuration reference file" for a missing base xcconfig.
        Source: Xcode's build warning
        Source: developer.apple.com/documentation/xcode/build-settings-reference
        Lockstep: Resolves every checked Info.plist value through the project's build settings and xcconfig files (XcodeKit's TargetResolver); an undefined setting that empties a compared value is an error, one the checkout cannot supply (a generated xcconfig, a per-developer setting) a warning naming the command that writes it.
        Fix: Define the setting, or run the tool that writes the missing file (`pod install`, `flutter pub get`) before `lockstep check`.

        settings.target-override | warning | Bundles and versions
        An embedded target inherits CURRENT_PROJECT_VERSION and MARKETING_VERSION instead of setting its own.
        Apple: (Lockstep) The root cause of most ITMS-90473 mismatches: an extension target that sets its own version.
        Source: Lockstep's own rule, for App Store Connect's ITMS-90473
        Lockstep: Reads where each embedded target's version settings are assigned: at target level (its buildSettings or its xcconfig) rather than inherited from the project.
        Fix: Delete the target-level setting so the target inherits the project's.

        bundle.not-embedded | note | Bundles and versions
        An extension or watch app an app depends on is embedded by a Copy Files phase, so its versions are checked.
        Apple: (Lockstep) If a script embeds it, its versions are not checked.
        Source: Lockstep's own rule (Xcode's "Embed Foundation Extensions" and "Embed Watch Content" phases)
        Lockstep: Compares an app target's dependencies with the products its Copy Files phases embed.
        Fix: Embed it with an "Embed Foundation Extensions" / "Embed Watch Content" phase.

        bundle.embed-cycle | error | Bundles and versions
        No target embeds its own product, directly or through the bundles it embeds.
        Apple: (Lockstep) A bundle cannot contain itself.
        Source: Lockstep's own rule
        Lockstep: Follows the Copy Files phases from each target.
        Fix: Remove the app's own product from its Copy Files phases.
        """)
}

extension ProjectReading {
    /// rule `settings.unresolved` for what the project file itself leaves unreadable (a target listed but not
    /// defined): the values it would give are unknown.
    func projectFileFindings() -> [Finding] {
        project.problems.map { problem in
            Finding(rule: "settings.unresolved", bundle: PathText.lastComponent(of: project.path), path: project.pbxprojPath,
                    message: "In \(project.pbxprojPath), \(problem).")
        }
    }

    /// A target whose copy phases embed its own product, directly or through the bundles it embeds: Xcode would copy a
    /// bundle into itself. One finding per target on such a cycle.
    func embeddingCycles() -> [Finding] {
        project.targets.compactMap { target in
            let direct = target.embeds.contains { $0.targetID == target.id }
            guard direct || embedded[target.index].contains(where: { reaches(target.index, from: $0.index) }) else { return nil }
            return Finding(rule: "bundle.embed-cycle", bundle: target.name, path: project.pbxprojPath,
                message: direct ? "Target '\(target.name)' embeds its own product in a Copy Files phase: a bundle cannot contain itself."
                    : "Target '\(target.name)' embeds a bundle that embeds '\(target.name)' in turn (a cycle of Copy Files phases): a bundle cannot contain itself.")
        }
    }

    /// Extensions and watch apps the app's targets depend on but no Copy Files phase embeds: a run-script phase may
    /// copy them into the app, and then nothing here checks their versions. A note, so that is not silent.
    func unembeddedDependencies(of app: XcodeProject.Target) -> [Finding] {
        // By target index: whether any copy phase embeds it.
        var isEmbedded = [Bool](repeating: false, count: project.targets.count)
        for children in embedded { for child in children { isEmbedded[child.index] = true } }
        var findings: [Finding] = []
        var seen = [Bool](repeating: false, count: project.targets.count)
        seen[app.index] = true
        var queue = [app]
        while let target = queue.popLast() {
            // Its dependencies, then what it embeds; each target once.
            for index in target.dependencies.compactMap({ byID[$0]?.index }) + embedded[target.index].map(\.index) where !seen[index] {
                seen[index] = true
                let dependency = project.targets[index]
                queue.append(dependency)
                let kind = dependency.kind
                guard !isEmbedded[index], kind.isWatchApp || kind.packageType == "XPC!",
                      !ASCII.contains("system-extension", in: dependency.productType) else { continue }
                findings.append(Finding(rule: "bundle.not-embedded", bundle: app.name, path: project.pbxprojPath,
                    message: "Target '\(app.name)' depends on '\(dependency.name)' (\(dependency.productType)), but no Copy Files phase of the project embeds it: if a script embeds it, its versions are not checked."))
            }
        }
        return findings
    }

    /// The product type of a watch-only app's iOS stub, whose Info.plist Xcode writes.
    static let watchOnlyContainer = "com.apple.product-type.application.watchapp2-container"

    func findingsFor(_ member: Member, host: Member, into add: (Finding) -> Void) {
        let resolved = member.resolved
        let bundle = member.bundlePath
        let context = resolved.context
        for problem in resolved.problems {
            add(Finding(rule: "settings.unresolved", severity: problem.severity == .error ? .error : .warning, bundle: bundle, path: problem.file,
                        message: Self.sentence(problem.message)))
        }
        for checked in CheckedKey.allCases {
            guard resolved.values.isUnresolved(checked), !Self.scriptWrites(checked, resolved), let value = resolved.values[checked] else { continue }
            let key = checked.key
            // An unknown (a setting the checkout cannot supply) is not empty: the rules decide on it, and warn
            // where their verdict depends on it (<doc:ReadingProjects> "What the checkout does not hold").
            let unknown = Set(BuildSettings.unknownNames(in: value.value, among: value.unresolved))
            for name in value.unresolved.subtracting(unknown).sorted() {
                // rule `settings.unresolved`: an error when it empties a compared version or bundle id.
                let compared = checked != .packageType
                var message = "\(key) of \(context) is '\(value.template)', but nothing defines \(name), so Xcode builds it as '\(value.value)' (agvtool and fastlane read the literal '\(value.template)')."
                if let missing = MissingInclude.likeliest(resolved.missingIncludes) { message += " " + missing.hint }
                let source = positions.located(value.source)
                add(Finding(rule: "settings.unresolved", severity: compared ? .error : .warning, bundle: bundle,
                            path: source.file, message: message, line: source.line, column: source.column,
                            values: [key, name, value.template]))
            }
        }
        guard member.location != nil else { return }
        // A watch-only app's stub (watchapp2-container, Provenance Mini's) has no versions of its own: Xcode writes its
        // Info.plist from the watch app's, so the watch app's own versions are where they belong, not an override.
        if member.location == .watch, host.resolved.target.productType == Self.watchOnlyContainer { return }
        // rule `settings.target-override`: an embedded target that sets the version itself, and uses it.
        for checked in [CheckedKey.buildVersion, .shortVersion] {
            let (key, setting) = (checked.key, checked.standardSetting!)
            // The cheap tests first: most targets inherit the setting, so its winner is not at target level (and the
            // checked value, a copy across modules, is not needed).
            guard !Self.scriptWrites(checked, resolved), let index = resolved.settings.winner(standardOf: checked),
                  resolved.settings.assignment(at: index).source.targetLevel,
                  let value = resolved.values[checked], !value.literalInPlist else { continue }
            let assignment = resolved.settings.assignment(at: index)
            guard BuildSettings.references(in: value.template).contains(setting),
                  !assignment.usesInherited, assignment.soleReference != setting,
                  !host.resolved.targetXcconfigs.contains(assignment.source.file) else { continue }
            // A pbxproj setting's line, found in its configuration's object now that a finding needs it.
            let where_ = positions.located(assignment.location)
            let hostValue = host.resolved.values.text(checked) ?? "none"
            add(Finding(rule: "settings.target-override", bundle: bundle, path: assignment.source.file,
                        message: "\(context) sets \(setting) = \(assignment.value) itself (\(where_.file), \(where_.detail!)) instead of inheriting the project's, and its \(key) uses it (the containing app '\(host.resolved.target.name)' has '\(hostValue)'): the root cause of most \(key) mismatches. Remove the target's setting so it inherits.",
                        values: [setting, assignment.value, hostValue]).with(line: where_.line, column: where_.column))
        }
    }
}
