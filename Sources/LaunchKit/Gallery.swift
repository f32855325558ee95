import AppGroupKit
import Foundation
import LockstepSystem

/// `lockstep gallery`: one self-contained HTML page with the latest picture of every widget in every family and of
/// every Live Activity presentation, from the renders folders a serving widget extension fills
/// (`<group container>/.lockstep/widgetkit/renders/<kind>/<family>.svg`), SVG inlined.
public enum Gallery {
    /// A picture found in a renders folder.
    public struct Picture: Sendable, Equatable {
        public let device: String
        public let group: String
        /// The widget kind, or the Live Activity's attributes type.
        public let kind: String
        /// The family, or the Live Activity presentation.
        public let name: String
        public let path: String
    }

    /// Every picture under `groupsRoot`, by device, group, kind and name.
    public static func pictures(groupsRoot: String) -> [Picture] {
        let layout = GroupsLayout(root: groupsRoot)
        let files = FileManager.default
        var found: [Picture] = []
        for device in Device.allCases {
            let containers = layout.groupContainers(on: device)
            for group in ((try? files.contentsOfDirectory(atPath: containers)) ?? []).sorted() {
                let renders = GroupsLayout.widgetRenders(container: "\(containers)/\(group)")
                for kind in ((try? files.contentsOfDirectory(atPath: renders)) ?? []).sorted() {
                    for file in ((try? files.contentsOfDirectory(atPath: "\(renders)/\(kind)")) ?? []).sorted() where file.hasSuffix(".svg") {
                        found.append(Picture(device: device.rawValue, group: group, kind: kind, name: String(file.dropLast(4)),
                                             path: "\(renders)/\(kind)/\(file)"))
                    }
                }
            }
        }
        return found
    }

    /// Writes the page for `groupsRoot` to `path` (atomically) and returns how many pictures it holds.
    /// - Throws: `LaunchError.invalidInput` (exit 2) naming the file when it cannot be written; nothing is written.
    @discardableResult
    public static func write(groupsRoot: String, to path: String) throws -> Int {
        let pictures = pictures(groupsRoot: groupsRoot)
        let page = html(pictures)
        do { try AtomicFile.writeThrough(Array(page.utf8), to: path) } catch {
            throw LaunchError(.invalidInput, subject: path, detail: "Could not write the gallery to '\(path)': \(error.reason); nothing was written.")
        }
        return pictures.count
    }

    /// The page: one section per widget kind (and Live Activity), a figure per family or presentation.
    static func html(_ pictures: [Picture]) -> String {
        var out = """
        <!DOCTYPE html>
        <html lang="en"><head><meta charset="utf-8"><title>Lockstep widget gallery</title>
        <style>
        body { font-family: -apple-system, "Helvetica Neue", Arial, sans-serif; background: #e9e9ee; margin: 24px; color: #1c1c1e; }
        section { margin-bottom: 32px; } h2 { font-size: 18px; margin: 0 0 4px; } p.where { color: #6c6c70; margin: 0 0 12px; font-size: 12px; }
        .row { display: flex; flex-wrap: wrap; gap: 20px; align-items: flex-end; }
        figure { margin: 0; } figcaption { font-size: 12px; color: #3a3a3c; text-align: center; margin-top: 6px; }
        figure svg { display: block; border-radius: 22px; }
        figcaption .warning { color: #c41e12; display: inline-block; max-width: 340px; }
        </style></head><body>
        <h1>Widget gallery</h1>

        """
        if pictures.isEmpty {
            out += "<p>No pictures yet: a widget extension draws them while it serves (<code>lockstep up</code>).</p>\n"
        }
        let order = ["systemSmall", "systemMedium", "systemLarge", "systemExtraLarge", "accessoryCircular", "accessoryRectangular",
                     "accessoryInline", "accessoryCorner", "lockScreen", "expanded", "compactLeading", "compactTrailing", "minimal"]
        var sections: [(key: String, pictures: [Picture])] = []
        for picture in pictures {
            let key = "\(picture.device)/\(picture.group)/\(picture.kind)"
            if let index = sections.firstIndex(where: { $0.key == key }) { sections[index].pictures.append(picture) } else { sections.append((key, [picture])) }
        }
        for section in sections {
            let first = section.pictures[0]
            out += "<section><h2>\(escape(first.kind))</h2><p class=\"where\">\(escape(first.device)) · \(escape(first.group))</p><div class=\"row\">\n"
            for picture in section.pictures.sorted(by: { (order.firstIndex(of: $0.name) ?? 99) < (order.firstIndex(of: $1.name) ?? 99) }) {
                // Only a regular file of picture size: a FIFO named x.svg in a container must not hang `gallery` or
                // `up`'s teardown, which writes the page.
                guard let bytes = Self.readPicture(picture.path) else { continue }
                let svg = String(decoding: bytes, as: UTF8.self)
                out += "<figure>\(inline(svg))<figcaption>\(escape(picture.name))\(warnings(svg))</figcaption></figure>\n"
            }
            out += "</div></section>\n"
        }
        return out + "</body></html>\n"
    }

    /// The largest picture the page inlines (a widget's SVG is a few kilobytes).
    static let maximumPictureSize = 4 << 20

    /// The picture at `path`, or nil when it is not a regular file of at most `maximumPictureSize` bytes.
    static func readPicture(_ path: String) -> [UInt8]? {
        guard let fd = try? FileDescriptor.openWithoutBlocking(path) else { return nil }
        defer { fd.close() }
        guard let status = try? fd.status(path: path), status.kind == .regular, status.size <= maximumPictureSize,
              let bytes = try? fd.readAll(path: path, capacity: maximumPictureSize, limit: maximumPictureSize),
              bytes.count <= maximumPictureSize else { return nil }
        return bytes
    }

    /// An SVG document as an element of the page: without its XML declaration.
    static func inline(_ svg: String) -> String {
        guard svg.hasPrefix("<?xml"), let end = svg.range(of: "?>") else { return svg }
        return String(svg[end.upperBound...]).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// The warnings WidgetKit wrote into a picture (`<desc class="lockstep-warning">`: rule `widget.overflow`, a
    /// missing container background), each a line of the caption. Only plain text is taken: a description holding
    /// markup is left out, so a planted picture cannot put elements into the caption.
    static func warnings(_ svg: String) -> String {
        var caption = ""
        for part in svg.components(separatedBy: "<desc class=\"lockstep-warning\">").dropFirst() {
            guard let end = part.range(of: "</desc>") else { continue }
            let text = part[..<end.lowerBound]
            if text.contains("<") || text.contains(">") || text.count > 1000 { continue }
            caption += "<br><span class=\"warning\">\(text)</span>"
        }
        return caption
    }

    static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;").replacingOccurrences(of: ">", with: "&gt;")
    }
}
