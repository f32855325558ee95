import AppIntents

/// Where a container background goes (`containerBackground(_:for:)`): WidgetKit declares `.widget`.
public struct ContainerBackgroundPlacement: Hashable, Sendable {
    let name: String
    package init(_ name: String) { self.name = name }
}

/// What WidgetKit asks the renderer to draw: a view at a family's size, in an environment, inside iOS 17's
/// content margins, with or without the container background.
package struct RenderRequest {
    package var size: CGSize
    package var environment: EnvironmentValues
    /// iOS 17 widget content margins; zero for plain views.
    package var contentMargins: EdgeInsets
    /// The placement whose `containerBackground` is drawn full-bleed behind the content (`.widget`).
    package var containerBackground: ContainerBackgroundPlacement?
    /// `false`: the container background is removed (StandBy, accented rendering).
    package var showsContainerBackground: Bool

    package init(size: CGSize, environment: EnvironmentValues = EnvironmentValues(), contentMargins: EdgeInsets = EdgeInsets(),
                 containerBackground: ContainerBackgroundPlacement? = nil, showsContainerBackground: Bool = true) {
        self.size = size
        self.environment = environment
        self.contentMargins = contentMargins
        self.containerBackground = containerBackground
        self.showsContainerBackground = showsContainerBackground
    }
}

/// A button or toggle as rendered, holding the very intent instance its view holds.
package struct RenderedControl {
    package var label: String
    /// `String(describing: type(of: intent))`.
    package var intentTypeName: String
    package var intent: any AppIntent
}

/// A `Link` as rendered.
package struct RenderedLink {
    package var label: String
    package var url: URL
}

/// What a view shows at a size: its texts, its controls and links, and a picture.
package struct RenderedView {
    package var size: CGSize
    /// Every `Text` as drawn (after line limits and truncation), in reading order. Redacted text is drawn as bars
    /// and is not listed.
    package var texts: [String]
    /// `Button(intent:)` and `Toggle(isOn:intent:)`, in reading order.
    package var controls: [RenderedControl]
    package var widgetURL: URL?
    package var links: [RenderedLink]
    /// Whether the view declared a container background for the request's placement (iOS 17 widgets must).
    package var hasContainerBackground = false
    let canvas: Canvas

    /// A complete, well-formed SVG document whose width and height are `size`.
    package func svg(title: String?) -> String {
        canvas.svg(size: size, title: title)
    }
}

/// Lays `view` out at `request.size` and draws it: the container background (when the request has a placement
/// and shows it) full-bleed, then the content inside the content margins, centered there at the size it chooses.
@MainActor
package func render<V: View>(_ view: V, _ request: RenderRequest) -> RenderedView {
    var environment = request.environment
    if environment.renderDate == nil { environment.renderDate = Date() }
    let context = ResolveContext(environment: environment, found: Findings())
    let content = resolveOne(view, context)
    let canvas = Canvas()
    let bounds = CGRect(origin: .zero, size: request.size)
    var hasBackground = false
    if let placement = request.containerBackground {
        let background = context.found.containerBackgrounds[placement.name]
        hasBackground = background != nil
        if request.showsContainerBackground, let background {
            background.place(in: bounds, canvas)
        }
    }
    let m = request.contentMargins
    let inner = CGRect(x: m.leading, y: m.top, width: max(0, bounds.width - m.leading - m.trailing),
                       height: max(0, bounds.height - m.top - m.bottom))
    let size = content.size(for: Proposal(inner.size))
    content.place(in: aligned(size, in: inner, .center), canvas)
    return RenderedView(size: request.size, texts: canvas.texts, controls: canvas.controls, widgetURL: context.found.widgetURL,
                        links: canvas.links, hasContainerBackground: hasBackground, canvas: canvas)
}
