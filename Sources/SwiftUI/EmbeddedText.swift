// What makes a picture's text self-sufficient: the face the layout measured, embedded, and emoji drawn as shapes.
//
// The renderer measures text with Inter's advance widths (FontMetrics.swift). A viewer that lacks Inter would draw
// the text in another, usually wider, face than the one measured, and a stock Linux machine has no colour emoji
// font. So every SVG embeds the weights of Inter it uses — subset to the characters the table covers, with no
// kerning or ligatures, exactly the advances the layout added up (InterFaces.swift, OFL-1.1, licence in
// FontMetrics/Inter-OFL.txt) — under a family name no installed font has; and draws each emoji as a coloured
// rounded square the size the layout gave it, with the emoji's Unicode name as its title and the initials of that
// name's first two words in it: Apple's emoji font may not be shipped, and an emoji font the viewer happens to have would not be the
// one an iPhone draws.

import Foundation

extension Drawing {
    /// The family name the embedded faces are declared under: no installed font has it, so a viewer draws the
    /// embedded face or, if it cannot read one, falls back to Inter, then any sans-serif.
    static let embeddedFamily = "Lockstep Inter"

    /// One `<style>` declaring the embedded face at each weight class of `weights` (those of `FontMetrics.weights`).
    static func fontFaces(_ weights: Set<Int>) -> String {
        var css = ""
        for weight in weights.sorted() {
            guard let data = InterFaces.woff2[weight] else { continue }
            css += "@font-face{font-family:\"\(embeddedFamily)\";font-weight:\(weight);font-style:normal;"
                + "src:url(data:font/woff2;base64,\(data)) format(\"woff2\")}"
        }
        // Text is measured without kerning or ligatures: the viewer must not apply any.
        css += "text{font-kerning:none;font-variant-ligatures:none}"
        return "<style>\(css)</style>"
    }

    /// The colour of an emoji's square, from its first scalar: different emoji look different, the same one the same.
    static func emojiColour(_ character: Character) -> RGBA {
        let palette: [UInt32] = [0xff9500, 0x34c759, 0x007aff, 0xaf52de, 0xff2d55, 0x30b0c7, 0xffcc00, 0xff3b30, 0x5856d6, 0xa2845e]
        return RGBA(hex: palette[Int((character.unicodeScalars.first?.value ?? 0) % UInt32(palette.count))])
    }

    /// An emoji drawn in `rect`: a rounded square with the `fill` attributes (its colour, as the rendering mode draws
    /// it), its name as the title, the initials of its name's first two words in it (drawn in the embedded face, whose
    /// weight is added to `faces`), in the opposite of the square's brightness.
    static func emojiSVG(_ character: Character, rect: CGRect, fill: String, faces: inout Set<Int>) -> String {
        let scalars = character.unicodeScalars.filter { $0.value != 0x200D && !(0xFE00...0xFE0F).contains($0.value) }
        let names = scalars.map { $0.properties.name ?? String(format: "U+%04X", $0.value) }
        let name = names.joined(separator: ", ").lowercased()
        let minor: Set<Substring> = ["A", "AN", "AND", "IN", "OF", "ON", "THE", "WITH", "FOR"]
        let initials = String((names.first ?? "").split(separator: " ").filter { !minor.contains($0) }.prefix(2).compactMap(\.first))
        let side = min(rect.width, rect.height)
        let box = CGRect(x: rect.midX - side / 2, y: rect.midY - side / 2, width: side, height: side)
        faces.insert(700)
        let size = side * (initials.count > 1 ? 0.38 : 0.5)
        // White on a coloured square; black on the white one vibrant and accented rendering make of it.
        let letters = fill.contains("#ffffff") ? "#000000" : "#ffffff"
        return "<g class=\"emoji\"><title>\(xmlEscaped(name))</title>"
            + "<rect x=\"\(svgNumber(box.minX))\" y=\"\(svgNumber(box.minY))\" width=\"\(svgNumber(side))\" height=\"\(svgNumber(side))\" rx=\"\(svgNumber(side * 0.25))\" \(fill)/>"
            + "<text x=\"\(svgNumber(box.midX))\" y=\"\(svgNumber(box.midY + size * 0.36))\" font-family=\"'\(embeddedFamily)', Inter, sans-serif\" font-size=\"\(svgNumber(size))\" font-weight=\"700\" text-anchor=\"middle\" fill=\"\(letters)\">\(xmlEscaped(initials))</text></g>"
    }
}
