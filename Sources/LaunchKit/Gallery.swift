import AppGroupKit
import Foundation
import LockstepSystem

/// `lockstep gallery`: one self-contained HTML page with the latest picture of every widget in every family and of
/// every Live Activity presentation, from the renders folders a serving widget extension fills
/// (`<group container>/.lockstep/widgetkit/renders/<kind>/<family>.svg`, or the extension's own container when it
/// claims no group), each embedded as an image.
///
/// The renders folder is in a group container, which every bundle of the group can write: a picture is embedded as
/// an `<img>` of a `data:` URL, never inlined, so a planted SVG's script does not run when the page is opened (an
/// image document runs none) and one picture's ids cannot restyle another's; a link is not followed; and the page
/// has a total bound.
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
            // A widget extension that claims no App Group renders into its own container (rule `container.private`).
            let folders = [layout.groupContainers(on: device), "\(layout.device(device))/Data"]
            let containers = folders.flatMap { folder in ((try? files.contentsOfDirectory(atPath: folder)) ?? []).sorted().map { (folder, $0) } }
            for (folder, group) in containers {
                let renders = GroupsLayout.widgetRenders(container: "\(folder)/\(group)")
                for kind in ((try? files.contentsOfDirectory(atPath: renders)) ?? []).sorted() where !FileSystem.isSymbolicLink("\(renders)/\(kind)") {
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
        figure img { display: block; border-radius: 22px; }
        figcaption .warning { color: #c41e12; display: inline-block; max-width: 340px; }
        figcaption .display { color: #6c6c70; font-size: 11px; }
        </style></head><body>
        <h1>Widget gallery</h1>

        """
        if pictures.isEmpty {
            out += "<p>No pictures yet: a widget extension draws them while it serves (<code>lockstep up</code>).</p>\n"
        }
        let order = ["systemSmall", "systemMedium", "systemLarge", "systemExtraLarge", "accessoryCircular", "accessoryRectangular",
                     "accessoryInline", "accessoryCorner", "lockScreen", "expanded", "compactLeading", "compactTrailing", "minimal"]
        let modes = ["fullColor", "accented", "vibrant"]
        var sections: [(key: String, pictures: [Picture])] = []
        for picture in pictures {
            let key = "\(picture.device)/\(picture.group)/\(picture.kind)"
            if let index = sections.firstIndex(where: { $0.key == key }) { sections[index].pictures.append(picture) } else { sections.append((key, [picture])) }
        }
        var embedded = 0
        var leftOut = 0
        for section in sections {
            let first = section.pictures[0]
            out += "<section><h2>\(escape(first.kind))</h2><p class=\"where\">\(escape(first.device)) · \(escape(first.group))</p><div class=\"row\">\n"
            // A family's other rendering modes (`systemSmall.accented.svg`) right after it, side by side.
            func rank(_ picture: Picture) -> (Int, Int) {
                let parts = picture.name.split(separator: ".", maxSplits: 1).map(String.init)
                return (order.firstIndex(of: parts[0]) ?? 99, parts.count > 1 ? (modes.firstIndex(of: parts[1]) ?? 9) : 0)
            }
            for picture in section.pictures.sorted(by: { rank($0) < rank($1) }) {
                // Only a regular file of picture size: a FIFO named x.svg in a container must not hang `gallery` or
                // `up`'s teardown, which writes the page.
                guard let bytes = Self.readPicture(picture.path) else { continue }
                guard embedded + bytes.count <= maximumPageSize else {
                    leftOut += 1
                    continue
                }
                embedded += bytes.count
                let svg = String(decoding: bytes, as: UTF8.self)
                // A preview's file is numbered (`3-Name-1.svg`); its title says which preview and picture it is.
                let name = picture.kind == previewsKind ? (title(svg) ?? picture.name) : picture.name.replacingOccurrences(of: ".", with: " · ")
                out += "<figure><img src=\"data:image/svg+xml;base64,\(Data(bytes).base64EncodedString())\" alt=\"\(escape(picture.kind)) \(escape(name))\"><figcaption>\(escape(name))\(descriptions(svg, of: "lockstep-display", as: "display"))\(descriptions(svg, of: "lockstep-warning", as: "warning"))</figcaption></figure>\n"
            }
            out += "</div></section>\n"
        }
        if leftOut > 0 {
            out += "<p>\(leftOut) more picture\(leftOut == 1 ? " is" : "s are") left out: the page holds at most \(maximumPageSize >> 20) MB of pictures.</p>\n"
        }
        return out + "</body></html>\n"
    }

    /// The largest picture the page embeds (a widget's SVG is a few kilobytes; one with a catalog's photo, some
    /// hundred).
    static let maximumPictureSize = 4 << 20
    /// The most picture bytes one page embeds: a gallery of every widget a real app has is some megabytes.
    static let maximumPageSize = 32 << 20

    /// The picture at `path`, or nil when it is not a regular file of at most `maximumPictureSize` bytes.
    static func readPicture(_ path: String) -> [UInt8]? {
        guard let fd = try? FileDescriptor.openWithoutFollowing(path) else { return nil }
        defer { fd.close() }
        guard let status = try? fd.status(path: path), status.kind == .regular, status.size <= maximumPictureSize,
              let bytes = try? fd.readAll(path: path, capacity: maximumPictureSize, limit: maximumPictureSize),
              bytes.count <= maximumPictureSize else { return nil }
        return bytes
    }

    /// What WidgetKit wrote into a picture as `<desc class="CLASS">`, each a line of the caption in a span of
    /// `style`: the device, appearance, Dynamic Type size and mode it was drawn on (`lockstep-display`), and its
    /// warnings (`lockstep-warning`: rule `widget.overflow`, a missing container background). Only plain text is
    /// taken: a description holding markup is left out, so a planted picture cannot put elements into the caption.
    static func descriptions(_ svg: String, of descriptionClass: String, as style: String) -> String {
        var caption = ""
        for part in svg.components(separatedBy: "<desc class=\"\(descriptionClass)\">").dropFirst() {
            guard let end = part.range(of: "</desc>") else { continue }
            let text = part[..<end.lowerBound]
            if text.contains("<") || text.contains(">") || text.count > 1000 { continue }
            caption += "<br><span class=\"\(style)\">\(text)</span>"
        }
        return caption
    }

    /// The kind under which a widget extension draws its previews (WidgetKit's `PreviewCommand.galleryKind`).
    static let previewsKind = "Previews"

    /// An SVG's own `<title>`, when it is plain text of a caption's length.
    static func title(_ svg: String) -> String? {
        guard let start = svg.range(of: "<title>"), let end = svg[start.upperBound...].range(of: "</title>") else { return nil }
        let text = String(svg[start.upperBound..<end.lowerBound])
        guard !text.isEmpty, text.count <= 200, !text.contains("<") else { return nil }
        // Already escaped as the SVG escapes it (`&amp;`): unescaped here, escaped again by the caption.
        return text.replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
            .replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&amp;", with: "&")
    }

    /// Text for the page, in an element or a quoted attribute: a kind folder's name is any bundle's to choose.
    static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;").replacingOccurrences(of: ">", with: "&gt;")
            .replacingOccurrences(of: "\"", with: "&quot;").replacingOccurrences(of: "'", with: "&#39;")
            .replacingOccurrences(of: "\"", with: "&quot;")
    }
}
