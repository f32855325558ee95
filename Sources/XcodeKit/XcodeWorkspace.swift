import BundleKit
import Foundation

/// An Xcode workspace (`X.xcworkspace/contents.xcworkspacedata`), read only for the projects it lists: `check`
/// reads projects, not workspaces, and names these when it is given a workspace.
///
/// The file is XML: `<Group>` and `<FileRef>` elements, each with a `location` of the form `kind:path`. `group:`
/// is relative to the enclosing group (at the top, the workspace's folder), `container:` to the workspace's folder,
/// `absolute:` is absolute, and `self:` (in an `.xcodeproj`'s own `project.xcworkspace`) is that project.
package enum XcodeWorkspace {
    /// The `.xcodeproj` paths `workspace` lists, in the order written, each once: joined to the folder the workspace
    /// is in, as `workspace` was written (relative stays relative). Nil when its `contents.xcworkspacedata` cannot be
    /// read.
    package static func projects(in workspace: String) -> [String]? {
        guard let bytes = (try? InputFile.readIfExists(PathText.join(workspace, "contents.xcworkspacedata"), limit: 16 << 20)) ?? nil else {
            return nil
        }
        return projects(listedIn: String(decoding: bytes, as: UTF8.self), workspace: workspace)
    }

    /// How deep `<Group>`s nest before the deeper ones are read as their parent: Xcode's own workspaces nest a few
    /// levels. Each open group keeps its joined path, so without a bound a workspace of N nested groups costs N²
    /// memory (32,000 levels in 1.3 MB took 4.5 GB).
    package static let maximumDepth = 256

    /// The longest path a location may make (Linux's PATH_MAX): a longer one names no project that could be opened.
    package static let maximumPathLength = 4096

    /// `projects(in:)` of the text of a `contents.xcworkspacedata`. Linear in the text: the projects seen are a set,
    /// groups nest at most `maximumDepth` deep and each path is at most `maximumPathLength` bytes.
    package static func projects(listedIn text: String, workspace: String) -> [String] {
        let folder = PathText.parent(of: workspace)
        var groups = [folder]
        // Groups opened past `maximumDepth`: each is read as its parent, and its end tag closes nothing kept.
        var unkept = 0
        var projects: [String] = []
        var seen = Set<String>()
        for tag in tags(text) {
            switch tag.name {
            case "Group":
                guard !tag.closesItself else { continue }
                guard groups.count <= maximumDepth else { unkept += 1; continue }
                let location = tag.location.flatMap { resolve($0, group: groups.last ?? folder, folder: folder, workspace: workspace) }
                groups.append(location ?? groups.last ?? folder)
            case "/Group":
                if unkept > 0 { unkept -= 1 } else if groups.count > 1 { groups.removeLast() }
            case "FileRef":
                guard let location = tag.location,
                      let path = resolve(location, group: groups.last ?? folder, folder: folder, workspace: workspace),
                      path.hasSuffix(".xcodeproj"), seen.insert(path).inserted else { continue }
                projects.append(path)
            default:
                continue
            }
        }
        return projects
    }

    /// The path a `location` names, or nil for a kind that is no path here (`developer:`, unknown kinds).
    /// A path longer than `maximumPathLength` is nil too.
    private static func resolve(_ location: String, group: String, folder: String, workspace: String) -> String? {
        guard let colon = location.firstIndex(of: ":") else { return nil }
        let path = String(location[location.index(after: colon)...])
        guard path.utf8.count <= maximumPathLength else { return nil }
        let resolved: String?
        switch location[..<colon] {
        case "group": resolved = path.isEmpty ? group : PathText.join(group, path)
        case "container": resolved = path.isEmpty ? folder : PathText.join(folder, path)
        case "absolute": resolved = path
        case "self": resolved = folder.hasSuffix(".xcodeproj") ? folder : nil
        default: resolved = nil
        }
        return resolved.flatMap { $0.utf8.count <= maximumPathLength ? $0 : nil }
    }

    private struct Tag {
        var name: Substring
        var location: String?
        var closesItself: Bool
    }

    /// Each element's start or end tag, with its `location` attribute (entities decoded). The attributes are read
    /// one by one, so a `>` or an attribute-like text inside another attribute's quoted value is only text.
    private static func tags(_ text: String) -> [Tag] {
        var tags: [Tag] = []
        var rest = text[...]
        while let open = rest.firstIndex(of: "<") {
            rest = rest[rest.index(after: open)...]
            // A comment may hold what looks like a tag (a reference commented out).
            if rest.hasPrefix("!--") {
                guard let end = rest.range(of: "-->") else { break }
                rest = rest[end.upperBound...]
                continue
            }
            // `/Group` for an end tag: the slash and the name.
            let nameEnd = rest.dropFirst().firstIndex { $0.isWhitespace || $0 == ">" || $0 == "/" } ?? rest.endIndex
            var tag = Tag(name: rest[..<nameEnd], location: nil, closesItself: false)
            var cursor = rest[nameEnd...]
            // Every step consumes at least one character, up to the `>` outside quotes (or the end of the text).
            while let first = cursor.first, first != ">" {
                if first.isWhitespace || first == "/" {
                    tag.closesItself = first == "/"
                    cursor = cursor.dropFirst()
                    continue
                }
                tag.closesItself = false
                let name = cursor.prefix { !$0.isWhitespace && $0 != "=" && $0 != ">" && $0 != "/" }
                cursor = cursor[name.endIndex...].drop { $0.isWhitespace }
                guard cursor.first == "=" else { continue }
                cursor = cursor.dropFirst().drop { $0.isWhitespace }
                guard let quote = cursor.first, quote == "\"" || quote == "'" else { continue }
                let inside = cursor.dropFirst()
                guard let end = inside.firstIndex(of: quote) else {
                    cursor = cursor[cursor.endIndex...]
                    break
                }
                if name == "location" { tag.location = decodeEntities(inside[..<end]) }
                cursor = inside[inside.index(after: end)...]
            }
            tags.append(tag)
            rest = cursor.isEmpty ? cursor : cursor.dropFirst()
        }
        return tags
    }

    private static let namedEntities: [Substring: String] = ["quot": "\"", "apos": "'", "lt": "<", "gt": ">", "amp": "&"]

    /// XML's five named entities and numeric ones (`&#39;`, `&#x27;`); anything else is kept as written.
    private static func decodeEntities(_ text: Substring) -> String {
        guard text.contains("&") else { return String(text) }
        var result = ""
        var rest = text
        while let ampersand = rest.firstIndex(of: "&") {
            result += rest[..<ampersand]
            rest = rest[ampersand...]
            guard let semicolon = rest.prefix(12).firstIndex(of: ";") else {
                result += "&"
                rest = rest.dropFirst()
                continue
            }
            let entity = rest[rest.index(after: rest.startIndex)..<semicolon]
            var decoded = namedEntities[entity]
            if decoded == nil, entity.hasPrefix("#") {
                let digits = entity.dropFirst()
                let code = digits.hasPrefix("x") || digits.hasPrefix("X") ? UInt32(digits.dropFirst(), radix: 16) : UInt32(digits)
                decoded = code.flatMap(Unicode.Scalar.init).map { String(Character($0)) }
            }
            guard let decoded else {
                result += "&"
                rest = rest.dropFirst()
                continue
            }
            result += decoded
            rest = rest[rest.index(after: semicolon)...]
        }
        return result + rest
    }
}
