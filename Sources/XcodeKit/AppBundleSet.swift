import BundleKit

/// A containing app and the bundles embedded in it: the unit the version rules check.
public struct AppBundleSet: Equatable, Sendable {
    public var app: BundleRecord
    public var embedded: [BundleRecord]
    /// What this set was read from, for reports (`Habits.xcodeproj [Release]`, `lockstep.json`).
    public var origin: String
    /// The frameworks of a built app and of the bundles in it, with their bundle identifiers (rule
    /// `bundle-id.duplicate`, ITMS-90685/90806): `X.app/Frameworks/A.framework`, `X.app/Watch/W.app/Frameworks/…`.
    public var frameworks: [Framework] = []

    public struct Framework: Equatable, Sendable {
        public var bundlePath: String
        public var identifier: String
        public var source: String
    }

    /// The build configuration this set was resolved for (an Xcode project or spec); nil for a built app or a
    /// manifest. Reports count bundles once across configurations.
    public var configuration: String?

    /// For a set resolved from an Xcode project: where its pbxproj settings are, for the findings that point at one.
    package var pbxproj: PbxprojPositions?

    public init(app: BundleRecord, embedded: [BundleRecord], origin: String, configuration: String? = nil) {
        self.app = app
        self.embedded = embedded
        self.origin = origin
        self.configuration = configuration
    }

    /// The app followed by every embedded bundle.
    public var all: [BundleRecord] { [app] + embedded }
}

extension Manifest {
    /// The manifest as the unit the version rules check.
    public var bundleSet: AppBundleSet {
        AppBundleSet(app: app, embedded: embedded, origin: path ?? Manifest.embeddedDefaultName)
    }
}
