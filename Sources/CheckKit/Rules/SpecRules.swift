import XcodeGenKit

// The rules of an XcodeGen spec (<doc:ReadingProjects> "XcodeGen specs"): what XcodeGen turns into something other
// than what the spec seems to say. XcodeGenKit finds each (`SpecIssue`, in SpecProject's `specIssues`); here they
// become findings.

extension RuleCatalog {
    static let specRules = RuleDescription.parse("""
        spec.watch-not-embedded | warning | Bundles and versions
        In an XcodeGen spec, a watch app an iPhone app depends on has `platform: watchOS`, so XcodeGen embeds it in Watch.
        Apple: (Lockstep) XcodeGen embeds a dependency in "Embed Watch Content" only when its platform is watchOS; a watch app made with `supportedDestinations: [watchOS]` is copied as a resource, and the iPhone app ships without it.
        Source: Lockstep's own rule, for XcodeGen's embedding (github.com/yonaskolb/XcodeGen, Docs/ProjectSpec.md)
        Lockstep: Reads the spec's targets and the `dependencies` of each app.
        Fix: Set `platform: watchOS` on the watch app target (and drop `supportedDestinations`).

        spec.embed-false | warning | Bundles and versions
        In an XcodeGen spec, an app does not depend on its extension, App Clip or watch app with `embed: false`.
        Apple: (Lockstep) XcodeGen builds a dependency with `embed: false` but copies it into no bundle: the app ships without it.
        Source: Lockstep's own rule, for XcodeGen's `embed` option (github.com/yonaskolb/XcodeGen, Docs/ProjectSpec.md)
        Lockstep: Reads the `embed` of each app's dependencies on embeddable targets.
        Fix: Remove `embed: false`, unless a build script embeds the product.

        spec.version-number | warning | Bundles and versions
        In an XcodeGen spec, a version is written so that YAML reads it as the text it shows.
        Apple: (Lockstep) YAML reads MARKETING_VERSION: 1.10 as the number 1.1 and CURRENT_PROJECT_VERSION: 012 as 10, and XcodeGen writes those.
        Source: Lockstep's own rule, for YAML 1.1's typing of plain scalars
        Lockstep: Reads how each version setting and `info.properties` version is written in the spec's YAML.
        Fix: Quote the version: MARKETING_VERSION: "1.10".
        """)
}

extension Finding {
    /// What a spec gets wrong, as the finding of its rule (rules `spec.*`, warnings: the project builds).
    init(spec issue: SpecIssue) {
        let rule: RuleID = switch issue.kind {
        case .versionNumber: "spec.version-number"
        case .watchNotEmbedded: "spec.watch-not-embedded"
        case .embedFalse: "spec.embed-false"
        }
        self.init(rule: rule, bundle: issue.bundle, path: issue.mark.file, message: issue.message,
                  line: issue.mark.line, column: issue.mark.column)
    }
}
