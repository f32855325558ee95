import LockstepSystem
import Synchronization

/// Creates a preview of a SwiftUI view: `#Preview { ContentView() }`, `#Preview("Name") { … }`. On Linux the
/// preview builds as in Xcode, and a widget executable's `previews` command draws it (see WidgetKit).
@freestanding(declaration)
public macro Preview(_ name: String? = nil, @ViewBuilder body: @escaping @MainActor () -> any View) =
    #externalMacro(module: "LockstepMacros", type: "PreviewMacro")

/// A preview of a SwiftUI view, with traits: `#Preview("Name", traits: .sizeThatFitsLayout) { … }`.
@freestanding(declaration)
public macro Preview(_ name: String? = nil, traits: PreviewTrait<Preview.ViewTraits>, _ additionalTraits: PreviewTrait<Preview.ViewTraits>...,
                     @ViewBuilder body: @escaping @MainActor () -> any View) =
    #externalMacro(module: "LockstepMacros", type: "PreviewMacro")

/// The namespace of preview traits' kinds.
public enum Preview {
    /// Traits of a view preview.
    public enum ViewTraits {}
}

/// A characteristic of a preview: its layout or orientation.
public struct PreviewTrait<T>: Sendable {
    /// The size a view preview is drawn at; nil: the reference iPhone's screen.
    let size: CGSize?
}

extension PreviewTrait where T == Preview.ViewTraits {
    /// The view at the size it chooses (drawn here on the reference iPhone's screen, as `portrait`).
    public static var sizeThatFitsLayout: PreviewTrait { PreviewTrait(size: nil) }
    public static func fixedLayout(width: CGFloat, height: CGFloat) -> PreviewTrait { PreviewTrait(size: CGSize(width: width, height: height)) }
    public static var portrait: PreviewTrait { PreviewTrait(size: nil) }
    public static var landscapeLeft: PreviewTrait { PreviewTrait(size: CGSize(width: 852, height: 393)) }
    public static var landscapeRight: PreviewTrait { PreviewTrait(size: CGSize(width: 852, height: 393)) }
}

/// What a `#Preview` expands to: its name and what to draw. A view preview holds its view; frameworks add other
/// kinds (WidgetKit's widget previews) through `payload`.
@MainActor
public struct _LockstepPreview {
    public let name: String?
    /// What the preview shows: a `ViewPreview`, or another framework's kind.
    public let payload: Any

    public init(name: String?, payload: Any) {
        self.name = name
        self.payload = payload
    }

    public init(_ name: String? = nil, @ViewBuilder body: @escaping @MainActor () -> any View) {
        self.init(name: name, payload: ViewPreview(size: nil, body: body))
    }

    public init(_ name: String? = nil, traits: PreviewTrait<Preview.ViewTraits>, _ additionalTraits: PreviewTrait<Preview.ViewTraits>...,
                @ViewBuilder body: @escaping @MainActor () -> any View) {
        let size = ([traits] + additionalTraits).compactMap(\.size).last
        self.init(name: name, payload: ViewPreview(size: size, body: body))
    }
}

/// A view preview: drawn at `size` (nil: the reference iPhone's screen, 393 × 852 points).
@MainActor
package struct ViewPreview {
    package let size: CGSize?
    package let body: @MainActor () -> any View
}

/// Every `#Preview` linked into this executable, found in its `lockstep_previews` section.
public enum _LockstepPreviews {
    /// A preview's maker and where it is written.
    package struct Entry: Sendable {
        package let make: @MainActor @Sendable () -> _LockstepPreview
        package let fileID: String
        package let line: Int
    }
    private static let registered = Mutex<[Entry]?>(nil)

    /// Called by a preview's section record.
    public static func register(_ make: @escaping @MainActor @Sendable () -> _LockstepPreview, fileID: String, line: Int) {
        registered.withLock { $0?.append(Entry(make: make, fileID: fileID, line: line)) }
    }

    /// The previews, in the order of their files and lines.
    package static func all() -> [Entry] {
        let loaded = registered.withLock { registered in
            defer { if registered == nil { registered = [] } }
            return registered != nil
        }
        if !loaded { LinkerSection.callPreviewRecords() }
        return registered.withLock { $0 ?? [] }.sorted { ($0.fileID, $0.line) < ($1.fileID, $1.line) }
    }
}

// MARK: - PreviewProvider, Xcode's older previews

/// Xcode's older previews: a type whose `previews` are one or more views, each with its own name, layout and
/// context. `lockstep build` records every file-scope `PreviewProvider` of a team's target (as `#Preview` records
/// itself), so a widget executable's `previews` command draws them too.
@MainActor @preconcurrency
public protocol PreviewProvider {
    associatedtype Previews: View
    @ViewBuilder @MainActor @preconcurrency static var previews: Self.Previews { get }
}

/// A preview's context (WidgetKit's `WidgetPreviewContext` is one).
public protocol PreviewContext {}

/// The size an older preview is drawn at.
public enum PreviewLayout: Sendable {
    case device
    case sizeThatFits
    case fixed(width: CGFloat, height: CGFloat)
}

nonisolated extension View {
    public func previewContext<C: PreviewContext>(_ context: C) -> some View { _PreviewSettings(content: self, context: context) }
    public func previewDisplayName(_ value: String?) -> some View { _PreviewSettings(content: self, name: value) }
    public func previewLayout(_ value: PreviewLayout) -> some View { _PreviewSettings(content: self, layout: value) }
    public func previewDevice(_ value: PreviewDevice?) -> some View { self }
    public func previewInterfaceOrientation(_ value: InterfaceOrientation) -> some View { self }
}

/// A device an older preview names; the preview is drawn on Lockstep's reference iPhone whatever it names.
public struct PreviewDevice: RawRepresentable, ExpressibleByStringLiteral, Sendable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public init(stringLiteral value: String) { rawValue = value }
}

public struct InterfaceOrientation: Hashable, Sendable {
    let name: String
    public static let portrait = InterfaceOrientation(name: "portrait")
    public static let portraitUpsideDown = InterfaceOrientation(name: "portraitUpsideDown")
    public static let landscapeLeft = InterfaceOrientation(name: "landscapeLeft")
    public static let landscapeRight = InterfaceOrientation(name: "landscapeRight")
}

/// A preview setting on a view: drawn as the view; read by the previews command.
nonisolated struct _PreviewSettings<Content: View>: View, PrimitiveView {
    typealias Body = Never
    let content: Content
    var name: String??
    var context: (any PreviewContext)?
    var layout: PreviewLayout?

    init(content: Content, name: String?? = nil, context: (any PreviewContext)? = nil, layout: PreviewLayout? = nil) {
        self.content = content
        self.name = name
        self.context = context
        self.layout = layout
    }

    @MainActor static func _resolve(_ view: Self, _ inputs: _ResolveInputs) -> _ResolvedNodes { _ResolvedNodes(nodes: view.nodes(inputs.context)) }
    @MainActor func nodes(_ context: ResolveContext) -> [Node] { resolve(content, context) }
}

/// What the settings modifiers say of one preview, and the view inside them.
protocol PreviewSettingsReadable {
    var settings: (name: String??, context: (any PreviewContext)?, layout: PreviewLayout?, content: any View) { get }
}
extension _PreviewSettings: PreviewSettingsReadable {
    var settings: (name: String??, context: (any PreviewContext)?, layout: PreviewLayout?, content: any View) { (name, context, layout, content) }
}

/// One of a `PreviewProvider`'s previews, its settings read off.
@MainActor
package struct ProviderPreviewPart {
    package var name: String?
    package var context: (any PreviewContext)?
    package var layout: PreviewLayout = .device
    /// The view inside the settings.
    package var view: any View
}

/// A `PreviewProvider`'s previews.
@MainActor
package struct ProviderPreview {
    package let typeName: String
    package let previews: @MainActor () -> any View

    /// Each top-level view of `previews` (a `@ViewBuilder` block's views, a `Group`'s), its settings read off, the
    /// innermost setting of each kind winning as SwiftUI's modifiers do.
    package func parts() -> [ProviderPreviewPart] {
        func split(_ view: any View) -> [any View] {
            if let tuple = view as? any TupleViewChildren, let children = tuple.viewChildren { return children.flatMap(split) }
            if let group = view as? any GroupContent { return split(group.groupContent) }
            return [view]
        }
        return split(previews()).map { view in
            var part = ProviderPreviewPart(view: view)
            var names: [String?] = [], contexts: [any PreviewContext] = [], layouts: [PreviewLayout] = []
            while let settings = (part.view as? any PreviewSettingsReadable)?.settings {
                if let name = settings.name { names.append(name) }
                if let context = settings.context { contexts.append(context) }
                if let layout = settings.layout { layouts.append(layout) }
                part.view = settings.content
            }
            part.name = names.last ?? nil
            part.context = contexts.last
            part.layout = layouts.last ?? .device
            return part
        }
    }
}

protocol TupleViewChildren { var viewChildren: [any View]? { get } }
extension TupleView: TupleViewChildren { var viewChildren: [any View]? { children } }
protocol GroupContent { var groupContent: any View { get } }
extension Group: GroupContent where Content: View { var groupContent: any View { content } }

extension _LockstepPreview {
    /// A `PreviewProvider`'s previews, as `lockstep build` records them.
    public init<P: PreviewProvider>(provider: P.Type) {
        self.init(name: _typeName(P.self, qualified: false), payload: ProviderPreview(typeName: _typeName(P.self, qualified: false)) { P.previews })
    }
}
