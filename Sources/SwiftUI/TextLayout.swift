/// A `Text` ready for layout: its runs resolved to fonts and paints.
final class TextNode: Node {
    struct Run {
        var text: String
        var font: ResolvedFont
        var paint: Paint
        /// An SF Symbol inside the text (`Text(Image(systemName:))`): drawn as its placeholder.
        var symbol: String?
    }

    let runs: [Run]
    let lineLimit: Int?
    let minimumScaleFactor: CGFloat
    let alignment: TextAlignment
    let truncation: Text.TruncationMode
    let lineSpacing: CGFloat
    let reservedLines: Int?
    let redacted: Bool
    let redactionPaint: Paint
    /// An emoji's square as the widget's rendering mode draws it (its own colour in full colour, white on the Lock
    /// Screen).
    let emojiPaint: (Character) -> Paint
    /// A date the system keeps current (`Text.Segment.updatesItself`): as wide as it is offered, and in an `HStack`
    /// offered what the other views leave, as a spacer is.
    let fillsWidth: Bool
    private var stackAxis: Axis?

    init(runs: [Run], lineLimit: Int?, minimumScaleFactor: CGFloat, alignment: TextAlignment, truncation: Text.TruncationMode,
         lineSpacing: CGFloat = 0, reservedLines: Int? = nil, redacted: Bool, redactionPaint: Paint,
         emojiPaint: @escaping (Character) -> Paint = { .color(Drawing.emojiColour($0)) }, fillsWidth: Bool = false) {
        self.emojiPaint = emojiPaint
        self.fillsWidth = fillsWidth
        self.lineSpacing = lineSpacing
        self.reservedLines = reservedLines
        self.runs = runs
        self.lineLimit = lineLimit
        self.minimumScaleFactor = min(1, max(0.01, minimumScaleFactor))
        self.alignment = alignment
        self.truncation = truncation
        self.redacted = redacted
        self.redactionPaint = redactionPaint
    }

    /// The same text on one line, truncated at its end (an inline accessory's row).
    func oneLine() -> TextNode {
        TextNode(runs: runs, lineLimit: 1, minimumScaleFactor: minimumScaleFactor, alignment: alignment, truncation: .tail,
                 lineSpacing: lineSpacing, redacted: redacted, redactionPaint: redactionPaint, emojiPaint: emojiPaint)
    }

    override func stackAxis(_ axis: Axis) { stackAxis = axis }
    override var takesLeftover: Bool { fillsWidth && stackAxis == .horizontal }

    /// One character with the run it belongs to.
    struct Glyph {
        var character: Character
        var run: Int
        var width: CGFloat
    }

    struct Line {
        var glyphs: [Glyph]
        /// How the reading text joins this line to the next: a space where the line broke at a space or a line
        /// break, nothing where a word was broken between characters.
        var joiner: String
        var width: CGFloat { TextNode.width(glyphs) }
    }

    struct Laid {
        var lines: [Line]
        var scale: CGFloat
        var size: CGSize
        var truncated: Bool
    }

    static func width(_ glyphs: [Glyph]) -> CGFloat {
        var end = glyphs.endIndex
        while end > glyphs.startIndex, glyphs[end - 1].character == " " { end -= 1 }
        return glyphs[..<end].reduce(0) { $0 + $1.width }
    }

    private func glyphs(scale: CGFloat) -> [Glyph] {
        var out: [Glyph] = []
        for (i, run) in runs.enumerated() {
            let font = run.font.scaled(scale)
            if run.symbol != nil {
                out.append(Glyph(character: "\u{FFFC}", run: i, width: font.size * 1.1))
                continue
            }
            for ch in run.text {
                out.append(Glyph(character: ch, run: i, width: TextMeasure.width(Substring(String(ch)), font)))
            }
        }
        return out
    }

    /// Breaks into lines no wider than `maxWidth` (nil: only at hard line breaks): at spaces, and inside a word only
    /// when the word alone is wider than a line.
    private func wrap(_ glyphs: [Glyph], maxWidth: CGFloat?) -> [Line] {
        var lines: [Line] = []
        var current: [Glyph] = []
        // The current line's width without its trailing spaces, and the width of those spaces: kept as the line
        // grows, so wrapping a long note is linear, not a sum over the line for every word.
        var currentWidth: CGFloat = 0, currentTrailing: CGFloat = 0
        var i = 0
        let limit = maxWidth.map { $0 + 0.001 } ?? .infinity
        func startLine() { current = []; currentWidth = 0; currentTrailing = 0 }
        while i < glyphs.count {
            if glyphs[i].character.isNewline {
                lines.append(Line(glyphs: current, joiner: " "))
                startLine()
                i += 1
                continue
            }
            // The next word and the spaces after it.
            var j = i
            while j < glyphs.count, glyphs[j].character != " ", !glyphs[j].character.isNewline { j += 1 }
            var k = j
            while k < glyphs.count, glyphs[k].character == " " { k += 1 }
            let word = glyphs[i..<j], spaces = glyphs[j..<k]
            let wordWidth = word.reduce(0) { $0 + $1.width }, spacesWidth = spaces.reduce(0) { $0 + $1.width }
            if current.isEmpty || currentWidth + currentTrailing + wordWidth <= limit {
                if wordWidth > limit && current.isEmpty {
                    // A word longer than the line: break it between characters.
                    var piece: [Glyph] = [], pieceWidth: CGFloat = 0
                    for g in word {
                        if !piece.isEmpty && pieceWidth + g.width > limit {
                            lines.append(Line(glyphs: piece, joiner: ""))
                            piece = []
                            pieceWidth = 0
                        }
                        piece.append(g)
                        pieceWidth += g.width
                    }
                    current = piece + spaces
                    currentWidth = pieceWidth
                    currentTrailing = spacesWidth
                } else {
                    current += word + spaces
                    if word.isEmpty {
                        currentTrailing += spacesWidth
                    } else {
                        currentWidth += currentTrailing + wordWidth
                        currentTrailing = spacesWidth
                    }
                }
                i = k
            } else {
                lines.append(Line(glyphs: current, joiner: " "))
                startLine()
            }
        }
        if !current.isEmpty || lines.isEmpty { lines.append(Line(glyphs: current, joiner: "")) }
        return lines
    }

    func lineHeight(_ line: Line, scale: CGFloat) -> CGFloat {
        let heights = Set(line.glyphs.map(\.run)).map { runs[$0].font.lineHeight * scale }
        return heights.max() ?? (runs.first?.font.lineHeight ?? ResolvedFont(size: 17, weight: 400, italic: false, monospacedDigit: false, monospaced: false).lineHeight) * scale
    }

    func ascent(_ line: Line, scale: CGFloat) -> CGFloat {
        let values = Set(line.glyphs.map(\.run)).map { runs[$0].font.ascent * scale }
        return values.max() ?? (runs.first?.font.ascent ?? 0) * scale
    }

    private var layouts: [Proposal: Laid] = [:]

    /// Lays the text out for a proposal: wraps to the width, keeps the lines that fit the height and the line
    /// limit (at least one), shrinking toward `minimumScaleFactor` first when the text does not fit.
    func layout(_ proposal: Proposal) -> Laid {
        if let cached = layouts[proposal] { return cached }
        let maxWidth = finite(proposal.width)
        var scale: CGFloat = 1
        var result: Laid
        while true {
            let glyphs = glyphs(scale: scale)
            var lines = wrap(glyphs, maxWidth: maxWidth)
            var maxLines = lineLimit ?? Int.max
            if let height = finite(proposal.height) {
                var used: CGFloat = 0, fitting = 0
                for (i, line) in lines.enumerated() {
                    used += lineHeight(line, scale: scale) + (i > 0 ? lineSpacing : 0)
                    if used > height + 0.001 { break }
                    fitting += 1
                }
                maxLines = min(maxLines, max(1, fitting))
            }
            maxLines = max(1, maxLines)
            let overflows = lines.count > maxLines || (maxWidth.map { w in lines.contains { $0.width > w + 0.001 } } ?? false)
            if overflows && scale > minimumScaleFactor + 0.0001 {
                scale = max(minimumScaleFactor, scale - 0.01)
                continue
            }
            var truncated = false
            if overflows {
                truncated = true
                lines = truncate(lines, maxLines: maxLines, maxWidth: maxWidth, scale: scale)
            }
            let width = lines.map(\.width).max() ?? 0
            var height = lines.reduce(0) { $0 + lineHeight($1, scale: scale) } + lineSpacing * CGFloat(max(0, lines.count - 1))
            if let reserved = reservedLines, reserved > lines.count, let first = lines.first {
                let extra = reserved - lines.count
                height += CGFloat(extra) * (lineHeight(first, scale: scale) + lineSpacing)
            }
            result = Laid(lines: lines, scale: scale, size: CGSize(width: width, height: height), truncated: truncated)
            break
        }
        layouts[proposal] = result
        return result
    }

    /// Keeps `maxLines` lines, the last holding what remains cut to the width with an ellipsis.
    private func truncate(_ lines: [Line], maxLines: Int, maxWidth: CGFloat?, scale: CGFloat) -> [Line] {
        var kept = Array(lines.prefix(maxLines))
        var last = kept.removeLast()
        let rest = lines.dropFirst(maxLines)
        for line in rest { last.glyphs += line.glyphs }
        let run = last.glyphs.last?.run ?? 0
        let ellipsis = Glyph(character: "…", run: run, width: TextMeasure.width("…", runs[run].font.scaled(scale)))
        if let maxWidth, last.width > maxWidth + 0.001 || !rest.isEmpty {
            let glyphs = last.glyphs
            // Widths from prefix sums, so cutting a long line glyph by glyph stays linear: `width(a, b)` is what
            // TextNode.width gives for glyphs[a..<b] (trailing spaces not counted).
            var prefix: [CGFloat] = [0]
            prefix.reserveCapacity(glyphs.count + 1)
            for g in glyphs { prefix.append(prefix[prefix.count - 1] + g.width) }
            func width(_ a: Int, _ b: Int) -> CGFloat {
                var end = b
                while end > a, glyphs[end - 1].character == " " { end -= 1 }
                return prefix[end] - prefix[a]
            }
            let room = maxWidth + 0.001 - ellipsis.width
            switch truncation {
            case .tail:
                var count = glyphs.count
                while count > 0 && width(0, count) > room { count -= 1 }
                while count > 0, glyphs[count - 1].character == " " { count -= 1 }
                last.glyphs = Array(glyphs[..<count]) + [ellipsis]
            case .head:
                var start = 0
                while start < glyphs.count && width(start, glyphs.count) > room { start += 1 }
                last.glyphs = [ellipsis] + glyphs[start...]
            case .middle:
                // Head glyphs[..<headEnd], tail glyphs[tailStart...], taken from alternately, head first.
                var headEnd = glyphs.count / 2, tailStart = glyphs.count / 2
                var takeHead = true
                while !(headEnd == 0 && tailStart == glyphs.count) && width(0, headEnd) + width(tailStart, glyphs.count) > room {
                    if takeHead, headEnd > 0 { headEnd -= 1 } else if tailStart < glyphs.count { tailStart += 1 } else { headEnd -= 1 }
                    takeHead.toggle()
                }
                last.glyphs = Array(glyphs[..<headEnd]) + [ellipsis] + glyphs[tailStart...]
            }
        } else if !rest.isEmpty {
            last.glyphs.append(ellipsis)
        }
        last.joiner = ""
        return kept + [last]
    }

    /// An empty text takes no space, as SwiftUI's does.
    private var isEmpty: Bool { runs.allSatisfy { $0.text.isEmpty && $0.symbol == nil } }

    override func computeSize(_ proposal: Proposal) -> CGSize {
        if isEmpty { return .zero }
        let size = layout(proposal).size
        // A date that updates itself takes the width offered, infinity included (so a stack sees it as flexible).
        guard fillsWidth, let width = proposal.width else { return size }
        return CGSize(width: max(width, size.width), height: size.height)
    }

    override func baseline(first: Bool, size: CGSize) -> CGFloat {
        let laid = layout(Proposal(size))
        guard let line = first ? laid.lines.first : laid.lines.last else { return size.height }
        var top: CGFloat = 0
        if !first { top = laid.lines.dropLast().reduce(0) { $0 + lineHeight($1, scale: laid.scale) + lineSpacing } }
        return top + ascent(line, scale: laid.scale)
    }

    /// The text as drawn, one string: wrapped lines joined as they were broken.
    static func reading(_ lines: [Line]) -> String {
        var out = ""
        for (i, line) in lines.enumerated() {
            var s = String(line.glyphs.map(\.character)).replacingOccurrences(of: "\u{FFFC}", with: "")
            while s.hasSuffix(" ") { s.removeLast() }
            out += s
            if i < lines.count - 1 { out += line.joiner }
        }
        return out.trimmingCharacters(in: .whitespaces)
    }

    override func place(in rect: CGRect, _ canvas: Drawing) {
        if isEmpty { return }
        let laid = layout(Proposal(rect.size))
        var y = rect.minY
        let textWidth = laid.size.width
        for line in laid.lines {
            let height = lineHeight(line, scale: laid.scale)
            let width = line.width
            let fraction: CGFloat = alignment == .leading ? 0 : alignment == .center ? 0.5 : 1
            // Lines align within the text's own width; the text is aligned in its frame by its parent.
            var x = rect.minX + (textWidth - width) * fraction + (rect.width - textWidth) * fraction
            if redacted {
                if width > 0 {
                    let bar = CGRect(x: x, y: y + height * 0.2, width: width, height: height * 0.6)
                    let path = Path(roundedRect: CGRect(origin: .zero, size: bar.size), cornerRadius: bar.height / 3)
                    canvas.ops.append(.path(path.data, at: bar.origin, fill: redactionPaint, stroke: nil))
                }
                y += height + lineSpacing
                continue
            }
            let baseline = y + ascent(line, scale: laid.scale)
            var textRuns: [Drawing.TextRun] = []
            // Where the last text glyph ended: the next one continues its run when it starts there.
            var textEnd = CGFloat.nan
            func flush() {
                if !textRuns.isEmpty {
                    canvas.ops.append(.text(runs: textRuns, origin: CGPoint(x: textRuns[0].x, y: baseline)))
                    textRuns = []
                }
            }
            var glyphs = line.glyphs
            while glyphs.last?.character == " " { glyphs.removeLast() }
            var index = 0
            while index < glyphs.count {
                let runIndex = glyphs[index].run
                var end = index
                while end < glyphs.count, glyphs[end].run == runIndex { end += 1 }
                let piece = glyphs[index..<end]
                let pieceWidth = piece.reduce(0) { $0 + $1.width }
                let run = runs[runIndex]
                if let symbol = run.symbol {
                    flush()
                    let side = run.font.size * laid.scale
                    canvas.ops.append(.symbol(name: symbol, rect: CGRect(x: x, y: baseline - side * 0.85, width: side, height: side), paint: run.paint))
                } else {
                    // Each piece starts where the layout measured it; an emoji is drawn on its own (see Drawing).
                    let font = run.font.scaled(laid.scale)
                    var glyphX = x
                    for glyph in piece {
                        if TextMeasure.isEmoji(glyph.character) {
                            canvas.ops.append(.emoji(glyph.character, rect: CGRect(x: glyphX, y: baseline - font.size * 0.85,
                                                                                   width: glyph.width, height: font.size),
                                                     fill: emojiPaint(glyph.character)))
                        } else {
                            if let last = textRuns.last, last.font == font, last.paint == run.paint, textEnd == glyphX {
                                textRuns[textRuns.count - 1].text.append(glyph.character)
                            } else {
                                textRuns.append(Drawing.TextRun(text: String(glyph.character), font: font, paint: run.paint, x: glyphX))
                            }
                            textEnd = glyphX + glyph.width
                        }
                        glyphX += glyph.width
                    }
                }
                x += pieceWidth
                index = end
            }
            flush()
            y += height + lineSpacing
        }
        let reading = TextNode.reading(laid.lines)
        if !redacted { canvas.record(text: reading) }
        canvas.placed.append(("Text(\(reading))", CGRect(origin: rect.origin, size: fillsWidth ? rect.size : laid.size)))
    }
}
