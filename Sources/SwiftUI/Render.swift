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
    /// Every `Text` as drawn (after line limits and truncation), in reading order.
    package var texts: [String]
    /// `Button(intent:)` and `Toggle(isOn:intent:)`, in reading order.
    package var controls: [RenderedControl]
    package var widgetURL: URL?
    package var links: [RenderedLink]

    /// A complete, well-formed SVG document whose width and height are `size`.
    package func svg(title: String?) -> String {
        var out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        out += "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(size.width)\" height=\"\(size.height)\" viewBox=\"0 0 \(size.width) \(size.height)\">\n"
        if let title { out += "<title>\(title)</title>\n" }
        out += "</svg>\n"
        return out
    }
}

/// Lays `view` out at `request.size` and draws it.
@MainActor
package func render<V: View>(_ view: V, _ request: RenderRequest) -> RenderedView {
    RenderedView(size: request.size, texts: [], controls: [], widgetURL: nil, links: [])
}
