import Foundation
import SwiftUI

/// Puts pictures the renderer drew into one: a Dynamic Island's expanded regions, a gallery's cells.
enum SVGDocument {
    /// `svg` (a complete document) as an element placed at (x, y) in another picture.
    static func nested(_ svg: String, x: CGFloat, y: CGFloat) -> String {
        var body = Substring(svg)
        if body.hasPrefix("<?xml"), let end = body.range(of: "?>") { body = body[end.upperBound...] }
        guard let start = body.range(of: "<svg") else { return "" }
        return "<svg x=\"\(number(x))\" y=\"\(number(y))\"" + body[start.upperBound...]
    }

    /// One document of `size` holding `parts`, on `background`.
    static func wrap(_ parts: [String], size: CGSize, title: String?, background: String?, cornerRadius: CGFloat? = nil) -> String {
        var out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        let (width, height) = (number(size.width), number(size.height))
        out += "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(width)\" height=\"\(height)\" viewBox=\"0 0 \(width) \(height)\">\n"
        if let title { out += "<title>\(escape(title))</title>\n" }
        if let background { out += "<rect width=\"\(width)\" height=\"\(height)\" rx=\"\(number(cornerRadius ?? min(size.height / 2, 44)))\" fill=\"\(background)\"/>\n" }
        out += parts.joined(separator: "\n") + "\n</svg>\n"
        return out
    }

    /// `338`, `52.33`: as the renderer writes numbers.
    static func number(_ value: CGFloat) -> String { svgNumber(value) }

    /// As the renderer escapes: a control character in a kind or label cannot make the picture ill-formed.
    static func escape(_ text: String) -> String { xmlEscaped(text) }
}
