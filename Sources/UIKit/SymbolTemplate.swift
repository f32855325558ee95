import Foundation

extension AssetCatalog {
    /// A custom symbol: the SF Symbols template's Regular weight at Medium scale, cut out of the template sheet
    /// (notes, guides and the other weights are not drawn) into an SVG of its own. The template draws it at a
    /// 100-point font, its origin on the baseline at the left margin; the cut spans the margins across and, up and
    /// down, a 100-point line centered on the cap height (or the margins' extent, if larger), so it sits on a text
    /// line as Apple's symbols do.
    static func symbolSet(_ folder: String) -> ImageAsset? {
        guard let contents = contents(folder),
              let file = (contents["symbols"] as? [[String: Any]])?.compactMap({ $0["filename"] as? String }).first,
              let data = FileManager.default.contents(atPath: folder + "/" + file),
              let template = String(data: data, encoding: .utf8),
              let glyph = SymbolTemplate(template) else { return nil }
        let svg = "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"\(glyph.viewBox.minX) \(glyph.viewBox.minY) \(glyph.viewBox.width) \(glyph.viewBox.height)\" width=\"\(glyph.viewBox.width)\" height=\"\(glyph.viewBox.height)\">\(glyph.paths)</svg>"
        return ImageAsset(size: glyph.viewBox.size, dataURL: "data:image/svg+xml;base64," + Data(svg.utf8).base64EncodedString(),
                          isTemplate: true, isSymbol: true)
    }
}

/// The parts of an SF Symbols template (the SVG Xcode's symbol sets hold) a drawing needs.
struct SymbolTemplate {
    /// The glyph's paths, without the template's classes (its sheet's styles are not carried over).
    let paths: String
    /// In the glyph's own coordinates: x from the left margin, y from the baseline.
    let viewBox: CGRect

    init?(_ template: String) {
        let weights = ["Regular-M", "Medium-M", "Semibold-M", "Light-M", "Bold-M"]
        guard let (name, group) = weights.lazy.compactMap({ name in SymbolTemplate.group(name, in: template).map { (name, $0) } }).first
        else { return nil }
        // Templates of one weight name their margins without the weight (`left-margin`).
        let margin = SymbolTemplate.lineAttribute("left-margin-\(name)", "x1", in: template) != nil ? "-\(name)" : ""
        guard let baseline = SymbolTemplate.lineAttribute("Baseline-M", "y1", in: template),
              let capline = SymbolTemplate.lineAttribute("Capline-M", "y1", in: template),
              let left = SymbolTemplate.lineAttribute("left-margin\(margin)", "x1", in: template),
              let right = SymbolTemplate.lineAttribute("right-margin\(margin)", "x1", in: template), right > left else { return nil }
        let capMiddle = (capline - baseline) / 2
        var top = capMiddle - 50, bottom = capMiddle + 50
        if let y1 = SymbolTemplate.lineAttribute("left-margin\(margin)", "y1", in: template),
           let y2 = SymbolTemplate.lineAttribute("left-margin\(margin)", "y2", in: template) {
            top = min(top, min(y1, y2) - baseline)
            bottom = max(bottom, max(y1, y2) - baseline)
        }
        paths = group.replacingOccurrences(of: #" class="[^"]*""#, with: "", options: .regularExpression)
        viewBox = CGRect(x: 0, y: top, width: right - left, height: bottom - top)
    }

    /// The inside of `<g id="NAME" …>…</g>` (nested groups included).
    static func group(_ id: String, in svg: String) -> String? {
        guard let open = svg.range(of: "<g id=\"\(id)\""), let start = svg[open.upperBound...].firstIndex(of: ">") else { return nil }
        var depth = 1
        var index = svg.index(after: start)
        while depth > 0, let next = svg[index...].range(of: #"</g>|<g[\s>]"#, options: .regularExpression) {
            depth += svg[next].hasPrefix("</") ? -1 : 1
            if depth == 0 { return String(svg[svg.index(after: start)..<next.lowerBound]) }
            index = next.upperBound
        }
        return nil
    }

    /// A number attribute of `<line id="ID" …>`.
    static func lineAttribute(_ id: String, _ attribute: String, in svg: String) -> CGFloat? {
        guard let open = svg.range(of: "<line id=\"\(id)\""), let end = svg[open.upperBound...].firstIndex(of: ">") else { return nil }
        let tag = svg[open.upperBound..<end]
        guard let value = tag.range(of: " \(attribute)=\"") else { return nil }
        return Double(tag[value.upperBound...].prefix { $0 != "\"" }).map { CGFloat($0) }
    }
}
