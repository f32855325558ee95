import Foundation
import SwiftUI

// What a widget's picture warns about, in `render`'s output, the serving process's stderr and the gallery: content
// larger than the widget (rule `widget.overflow`) and iOS 17's missing container background.

extension RenderedView {
    /// One sentence per problem of the picture of `kind` in `family`, each ending with its rule id.
    package func warnings(kind: String, family: WidgetFamily) -> [String] {
        var lines: [String] = []
        if let overflow {
            // Rule `widget.overflow`: the system clips a widget's view to the widget's shape.
            lines.append("\(kind) \(family.rawValue): \(overflow.summary), and the system cuts it off at the widget's edges [widget.overflow]")
        }
        if !hasContainerBackground, family.showsMissingBackgroundMessage(on: .iPhone) {
            lines.append("\(kind) \(family.rawValue) declares no containerBackground(_:for: .widget): iOS 17 shows “\(WidgetDescriptor.missingBackgroundMessage)” in its place")
        }
        return lines
    }

    /// The picture of `kind` in `family`, its warnings written into it: each as a `<desc class="lockstep-warning">`
    /// (what the gallery prints under it) and an overflowing edge as a red bar along that edge; and, with a
    /// `display`, what it was drawn on, as a `<desc class="lockstep-display">` (the gallery's caption names it).
    package func widgetSVG(kind: String, family: WidgetFamily, display: WidgetDisplay? = nil) -> String {
        var svg = self.svg(title: "\(kind) \(family.rawValue)")
        let notes = warnings(kind: kind, family: family)
        guard let end = svg.range(of: "</svg>", options: .backwards) else { return svg }
        var marks = ""
        if let display {
            marks += "  <desc class=\"lockstep-display\">\(SVGDocument.escape(display.drawing(family).summary))</desc>\n"
        }
        marks += notes.map { "  <desc class=\"lockstep-warning\">\(SVGDocument.escape($0))</desc>\n" }.joined()
        if let edges = overflow?.edges {
            let (w, h) = (SVGDocument.number(size.width), SVGDocument.number(size.height))
            let bars = [(edges.top, "x=\"0\" y=\"0\" width=\"\(w)\" height=\"3\""),
                        (edges.bottom, "x=\"0\" y=\"\(SVGDocument.number(size.height - 3))\" width=\"\(w)\" height=\"3\""),
                        (edges.leading, "x=\"0\" y=\"0\" width=\"3\" height=\"\(h)\""),
                        (edges.trailing, "x=\"\(SVGDocument.number(size.width - 3))\" y=\"0\" width=\"3\" height=\"\(h)\"")]
            for (amount, frame) in bars where amount >= 0.5 {
                marks += "  <rect class=\"lockstep-overflow\" \(frame) fill=\"#ff3b30\"/>\n"
            }
        }
        svg.insert(contentsOf: marks, at: end.lowerBound)
        return svg
    }
}
