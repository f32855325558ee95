// The scrolling screens' pieces of a team's app: lazy stacks, content margins, metrics that follow Dynamic Type,
// and navigation paths. Drawn as a first frame shows them: every view is made (a picture does not scroll, so there
// is nothing to make lazily), and nothing is navigated.

/// Views one above the other, made as they scroll into view: here all are. Unlike a `VStack`, it takes the whole
/// width offered, its views aligned in it.
public struct LazyVStack<Content: View>: View {
    let alignment: HorizontalAlignment
    let spacing: CGFloat?
    let content: Content

    public init(alignment: HorizontalAlignment = .center, spacing: CGFloat? = nil, pinnedViews: PinnedScrollableViews = .init(),
                @ViewBuilder content: () -> Content) {
        self.alignment = alignment
        self.spacing = spacing
        self.content = content()
    }

    public var body: some View {
        VStack(alignment: alignment, spacing: spacing) { content }
            .frame(maxWidth: .infinity, alignment: Alignment(horizontal: alignment, vertical: .center))
    }
}

/// Views side by side, made as they scroll into view: here all are. Unlike an `HStack`, it takes the whole height
/// offered, its views aligned in it.
public struct LazyHStack<Content: View>: View {
    let alignment: VerticalAlignment
    let spacing: CGFloat?
    let content: Content

    public init(alignment: VerticalAlignment = .center, spacing: CGFloat? = nil, pinnedViews: PinnedScrollableViews = .init(),
                @ViewBuilder content: () -> Content) {
        self.alignment = alignment
        self.spacing = spacing
        self.content = content()
    }

    public var body: some View {
        HStack(alignment: alignment, spacing: spacing) { content }
            .frame(maxHeight: .infinity, alignment: Alignment(horizontal: .center, vertical: alignment))
    }
}

// MARK: - content margins

/// Which of a scroll view's parts content margins move: its content, its indicators, or (`.automatic`) both.
public struct ContentMarginPlacement: Hashable, Sendable {
    let name: String
    public static let automatic = ContentMarginPlacement(name: "automatic")
    public static let scrollContent = ContentMarginPlacement(name: "scrollContent")
    public static let scrollIndicators = ContentMarginPlacement(name: "scrollIndicators")
}

private struct ScrollContentMarginsKey: EnvironmentKey {
    static let defaultValue = EdgeInsets()
}

private struct ScrollClipDisabledKey: EnvironmentKey {
    static let defaultValue = false
}

extension EnvironmentValues {
    /// `scrollClipDisabled(_:)`: the scroll views inside draw their content beyond their bounds.
    var isScrollClipDisabled: Bool {
        get { self[ScrollClipDisabledKey.self] }
        set { self[ScrollClipDisabledKey.self] = newValue }
    }

    /// The margins scroll views and lists inside put around their content (`contentMargins(_:_:for:)`).
    var scrollContentMargins: EdgeInsets {
        get { self[ScrollContentMarginsKey.self] }
        set { self[ScrollContentMarginsKey.self] = newValue }
    }
}

nonisolated extension View {
    /// Margins around the content of the scroll views and lists inside, on `edges`: the content is drawn inset by
    /// them. Indicators are not drawn, so `.scrollIndicators` margins change nothing. A nil length keeps the margin
    /// the scroll view had.
    public func contentMargins(_ edges: Edge.Set = .all, _ insets: EdgeInsets, for placement: ContentMarginPlacement = .automatic) -> some View {
        environmentModifier { env in
            guard placement != .scrollIndicators else { return }
            if edges.contains(.top) { env.scrollContentMargins.top = insets.top }
            if edges.contains(.leading) { env.scrollContentMargins.leading = insets.leading }
            if edges.contains(.bottom) { env.scrollContentMargins.bottom = insets.bottom }
            if edges.contains(.trailing) { env.scrollContentMargins.trailing = insets.trailing }
        }
    }

    public func contentMargins(_ edges: Edge.Set = .all, _ length: CGFloat?, for placement: ContentMarginPlacement = .automatic) -> some View {
        let all = length ?? 0
        return contentMargins(length == nil ? [] : edges, EdgeInsets(top: all, leading: all, bottom: all, trailing: all), for: placement)
    }

    /// Lets the scroll views inside draw their content beyond their bounds (a shelf whose shadows spill over).
    public func scrollClipDisabled(_ disabled: Bool = true) -> some View {
        environmentModifier { $0.isScrollClipDisabled = disabled }
    }

    public func contentMargins(_ length: CGFloat, for placement: ContentMarginPlacement = .automatic) -> some View {
        contentMargins(.all, length, for: placement)
    }
}

// MARK: - scaled metrics

/// A length that grows and shrinks with Dynamic Type as the text style it is relative to (`.body` by default):
/// `@ScaledMetric(relativeTo: .title) var iconSize = 24`. At the environment's `dynamicTypeSize` it is the value
/// times the style's point size there over its size at Large, the default — the Human Interface Guidelines' table
/// text is drawn with.
@propertyWrapper
public struct ScaledMetric<Value: BinaryFloatingPoint>: DynamicProperty {
    let baseValue: Value
    let textStyle: Font.TextStyle

    public init(wrappedValue: Value, relativeTo textStyle: Font.TextStyle) {
        baseValue = wrappedValue
        self.textStyle = textStyle
    }

    public init(wrappedValue: Value) { self.init(wrappedValue: wrappedValue, relativeTo: .body) }

    /// The value at the Dynamic Type size of the environment the body is evaluated in.
    public var wrappedValue: Value {
        let size = CurrentEnvironment.values.dynamicTypeSize
        return baseValue * Value(textStyle.metrics(at: size).size / textStyle.metrics(at: .large).size)
    }
}

// MARK: - navigation paths

/// The screens pushed on a navigation stack, as values of any `Hashable` types.
public struct NavigationPath: Equatable {
    var elements: [AnyHashable]

    public init() { elements = [] }
    public init<S: Sequence>(_ elements: S) where S.Element: Hashable { self.elements = elements.map { AnyHashable($0) } }

    public var count: Int { elements.count }
    public var isEmpty: Bool { elements.isEmpty }
    public mutating func append<V: Hashable>(_ value: V) { elements.append(AnyHashable(value)) }
    public mutating func removeLast(_ k: Int = 1) { elements.removeLast(k) }
}

extension NavigationStack {
    /// A stack whose pushed screens are `path`'s values: the root is drawn (a first frame of an app that starts
    /// with screens already pushed shows the last one; Lockstep draws the root — a documented limit).
    public init(path: Binding<NavigationPath>, @ViewBuilder root: () -> Root) { self.init(root: root) }

    public init<Data: MutableCollection & RandomAccessCollection & RangeReplaceableCollection>(
        path: Binding<Data>, @ViewBuilder root: () -> Root
    ) where Data.Element: Hashable {
        self.init(root: root)
    }
}

nonisolated extension View {
    /// The screen pushed while `isPresented` is true: never pushed in a first frame here.
    public func navigationDestination<V: View>(isPresented: Binding<Bool>, @ViewBuilder destination: () -> V) -> some View { self }
    /// The screen pushed for `item` while it is not nil: never pushed in a first frame here.
    public func navigationDestination<D: Hashable, C: View>(item: Binding<D?>, @ViewBuilder destination: @escaping (D) -> C) -> some View { self }
}
