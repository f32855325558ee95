import ActivityKit
import Foundation
import LockstepSystem
import SwiftUI

/// A widget's preview with its timeline: `#Preview(as: .systemSmall) { MyWidget() } timeline: { Entry(…) }`.
@freestanding(declaration)
public macro Preview<Widget: WidgetKit.Widget, Entry: TimelineEntry>(
    _ name: String? = nil, as family: WidgetFamily, widget: @escaping @MainActor () -> Widget,
    @PreviewTimelineBuilder timeline: @escaping @MainActor () -> [Entry]
) = #externalMacro(module: "LockstepMacros", type: "PreviewMacro")

/// A widget's preview with the entries of its provider's timeline: `#Preview(as: .systemSmall) { MyWidget() }
/// timelineProvider: { Provider() }`.
@freestanding(declaration)
public macro Preview<Widget: WidgetKit.Widget, Provider: TimelineProvider>(
    _ name: String? = nil, as family: WidgetFamily, widget: @escaping @MainActor () -> Widget,
    timelineProvider: @escaping @MainActor () -> Provider
) = #externalMacro(module: "LockstepMacros", type: "PreviewMacro")

/// Collects a preview's timeline entries, one per line of the closure.
@resultBuilder
public enum PreviewTimelineBuilder {
    public static func buildExpression<Entry: TimelineEntry>(_ entry: Entry) -> [Entry] { [entry] }
    public static func buildBlock<Entry>(_ parts: [Entry]...) -> [Entry] { parts.flatMap { $0 } }
    public static func buildArray<Entry>(_ parts: [[Entry]]) -> [Entry] { parts.flatMap { $0 } }
    public static func buildOptional<Entry>(_ part: [Entry]?) -> [Entry] { part ?? [] }
    public static func buildEither<Entry>(first: [Entry]) -> [Entry] { first }
    public static func buildEither<Entry>(second: [Entry]) -> [Entry] { second }
}

extension _LockstepPreview {
    public init<W: Widget, Entry: TimelineEntry>(_ name: String? = nil, as family: WidgetFamily, widget: @escaping @MainActor () -> W,
                                                 @PreviewTimelineBuilder timeline: @escaping @MainActor () -> [Entry]) {
        self.init(name: name, payload: WidgetPreview(family: family, widget: { Describe.widget(widget()) },
                                                     entries: { _ in timeline().map { AnyEntry(base: $0) } }))
    }

    public init<W: Widget, Provider: TimelineProvider>(_ name: String? = nil, as family: WidgetFamily, widget: @escaping @MainActor () -> W,
                                                       timelineProvider: @escaping @MainActor () -> Provider) {
        self.init(name: name, payload: WidgetPreview(family: family, widget: { Describe.widget(widget()) }, entries: { name in
            let provider = timelineProvider()
            let done = Handoff<[AnyEntry]>()
            provider.getTimeline(in: TimelineProviderContext(family: family, isPreview: true)) { timeline in
                done.set(timeline.entries.map { AnyEntry(base: $0) })
            }
            // The provider may complete on the main queue: the main run loop turns while it is awaited (bounded).
            let deadline = Date(timeIntervalSinceNow: 10)
            while Date() < deadline {
                if let entries = done.wait(timeout: 0) { return entries }
                _ = RunLoop.main.run(mode: .default, before: Date(timeIntervalSinceNow: 0.01))
            }
            throw WidgetKitError(.providerTimedOut, subject: name, detail: "10 s (getTimeline, for its preview)")
        }))
    }
}

/// A widget preview: the widget, its family, and the entries to draw it with.
@MainActor
struct WidgetPreview {
    let family: WidgetFamily
    let widget: @MainActor () -> [WidgetDescriptor]
    /// The entries; the argument names the preview, for an error.
    let entries: @MainActor (String) throws -> [AnyEntry]
}

/// A widget preview's context in an older `PreviewProvider`: `.previewContext(WidgetPreviewContext(family: .systemSmall))`.
public struct WidgetPreviewContext: PreviewContext {
    public let family: WidgetFamily
    public init(family: WidgetFamily) { self.family = family }
}

/// `previews [--svg DIR]`: every `#Preview` of the executable, each widget preview's every entry drawn at its
/// family's size and each view preview at its own, the texts printed and, with `--svg`, the pictures written.
@MainActor
enum PreviewCommand {
    /// The kind under which a serving widget extension draws its previews into its renders folder, so that
    /// `lockstep gallery` shows them beside the widgets' own renderings.
    static let galleryKind = "Previews"

    static func run(_ arguments: [String], activities: [any LiveActivityPresentation]) throws -> String {
        guard arguments == ["previews"] || (arguments.count == 3 && arguments[1] == "--svg") else {
            throw WidgetKitError(.usage, subject: arguments.joined(separator: " "), detail: WidgetHost.usage)
        }
        let lines = try draw(into: arguments.count == 3 ? arguments[2] : nil, activities: activities)
        return lines.isEmpty ? "no previews" : lines.joined(separator: "\n")
    }

    /// Draws every preview: one line per picture, and each picture as `N-Name-M.svg` in `folder` when one is given.
    /// A Live Activity's preview is drawn by the `ActivityConfiguration` in `activities` for its attributes.
    /// - Throws: `WidgetKitError` naming the folder or file that cannot be written, or the preview that fails.
    static func draw(into folder: String?, activities: [any LiveActivityPresentation]) throws -> [String] {
        let previews = _LockstepPreviews.all()
        if let folder, !previews.isEmpty {
            do { try AtomicFile.createDirectories(folder) } catch {
                throw WidgetKitError(.unwritable, subject: folder, detail: error.reason)
            }
        }
        var lines: [String] = []
        for (index, entry) in previews.enumerated() {
            let preview = entry.make()
            let title = preview.name ?? "Preview \(index + 1)"
            for (number, picture) in try pictures(preview, title: title, activities: activities).enumerated() {
                lines.append("\(title) (\(entry.fileID):\(entry.line)) \(picture.label): \(picture.texts.joined(separator: " · "))")
                guard let folder else { continue }
                let file = "\(folder)/\(Self.fileName(index + 1, title, number + 1)).svg"
                do { try AtomicFile.writeThrough(Array(picture.svg("\(title) \(picture.label)").utf8), to: file) } catch {
                    throw WidgetKitError(.unwritable, subject: file, detail: error.reason)
                }
            }
        }
        return lines
    }

    /// A preview's picture: what it shows ("systemSmall, entry 2 of 3"), its texts, and its SVG given a title.
    struct Picture {
        let label: String
        let texts: [String]
        let svg: (String) -> String

        init(_ label: String, _ view: RenderedView) {
            self.label = label
            texts = view.texts
            svg = { view.svg(title: $0) }
        }

        init(_ label: String, _ picture: LiveActivityPicture) {
            self.label = label
            texts = picture.texts
            svg = { _ in picture.svg }
        }
    }

    /// Each picture a preview makes.
    static func pictures(_ preview: _LockstepPreview, title: String, activities: [any LiveActivityPresentation]) throws -> [Picture] {
        if let widget = preview.payload as? WidgetPreview {
            guard let descriptor = widget.widget().first(where: \.hasTimeline), let source = descriptor.source else {
                throw WidgetKitError(.unknownKind, subject: title, detail: "the preview's widget declares no timeline widget")
            }
            // On the default device that has the family: Xcode previews a complication on a watch.
            let request = descriptor.request(widget.family, device: .standard(for: widget.family))
            let entries = try widget.entries(title)
            return entries.enumerated().map { number, entry in
                Picture("\(widget.family.rawValue), entry \(number + 1) of \(entries.count)", source.render(entry, request))
            }
        }
        if let view = preview.payload as? ViewPreview {
            let size = view.size ?? CGSize(width: 393, height: 852)
            return [Picture("view", SwiftUI.render(AnyView(view.body()), RenderRequest(size: size)))]
        }
        if let provider = preview.payload as? ProviderPreview {
            return try provider.parts().enumerated().flatMap { number, part in
                try pictures(part, label: part.name ?? "preview \(number + 1)", title: title, activities: activities)
            }
        }
        return []
    }

    /// One of a `PreviewProvider`'s previews: a Live Activity's presentation, a widget view in its family, or a view.
    static func pictures(_ part: ProviderPreviewPart, label: String, title: String, activities: [any LiveActivityPresentation]) throws -> [Picture] {
        if let activity = part.view as? any ActivityPreviewing {
            let record: ActivityRecord
            do { record = try activity.record() } catch {
                throw WidgetKitError(.unknownKind, subject: title, detail: "the preview's attributes do not encode: \(error)")
            }
            guard let presentation = activities.first(where: { $0.attributesType == record.attributesType }),
                  let drawn = presentation.render(record, isStale: false) else {
                throw WidgetKitError(.unknownKind, subject: title, detail: "the widget extension declares no ActivityConfiguration for \(record.attributesType)")
            }
            let kinds = activity.activityKind.presentations
            return drawn.filter { kinds.contains($0.kind) }.map { Picture("\(label) (\($0.kind.rawValue))", $0) }
        }
        let view = AnyView(part.view)
        if let context = part.context as? WidgetPreviewContext {
            return [Picture("\(label) (\(context.family.rawValue))", SwiftUI.render(view, WidgetDescriptor.request(context.family, display: WidgetDisplay(device: .iPhone))))]
        }
        let size: CGSize
        switch part.layout {
        case .device: size = CGSize(width: 393, height: 852)
        case let .fixed(width, height): size = CGSize(width: width, height: height)
        case .sizeThatFits:
            let fitting = fittingSize(view, width: nil, height: nil, environment: EnvironmentValues())
            size = CGSize(width: max(1, min(fitting.width, 393)), height: max(1, min(fitting.height, 852)))
        }
        return [Picture(label, SwiftUI.render(view, RenderRequest(size: size)))]
    }

    /// `1-Small-widget-2`: the preview's number, its name's letters and digits, the picture's number.
    static func fileName(_ index: Int, _ title: String, _ number: Int) -> String {
        let name = String(title.unicodeScalars.map { CharacterSet.alphanumerics.contains($0) ? Character($0) : "-" })
        return "\(index)-\(name)-\(number)"
    }
}

/// Which view of a Live Activity an older `PreviewProvider` previews: `.content`, `.dynamicIsland(.compact)` …
public struct ActivityPreviewViewKind: Sendable, Hashable {
    /// The Dynamic Island presentations.
    public enum DynamicIslandPresentation: Sendable, Hashable {
        case compact, expanded, minimal
    }

    let name: String
    public static let content = ActivityPreviewViewKind(name: "content")
    public static func dynamicIsland(_ presentation: DynamicIslandPresentation) -> ActivityPreviewViewKind {
        ActivityPreviewViewKind(name: "dynamicIsland.\(presentation)")
    }
}

extension ActivityAttributes {
    /// A Live Activity preview in a `PreviewProvider`: `attributes.previewContext(state, viewKind: .content)`. The
    /// previews command draws it with the widget extension's `ActivityConfiguration` for these attributes, as Xcode
    /// does; as a view elsewhere it is empty.
    public func previewContext(_ contentState: ContentState, viewKind: ActivityPreviewViewKind) -> some View {
        ActivityPreviewView(attributes: self, state: contentState, kind: viewKind)
    }
}

/// A Live Activity's preview: its attributes and state, and which presentation.
nonisolated struct ActivityPreviewView<Attributes: ActivityAttributes>: View {
    let attributes: Attributes
    let state: Attributes.ContentState
    let kind: ActivityPreviewViewKind
    var body: some View { EmptyView() }
}

/// Any `ActivityPreviewView`, as the previews command finds it.
protocol ActivityPreviewing {
    var activityKind: ActivityPreviewViewKind { get }
    /// The activity as ActivityKit records it, for the configuration of its attributes type to draw.
    func record() throws -> ActivityRecord
}

extension ActivityPreviewView: ActivityPreviewing {
    var activityKind: ActivityPreviewViewKind { kind }

    func record() throws -> ActivityRecord {
        let encoder = JSONEncoder()
        return ActivityRecord(previewOf: _typeName(Attributes.self, qualified: false),
                              attributes: String(decoding: try encoder.encode(attributes), as: UTF8.self),
                              state: String(decoding: try encoder.encode(state), as: UTF8.self))
    }
}

extension ActivityPreviewViewKind {
    /// The presentations a preview of this kind shows.
    var presentations: [LiveActivityPresentationKind] {
        switch name {
        case "content": return [.lockScreen]
        case "dynamicIsland.expanded": return [.expanded]
        case "dynamicIsland.compact": return [.compactLeading, .compactTrailing]
        default: return [.minimal]
        }
    }
}
