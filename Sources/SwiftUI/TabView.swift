// Tab views: an app's top-level screens behind a tab bar. Drawn as an iPhone's first frame shows one: the selected
// tab's content above the tab bar, which holds every tab's item (icon above title), the selected one in the tint.

/// Tabs, one shown at a time: the one whose `tag` is the selection's value (the first without a selection, or when
/// no tag matches), above a tab bar of every tab's `tabItem`.
public struct TabView<SelectionValue: Hashable, Content: View> {
    let selection: Binding<SelectionValue>?
    let content: Content

    public init(selection: Binding<SelectionValue>?, @ViewBuilder content: () -> Content) {
        self.selection = selection
        self.content = content()
    }
}

extension TabView where SelectionValue == Int {
    public init(@ViewBuilder content: () -> Content) { self.init(selection: nil, content: content) }
}

/// UIKit's tab bar on an iPhone: 49 points tall, items 10-point medium titles under their icons. Apple's Human
/// Interface Guidelines ("Tab bars") describe the bar; the figures are UIKit's `UITabBar` in portrait.
enum TabBarMetrics {
    static let height: CGFloat = 49
    static let titleSize: CGFloat = 10
    static let iconSize: CGFloat = 22
    static let iconTitleSpacing: CGFloat = 2
}

extension TabView: View { public typealias Body = Never }
extension TabView: PrimitiveView {
    @MainActor public static func _resolve(_ view: Self, _ inputs: _ResolveInputs) -> _ResolvedNodes { _ResolvedNodes(nodes: view.nodes(inputs.context)) }

    @MainActor func nodes(_ context: ResolveContext) -> [Node] {
        let tabs = resolve(content, context)
        guard !tabs.isEmpty else { return [] }
        // Other modifiers may stand between a tab's `tag` and its `tabItem`: each is looked for on its own.
        let tags = tabs.map { ($0.first { ($0 as? TabTraitNode)?.tag != nil } as? TabTraitNode)?.tag }
        let items = tabs.map { ($0.first { ($0 as? TabTraitNode)?.tabItem != nil } as? TabTraitNode)?.tabItem }
        let selected = selection.flatMap { selection in tags.firstIndex { $0 == AnyHashable(selection.wrappedValue) } } ?? 0
        let bar = HStack(spacing: 0) {
            ForEach(items.indices, id: \.self) { index in
                TabBarItem(item: items[index])
                    .foregroundStyle(index == selected ? AnyShapeStyle(.tint) : AnyShapeStyle(Color.gray))
                    .frame(maxWidth: .infinity)
            }
        }
        let screen = VStack(spacing: 0) {
            _PlacedNode(node: tabs[selected]).frame(maxWidth: .infinity, maxHeight: .infinity)
            Divider()
            bar.frame(height: TabBarMetrics.height).background(.bar)
        }
        return resolve(screen, context)
    }
}

/// A tab's item in the bar: a `Label`'s icon above its title; any other view as it is.
struct TabBarItem: View {
    let item: AnyView?

    var body: some View {
        if let parts = item?.base as? TabItemParts {
            VStack(spacing: TabBarMetrics.iconTitleSpacing) {
                parts.tabIcon.font(.system(size: TabBarMetrics.iconSize))
                parts.tabTitle.font(.system(size: TabBarMetrics.titleSize, weight: .medium))
            }
        } else if let item {
            item.font(.system(size: TabBarMetrics.titleSize, weight: .medium))
        }
    }
}

/// A label's parts, which a tab bar stacks (icon above title).
protocol TabItemParts {
    var tabIcon: AnyView { get }
    var tabTitle: AnyView { get }
}

extension Label: TabItemParts {
    var tabIcon: AnyView { AnyView(icon) }
    var tabTitle: AnyView { AnyView(title) }
}

/// A node the renderer already made, placed as a view.
struct _PlacedNode: View, PrimitiveView {
    typealias Body = Never
    let node: Node
    static func _resolve(_ view: Self, _ inputs: _ResolveInputs) -> _ResolvedNodes { _ResolvedNodes(nodes: [view.node]) }
    func nodes(_ context: ResolveContext) -> [Node] { [node] }
}

/// A tab's traits (`tag`, `tabItem`), carried on its node; lays out and draws as its child.
final class TabTraitNode: DrawingModifierNode {
    var tag: AnyHashable?
    var tabItem: AnyView?

    override func place(in rect: CGRect, _ canvas: Drawing) { child.place(in: rect, canvas) }

    /// The trait node `node` is, or a new one around it.
    static func around(_ node: Node) -> TabTraitNode { node as? TabTraitNode ?? TabTraitNode(child: node) }
}

nonisolated extension View {
    /// The value a `TabView`'s selection takes for this tab (a `Picker`'s for this option).
    public func tag<V: Hashable>(_ tag: V) -> some View {
        layoutModifier { child, _ in
            let node = TabTraitNode.around(child)
            node.tag = AnyHashable(tag)
            return node
        }
    }

    /// The tab's item in a `TabView`'s bar.
    public func tabItem<V: View>(@ViewBuilder _ label: () -> V) -> some View {
        nonisolated(unsafe) let item = AnyView(label())
        return layoutModifier { child, _ in
            let node = TabTraitNode.around(child)
            node.tabItem = item
            return node
        }
    }
}
