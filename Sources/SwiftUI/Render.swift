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
    /// What the system draws under the widget (the Lock Screen's wallpaper under a vibrant accessory), full-bleed.
    package var backdrop: Color?
    /// What the system shows instead of a view that declares no container background for the placement (iOS 17's
    /// "Please adopt containerBackground API"); nil: the view is drawn as it is.
    package var missingBackgroundMessage: String?
    /// An inline accessory (`accessoryInline`), which Apple describes as "a single row of text and an optional image":
    /// the view's first image and first text are drawn on one row, the rest of the view not at all.
    package var isSingleRow = false

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
    /// How far the content reaches past the edges of a widget (rule `widget.overflow`); nil when it fits.
    package var overflow: Overflow?
    let canvas: Drawing
    /// The view's own drawing as iOS 16 drew it (no content margins), when iOS 17's message replaced it.
    var replacedDrawing: Drawing? = nil

    /// The view as drawn where no message replaces it (iOS 16, which asked for no container background), when
    /// iOS 17 shows its message instead; nil otherwise.
    package var withoutMessage: RenderedView? {
        guard let replacedDrawing else { return nil }
        var view = RenderedView(size: size, texts: texts, controls: controls, widgetURL: widgetURL, links: links,
                                hasContainerBackground: true, overflow: overflow, canvas: replacedDrawing)
        view.replacedDrawing = nil
        return view
    }

    /// A complete, well-formed SVG document whose width and height are `size`.
    package func svg(title: String?) -> String {
        canvas.svg(size: size, title: title)
    }
}

/// Lays `view` out at `request.size` and draws it: the container background (when the request has a placement
/// and shows it) full-bleed, then the content inside the content margins, centered there at the size it chooses.
@MainActor
package func render<V: View>(_ view: V, _ request: RenderRequest) -> RenderedView {
    // The view's code runs under its traits, as on a device: `UIFont.preferredFont(forTextStyle:)` at the widget's
    // Dynamic Type size, a dynamic `UIColor` in its appearance.
    request.environment.uiTraits.whileCurrent { drawn(view, request) }
}

@MainActor
private func drawn<V: View>(_ view: V, _ request: RenderRequest) -> RenderedView {
    var environment = request.environment
    if environment.renderDate == nil { environment.renderDate = Date() }
    let context = ResolveContext(environment: environment, found: Findings())
    var content = resolveOne(view, context)
    if request.isSingleRow { content = singleRow(of: content) }
    let canvas = Drawing()
    let bounds = CGRect(origin: .zero, size: request.size)
    if let backdrop = request.backdrop {
        canvas.ops.append(.path(Path(bounds).data, at: .zero, fill: .color(backdrop.resolve(EnvironmentValues())), stroke: nil))
    }
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
    let frame = aligned(size, in: inner, .center)
    content.place(in: frame, canvas)
    var drawn = canvas
    if request.containerBackground != nil, !hasBackground, let message = request.missingBackgroundMessage {
        // The system draws its message in place of the whole view; the view's texts are still what it would show.
        var plain = RenderRequest(size: request.size, environment: request.environment)
        plain.backdrop = request.backdrop
        let dark = request.environment.colorScheme == .dark
        drawn = render(ZStack {
            if request.showsContainerBackground { dark ? Color.black : Color.white }
            Text(message).font(.caption).multilineTextAlignment(.center).foregroundStyle(.secondary).padding()
        }, plain).canvas
    }
    var rendered = RenderedView(size: request.size, texts: canvas.texts, controls: canvas.controls, widgetURL: context.found.widgetURL,
                                links: canvas.links, hasContainerBackground: hasBackground,
                                overflow: request.containerBackground == nil ? nil : Overflow(frame, in: bounds, placed: canvas.placed),
                                canvas: drawn)
    if drawn !== canvas {
        // iOS 16 drew such a view itself, with no content margins: the whole widget is the view's.
        let plain = Drawing()
        if let backdrop = request.backdrop {
            plain.ops.append(.path(Path(bounds).data, at: .zero, fill: .color(backdrop.resolve(EnvironmentValues())), stroke: nil))
        }
        content.place(in: aligned(content.size(for: Proposal(bounds.size)), in: bounds, .center), plain)
        rendered.replacedDrawing = plain
    }
    return rendered
}

/// An inline accessory's row: the first image and the first text the view holds (depth first), side by side, the
/// text on one line.
func singleRow(of content: Node) -> Node {
    let image = content.first { $0 is ImageNode }
    let text = (content.first { $0 is TextNode } as? TextNode)?.oneLine()
    return StackNode(axis: .horizontal, alignment: .center, spacing: 4, children: [image, text].compactMap { $0 })
}

/// The size `view` chooses for a proposal (nil: its ideal length on that axis), as a container lays it out: what the
/// Dynamic Island sizes its expanded regions by.
@MainActor
package func fittingSize<V: View>(_ view: V, width: CGFloat?, height: CGFloat?, environment: EnvironmentValues) -> CGSize {
    resolveOne(view, ResolveContext(environment: environment, found: Findings())).size(for: Proposal(width: width, height: height))
}

/// How far a widget's content reaches past its edges (rule `widget.overflow`): the root view's frame as SwiftUI
/// lays it out, centered in the content margins, against the widget's bounds, and the leaf views drawn there.
package struct Overflow: Equatable {
    /// Points past each edge.
    package var edges: EdgeInsets
    /// The views (as layout tests name them: `Text(Hi)`, `Image(bird)`) that reach past an edge, in drawing order.
    package var views: [String]

    /// nil when the frame lies within the bounds (to half a point, the layout's rounding).
    init?(_ frame: CGRect, in bounds: CGRect, placed: [(what: String, rect: CGRect)]) {
        edges = EdgeInsets(top: max(0, bounds.minY - frame.minY), leading: max(0, bounds.minX - frame.minX),
                           bottom: max(0, frame.maxY - bounds.maxY), trailing: max(0, frame.maxX - bounds.maxX))
        guard max(edges.top, edges.leading, edges.bottom, edges.trailing) >= 0.5 else { return nil }
        let tolerance = bounds.insetBy(dx: -0.5, dy: -0.5)
        views = placed.filter { !tolerance.contains($0.rect) }.map(\.what)
    }

    /// "the content is 12 pt too tall and 4 pt too wide: Text(Hi), Image(bird) reach past the edges".
    package var summary: String {
        let tall = edges.top + edges.bottom, wide = edges.leading + edges.trailing
        var parts: [String] = []
        if tall >= 0.5 { parts.append("\(svgNumber(tall)) pt too tall") }
        if wide >= 0.5 { parts.append("\(svgNumber(wide)) pt too wide") }
        let cut = views.isEmpty ? "" : ": " + views.prefix(3).joined(separator: ", ") + (views.count > 3 ? " and \(views.count - 3) more" : "")
            + (views.count == 1 ? " reaches" : " reach") + " past the edges"
        return "the content is " + parts.joined(separator: " and ") + cut
    }
}
