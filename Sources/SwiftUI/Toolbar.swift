// Toolbars: the items a screen puts in its navigation bar or bottom bar. A widget has no bars, and Lockstep draws an
// app's screens as their content without the system's bars, so no item is drawn; but the items are made, and the
// views in them appear with the screen (their `onAppear` and `task` work runs in a headless app, as on an iPhone,
// where the navigation bar shows them in the first frame).

/// Where a toolbar item goes, with Apple's names.
public struct ToolbarItemPlacement: Hashable, Sendable {
    let name: String
    public static let automatic = ToolbarItemPlacement(name: "automatic")
    public static let principal = ToolbarItemPlacement(name: "principal")
    public static let navigation = ToolbarItemPlacement(name: "navigation")
    public static let primaryAction = ToolbarItemPlacement(name: "primaryAction")
    public static let secondaryAction = ToolbarItemPlacement(name: "secondaryAction")
    public static let status = ToolbarItemPlacement(name: "status")
    public static let confirmationAction = ToolbarItemPlacement(name: "confirmationAction")
    public static let cancellationAction = ToolbarItemPlacement(name: "cancellationAction")
    public static let destructiveAction = ToolbarItemPlacement(name: "destructiveAction")
    public static let keyboard = ToolbarItemPlacement(name: "keyboard")
    public static let topBarLeading = ToolbarItemPlacement(name: "topBarLeading")
    public static let topBarTrailing = ToolbarItemPlacement(name: "topBarTrailing")
    public static let bottomBar = ToolbarItemPlacement(name: "bottomBar")
    public static let navigationBarLeading = ToolbarItemPlacement(name: "navigationBarLeading")
    public static let navigationBarTrailing = ToolbarItemPlacement(name: "navigationBarTrailing")
}

/// A bar a screen may show (`toolbar(.hidden, for: .navigationBar)`).
public struct ToolbarPlacement: Hashable, Sendable {
    let name: String
    public static let automatic = ToolbarPlacement(name: "automatic")
    public static let navigationBar = ToolbarPlacement(name: "navigationBar")
    public static let bottomBar = ToolbarPlacement(name: "bottomBar")
    public static let tabBar = ToolbarPlacement(name: "tabBar")
}

/// One item of a toolbar as the renderer keeps it: where it goes and what it shows.
struct ToolbarItemRecord {
    let placement: ToolbarItemPlacement
    let content: AnyView
}

/// What a `toolbar { … }` holds: items, groups of items, or a team's own `ToolbarContent` with a `body` of them.
@MainActor @preconcurrency
public protocol ToolbarContent {
    associatedtype Body: ToolbarContent
    @ToolbarContentBuilder @MainActor @preconcurrency var body: Self.Body { get }
}

extension Never: ToolbarContent {}

extension ToolbarContent where Body == Never {
    /// Primitive toolbar content has no body: the renderer takes it apart itself.
    public var body: Never { fatalError("\(Self.self) is primitive toolbar content: it has no body") }
}

/// The toolbar content the renderer takes apart itself (Apple's primitive items have `Body == Never`).
@MainActor
protocol PrimitiveToolbarContent {
    var records: [ToolbarItemRecord] { get }
}

/// The items `content` holds, in order: a primitive's own, any other's body's.
@MainActor
func toolbarRecords<C: ToolbarContent>(_ content: C) -> [ToolbarItemRecord] {
    if let primitive = content as? PrimitiveToolbarContent { return primitive.records }
    return toolbarRecords(content.body)
}

/// An item of a toolbar.
public struct ToolbarItem<ID, Content: View> {
    let placement: ToolbarItemPlacement
    let content: Content
}

extension ToolbarItem: ToolbarContent, PrimitiveToolbarContent {
    public typealias Body = Never
    var records: [ToolbarItemRecord] { [ToolbarItemRecord(placement: placement, content: AnyView(content))] }
}

extension ToolbarItem where ID == () {
    public init(placement: ToolbarItemPlacement = .automatic, @ViewBuilder content: () -> Content) {
        self.init(placement: placement, content: content())
    }
}

extension ToolbarItem where ID == String {
    public init(id: String, placement: ToolbarItemPlacement = .automatic, @ViewBuilder content: () -> Content) {
        self.init(placement: placement, content: content())
    }
}

/// Several items at one placement.
public struct ToolbarItemGroup<Content: View> {
    let placement: ToolbarItemPlacement
    let content: Content

    public init(placement: ToolbarItemPlacement = .automatic, @ViewBuilder content: () -> Content) {
        self.placement = placement
        self.content = content()
    }
}

extension ToolbarItemGroup: ToolbarContent, PrimitiveToolbarContent {
    public typealias Body = Never
    var records: [ToolbarItemRecord] { [ToolbarItemRecord(placement: placement, content: AnyView(content))] }
}

/// Several toolbar contents, as a `@ToolbarContentBuilder` block with more than one statement makes them.
public struct _ToolbarContentList {
    let contents: [any ToolbarContent]
}

extension _ToolbarContentList: ToolbarContent, PrimitiveToolbarContent {
    public typealias Body = Never
    var records: [ToolbarItemRecord] { contents.flatMap { toolbarRecords($0) } }
}

@resultBuilder
public enum ToolbarContentBuilder {
    public static func buildExpression<C: ToolbarContent>(_ content: C) -> _ToolbarContentList { _ToolbarContentList(contents: [content]) }
    public static func buildBlock(_ contents: _ToolbarContentList...) -> _ToolbarContentList {
        _ToolbarContentList(contents: contents.flatMap(\.contents))
    }
    public static func buildOptional(_ content: _ToolbarContentList?) -> _ToolbarContentList { content ?? _ToolbarContentList(contents: []) }
    public static func buildEither(first: _ToolbarContentList) -> _ToolbarContentList { first }
    public static func buildEither(second: _ToolbarContentList) -> _ToolbarContentList { second }
    public static func buildLimitedAvailability(_ content: _ToolbarContentList) -> _ToolbarContentList { content }
}

/// A view with a toolbar: the items' views are resolved where the toolbar is declared (for what appears with them);
/// the view is drawn alone.
nonisolated struct _ToolbarModifier<Content: View, Items: ToolbarContent>: View, PrimitiveView {
    typealias Body = Never
    let content: Content
    let items: Items

    @MainActor static func _resolve(_ view: Self, _ inputs: _ResolveInputs) -> _ResolvedNodes { _ResolvedNodes(nodes: view.nodes(inputs.context)) }

    @MainActor func nodes(_ context: ResolveContext) -> [Node] {
        for item in toolbarRecords(items) { _ = resolve(item.content, context) }
        return resolve(content, context)
    }
}

/// How a navigation bar shows its title.
public enum ToolbarTitleDisplayMode: Hashable, Sendable {
    case automatic, large, inline, inlineLarge
}

/// UIKit-era names of the navigation bar, as SwiftUI keeps them for `navigationBarTitleDisplayMode(_:)`.
public enum NavigationBarItem {
    public enum TitleDisplayMode: Hashable, Sendable { case automatic, inline, large }
}

nonisolated extension View {
    /// Views for the toolbar (in the navigation bar's trailing place): made, and appearing with the screen; not drawn.
    public func toolbar<Content: View>(@ViewBuilder content: () -> Content) -> some View {
        _ToolbarModifier(content: self, items: ToolbarItem<(), Content>(placement: .automatic, content: content()))
    }

    /// Toolbar items at their placements: made, and appearing with the screen; not drawn.
    public func toolbar<Content: ToolbarContent>(@ToolbarContentBuilder content: () -> Content) -> some View {
        _ToolbarModifier(content: self, items: content())
    }

    /// Shows or hides bars: Lockstep draws no bars, so there is nothing to hide.
    public func toolbar(_ visibility: Visibility, for bars: ToolbarPlacement...) -> some View { self }
    /// The bars' background: the bars are not drawn.
    public func toolbarBackground<S: ShapeStyle>(_ style: S, for bars: ToolbarPlacement...) -> some View { self }
    public func toolbarBackground(_ visibility: Visibility, for bars: ToolbarPlacement...) -> some View { self }
    /// The bars' color scheme: the bars are not drawn.
    public func toolbarColorScheme(_ colorScheme: ColorScheme?, for bars: ToolbarPlacement...) -> some View { self }
    /// How the navigation bar shows the title: the bar is not drawn.
    public func toolbarTitleDisplayMode(_ mode: ToolbarTitleDisplayMode) -> some View { self }
    public func navigationBarTitleDisplayMode(_ displayMode: NavigationBarItem.TitleDisplayMode) -> some View { self }
    /// The navigation bar's title: the bar is not drawn.
    public func navigationTitle(_ title: Text) -> some View { self }
    public func navigationTitle(_ titleKey: LocalizedStringKey) -> some View { self }
}
