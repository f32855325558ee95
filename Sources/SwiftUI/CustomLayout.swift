/// A size a parent proposes to a child, as `Layout` sees it: `nil` on an axis asks for the child's ideal size.
public struct ProposedViewSize: Hashable, Sendable {
    public var width: CGFloat?
    public var height: CGFloat?

    public init(width: CGFloat?, height: CGFloat?) {
        self.width = width
        self.height = height
    }

    public init(_ size: CGSize) { self.init(width: size.width, height: size.height) }

    public static let zero = ProposedViewSize(width: 0, height: 0)
    public static let unspecified = ProposedViewSize(width: nil, height: nil)
    public static let infinity = ProposedViewSize(width: .infinity, height: .infinity)

    /// The proposal with each `nil` dimension taken from `size` (SwiftUI's default is 10 × 10).
    public func replacingUnspecifiedDimensions(by size: CGSize = CGSize(width: 10, height: 10)) -> CGSize {
        CGSize(width: width ?? size.width, height: height ?? size.height)
    }

    init(_ proposal: Proposal) { self.init(width: proposal.width, height: proposal.height) }
    var proposal: Proposal { Proposal(width: width, height: height) }
}

/// The preferred spacing around a view. Lockstep's stacks space every view by the platform default, so a layout's
/// spacing is that default on every edge.
public struct ViewSpacing: Sendable {
    public static let zero = ViewSpacing(length: 0)
    let length: CGFloat

    public init() { self.init(length: StackNode.defaultSpacing) }
    init(length: CGFloat) { self.length = length }

    public func distance(to next: ViewSpacing, along axis: Axis) -> CGFloat { max(length, next.length) }
    public mutating func formUnion(_ other: ViewSpacing, edges: Edge.Set = .all) { self = ViewSpacing(length: max(length, other.length)) }
    public func union(_ other: ViewSpacing, edges: Edge.Set = .all) -> ViewSpacing { ViewSpacing(length: max(length, other.length)) }
}

/// What a layout tells its container about itself.
public struct LayoutProperties: Sendable {
    public var stackOrientation: Axis?
    public init() {}
}

/// A view's size, with the positions of its alignment guides.
public struct ViewDimensions: Equatable, Sendable {
    public let width: CGFloat
    public let height: CGFloat

    public subscript(guide: HorizontalAlignment) -> CGFloat { width * guide.fraction }
    public subscript(guide: VerticalAlignment) -> CGFloat {
        if case let .fraction(f) = guide.guide { return height * f }
        return height
    }
    public subscript(explicit guide: HorizontalAlignment) -> CGFloat? { nil }
    public subscript(explicit guide: VerticalAlignment) -> CGFloat? { nil }
}

/// A value a view hands its layout container (`layoutValue(key:value:)`, read with `subviews[i][Key.self]`).
public protocol LayoutValueKey {
    associatedtype Value
    static var defaultValue: Value { get }
}

/// A container that sizes and places its subviews itself, as SwiftUI's `Layout` protocol declares it: asked for its
/// size (`sizeThatFits`), then told its bounds and asked to place each subview (`placeSubviews`). Calling a layout
/// with a view builder (`MyLayout { … }`) makes it a view.
public protocol Layout {
    associatedtype Cache = Void
    typealias Subviews = LayoutSubviews

    static var layoutProperties: LayoutProperties { get }
    func makeCache(subviews: Subviews) -> Cache
    func updateCache(_ cache: inout Cache, subviews: Subviews)
    func spacing(subviews: Subviews, cache: inout Cache) -> ViewSpacing
    func sizeThatFits(proposal: ProposedViewSize, subviews: Subviews, cache: inout Cache) -> CGSize
    func placeSubviews(in bounds: CGRect, proposal: ProposedViewSize, subviews: Subviews, cache: inout Cache)
    func explicitAlignment(of guide: HorizontalAlignment, in bounds: CGRect, proposal: ProposedViewSize,
                           subviews: Subviews, cache: inout Cache) -> CGFloat?
    func explicitAlignment(of guide: VerticalAlignment, in bounds: CGRect, proposal: ProposedViewSize,
                           subviews: Subviews, cache: inout Cache) -> CGFloat?
}

extension Layout {
    public static var layoutProperties: LayoutProperties { LayoutProperties() }
    public func updateCache(_ cache: inout Cache, subviews: Subviews) { cache = makeCache(subviews: subviews) }
    public func spacing(subviews: Subviews, cache: inout Cache) -> ViewSpacing { ViewSpacing() }
    public func explicitAlignment(of guide: HorizontalAlignment, in bounds: CGRect, proposal: ProposedViewSize,
                                  subviews: Subviews, cache: inout Cache) -> CGFloat? { nil }
    public func explicitAlignment(of guide: VerticalAlignment, in bounds: CGRect, proposal: ProposedViewSize,
                                  subviews: Subviews, cache: inout Cache) -> CGFloat? { nil }

    /// The layout as a view of `content`'s views.
    public func callAsFunction<V: View>(@ViewBuilder _ content: () -> V) -> some View {
        _LayoutRoot(layout: self, content: content())
    }
}

extension Layout where Cache == Void {
    public func makeCache(subviews: Subviews) -> Void { () }
}

/// A layout's subviews: proxies it measures and places, never the views themselves.
public struct LayoutSubviews: RandomAccessCollection, Equatable, Sendable {
    public typealias Element = LayoutSubview
    public typealias Index = Int
    public typealias SubSequence = LayoutSubviews
    let all: [LayoutSubview]
    public let startIndex: Int
    public let endIndex: Int

    init(_ all: [LayoutSubview]) { self.init(all, all.indices) }
    init(_ all: [LayoutSubview], _ range: Range<Int>) {
        self.all = all
        startIndex = range.lowerBound
        endIndex = range.upperBound
    }

    public subscript(index: Int) -> LayoutSubview { all[index] }
    public subscript(bounds: Range<Int>) -> LayoutSubviews { LayoutSubviews(all, bounds) }
    public var layoutDirection: LayoutDirection { .leftToRight }

    public static func == (a: LayoutSubviews, b: LayoutSubviews) -> Bool { Array(a) == Array(b) }
}

/// One subview of a layout: ask it its size for a proposal, and place it once.
public struct LayoutSubview: Equatable, @unchecked Sendable {  // @unchecked: the node is used on the main actor only.
    let node: Node
    let values: [ObjectIdentifier: Any]
    let placements: LayoutPlacements
    let index: Int

    public func sizeThatFits(_ proposal: ProposedViewSize) -> CGSize { node.size(for: proposal.proposal) }

    public func dimensions(in proposal: ProposedViewSize) -> ViewDimensions {
        let size = sizeThatFits(proposal)
        return ViewDimensions(width: size.width, height: size.height)
    }

    /// Places the subview so that its `anchor` point lies at `position`, at the size it chooses for `proposal`.
    public func place(at position: CGPoint, anchor: UnitPoint = .topLeading, proposal: ProposedViewSize) {
        let size = sizeThatFits(proposal)
        let origin = CGPoint(x: position.x - size.width * anchor.x, y: position.y - size.height * anchor.y)
        placements.frames[index] = CGRect(origin: origin, size: size)
    }

    public var priority: Double { node.priority }
    public var spacing: ViewSpacing { node.isSpacer ? .zero : ViewSpacing() }

    public subscript<K: LayoutValueKey>(key: K.Type) -> K.Value {
        values[ObjectIdentifier(key)] as? K.Value ?? K.defaultValue
    }

    public static func == (a: LayoutSubview, b: LayoutSubview) -> Bool { a.node === b.node }
}

/// Where `placeSubviews` put each subview, during one placement.
final class LayoutPlacements {
    var frames: [Int: CGRect] = [:]
}

nonisolated extension View {
    /// Hands `value` to the layout container this view is a subview of, under `key`.
    public func layoutValue<K: LayoutValueKey>(key: K.Type, value: K.Value) -> some View {
        layoutModifier { child, _ in LayoutValueNode(child: child, key: ObjectIdentifier(key), value: value) }
    }
}

/// A view carrying a value for its layout container.
final class LayoutValueNode: DrawingModifierNode {
    let key: ObjectIdentifier
    let value: Any

    init(child: Node, key: ObjectIdentifier, value: Any) {
        self.key = key
        self.value = value
        super.init(child: child)
    }

    override func place(in rect: CGRect, _ canvas: Drawing) { child.place(in: rect, canvas) }

    /// The values of this node and the layout-value nodes it wraps, outermost first.
    var values: [ObjectIdentifier: Any] {
        var out = (child as? LayoutValueNode)?.values ?? [:]
        out[key] = value
        return out
    }
}

/// `MyLayout { … }`: the layout's subviews are its content's views.
nonisolated struct _LayoutRoot<L: Layout, Content: View>: View, PrimitiveView {
    typealias Body = Never
    let layout: L
    let content: Content

    @MainActor static func _resolve(_ view: Self, _ inputs: _ResolveInputs) -> _ResolvedNodes { _ResolvedNodes(nodes: view.nodes(inputs.context)) }
    @MainActor func nodes(_ context: ResolveContext) -> [Node] {
        [layoutNode(layout, children: resolve(content, context))]
    }
}

/// Lockstep's own stacks keep their own nodes when used as layouts (`AnyLayout(HStackLayout())`).
protocol BuiltInLayout {
    func node(children: [Node]) -> Node
}

func layoutNode<L: Layout>(_ layout: L, children: [Node]) -> Node {
    if let builtIn = layout as? any BuiltInLayout { return builtIn.node(children: children) }
    return CustomLayoutNode(layout, children: children)
}

/// A `Layout` written by the team: SwiftUI's two calls, made on the subviews' nodes.
final class CustomLayoutNode: Node {
    let children: [Node]
    override var childNodes: [Node] { children }
    private let measure: (ProposedViewSize, LayoutSubviews) -> CGSize
    private let arrange: (CGRect, ProposedViewSize, LayoutSubviews) -> Void

    init<L: Layout>(_ layout: L, children: [Node]) {
        self.children = children
        measure = { proposal, subviews in
            var cache = layout.makeCache(subviews: subviews)
            return layout.sizeThatFits(proposal: proposal, subviews: subviews, cache: &cache)
        }
        arrange = { bounds, proposal, subviews in
            var cache = layout.makeCache(subviews: subviews)
            layout.placeSubviews(in: bounds, proposal: proposal, subviews: subviews, cache: &cache)
        }
    }

    private func subviews(_ placements: LayoutPlacements) -> LayoutSubviews {
        LayoutSubviews(children.enumerated().map { i, node in
            LayoutSubview(node: node, values: (node as? LayoutValueNode)?.values ?? [:], placements: placements, index: i)
        })
    }

    override func computeSize(_ proposal: Proposal) -> CGSize {
        measure(ProposedViewSize(proposal), subviews(LayoutPlacements()))
    }

    override func place(in rect: CGRect, _ canvas: Drawing) {
        let placements = LayoutPlacements()
        arrange(rect, ProposedViewSize(rect.size), subviews(placements))
        for (i, child) in children.enumerated() {
            // A subview the layout did not place is centered in its bounds, at its size for the bounds, as SwiftUI does.
            let frame = placements.frames[i] ?? aligned(child.size(for: Proposal(rect.size)), in: rect, .center)
            child.place(in: frame, canvas)
        }
    }
}

// MARK: - the built-in layouts as values

/// `HStack` as a layout value (`AnyLayout(HStackLayout())`).
public struct HStackLayout: Layout, BuiltInLayout {
    public var alignment: VerticalAlignment
    public var spacing: CGFloat?
    public init(alignment: VerticalAlignment = .center, spacing: CGFloat? = nil) {
        self.alignment = alignment
        self.spacing = spacing
    }
    func node(children: [Node]) -> Node {
        StackNode(axis: .horizontal, alignment: Alignment(horizontal: .center, vertical: alignment), spacing: spacing, children: children)
    }
    public func sizeThatFits(proposal: ProposedViewSize, subviews: Subviews, cache: inout Void) -> CGSize {
        node(children: subviews.map(\.node)).size(for: proposal.proposal)
    }
    public func placeSubviews(in bounds: CGRect, proposal: ProposedViewSize, subviews: Subviews, cache: inout Void) {}
}

/// `VStack` as a layout value.
public struct VStackLayout: Layout, BuiltInLayout {
    public var alignment: HorizontalAlignment
    public var spacing: CGFloat?
    public init(alignment: HorizontalAlignment = .center, spacing: CGFloat? = nil) {
        self.alignment = alignment
        self.spacing = spacing
    }
    func node(children: [Node]) -> Node {
        StackNode(axis: .vertical, alignment: Alignment(horizontal: alignment, vertical: .center), spacing: spacing, children: children)
    }
    public func sizeThatFits(proposal: ProposedViewSize, subviews: Subviews, cache: inout Void) -> CGSize {
        node(children: subviews.map(\.node)).size(for: proposal.proposal)
    }
    public func placeSubviews(in bounds: CGRect, proposal: ProposedViewSize, subviews: Subviews, cache: inout Void) {}
}

/// `ZStack` as a layout value.
public struct ZStackLayout: Layout, BuiltInLayout {
    public var alignment: Alignment
    public init(alignment: Alignment = .center) { self.alignment = alignment }
    func node(children: [Node]) -> Node { ZStackNode(alignment: alignment, children: children) }
    public func sizeThatFits(proposal: ProposedViewSize, subviews: Subviews, cache: inout Void) -> CGSize {
        node(children: subviews.map(\.node)).size(for: proposal.proposal)
    }
    public func placeSubviews(in bounds: CGRect, proposal: ProposedViewSize, subviews: Subviews, cache: inout Void) {}
}

/// A type-erased layout: code that switches between layouts (`isCompact ? AnyLayout(VStackLayout()) : …`).
public struct AnyLayout: Layout, BuiltInLayout {
    let make: ([Node]) -> Node
    public init<L: Layout>(_ layout: L) { make = { layoutNode(layout, children: $0) } }
    func node(children: [Node]) -> Node { make(children) }
    public func sizeThatFits(proposal: ProposedViewSize, subviews: Subviews, cache: inout Void) -> CGSize {
        make(subviews.map(\.node)).size(for: proposal.proposal)
    }
    public func placeSubviews(in bounds: CGRect, proposal: ProposedViewSize, subviews: Subviews, cache: inout Void) {}
}
