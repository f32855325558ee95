import AppIntents
import Foundation
import SwiftUI

/// One widget of a bundle, as the simulated system serves it: what its configuration and modifiers declared, with
/// its provider and view erased to closures (so one widget process serves widgets of any entry and view types).
@MainActor
public final class WidgetDescriptor {
    /// The kind the app reloads (`WidgetCenter.reloadTimelines(ofKind:)`); a Live Activity's attributes type.
    public let kind: String
    public var displayName: String?
    public var description: String?
    var declaredFamilies: [WidgetFamily]?
    public var contentMarginsDisabled = false
    public var containerBackgroundRemovable = true
    /// `disfavoredLocations(_:for:)`: where the system should not suggest each family.
    public var disfavoredLocations: [WidgetFamily: [WidgetLocation]] = [:]
    /// `pushHandler(_:)`'s handler, called with the push token and the widget's families when the process starts.
    var pushHandler: ((WidgetPushInfo, [WidgetInfo]) -> Void)?
    let source: TimelineSource?
    let activity: (any LiveActivityPresentation)?
    /// A control's (iOS 18): no timeline, a value provider and a template.
    let control: ControlSource?
    /// A control's `promptsForUserConfiguration()`.
    var promptsForConfiguration = false

    init(kind: String, source: TimelineSource) {
        self.kind = kind
        self.source = source
        activity = nil
        control = nil
    }

    init(activity: any LiveActivityPresentation) {
        kind = activity.attributesType
        source = nil
        self.activity = activity
        control = nil
    }

    init(kind: String, control: ControlSource) {
        self.kind = kind
        source = nil
        activity = nil
        self.control = control
    }

    /// The families it offers: `supportedFamilies(_:)`'s, else the iPhone Home Screen's, as iOS defaults them.
    public var families: [WidgetFamily] {
        get { declaredFamilies ?? [.systemSmall, .systemMedium, .systemLarge] }
        set { declaredFamilies = newValue }
    }

    /// Whether it is a Live Activity (no timeline: ActivityKit's records drive it).
    public var isLiveActivity: Bool { activity != nil }

    /// Whether it is a control (no timeline: its value provider drives it).
    public var isControl: Bool { control != nil }

    /// Whether it is a widget with a timeline.
    var hasTimeline: Bool { source != nil }

    /// Whether its configuration is `AppIntentConfiguration` (rule `widget.configurable`).
    public var isConfigurable: Bool { source?.configure != nil }

    /// What the system hands the view for `family` on the default device of `device`'s kind, in light appearance.
    func request(_ family: WidgetFamily, device: ReferenceDevice) -> RenderRequest {
        request(family, display: WidgetDisplay(device: device))
    }

    func request(_ family: WidgetFamily, display: WidgetDisplay) -> RenderRequest {
        WidgetDescriptor.request(family, display: display, contentMarginsDisabled: contentMarginsDisabled)
    }

    /// What the system hands the view for `family` on `display`: the family's size on its device, iOS 17's content
    /// margins (unless disabled), the widget container background where the mode shows it, the appearance and the
    /// Dynamic Type size. Static for a preview's view, which has no descriptor.
    static func request(_ family: WidgetFamily, display: WidgetDisplay, contentMarginsDisabled: Bool = false) -> RenderRequest {
        let drawn = display.drawing(family)
        let device = display.device
        var environment = EnvironmentValues()
        let margins = contentMarginsDisabled ? EdgeInsets() : family.contentMargins
        let mode = drawn.renderingMode ?? .fullColor
        // Accented rendering removes the container background: the system tints its own (the Home Screen's glass,
        // the watch face's black).
        let showsBackground = !family.isAccessory && mode != .accented
        environment.widgetFamily = family
        environment.widgetRenderingMode = mode
        // What the renderer draws from the mode: vibrant paints every color as white of its brightness, accented the
        // `widgetAccentable()` group in the tint and the rest white.
        environment.widgetColorRendering = mode == .vibrant ? .vibrant : mode == .accented ? .accented : .fullColor
        environment.colorScheme = drawn.colorScheme
        environment.dynamicTypeSize = drawn.dynamicTypeSize
        environment.isCircularAccessory = family == .accessoryCircular
        // Apple: "The system only displays labels on widget-based complications in watchOS" (corner and circular).
        environment.showsWidgetLabel = device == .appleWatch && (family == .accessoryCorner || family == .accessoryCircular)
        environment.containerCornerRadius = family.cornerRadius(on: device)
        environment.setWidgetContainer(showsBackground: showsBackground, margins: margins)
        var request = RenderRequest(size: family.displaySize(on: device), environment: environment, contentMargins: margins,
                                    containerBackground: .widget, showsContainerBackground: showsBackground)
        // Vibrant and accented content is white over the wallpaper: a dark stand-in wallpaper keeps it visible.
        if mode != .fullColor { request.backdrop = Color(red: 0.11, green: 0.11, blue: 0.12) }
        // A watch face is black behind its complications.
        if device.idiom == .watch { request.backdrop = .black }
        // iOS 17 draws its message instead of a Home Screen widget that declares no `containerBackground(_:for: .widget)`.
        if family.showsMissingBackgroundMessage(on: device) { request.missingBackgroundMessage = WidgetDescriptor.missingBackgroundMessage }
        // Apple: "a single row of text and an optional image".
        request.isSingleRow = family == .accessoryInline
        return request
    }

    /// What iOS 17 shows in place of a widget without a container background.
    nonisolated public static let missingBackgroundMessage = "Please adopt containerBackground API"
}

/// An entry of any widget's provider.
struct AnyEntry: TimelineEntry {
    let base: any TimelineEntry
    var date: Date { base.date }
    var relevance: TimelineEntryRelevance? { base.relevance }
}

/// A provider and its view, erased: the timeline calls and the rendering of an entry.
@MainActor
final class TimelineSource {
    let placeholder: (TimelineProviderContext) -> AnyEntry
    let snapshot: (TimelineProviderContext, @escaping (AnyEntry) -> Void) -> Void
    let timeline: (TimelineProviderContext, @escaping (Timeline<AnyEntry>) -> Void) -> Void
    let render: (AnyEntry, RenderRequest) -> RenderedView
    /// `AppIntentConfiguration`'s: sets the instance's configuration (`--PARAMETER VALUE` text) or throws.
    let configure: (([String: String]) throws -> Void)?

    init<Provider: TimelineProvider, Content: View>(provider: Provider, content: @escaping (Provider.Entry) -> Content,
                                                   configure: (([String: String]) throws -> Void)? = nil) {
        placeholder = { AnyEntry(base: provider.placeholder(in: $0)) }
        snapshot = { context, done in provider.getSnapshot(in: context) { done(AnyEntry(base: $0)) } }
        timeline = { context, done in
            provider.getTimeline(in: context) { timeline in
                done(Timeline(entries: timeline.entries.map { AnyEntry(base: $0) }, policy: timeline.policy))
            }
        }
        render = { entry, request in
            // The entry came from this provider: the cast cannot fail.
            SwiftUI.render(content(entry.base as! Provider.Entry), request)
        }
        self.configure = configure
    }
}
