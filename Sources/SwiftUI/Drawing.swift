import AppIntents

/// What placing the laid-out views draws and finds, in reading order.
final class Drawing {
    enum Op {
        /// A shape's outline in its own coordinates (origin zero), drawn moved to `at`.
        case path(String, at: CGPoint, fill: Paint?, stroke: (Paint, StrokeStyle)?)
        /// One line of text: runs of characters sharing a font and color, drawn from `origin` (the baseline's start).
        case text(runs: [TextRun], origin: CGPoint)
        case symbol(name: String, rect: CGRect, paint: Paint)
        /// An emoji, in the one-em box the layout gave it, its square filled with `fill`.
        case emoji(Character, rect: CGRect, fill: Paint)
        /// A named image: its catalog asset when the bundle has it (`asset`), drawn as `paint` through the picture
        /// when it is masked (a template's alpha, or the luminance of a desaturated widget image); a labelled
        /// placeholder otherwise.
        case image(name: String, rect: CGRect, asset: AssetCatalog.ImageAsset?, mask: ImageMask, paint: Paint)
        case beginGroup(opacity: Double?, clip: (path: String, at: CGPoint)?, offset: CGPoint, shadow: Shadow?)
        case beginScale(CGSize, around: CGPoint)
        case beginRotation(Angle, around: CGPoint)
        /// `colorMultiply`: every color drawn inside multiplied, channel by channel, by this one.
        case beginColorMultiply(RGBA)
        /// A style's blend mode: what is drawn inside blends with what lies under it (CSS `mix-blend-mode`).
        case beginBlend(String)
        /// A style's inner shadow: cast inside the edges of what is drawn inside.
        case beginInnerShadow(Shadow)
        case endGroup
    }

    /// A piece of a line drawn in one font and paint (the font already scaled to the drawing), from `x`, where the
    /// layout measured it to start.
    struct TextRun {
        var text: String
        var font: ResolvedFont
        var paint: Paint
        var x: CGFloat
    }

    struct Shadow {
        var color: RGBA
        var radius: CGFloat
        var x: CGFloat
        var y: CGFloat
    }

    var ops: [Op] = []
    /// Where each leaf view was placed, in drawing order (shapes, texts with their reading text, images): what
    /// layout tests check.
    var placed: [(what: String, rect: CGRect)] = []
    var texts: [String] = []
    var controls: [RenderedControl] = []
    var links: [RenderedLink] = []
    /// Texts drawn since each open capture began (a button's or link's label).
    private var captures: [[String]] = []

    func record(text: String) {
        texts.append(text)
        for i in captures.indices { captures[i].append(text) }
    }

    func beginCapture() { captures.append([]) }

    func endCapture() -> String { captures.popLast()?.joined(separator: " ") ?? "" }
}

// MARK: - SVG

/// Numbers as SVG wants them: no exponent, at most two decimals, no trailing zeros. WidgetKit's pictures use it too.
package func svgNumber(_ value: CGFloat) -> String {
    guard value.isFinite else { return "0" }
    // Clamped far past any drawing: `.offset(x: 1e19)` would otherwise trap in Int().
    let rounded = (min(max(Double(value), -1e9), 1e9) * 100).rounded() / 100
    if rounded == rounded.rounded() { return String(Int(rounded)) }
    // What "%.2f" prints, from the whole hundredths: `String(format:)` goes through Foundation's formatter and a
    // varargs list, several times the cost of the drawing around it.
    let hundredths = Int((rounded * 100).rounded())
    let fraction = abs(hundredths) % 100
    var s = "\(hundredths < 0 ? "-" : "")\(abs(hundredths) / 100).\(fraction < 10 ? "0" : "")\(fraction)"
    while s.hasSuffix("0") { s.removeLast() }
    return s
}

/// Text escaped for XML character data and attribute values. WidgetKit's composed pictures use it too.
package func xmlEscaped(_ text: String) -> String {
    var out = ""
    out.reserveCapacity(text.count)
    for scalar in text.unicodeScalars {
        switch scalar {
        case "&": out += "&amp;"
        case "<": out += "&lt;"
        case ">": out += "&gt;"
        case "\"": out += "&quot;"
        case "'": out += "&apos;"
        default:
            // XML 1.0 allows tab, newline, carriage return and everything from U+0020 except the surrogates and
            // U+FFFE/U+FFFF: anything else would make the document ill-formed.
            let v = scalar.value
            if v == 0x9 || v == 0xA || v == 0xD || (v >= 0x20 && v <= 0xD7FF) || (v >= 0xE000 && v <= 0xFFFD) || v >= 0x10000 {
                out.unicodeScalars.append(scalar)
            } else {
                out += "\u{FFFD}"
            }
        }
    }
    return out
}

extension Drawing {
    func svg(size: CGSize, title: String?) -> String {
        var defs: [String] = []
        var body: [String] = []
        var indent = "  "
        var gradientIDs: [Paint: String] = [:]

        func paintAttributes(_ paint: Paint, _ kind: String) -> String {
            switch paint {
            case let .color(c):
                var attrs = "\(kind)=\"\(c.hex)\""
                if c.a < 1 { attrs += " \(kind)-opacity=\"\(svgNumber(CGFloat(c.a)))\"" }
                return attrs
            case .linear, .radial:
                if let id = gradientIDs[paint] { return "\(kind)=\"url(#\(id))\"" }
                let id = "\(Drawing.idMark)g\(gradientIDs.count + 1)"
                gradientIDs[paint] = id
                defs.append(gradient(paint, id: id))
                return "\(kind)=\"url(#\(id))\""
            }
        }

        /// A gradient's definition: its element and a stop per SwiftUI stop.
        func gradient(_ paint: Paint, id: String) -> String {
            func stops(_ stops: [(RGBA, CGFloat)], offset: (CGFloat) -> CGFloat) -> String {
                stops.map { color, location in
                    "<stop offset=\"\(svgNumber(min(max(offset(location), 0), 1)))\" stop-color=\"\(color.hex)\""
                        + (color.a < 1 ? " stop-opacity=\"\(svgNumber(CGFloat(color.a)))\"" : "") + "/>"
                }.joined()
            }
            switch paint {
            case .color: return ""
            case let .linear(list, start, end):
                return "<linearGradient id=\"\(id)\" x1=\"\(svgNumber(start.x))\" y1=\"\(svgNumber(start.y))\" x2=\"\(svgNumber(end.x))\" y2=\"\(svgNumber(end.y))\">"
                    + stops(list) { $0 } + "</linearGradient>"
            case let .radial(list, center, startRadius, endRadius):
                // SwiftUI's stops run from the start radius to the end radius; SVG's from the center to `r`.
                let r = max(endRadius, 0.001)
                return "<radialGradient id=\"\(id)\" gradientUnits=\"userSpaceOnUse\" cx=\"\(svgNumber(center.x))\" cy=\"\(svgNumber(center.y))\" r=\"\(svgNumber(r))\">"
                    + stops(list) { (startRadius + $0 * (endRadius - startRadius)) / r } + "</radialGradient>"
            }
        }

        var clipCount = 0
        var shadowCount = 0
        var filterCount = 0
        // The weights of the embedded face the text uses.
        var faces = Set<Int>()
        for op in ops {
            switch op {
            case let .path(d, at, fill, stroke):
                var attrs = fill.map { paintAttributes($0, "fill") } ?? "fill=\"none\""
                if at != .zero { attrs += " transform=\"translate(\(svgNumber(at.x)) \(svgNumber(at.y)))\"" }
                if let (paint, style) = stroke {
                    attrs += " " + paintAttributes(paint, "stroke") + " stroke-width=\"\(svgNumber(style.lineWidth))\""
                    switch style.lineCap {
                    case .round: attrs += " stroke-linecap=\"round\""
                    case .square: attrs += " stroke-linecap=\"square\""
                    case .butt: break
                    }
                    if !style.dash.isEmpty { attrs += " stroke-dasharray=\"\(style.dash.map(svgNumber).joined(separator: " "))\"" }
                }
                body.append(indent + "<path d=\"\(d)\" \(attrs)/>")
            case let .text(runs, origin):
                guard let first = runs.first else { continue }
                // The face the layout measured, embedded below (`@font-face`), so a viewer without it draws the same
                // widths; monospaced text is measured at 0.6 em and named as SF Mono, which is not embedded.
                var line = indent + "<text x=\"\(svgNumber(origin.x))\" y=\"\(svgNumber(origin.y))\" font-family=\"\(first.font.monospaced ? "'SF Mono', Menlo, monospace" : "'\(Drawing.embeddedFamily)', Inter, sans-serif")\" xml:space=\"preserve\">"
                for run in runs {
                    let weight = run.font.monospaced ? run.font.weight : TextMeasure.faceWeight(run.font.weight)
                    if !run.font.monospaced { faces.insert(weight) }
                    line += "<tspan x=\"\(svgNumber(run.x))\" font-size=\"\(svgNumber(run.font.size))\" font-weight=\"\(weight)\""
                    if run.font.italic { line += " font-style=\"italic\"" }
                    if run.font.monospacedDigit { line += " style=\"font-variant-numeric:tabular-nums\"" }
                    line += " " + paintAttributes(run.paint, "fill") + ">" + xmlEscaped(run.text) + "</tspan>"
                }
                body.append(line + "</text>")
            case let .emoji(character, rect, fill):
                body.append(indent + Drawing.emojiSVG(character, rect: rect, fill: paintAttributes(fill, "fill"), faces: &faces))
            case let .symbol(name, rect, paint):
                // An SF Symbol may not be redistributed: a labelled placeholder glyph (a rounded square) stands in.
                let r = min(rect.width, rect.height) * 0.22
                body.append(indent + "<g class=\"sf-symbol\"><title>\(xmlEscaped(name))</title>"
                    + "<rect x=\"\(svgNumber(rect.minX))\" y=\"\(svgNumber(rect.minY))\" width=\"\(svgNumber(rect.width))\" height=\"\(svgNumber(rect.height))\" rx=\"\(svgNumber(r))\" \(paintAttributes(paint.with(opacity: 0.25), "fill"))/>"
                    + "<rect x=\"\(svgNumber(rect.minX + 0.5))\" y=\"\(svgNumber(rect.minY + 0.5))\" width=\"\(svgNumber(max(rect.width - 1, 0)))\" height=\"\(svgNumber(max(rect.height - 1, 0)))\" rx=\"\(svgNumber(r))\" fill=\"none\" \(paintAttributes(paint, "stroke")) stroke-width=\"1\"/></g>")
            case let .image(name, rect, asset, mask, paint) where asset?.dataURL != nil:
                let picture = "<image href=\"\(asset!.dataURL!)\" x=\"\(svgNumber(rect.minX))\" y=\"\(svgNumber(rect.minY))\" width=\"\(svgNumber(rect.width))\" height=\"\(svgNumber(rect.height))\" preserveAspectRatio=\"none\"/>"
                if mask != .none {
                    // A template image is its shape in the foreground style: the picture's alpha masks a fill (its
                    // luminance, for a desaturated widget image).
                    clipCount += 1
                    defs.append("<mask id=\"\(Drawing.idMark)m\(clipCount)\" style=\"mask-type:\(mask == .alpha ? "alpha" : "luminance")\">\(picture)</mask>")
                    body.append(indent + "<g class=\"image\"><title>\(xmlEscaped(name))</title><rect x=\"\(svgNumber(rect.minX))\" y=\"\(svgNumber(rect.minY))\" width=\"\(svgNumber(rect.width))\" height=\"\(svgNumber(rect.height))\" mask=\"url(#\(Drawing.idMark)m\(clipCount))\" \(paintAttributes(paint, "fill"))/></g>")
                } else {
                    body.append(indent + "<g class=\"image\"><title>\(xmlEscaped(name))</title>\(picture)</g>")
                }
            case let .image(name, rect, _, _, _):
                body.append(indent + "<g class=\"image\"><title>\(xmlEscaped(name))</title>"
                    + "<rect x=\"\(svgNumber(rect.minX))\" y=\"\(svgNumber(rect.minY))\" width=\"\(svgNumber(rect.width))\" height=\"\(svgNumber(rect.height))\" fill=\"#8e8e93\" fill-opacity=\"0.3\"/>"
                    + "<path d=\"M\(svgNumber(rect.minX)) \(svgNumber(rect.minY))L\(svgNumber(rect.maxX)) \(svgNumber(rect.maxY))M\(svgNumber(rect.maxX)) \(svgNumber(rect.minY))L\(svgNumber(rect.minX)) \(svgNumber(rect.maxY))\" stroke=\"#8e8e93\" stroke-width=\"0.5\"/></g>")
            case let .beginGroup(opacity, clip, offset, shadow):
                var attrs = ""
                if let opacity { attrs += " opacity=\"\(svgNumber(CGFloat(opacity)))\"" }
                if offset != .zero { attrs += " transform=\"translate(\(svgNumber(offset.x)) \(svgNumber(offset.y)))\"" }
                if let clip {
                    clipCount += 1
                    defs.append("<clipPath id=\"\(Drawing.idMark)c\(clipCount)\"><path d=\"\(clip.path)\" transform=\"translate(\(svgNumber(clip.at.x)) \(svgNumber(clip.at.y)))\"/></clipPath>")
                    attrs += " clip-path=\"url(#\(Drawing.idMark)c\(clipCount))\""
                }
                if let shadow {
                    shadowCount += 1
                    defs.append(Drawing.shadowFilter(id: "\(Drawing.idMark)s\(shadowCount)", shadow, inner: false))
                    attrs += " filter=\"url(#\(Drawing.idMark)s\(shadowCount))\""
                }
                body.append(indent + "<g\(attrs)>")
                indent += "  "
            case let .beginScale(scale, p):
                body.append(indent + "<g transform=\"translate(\(svgNumber(p.x)) \(svgNumber(p.y))) scale(\(svgNumber(scale.width)) \(svgNumber(scale.height))) translate(\(svgNumber(-p.x)) \(svgNumber(-p.y)))\">")
                indent += "  "
            case let .beginRotation(angle, p):
                body.append(indent + "<g transform=\"rotate(\(svgNumber(CGFloat(angle.degrees))) \(svgNumber(p.x)) \(svgNumber(p.y)))\">")
                indent += "  "
            case let .beginColorMultiply(c):
                // An SVG color matrix that scales each channel: exactly SwiftUI's multiply.
                filterCount += 1
                let id = "\(Drawing.idMark)f\(filterCount)"
                let matrix = "\(svgNumber(CGFloat(c.r))) 0 0 0 0 0 \(svgNumber(CGFloat(c.g))) 0 0 0 0 0 \(svgNumber(CGFloat(c.b))) 0 0 0 0 0 \(svgNumber(CGFloat(c.a))) 0"
                defs.append("<filter id=\"\(id)\" color-interpolation-filters=\"sRGB\"><feColorMatrix type=\"matrix\" values=\"\(matrix)\"/></filter>")
                body.append(indent + "<g filter=\"url(#\(id))\">")
                indent += "  "
            case let .beginBlend(mode):
                body.append(indent + "<g style=\"mix-blend-mode:\(mode)\">")
                indent += "  "
            case let .beginInnerShadow(shadow):
                shadowCount += 1
                defs.append(Drawing.shadowFilter(id: "\(Drawing.idMark)s\(shadowCount)", shadow, inner: true))
                body.append(indent + "<g filter=\"url(#\(Drawing.idMark)s\(shadowCount))\">")
                indent += "  "
            case .endGroup:
                indent = String(indent.dropLast(2))
                body.append(indent + "</g>")
            }
        }

        var out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        out += "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(svgNumber(size.width))\" height=\"\(svgNumber(size.height))\" viewBox=\"0 0 \(svgNumber(size.width)) \(svgNumber(size.height))\">\n"
        if let title { out += "  <title>\(xmlEscaped(title))</title>\n" }
        if !faces.isEmpty { defs.insert(Drawing.fontFaces(faces), at: 0) }
        if !defs.isEmpty { out += "  <defs>\n" + defs.map { "    " + $0 + "\n" }.joined() + "  </defs>\n" }
        out += body.map { $0 + "\n" }.joined()
        out += "</svg>\n"
        return Drawing.uniqueIDs(out)
    }

    /// A shadow's filter: SwiftUI's radius is the blur's extent, twice SVG's standard deviation. A drop shadow is
    /// cast outside what the group draws; an inner one inside its edges — the inverted shape blurred, moved, colored,
    /// kept where the shape is, and drawn over it.
    static func shadowFilter(id: String, _ shadow: Shadow, inner: Bool) -> String {
        let head = "<filter id=\"\(id)\" x=\"-50%\" y=\"-50%\" width=\"200%\" height=\"200%\">"
        let blur = svgNumber(shadow.radius / 2), dx = svgNumber(shadow.x), dy = svgNumber(shadow.y)
        let flood = "flood-color=\"\(shadow.color.hex)\" flood-opacity=\"\(svgNumber(CGFloat(shadow.color.a)))\""
        guard inner else {
            return head + "<feDropShadow dx=\"\(dx)\" dy=\"\(dy)\" stdDeviation=\"\(blur)\" \(flood)/></filter>"
        }
        return head + "<feComponentTransfer in=\"SourceAlpha\" result=\"outside\"><feFuncA type=\"table\" tableValues=\"1 0\"/></feComponentTransfer>"
            + "<feGaussianBlur in=\"outside\" stdDeviation=\"\(blur)\"/><feOffset dx=\"\(dx)\" dy=\"\(dy)\" result=\"spread\"/>"
            + "<feFlood \(flood)/><feComposite in2=\"spread\" operator=\"in\"/><feComposite in2=\"SourceAlpha\" operator=\"in\" result=\"shade\"/>"
            + "<feMerge><feMergeNode in=\"SourceGraphic\"/><feMergeNode in=\"shade\"/></feMerge></filter>"
    }

    /// What every id of a document starts with until `uniqueIDs` replaces it.
    static let idMark = "ID-"

    /// The document with its ids (gradients, clips, masks, shadows) made its own: prefixed with a hash of the whole
    /// document. Pictures inlined into one page (the gallery) or nested into one picture (a Dynamic Island) share one
    /// id space, where `g1` of one would draw another's gradient; two documents with the same prefix are the same
    /// document, whose definitions are the same. Text cannot hold the mark: it is escaped (`="` never appears in it).
    ///
    /// One pass over the UTF-8 bytes: a document embeds its font faces, hundreds of kilobytes, and Foundation's
    /// `contains`/`replacingOccurrences` searched them as UTF-16 through `NSString`, half the widget extension's start.
    static func uniqueIDs(_ document: String) -> String {
        let bytes = Array(document.utf8)
        let marks = ["=\"\(idMark)", "url(#\(idMark)"].map { Array($0.utf8) }
        let markLength = idMark.utf8.count
        // Where each id mark starts, in the order of the document (a mark cannot overlap another).
        var starts: [Int] = []
        var index = 0
        while index < bytes.count {
            if bytes[index] == marks[0][0] || bytes[index] == marks[1][0], let mark = marks.first(where: { bytes[index...].starts(with: $0) }) {
                index += mark.count
                starts.append(index - markLength)
            } else {
                index += 1
            }
        }
        guard !starts.isEmpty else { return document }
        var hash: UInt64 = 0xcbf29ce484222325  // FNV-1a
        for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x100000001b3 }
        let prefix = Array(("p" + String(UInt32(truncatingIfNeeded: hash ^ (hash >> 32)), radix: 16) + "-").utf8)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count + starts.count * (prefix.count - markLength))
        var copied = 0
        for start in starts {
            out += bytes[copied..<start]
            out += prefix
            copied = start + markLength
        }
        out += bytes[copied...]
        return String(decoding: out, as: UTF8.self)
    }
}

// MARK: - paths

/// An outline, as SVG path data.
public struct Path: Sendable, Equatable {
    var data: String = ""
    var bounds: CGRect = .null

    public init() {}

    public init(_ rect: CGRect) {
        addRect(rect)
    }

    public init(roundedRect rect: CGRect, cornerRadius: CGFloat, style: RoundedCornerStyle = .continuous) {
        addRoundedRect(in: rect, cornerSize: CGSize(width: cornerRadius, height: cornerRadius), style: style)
    }

    public init(roundedRect rect: CGRect, cornerSize: CGSize, style: RoundedCornerStyle = .continuous) {
        addRoundedRect(in: rect, cornerSize: cornerSize, style: style)
    }

    public init(ellipseIn rect: CGRect) {
        addEllipse(in: rect)
    }

    public init(_ callback: (inout Path) -> Void) {
        callback(&self)
    }

    public var isEmpty: Bool { data.isEmpty }
    public var boundingRect: CGRect { bounds.isNull ? .zero : bounds }

    private var current = CGPoint.zero
    private var start = CGPoint.zero

    private mutating func include(_ p: CGPoint) {
        bounds = bounds.union(CGRect(origin: p, size: .zero))
    }

    public mutating func move(to p: CGPoint) {
        data += "M\(svgNumber(p.x)) \(svgNumber(p.y))"
        current = p
        start = p
        include(p)
    }

    public mutating func addLine(to p: CGPoint) {
        data += "L\(svgNumber(p.x)) \(svgNumber(p.y))"
        current = p
        include(p)
    }

    public mutating func addLines(_ points: [CGPoint]) {
        guard let first = points.first else { return }
        move(to: first)
        for p in points.dropFirst() { addLine(to: p) }
    }

    public mutating func addQuadCurve(to p: CGPoint, control: CGPoint) {
        data += "Q\(svgNumber(control.x)) \(svgNumber(control.y)) \(svgNumber(p.x)) \(svgNumber(p.y))"
        current = p
        include(control)
        include(p)
    }

    public mutating func addCurve(to p: CGPoint, control1: CGPoint, control2: CGPoint) {
        data += "C\(svgNumber(control1.x)) \(svgNumber(control1.y)) \(svgNumber(control2.x)) \(svgNumber(control2.y)) \(svgNumber(p.x)) \(svgNumber(p.y))"
        current = p
        include(control1)
        include(control2)
        include(p)
    }

    public mutating func closeSubpath() {
        data += "Z"
        current = start
    }

    public mutating func addRect(_ rect: CGRect) {
        let r = rect.standardized
        move(to: CGPoint(x: r.minX, y: r.minY))
        addLine(to: CGPoint(x: r.maxX, y: r.minY))
        addLine(to: CGPoint(x: r.maxX, y: r.maxY))
        addLine(to: CGPoint(x: r.minX, y: r.maxY))
        closeSubpath()
    }

    public mutating func addRoundedRect(in rect: CGRect, cornerSize: CGSize, style: RoundedCornerStyle = .continuous) {
        let r = rect.standardized
        let rx = min(max(cornerSize.width, 0), r.width / 2)
        let ry = min(max(cornerSize.height, 0), r.height / 2)
        guard rx > 0, ry > 0 else { return addRect(r) }
        move(to: CGPoint(x: r.minX + rx, y: r.minY))
        addLine(to: CGPoint(x: r.maxX - rx, y: r.minY))
        arcCorner(to: CGPoint(x: r.maxX, y: r.minY + ry), rx: rx, ry: ry)
        addLine(to: CGPoint(x: r.maxX, y: r.maxY - ry))
        arcCorner(to: CGPoint(x: r.maxX - rx, y: r.maxY), rx: rx, ry: ry)
        addLine(to: CGPoint(x: r.minX + rx, y: r.maxY))
        arcCorner(to: CGPoint(x: r.minX, y: r.maxY - ry), rx: rx, ry: ry)
        addLine(to: CGPoint(x: r.minX, y: r.minY + ry))
        arcCorner(to: CGPoint(x: r.minX + rx, y: r.minY), rx: rx, ry: ry)
        closeSubpath()
    }

    private mutating func arcCorner(to p: CGPoint, rx: CGFloat, ry: CGFloat) {
        data += "A\(svgNumber(rx)) \(svgNumber(ry)) 0 0 1 \(svgNumber(p.x)) \(svgNumber(p.y))"
        current = p
        include(p)
    }

    public mutating func addEllipse(in rect: CGRect) {
        let r = rect.standardized
        let rx = r.width / 2, ry = r.height / 2
        move(to: CGPoint(x: r.minX, y: r.midY))
        data += "A\(svgNumber(rx)) \(svgNumber(ry)) 0 1 1 \(svgNumber(r.maxX)) \(svgNumber(r.midY))"
        data += "A\(svgNumber(rx)) \(svgNumber(ry)) 0 1 1 \(svgNumber(r.minX)) \(svgNumber(r.midY))"
        closeSubpath()
        include(CGPoint(x: r.maxX, y: r.maxY))
    }

    /// An arc around `center` from `startAngle` to `endAngle`, angles measured as Core Graphics does in a flipped
    /// (y-down) space: `clockwise` is clockwise on screen when false, as Apple's `addArc` documents.
    public mutating func addArc(center: CGPoint, radius: CGFloat, startAngle: Angle, endAngle: Angle, clockwise: Bool) {
        let a0 = startAngle.radians, a1 = endAngle.radians
        let p0 = CGPoint(x: center.x + radius * CGFloat(cos(a0)), y: center.y + radius * CGFloat(sin(a0)))
        let p1 = CGPoint(x: center.x + radius * CGFloat(cos(a1)), y: center.y + radius * CGFloat(sin(a1)))
        if data.isEmpty { move(to: p0) } else { addLine(to: p0) }
        var sweep = clockwise ? a0 - a1 : a1 - a0
        while sweep < 0 { sweep += 2 * .pi }
        if sweep >= 2 * .pi - 1e-9 {
            // A full circle: two half arcs (one SVG arc cannot start and end at the same point).
            let mid = CGPoint(x: 2 * center.x - p0.x, y: 2 * center.y - p0.y)
            let flag = clockwise ? 0 : 1
            data += "A\(svgNumber(radius)) \(svgNumber(radius)) 0 1 \(flag) \(svgNumber(mid.x)) \(svgNumber(mid.y))"
            data += "A\(svgNumber(radius)) \(svgNumber(radius)) 0 1 \(flag) \(svgNumber(p0.x)) \(svgNumber(p0.y))"
        } else {
            let large = sweep > .pi ? 1 : 0
            let flag = clockwise ? 0 : 1
            data += "A\(svgNumber(radius)) \(svgNumber(radius)) 0 \(large) \(flag) \(svgNumber(p1.x)) \(svgNumber(p1.y))"
        }
        current = p1
        include(CGPoint(x: center.x - radius, y: center.y - radius))
        include(CGPoint(x: center.x + radius, y: center.y + radius))
    }

    public mutating func addPath(_ path: Path) {
        data += path.data
        bounds = bounds.union(path.bounds)
    }

}

/// How a rounded rectangle's corners are drawn (Lockstep draws both as circular arcs).
public enum RoundedCornerStyle: Hashable, Sendable {
    case circular
    case continuous
}

/// An angle.
public struct Angle: Hashable, Comparable, Sendable {
    public var radians: Double
    public var degrees: Double {
        get { radians * 180 / .pi }
        set { radians = newValue * .pi / 180 }
    }
    public init() { radians = 0 }
    public init(radians: Double) { self.radians = radians }
    public init(degrees: Double) { self.radians = degrees * .pi / 180 }
    public static func radians(_ radians: Double) -> Angle { Angle(radians: radians) }
    public static func degrees(_ degrees: Double) -> Angle { Angle(degrees: degrees) }
    public static let zero = Angle()
    public static func < (a: Angle, b: Angle) -> Bool { a.radians < b.radians }
}

/// Angles add and negate as SwiftUI's do (`AdditiveArithmetic`): `-layer.rotation`, `start + .degrees(90)`.
extension Angle: AdditiveArithmetic {
    public static func + (a: Angle, b: Angle) -> Angle { Angle(radians: a.radians + b.radians) }
    public static func - (a: Angle, b: Angle) -> Angle { Angle(radians: a.radians - b.radians) }
    public static prefix func - (a: Angle) -> Angle { Angle(radians: -a.radians) }
    public static func * (a: Angle, b: Double) -> Angle { Angle(radians: a.radians * b) }
    public static func * (a: Double, b: Angle) -> Angle { Angle(radians: a * b.radians) }
    public static func / (a: Angle, b: Double) -> Angle { Angle(radians: a.radians / b) }
}
