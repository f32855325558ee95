/// Reading and bumping real Xcode projects (`.xcodeproj`): the entry points `lockstep check` and
/// `lockstep bump` call. Implemented by the Xcode-project issue.
public enum XcodeProjectInput {
    /// The result of reading one project: a bundle set per (containing app target, configuration), plus the
    /// findings only a project can produce (`settings.unresolved`, `settings.target-override`).
    public struct Result: Sendable {
        public var sets: [AppBundleSet]
        public var findings: [Finding]
        public init(sets: [AppBundleSet], findings: [Finding]) {
            self.sets = sets
            self.findings = findings
        }
    }

    /// Whether `path` is an `.xcodeproj` or a folder holding exactly one.
    public static func projectPath(for path: String) -> String? {
        nil
    }

    /// Reads the project at `path` (an `.xcodeproj`) for every configuration, or only `configuration`.
    /// - Throws: `BundleError` (`.invalidProject`, `.unreadable`) when nothing could be read.
    public static func load(_ path: String, configuration: String? = nil) throws -> Result {
        throw BundleError(.unsupportedInput, path: path, detail: "reading Xcode projects is not built yet")
    }

    /// Sets the build number (`build`) or marketing version (`version`) wherever the project defines it,
    /// editing text in place.
    /// - Returns: the files changed.
    public static func bump(_ path: String, build: String?, version: String?) throws -> [String] {
        throw BundleError(.unsupportedInput, path: path, detail: "bumping Xcode projects is not built yet")
    }
}
