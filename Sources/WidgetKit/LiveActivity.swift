import ActivityKit
import AppGroupKit
import Foundation
import LockstepSystem
import SwiftUI

/// What a Live Activity's views are given (Apple's `ActivityViewContext`).
public struct ActivityViewContext<Attributes: ActivityAttributes> {
    public let attributes: Attributes
    public let state: Attributes.ContentState
    public let isStale: Bool
    public let activityID: String
}

/// A Live Activity's views in the widget extension (Apple's `ActivityConfiguration(for:content:dynamicIsland:)`):
/// the Lock Screen view, and the Dynamic Island's expanded, compact and minimal views (rule `activity.lifecycle`).
public struct ActivityConfiguration<Attributes: ActivityAttributes>: WidgetConfiguration, DescribedConfiguration {
    let presentation: ActivityPresentation<Attributes>
    public var body: Never { fatalError("a primitive configuration has no body") }
    var descriptors: [WidgetDescriptor] { [WidgetDescriptor(activity: presentation)] }

    public init<Content: View>(for attributesType: Attributes.Type,
                               @ViewBuilder content: @escaping (ActivityViewContext<Attributes>) -> Content,
                               dynamicIsland: @escaping (ActivityViewContext<Attributes>) -> DynamicIsland) {
        presentation = ActivityPresentation(lockScreen: { SwiftUI.render(content($0), $1) }, dynamicIsland: dynamicIsland)
    }
}

/// The places a Live Activity shows, with their sizes on the default iPhone (6.1", 393×852 pt) from Apple's
/// Human Interface Guidelines, Live Activities, "Specifications" → "iOS dimensions"
/// (https://developer.apple.com/design/human-interface-guidelines/live-activities#Specifications), the 393×852 row:
/// compact leading and trailing 52.33×36.67, minimal 36.67–45×36.67 (drawn at its narrowest), expanded 371×84–160
/// and Lock Screen 371×84–160 (both drawn at their tallest).
public enum LiveActivityPresentationKind: String, CaseIterable, Sendable {
    case lockScreen, expanded, compactLeading, compactTrailing, minimal

    /// The Lock Screen platter's corner radius: Apple publishes none; Lockstep draws 22 pt, as a widget's.
    static let platterCornerRadius: CGFloat = 22

    public var displaySize: CGSize {
        switch self {
        case .lockScreen: return CGSize(width: 371, height: 160)
        case .expanded: return CGSize(width: 371, height: 160)
        case .compactLeading, .compactTrailing: return CGSize(width: 52.33, height: 36.67)
        case .minimal: return CGSize(width: 36.67, height: 36.67)
        }
    }
}

/// One presentation of one activity, drawn.
public struct LiveActivityPicture: Sendable {
    public let kind: LiveActivityPresentationKind
    /// The texts it shows, in reading order.
    public let texts: [String]
    public let svg: String
}

/// Any `ActivityConfiguration`, whatever its attributes.
@MainActor
public protocol LiveActivityPresentation {
    var attributesType: String { get }
    /// Every presentation of `record`, or nil when its attributes or state do not decode as this configuration's.
    func render(_ record: ActivityRecord, isStale: Bool) -> [LiveActivityPicture]?
}

@MainActor
struct ActivityPresentation<Attributes: ActivityAttributes>: LiveActivityPresentation {
    let lockScreen: (ActivityViewContext<Attributes>, RenderRequest) -> RenderedView
    let dynamicIsland: (ActivityViewContext<Attributes>) -> DynamicIsland

    /// What `String(describing: Attributes.self)` prints (the name ActivityKit files a request under), without its
    /// detour through casts and reflection, whose first use costs the widget's start-up more than the rest of
    /// describing the bundle.
    var attributesType: String { _typeName(Attributes.self, qualified: false) }

    func render(_ record: ActivityRecord, isStale: Bool) -> [LiveActivityPicture]? {
        let decoder = JSONDecoder()
        guard let attributes = try? decoder.decode(Attributes.self, from: Data(record.attributes.utf8)),
              let state = try? decoder.decode(Attributes.ContentState.self, from: Data(record.state.utf8)) else { return nil }
        let context = ActivityViewContext(attributes: attributes, state: state, isStale: isStale, activityID: record.id)
        let island = dynamicIsland(context)
        func request(_ kind: LiveActivityPresentationKind, _ mode: DynamicIslandMode) -> RenderRequest {
            RenderRequest(size: kind.displaySize, environment: .dynamicIsland, contentMargins: island.margins(for: mode),
                          containerBackground: nil, showsContainerBackground: false)
        }
        func picture(_ kind: LiveActivityPresentationKind, _ view: RenderedView) -> LiveActivityPicture {
            let title = "\(attributesType) \(kind.rawValue)"
            // The Dynamic Island is black, whatever the appearance: its views are drawn dark on it. On the Lock Screen the
            // system draws its light platter behind the view (`activityBackgroundTint` covers it).
            let svg = SVGDocument.wrap([SVGDocument.nested(view.svg(title: nil), x: 0, y: 0)], size: kind.displaySize, title: title,
                                       background: kind == .lockScreen ? "#f2f2f7" : "#000000",
                                       cornerRadius: kind == .lockScreen ? LiveActivityPresentationKind.platterCornerRadius : nil)
            return LiveActivityPicture(kind: kind, texts: view.texts, svg: svg)
        }
        // The platter's corners are what `ContainerRelativeShape` (and so the tint) follows.
        var platter = EnvironmentValues()
        platter.containerCornerRadius = LiveActivityPresentationKind.platterCornerRadius
        let lockScreenRequest = RenderRequest(size: LiveActivityPresentationKind.lockScreen.displaySize, environment: platter,
                                              contentMargins: EdgeInsets(), containerBackground: .activityPlatter, showsContainerBackground: true)
        return [
            picture(.lockScreen, lockScreen(context, lockScreenRequest)),
            island.expandedPicture(size: LiveActivityPresentationKind.expanded.displaySize, title: "\(attributesType) expanded"),
            picture(.compactLeading, island.compactLeading(request(.compactLeading, .compactLeading))),
            picture(.compactTrailing, island.compactTrailing(request(.compactTrailing, .compactTrailing))),
            picture(.minimal, island.minimal(request(.minimal, .minimal))),
        ]
    }
}

// MARK: - the Dynamic Island

/// A Live Activity's Dynamic Island: its expanded regions and its compact and minimal views.
public struct DynamicIsland {
    let regions: [DynamicIslandRegionContent]
    let compactLeading: @MainActor (RenderRequest) -> RenderedView
    let compactTrailing: @MainActor (RenderRequest) -> RenderedView
    let minimal: @MainActor (RenderRequest) -> RenderedView
    var keyline: Color?
    var url: URL?
    /// `contentMargins(_:_:for:)`'s, by presentation.
    var margins: [DynamicIslandMode: EdgeInsets] = [:]

    @MainActor
    public init<Expanded: View, CompactLeading: View, CompactTrailing: View, Minimal: View>(
        @DynamicIslandExpandedContentBuilder expanded: @escaping () -> DynamicIslandExpandedContent<Expanded>,
        @ViewBuilder compactLeading: @escaping () -> CompactLeading,
        @ViewBuilder compactTrailing: @escaping () -> CompactTrailing,
        @ViewBuilder minimal: @escaping () -> Minimal
    ) {
        regions = expanded().regions
        self.compactLeading = { SwiftUI.render(compactLeading(), $0) }
        self.compactTrailing = { SwiftUI.render(compactTrailing(), $0) }
        self.minimal = { SwiftUI.render(minimal(), $0) }
    }

    /// The colour of the island's outline (kept; Lockstep draws no outline).
    public func keylineTint(_ color: Color?) -> DynamicIsland {
        var copy = self
        copy.keyline = color
        return copy
    }

    /// The URL a tap on the island opens.
    public func widgetURL(_ url: URL?) -> DynamicIsland {
        var copy = self
        copy.url = url
        return copy
    }

    /// The expanded presentation. Apple: `center` "places content right below the TrueDepth camera", `leading` and
    /// `trailing` "along the leading [trailing] edge … next to the TrueDepth camera", `bottom` "below leading,
    /// trailing, and center content", and a region's `priority` "tells the system which content to prioritize when
    /// it sizes the content" (DynamicIslandExpandedRegion). Lockstep's reading: a top band as tall as its tallest
    /// region (at least the camera's 36.67 pt) holds leading, center and trailing; leading and trailing take their ideal widths, the one of higher priority
    /// first (equal priorities: each at most half the width), and center the width between them; bottom the rest.
    @MainActor
    func expandedPicture(size: CGSize, title: String) -> LiveActivityPicture {
        let frames = expandedFrames(size: size)
        var texts: [String] = []
        var parts: [String] = []
        let order: [DynamicIslandExpandedRegionPosition.Storage] = [.leading, .center, .trailing, .bottom]
        for region in regions.sorted(by: { order.firstIndex(of: $0.position.storage)! < order.firstIndex(of: $1.position.storage)! }) {
            guard let rect = frames[region.position], rect.width > 0, rect.height > 0 else { continue }
            let view = region.render(RenderRequest(size: rect.size, environment: .dynamicIsland, contentMargins: EdgeInsets(),
                                                   containerBackground: nil, showsContainerBackground: false))
            texts += view.texts
            parts.append(SVGDocument.nested(view.svg(title: nil), x: rect.minX, y: rect.minY))
        }
        let svg = SVGDocument.wrap(parts, size: size, title: title, background: "#000000")
        return LiveActivityPicture(kind: .expanded, texts: texts, svg: svg)
    }
}

extension ContainerBackgroundPlacement {
    /// The Lock Screen platter of a Live Activity, which `activityBackgroundTint(_:)` fills.
    static let activityPlatter = ContainerBackgroundPlacement("activityPlatter")
}

extension EnvironmentValues {
    /// What the Dynamic Island's views are drawn in: the dark appearance.
    static var dynamicIsland: EnvironmentValues {
        var environment = EnvironmentValues()
        environment.colorScheme = .dark
        return environment
    }
}

/// Where an expanded region sits.
public struct DynamicIslandExpandedRegionPosition: Hashable, Sendable {
    enum Storage: Hashable, Sendable { case leading, trailing, center, bottom }
    let storage: Storage
    public static let leading = Self(storage: .leading)
    public static let trailing = Self(storage: .trailing)
    public static let center = Self(storage: .center)
    public static let bottom = Self(storage: .bottom)
}

/// What an expanded region holds, erased.
struct DynamicIslandRegionContent {
    let position: DynamicIslandExpandedRegionPosition
    let priority: Double
    let render: @MainActor (RenderRequest) -> RenderedView
    /// The size the content chooses for a proposed width and height (nil: its ideal).
    let fit: @MainActor (CGFloat?, CGFloat?) -> CGSize
    /// `dynamicIsland(verticalPlacement:)` on the region's content.
    let placement: DynamicIslandExpandedRegionVerticalPlacement
}

/// Anything the expanded builder accepts.
public protocol DynamicIslandContent {
    var _regions: [DynamicIslandRegionContentBox] { get }
}

/// A region, as `DynamicIslandContent` hands it on.
public struct DynamicIslandRegionContentBox {
    let content: DynamicIslandRegionContent
}

/// One expanded region: `DynamicIslandExpandedRegion(.leading) { … }`.
public struct DynamicIslandExpandedRegion<Content: View>: DynamicIslandContent {
    let region: DynamicIslandRegionContent

    @MainActor
    public init(_ position: DynamicIslandExpandedRegionPosition, priority: Double = 0, @ViewBuilder content: () -> Content) {
        let view = content()
        region = DynamicIslandRegionContent(position: position, priority: priority, render: { SwiftUI.render(view, $0) },
                                            fit: { SwiftUI.fittingSize(view, width: $0, height: $1, environment: .dynamicIsland) },
                                            placement: (view as? any DynamicIslandPlaced)?.verticalPlacement ?? .default)
    }

    public var _regions: [DynamicIslandRegionContentBox] { [DynamicIslandRegionContentBox(content: region)] }
}

/// The expanded regions the builder collected.
public struct DynamicIslandExpandedContent<Content: View> {
    let regions: [DynamicIslandRegionContent]
}

/// Builds the expanded presentation from regions (with `if` and `if #available`).
@resultBuilder
public enum DynamicIslandExpandedContentBuilder {
    public struct _Regions: DynamicIslandContent {
        public let _regions: [DynamicIslandRegionContentBox]
    }

    public static func buildExpression<C: DynamicIslandContent>(_ content: C) -> _Regions { _Regions(_regions: content._regions) }
    public static func buildBlock(_ parts: _Regions...) -> _Regions { _Regions(_regions: parts.flatMap(\._regions)) }
    public static func buildOptional(_ part: _Regions?) -> _Regions { part ?? _Regions(_regions: []) }
    public static func buildEither(first: _Regions) -> _Regions { first }
    public static func buildEither(second: _Regions) -> _Regions { second }
    public static func buildLimitedAvailability(_ part: _Regions) -> _Regions { part }
    public static func buildFinalResult(_ parts: _Regions) -> DynamicIslandExpandedContent<Never> {
        DynamicIslandExpandedContent(regions: parts._regions.map(\.content))
    }
}

extension View {
    /// The Lock Screen platter's colour: the whole platter, to its rounded corners, whatever size the view takes
    /// (nil: the system's default platter).
    public func activityBackgroundTint(_ color: Color?) -> some View {
        containerBackground(for: .activityPlatter) {
            if let color { ContainerRelativeShape().fill(color) }
        }
    }

    /// The colour of the system's action buttons beside a Live Activity on the Lock Screen (its Clear button, shown
    /// when a person swipes it): Lockstep draws no such button, and keeps the view as it is.
    public func activitySystemActionForegroundColor(_ color: Color?) -> some View { self }
}

// MARK: - the system side

/// The system side of Live Activities in the widget extension's process (rule `activity.lifecycle`): renders each
/// activity of its app whose attributes it configures, again after each change the app makes and when the system
/// ends or dismisses it on the simulated clock, one line per change; the Lock Screen's texts in
/// `<activities>/<id>.txt`, and, while serving, every presentation's picture in the renders folder.
@MainActor
public final class LiveActivityRenderer {
    let system: ActivitySystem
    let presentations: [any LiveActivityPresentation]
    let output: (String) -> Void
    /// `<group container>/.lockstep/widgetkit/renders`, or nil for no pictures.
    let renders: String?
    private var shown: [String: (revision: Int, state: ActivityState)] = [:]

    public init(system: ActivitySystem, presentations: [any LiveActivityPresentation], renders: String?, output: @escaping (String) -> Void) {
        self.system = system
        self.presentations = presentations
        self.renders = renders
        self.output = output
        // Activities from before this process started are shown quietly: only changes are news.
        let now = system.now()
        for record in system.all() { shown[record.id] = (record.revision, record.activityState(at: now)) }
    }

    /// One look: every activity whose revision or state changed since it was last shown.
    /// - Returns: whether it showed any (work the serving process says returned, rule `lock.dead10cc`).
    @discardableResult
    func tick() -> Bool {
        guard !presentations.isEmpty else { return false }
        var showed = false
        let now = system.now()
        for record in system.all() {
            let state = record.activityState(at: now)
            if let seen = shown[record.id], seen.revision == record.revision, seen.state == state { continue }
            let isNewRevision = shown[record.id]?.revision != record.revision
            shown[record.id] = (record.revision, state)
            guard let presentation = presentations.first(where: { $0.attributesType == record.attributesType }),
                  let pictures = presentation.render(record, isStale: state == .stale),
                  let lockScreen = pictures.first(where: { $0.kind == .lockScreen }) else { continue }
            let lines = lockScreen.texts
            if state == .dismissed {
                try? FileSystem.removeIfPresent(system.renderPath(record.id))
            } else {
                try? AtomicFile.write(lines.joined(separator: "\n") + "\n", to: system.renderPath(record.id))
                if let renders {
                    let folder = "\(renders)/\(record.attributesType)"
                    try? AtomicFile.createDirectories(folder)
                    for picture in pictures { try? AtomicFile.write(picture.svg, to: "\(folder)/\(picture.kind.rawValue).svg") }
                }
            }
            let what: String
            switch state {
            case .active: what = record.revision == 1 ? "started" : "updated"
            case .stale: what = "stale"
            case .ended: what = record.endReason(at: now)
            case .dismissed: what = "dismissed from the Lock Screen"
            case .pending: what = "pending"
            }
            // Latency only for what the app just did; the system's own ends follow the clock.
            let latency = isNewRevision ? ", \(Milliseconds.since(record.changedAt, now: Date().timeIntervalSince1970)) ms after the app" : ""
            output("live activity \(record.attributesType) \(record.id.prefix(8)) \(what)\(latency): \(lines.joined(separator: " · "))")
            showed = true
        }
        return showed
    }
}
