/// The role a bundle plays in the simulated device (<doc:Design> "The manifest").
///
/// The runtime roles of <doc:Rules> "The rest of the extension family" each run as their own kind of process: `complication` is a watch-side widget
/// extension (it runs on the watch, `Watch/W.app/PlugIns/`), `notification` a notification service extension, `share`
/// a share or action extension, `clip` an App Clip (`AppClips/C.app`). `extension` is any other app extension.
///
/// Each role's facts are in one table, `kind`: the manifest, `check`'s readers, the launcher, the supervisor,
/// `verify`, `make install` and the bench all ask it. Adding a kind is a case here, its entry in `kind`, its
/// executable and its tests (<doc:AddingAnExtensionKind>).
public enum BundleRole: String, Codable, Sendable, CaseIterable {
    case host, widget, watch, intent, complication, notification, share, clip, `extension`

    /// What Lockstep knows about one kind of bundle.
    public struct Kind: Sendable, Equatable {
        /// Where the bundle sits in the app's folder (<doc:Design> "The manifest").
        public enum Placement: Sendable, Equatable {
            /// The app itself: `X.app`.
            case app
            /// `X.app/Watch/W.app`.
            case watchApp
            /// `X.app/AppClips/C.app`.
            case appClip
            /// Inside the watch app: `X.app/Watch/W.app/PlugIns/E.appex`.
            case watchAppExtension
            /// `X.app/PlugIns/E.appex`, or `X.app/Extensions/E.appex` for an ExtensionKit extension (App Intents).
            case appExtension
        }

        /// When `lockstep up` runs a bundle of this kind.
        public enum Launch: Sendable, Equatable {
            /// `up` starts it with the app and keeps it running (the app, a widget, the watch app).
            case atUp
            /// It runs per request and exits, as iOS runs it; `up` launches it once at start as a launch check.
            case onDemand
        }

        /// The extension points (`NSExtensionPointIdentifier`, or `EXExtensionPointIdentifier` in
        /// `EXAppExtensionAttributes`) that make an embedded extension this kind when `check` reads a project or a
        /// built app, and when the supervisor picks a limit for a bundle of role `extension`.
        public var extensionPoints: [String] = []
        /// The simulated executable Lockstep ships for this kind (the reference app's): the embedded default
        /// manifest names it, `make install` installs it and the bench measures it. A manifest names its own.
        public var executable: String?
        /// The memory limit the supervisor enforces, in MB, unless the manifest's `memoryLimitMB` overrides it (rule
        /// `widget.memory`, `extension.memory`). Apple publishes no numbers: these are the observed ones.
        public var memoryLimitMB: Int?
        /// The device's words when it ends a process of this kind above its limit: `EXC_RESOURCE` for a widget,
        /// jetsam's for a notification service.
        public var memoryReport: MemoryReport = .excResource
        /// Whether `lockstep up` keeps it running or it runs on demand.
        public var launch: Launch = .onDemand
        /// Whether it runs on the watch (its own containers and notifications, rule `group.watch-separate`).
        public var runsOnWatch = false
        /// Whether it shows or changes the app's data, so that `lockstep verify` expects it to share an App Group
        /// with the app (rule `group.entitlement`; the "widget shows No Notes" bug).
        public var sharesAppData = false
        /// Where the manifest's bundle of this kind sits in the app's folder.
        public var placement: Placement = .appExtension
        /// Whether its code may start a Live Activity: the app, or its App Clip, never an extension (rule
        /// `activity.lifecycle`; ActivityKit throws `unsupportedTarget` elsewhere).
        public var startsLiveActivities = false

        /// How the device reports a kill above the memory limit.
        public enum MemoryReport: Sendable, Equatable {
            /// `EXC_RESOURCE (RESOURCE_TYPE_MEMORY: high watermark memory limit exceeded) (limit=30 MB)`.
            case excResource
            /// `exceeded mem limit: ActiveHard 24 MB (fatal)` (jetsam).
            case jetsam

            /// The sentence for a kill at `limitMB`.
            public func text(limitMB: Int) -> String {
                switch self {
                case .excResource: "EXC_RESOURCE (RESOURCE_TYPE_MEMORY: high watermark memory limit exceeded) (limit=\(limitMB) MB)"
                case .jetsam: "exceeded mem limit: ActiveHard \(limitMB) MB (fatal)"
                }
            }
        }
    }

    /// The table of extension kinds: one entry per role.
    public var kind: Kind {
        switch self {
        case .host:
            Kind(executable: "lockstep-host", launch: .atUp, placement: .app, startsLiveActivities: true)
        case .widget:
            // rule `widget.memory`: 30 MB, observed.
            Kind(extensionPoints: ["com.apple.widgetkit-extension"], executable: "lockstep-widget", memoryLimitMB: 30,
                 launch: .atUp, sharesAppData: true)
        case .watch:
            Kind(executable: "lockstep-watch", launch: .atUp, runsOnWatch: true, placement: .watchApp)
        case .intent:
            // App Intents (ExtensionKit) and SiriKit intents extensions.
            Kind(extensionPoints: ["com.apple.appintents-extension", "com.apple.intents-service"], executable: "lockstep-intent",
                 sharesAppData: true)
        case .complication:
            // A watch widget: the widget's limit (unconfirmed on the watch); `check` reads it as a widget, as its
            // extension point says, so it claims none here.
            Kind(executable: "lockstep-widget", memoryLimitMB: 30, launch: .atUp, runsOnWatch: true, placement: .watchAppExtension)
        case .notification:
            // rule `extension.memory`, notification.service: 24 MB, unconfirmed.
            Kind(extensionPoints: ["com.apple.usernotifications.service"], executable: "lockstep-notification", memoryLimitMB: 24,
                 memoryReport: .jetsam, sharesAppData: true)
        case .share:
            // rule `extension.memory`, share.extension: 120 MB, unconfirmed; action extensions too.
            Kind(extensionPoints: ["com.apple.share-services", "com.apple.ui-services"], executable: "lockstep-share",
                 memoryLimitMB: 120, sharesAppData: true)
        case .clip:
            // rule `clip.container`: it writes the app's data through the group.
            Kind(executable: "lockstep-clip", sharesAppData: true, placement: .appClip, startsLiveActivities: true)
        case .extension:
            Kind()
        }
    }

    /// The role of an embedded extension from its extension point: the kind whose `extensionPoints` list it, else
    /// `extension` (<doc:Design> "The manifest").
    public init(extensionPoint: String?) {
        self = Self.allCases.first { role in extensionPoint.map(role.kind.extensionPoints.contains) ?? false } ?? .extension
    }

    /// The executables Lockstep ships for its kinds, each once, in table order (what `make install` installs beside
    /// `lockstep`, and what the bench measures).
    public static var shippedExecutables: [String] {
        var seen: Set<String> = []
        return allCases.compactMap(\.kind.executable).filter { seen.insert($0).inserted }
    }
}
