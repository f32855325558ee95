import Foundation

/// The widget sizes (RULES.md `widget.families`): Apple's system and accessory families, each rendered by
/// Lockstep as a fixed-size text box.
public enum WidgetFamily: String, Sendable, CaseIterable, Codable, CustomDebugStringConvertible {
    case systemSmall
    case systemMedium
    case systemLarge
    /// iPad only.
    case systemExtraLarge
    /// Apple Watch only.
    case accessoryCorner
    case accessoryCircular
    case accessoryRectangular
    case accessoryInline

    public var debugDescription: String { rawValue }

    /// The box's outer size in terminal columns and rows (borders included; inline has none).
    public var size: (columns: Int, rows: Int) {
        switch self {
        case .systemSmall: return (20, 9)
        case .systemMedium: return (42, 9)
        case .systemLarge: return (42, 18)
        case .systemExtraLarge: return (84, 18)
        case .accessoryCorner: return (9, 3)
        case .accessoryCircular: return (11, 5)
        case .accessoryRectangular: return (26, 5)
        case .accessoryInline: return (30, 1)
        }
    }

    /// The size in points on an iPhone 15 (6.1"); `systemExtraLarge` on a 12.9" iPad, `accessoryCorner` on a
    /// 45 mm Apple Watch.
    public var displaySize: CGSize {
        switch self {
        case .systemSmall: return CGSize(width: 158, height: 158)
        case .systemMedium: return CGSize(width: 338, height: 158)
        case .systemLarge: return CGSize(width: 338, height: 354)
        case .systemExtraLarge: return CGSize(width: 715, height: 330)
        case .accessoryCorner: return CGSize(width: 32, height: 32)
        case .accessoryCircular: return CGSize(width: 72, height: 72)
        case .accessoryRectangular: return CGSize(width: 160, height: 72)
        case .accessoryInline: return CGSize(width: 234, height: 26)
        }
    }

    /// Parses a family name, listing the valid ones in the error.
    public init(parsing name: String) throws(WidgetKitError) {
        guard let family = WidgetFamily(rawValue: name) else {
            throw WidgetKitError(.unknownFamily, subject: name,
                                 detail: WidgetFamily.allCases.map(\.rawValue).joined(separator: ", "))
        }
        self = family
    }
}

/// Draws content lines into a family's fixed-size box, the way the home screen crops a widget's view.
public enum WidgetRenderer {
    /// The box: exactly `family.size.rows` lines, each exactly `family.size.columns` columns wide.
    public static func render(_ lines: [String], family: WidgetFamily) -> [String] {
        let (columns, rows) = family.size
        if family == .accessoryInline {
            return [fit(lines.joined(separator: " "), width: columns)]
        }
        let (top, bottom, side) = family == .accessoryCircular
            ? (("╭", "╮"), ("╰", "╯"), "│") : (("┌", "┐"), ("└", "┘"), "│")
        let inner = columns - 4
        var body = Array(lines.prefix(rows - 2))
        // Centre the content vertically, like a widget's default layout.
        let padding = (rows - 2 - body.count) / 2
        body = Array(repeating: "", count: padding) + body
        body += Array(repeating: "", count: rows - 2 - body.count)
        let horizontal = String(repeating: "─", count: columns - 2)
        return ["\(top.0)\(horizontal)\(top.1)"]
            + body.map { "\(side) \(fit($0, width: inner)) \(side)" }
            + ["\(bottom.0)\(horizontal)\(bottom.1)"]
    }

    /// The placeholder look (RULES.md `widget.provider`: rendered redacted): letters and digits become blocks.
    public static func redacted(_ lines: [String]) -> [String] {
        lines.map { String($0.map { $0.isLetter || $0.isNumber ? "▒" : $0 }) }
    }

    /// `text` cut or padded to exactly `width` terminal columns (emoji count two).
    public static func fit(_ text: String, width: Int) -> String {
        let total = text.reduce(0) { $0 + displayWidth($1) }
        if total <= width { return text + String(repeating: " ", count: width - total) }
        var result = ""
        var used = 0
        for character in text {
            let w = displayWidth(character)
            if used + w > width - 1 { break }
            result.append(character)
            used += w
        }
        return result + "…" + String(repeating: " ", count: width - 1 - used)
    }

    /// Terminal columns a character takes: 2 for emoji and wide ideographs, 1 otherwise.
    public static func displayWidth(_ character: Character) -> Int {
        for scalar in character.unicodeScalars {
            if scalar.properties.isEmojiPresentation { return 2 }
            if scalar.value == 0xFE0F && character.unicodeScalars.count > 1 { return 2 }
            if (0x1100...0x115F).contains(scalar.value) || (0x2E80...0xA4CF).contains(scalar.value)
                || (0xAC00...0xD7A3).contains(scalar.value) || (0xF900...0xFAFF).contains(scalar.value)
                || (0xFF00...0xFF60).contains(scalar.value) {
                return 2
            }
        }
        return 1
    }
}
