import Foundation

// NavigationSplitView as an iPhone shows it. In a compact width (every iPhone in portrait, which Lockstep's simulated
// device is) the split view collapses into a stack, and the stack starts at its sidebar, or at the column
// `preferredCompactColumn` names (iOS 17): that column is what a first frame shows. The columns' widths, visibility and
// style matter only where several columns stand side by side (an iPad, a Mac), so they are kept and change nothing.

/// A view of two or three columns, where a selection in one column controls what the next shows.
public struct NavigationSplitView<Sidebar: View, Content: View, Detail: View>: View {
    let sidebar: Sidebar
    let content: Content
    let detail: Detail
    let compactColumn: NavigationSplitViewColumn

    public init(@ViewBuilder sidebar: () -> Sidebar, @ViewBuilder content: () -> Content, @ViewBuilder detail: () -> Detail) {
        self.init(compactColumn: .sidebar, sidebar: sidebar(), content: content(), detail: detail())
    }

    public init(columnVisibility: Binding<NavigationSplitViewVisibility>, @ViewBuilder sidebar: () -> Sidebar,
                @ViewBuilder content: () -> Content, @ViewBuilder detail: () -> Detail) {
        self.init(compactColumn: .sidebar, sidebar: sidebar(), content: content(), detail: detail())
    }

    public init(columnVisibility: Binding<NavigationSplitViewVisibility>, preferredCompactColumn: Binding<NavigationSplitViewColumn>,
                @ViewBuilder sidebar: () -> Sidebar, @ViewBuilder content: () -> Content, @ViewBuilder detail: () -> Detail) {
        self.init(compactColumn: preferredCompactColumn.wrappedValue, sidebar: sidebar(), content: content(), detail: detail())
    }

    init(compactColumn: NavigationSplitViewColumn, sidebar: Sidebar, content: Content, detail: Detail) {
        self.sidebar = sidebar
        self.content = content
        self.detail = detail
        self.compactColumn = compactColumn
    }

    /// The column the collapsed stack shows first.
    @ViewBuilder public var body: some View {
        if compactColumn == .detail {
            detail
        } else if compactColumn == .content, Content.self != EmptyView.self {
            content
        } else {
            sidebar
        }
    }
}

extension NavigationSplitView where Content == EmptyView {
    public init(@ViewBuilder sidebar: () -> Sidebar, @ViewBuilder detail: () -> Detail) {
        self.init(compactColumn: .sidebar, sidebar: sidebar(), content: EmptyView(), detail: detail())
    }

    public init(columnVisibility: Binding<NavigationSplitViewVisibility>, @ViewBuilder sidebar: () -> Sidebar, @ViewBuilder detail: () -> Detail) {
        self.init(compactColumn: .sidebar, sidebar: sidebar(), content: EmptyView(), detail: detail())
    }

    public init(columnVisibility: Binding<NavigationSplitViewVisibility>, preferredCompactColumn: Binding<NavigationSplitViewColumn>,
                @ViewBuilder sidebar: () -> Sidebar, @ViewBuilder detail: () -> Detail) {
        self.init(compactColumn: preferredCompactColumn.wrappedValue, sidebar: sidebar(), content: EmptyView(), detail: detail())
    }
}

/// Which columns of a split view are shown.
public struct NavigationSplitViewVisibility: Equatable, Codable, Sendable {
    let name: String

    public static let automatic = NavigationSplitViewVisibility(name: "automatic")
    public static let all = NavigationSplitViewVisibility(name: "all")
    public static let doubleColumn = NavigationSplitViewVisibility(name: "doubleColumn")
    public static let detailOnly = NavigationSplitViewVisibility(name: "detailOnly")
}

/// A column of a split view.
public struct NavigationSplitViewColumn: Hashable, Sendable {
    let name: String

    public static let sidebar = NavigationSplitViewColumn(name: "sidebar")
    public static let content = NavigationSplitViewColumn(name: "content")
    public static let detail = NavigationSplitViewColumn(name: "detail")
}

/// How a split view arranges its columns side by side.
public protocol NavigationSplitViewStyle {}
public struct AutomaticNavigationSplitViewStyle: NavigationSplitViewStyle { public init() {} }
public struct BalancedNavigationSplitViewStyle: NavigationSplitViewStyle { public init() {} }
public struct ProminentDetailNavigationSplitViewStyle: NavigationSplitViewStyle { public init() {} }
extension NavigationSplitViewStyle where Self == AutomaticNavigationSplitViewStyle {
    public static var automatic: AutomaticNavigationSplitViewStyle { AutomaticNavigationSplitViewStyle() }
}
extension NavigationSplitViewStyle where Self == BalancedNavigationSplitViewStyle {
    public static var balanced: BalancedNavigationSplitViewStyle { BalancedNavigationSplitViewStyle() }
}
extension NavigationSplitViewStyle where Self == ProminentDetailNavigationSplitViewStyle {
    public static var prominentDetail: ProminentDetailNavigationSplitViewStyle { ProminentDetailNavigationSplitViewStyle() }
}

nonisolated extension View {
    /// The split view's style: side-by-side columns only, so a collapsed iPhone stack is unchanged.
    public func navigationSplitViewStyle<S: NavigationSplitViewStyle>(_ style: S) -> some View { self }
    /// A column's width when columns stand side by side; an iPhone's stack is its full width.
    public func navigationSplitViewColumnWidth(_ width: CGFloat) -> some View { self }
    public func navigationSplitViewColumnWidth(min: CGFloat? = nil, ideal: CGFloat, max: CGFloat? = nil) -> some View { self }
}
