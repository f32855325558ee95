import AppGroupKit
import Foundation
import Testing

/// `groups/README.md` documents the on-disk protocol for participants in any language; `GroupsLayout` is the one
/// place the code makes those paths. This keeps them the same.
@Suite struct GroupsLayoutTests {
    /// The paths the README's layout block draws, each as its folders joined from the indentation
    /// (`groups/phone/AppGroup/<group-id>/.lockstep/files.lock`). An entry is the text before two spaces.
    static func documentedPaths() throws -> Set<String> {
        let readme = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("groups/README.md")
        let text = try String(contentsOf: readme, encoding: .utf8)
        let block = try #require(text.components(separatedBy: "```").dropFirst().first, "no layout block in \(readme.path)")
        var stack: [(indent: Int, name: String)] = []
        var paths: Set<String> = []
        for line in block.split(separator: "\n") where !line.trimmingCharacters(in: .whitespaces).isEmpty {
            let indent = line.prefix { $0 == " " }.count
            let rest = line.dropFirst(indent)
            let name = String(rest.components(separatedBy: "  ").first ?? String(rest))
            while let last = stack.last, last.indent >= indent { stack.removeLast() }
            stack.append((indent, name.hasSuffix("/") ? String(name.dropLast()) : name))
            paths.insert(stack.map(\.name).joined(separator: "/"))
        }
        return paths
    }

    @Test func theReadmeShowsEveryPathTheLayoutMakes() throws {
        let documented = try Self.documentedPaths()
        let layout = GroupsLayout(root: "groups")
        let group = layout.groupContainer("<group-id>", on: .phone)
        let notify = layout.notifications(on: .phone)
        let link = GroupsLayout.Link(directory: layout.link(host: "<host-bundle-id>"))
        let made = [
            layout.installedManifest, layout.installLock, layout.clockOffset, layout.clockLock, layout.gallery,
            GroupsLayout.widgetRenders(container: group),
            layout.device(.phone), layout.device(.watch), layout.groupContainers(on: .phone), group,
            layout.privateContainer("<bundle-id>", on: .phone), notify, GroupsLayout.notificationCounter("<name>", in: notify),
            GroupsLayout.notificationLock("<name>", in: notify),
            layout.link(host: "<host-bundle-id>"),
            GroupsLayout.preferences(container: group), GroupsLayout.bookkeeping(container: group),
            GroupsLayout.defaults(container: group), GroupsLayout.filesLock(container: group),
            GroupsLayout.presence(container: group), GroupsLayout.widgetReloads(container: group),
            GroupsLayout.widget("<kind>", container: group), GroupsLayout.widgetBudget("<kind>", container: group),
            GroupsLayout.widgetLog("<kind>", container: group), GroupsLayout.widgets(container: group),
            GroupsLayout.widgetRendering("<kind>", family: "<family>", container: group), GroupsLayout.intents(container: group),
            GroupsLayout.intentRequests(container: group), GroupsLayout.intentsTaken(container: group),
            GroupsLayout.intentResponses(container: group),
            GroupsLayout.suitePlist("<group-id>", container: group), GroupsLayout.suiteJournal("<suite>", container: group),
            GroupsLayout.suiteLock("<suite>", container: group),
            layout.activities(app: "<app-bundle-id>"), GroupsLayout.activityRecord("<id>", in: layout.activities(app: "<app-bundle-id>")),
            GroupsLayout.activityRendering("<id>", in: layout.activities(app: "<app-bundle-id>")),
            GroupsLayout.activitiesLock(in: layout.activities(app: "<app-bundle-id>")),
        ] + GroupsLayout.standardFolders(container: layout.privateContainer("<bundle-id>", on: .phone), isPrivate: true)
          + GroupsLayout.standardFolders(container: group, isPrivate: false)
          + [link.alive("phone"), link.alive("watch"), link.complicationTransfers(from: "phone"), link.inbox("phone"), link.context(to: "phone"), link.contextLock(to: "phone"),
             link.sequence("userinfo", to: "phone"), link.sequence("files", to: "phone")]
          + ["messages", "replies", "userinfo", "files"].map { link.queue($0, to: "phone") }
        for path in made {
            // A folder is shown when it, or something in it, is.
            #expect(documented.contains(path) || documented.contains { $0.hasPrefix(path + "/") },
                    "groups/README.md does not show \(path); it shows \(documented.sorted())")
        }
    }
}
