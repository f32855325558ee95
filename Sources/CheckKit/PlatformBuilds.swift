import BundleKit
import XcodeKit

// <doc:ReadingProjects> "Embedded": a multiplatform app's other builds (tvOS, macOS, visionOS, Mac Catalyst), each with
// the bundles its copy phases filter to it. App Store Connect validates every platform's build, so each is checked as
// its platform, with that platform's rules.

extension ProjectReading {
    /// The builds of `app` other than its own platform's that its copy phases filter a bundle to, and that the app
    /// builds for (`SUPPORTED_PLATFORMS`, `SDKROOT`, or `SUPPORTS_MACCATALYST` for Mac Catalyst), in a stable order.
    /// - Parameter host: the app resolved for its own platform in the configuration being read.
    func otherBuilds(of app: XcodeProject.Target, host: ResolvedTarget) -> [PlatformFilter] {
        let own = PlatformFilter(host.platform)
        var named: Set<PlatformFilter> = []
        for (_, _, filters) in embedded[app.index] {
            for filter in filters ?? [] where filter != own && filter.platform != nil { named.insert(filter) }
        }
        return PlatformFilter.allCases.filter { named.contains($0) && Self.builds(host, for: $0) }
    }

    /// Whether the app's settings build it for `filter`'s platform: a filter naming a platform the target does not
    /// support embeds into no build Xcode makes.
    static func builds(_ app: ResolvedTarget, for filter: PlatformFilter) -> Bool {
        if filter == .maccatalyst { return app.settings.value("SUPPORTS_MACCATALYST").value.uppercased() == "YES" }
        let names = app.settings.value("SUPPORTED_PLATFORMS").value + " " + app.settings.value("SDKROOT").value
        return names.split(whereSeparator: { $0 == " " || $0 == "\t" }).contains { Platform(sdk: String($0)) == filter.platform }
    }
}
