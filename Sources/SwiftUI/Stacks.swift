/// Views side by side, aligned vertically.
public struct HStack<Content: View> {
    let alignment: VerticalAlignment
    let spacing: CGFloat?
    let content: Content
    public init(alignment: VerticalAlignment = .center, spacing: CGFloat? = nil, @ViewBuilder content: () -> Content) {
        self.alignment = alignment
        self.spacing = spacing
        self.content = content()
    }
}
extension HStack: View { public typealias Body = Never }
extension HStack: PrimitiveView {
    @MainActor public static func _resolve(_ view: Self, _ inputs: _ResolveInputs) -> _ResolvedNodes { _ResolvedNodes(nodes: view.nodes(inputs.context)) }
    @MainActor func nodes(_ context: ResolveContext) -> [Node] {
        [StackNode(axis: .horizontal, alignment: Alignment(horizontal: .center, vertical: alignment), spacing: spacing,
                   children: resolve(content, context))]
    }
}

/// Views one above the other, aligned horizontally.
public struct VStack<Content: View> {
    let alignment: HorizontalAlignment
    let spacing: CGFloat?
    let content: Content
    public init(alignment: HorizontalAlignment = .center, spacing: CGFloat? = nil, @ViewBuilder content: () -> Content) {
        self.alignment = alignment
        self.spacing = spacing
        self.content = content()
    }
}
extension VStack: View { public typealias Body = Never }
extension VStack: PrimitiveView {
    @MainActor public static func _resolve(_ view: Self, _ inputs: _ResolveInputs) -> _ResolvedNodes { _ResolvedNodes(nodes: view.nodes(inputs.context)) }
    @MainActor func nodes(_ context: ResolveContext) -> [Node] {
        [StackNode(axis: .vertical, alignment: Alignment(horizontal: alignment, vertical: .center), spacing: spacing,
                   children: resolve(content, context))]
    }
}

/// Views on top of each other, aligned in both axes.
public struct ZStack<Content: View> {
    let alignment: Alignment
    let content: Content
    public init(alignment: Alignment = .center, @ViewBuilder content: () -> Content) {
        self.alignment = alignment
        self.content = content()
    }
}
extension ZStack: View { public typealias Body = Never }
extension ZStack: PrimitiveView {
    @MainActor public static func _resolve(_ view: Self, _ inputs: _ResolveInputs) -> _ResolvedNodes { _ResolvedNodes(nodes: view.nodes(inputs.context)) }
    @MainActor func nodes(_ context: ResolveContext) -> [Node] {
        [ZStackNode(alignment: alignment, children: resolve(content, context))]
    }
}

/// Flexible space that expands along its stack's axis.
public struct Spacer: Sendable {
    public var minLength: CGFloat?
    public init(minLength: CGFloat? = nil) { self.minLength = minLength }
}
extension Spacer: View { public typealias Body = Never }
extension Spacer: PrimitiveView {
    @MainActor public static func _resolve(_ view: Self, _ inputs: _ResolveInputs) -> _ResolvedNodes { _ResolvedNodes(nodes: view.nodes(inputs.context)) }
    @MainActor func nodes(_ context: ResolveContext) -> [Node] { [SpacerNode(minLength: minLength)] }
}

/// A thin line that separates content: horizontal in a VStack, vertical in an HStack.
public struct Divider: Sendable {
    public init() {}
}
extension Divider: View { public typealias Body = Never }
extension Divider: PrimitiveView {
    @MainActor public static func _resolve(_ view: Self, _ inputs: _ResolveInputs) -> _ResolvedNodes { _ResolvedNodes(nodes: view.nodes(inputs.context)) }
    @MainActor func nodes(_ context: ResolveContext) -> [Node] {
        // UIKit's `separator` color.
        return [DividerNode(paint: context.environment.grouped(.color(SeparatorShapeStyle.color(dark: context.environment.colorScheme == .dark))))]
    }
}

/// One view per element of a collection (or per integer of a range).
public struct ForEach<Data: RandomAccessCollection, ID: Hashable, Content> {
    public var data: Data
    public var content: (Data.Element) -> Content
    let id: KeyPath<Data.Element, ID>?
}

extension ForEach: View where Content: View {
    public typealias Body = Never

    public init(_ data: Data, @ViewBuilder content: @escaping (Data.Element) -> Content) where ID == Data.Element.ID, Data.Element: Identifiable {
        self.data = data
        self.content = content
        self.id = \Data.Element.id
    }

    public init(_ data: Data, id: KeyPath<Data.Element, ID>, @ViewBuilder content: @escaping (Data.Element) -> Content) {
        self.data = data
        self.content = content
        self.id = id
    }

    public init(_ data: Range<Int>, @ViewBuilder content: @escaping (Int) -> Content) where Data == Range<Int>, ID == Int {
        self.data = data
        self.content = content
        self.id = nil
    }
}

extension ForEach: PrimitiveView where Content: View {
    @MainActor public static func _resolve(_ view: Self, _ inputs: _ResolveInputs) -> _ResolvedNodes { _ResolvedNodes(nodes: view.nodes(inputs.context)) }
    @MainActor func nodes(_ context: ResolveContext) -> [Node] {
        data.flatMap { resolve(content($0), context) }
    }
}

/// The first of its views that fits the offered space (the last when none does).
public struct ViewThatFits<Content: View> {
    let axes: Axis.Set
    let content: Content
    public init(in axes: Axis.Set = [.horizontal, .vertical], @ViewBuilder content: () -> Content) {
        self.axes = axes
        self.content = content()
    }
}
extension ViewThatFits: View { public typealias Body = Never }
extension ViewThatFits: PrimitiveView {
    @MainActor public static func _resolve(_ view: Self, _ inputs: _ResolveInputs) -> _ResolvedNodes { _ResolvedNodes(nodes: view.nodes(inputs.context)) }
    @MainActor func nodes(_ context: ResolveContext) -> [Node] {
        [ViewThatFitsNode(axes: axes, candidates: resolve(content, context))]
    }
}

final class ViewThatFitsNode: Node {
    let axes: Axis.Set
    let candidates: [Node]
    override var childNodes: [Node] { candidates }

    init(axes: Axis.Set, candidates: [Node]) {
        self.axes = axes
        self.candidates = candidates
    }

    /// The first candidate whose ideal size on the constrained axes is within the proposal.
    private func choice(_ proposal: Proposal) -> Node? {
        for candidate in candidates {
            let ideal = candidate.size(for: Proposal(width: axes.contains(.horizontal) ? nil : proposal.width,
                                                     height: axes.contains(.vertical) ? nil : proposal.height))
            let fitsWidth = !axes.contains(.horizontal) || proposal.width.map { ideal.width <= $0 + 0.001 } ?? true
            let fitsHeight = !axes.contains(.vertical) || proposal.height.map { ideal.height <= $0 + 0.001 } ?? true
            if fitsWidth && fitsHeight { return candidate }
        }
        return candidates.last
    }

    override func computeSize(_ proposal: Proposal) -> CGSize { choice(proposal)?.size(for: proposal) ?? .zero }

    override func place(in rect: CGRect, _ canvas: Drawing) {
        choice(Proposal(rect.size))?.place(in: rect, canvas)
    }
}

/// A view whose content is built from the size it is offered.
public struct GeometryReader<Content: View> {
    public var content: (GeometryProxy) -> Content
    public init(@ViewBuilder content: @escaping (GeometryProxy) -> Content) { self.content = content }
}

/// The size a `GeometryReader` was given.
public struct GeometryProxy {
    public let size: CGSize
    public var safeAreaInsets: EdgeInsets { EdgeInsets() }
}

extension GeometryReader: View { public typealias Body = Never }
extension GeometryReader: PrimitiveView {
    @MainActor public static func _resolve(_ view: Self, _ inputs: _ResolveInputs) -> _ResolvedNodes { _ResolvedNodes(nodes: view.nodes(inputs.context)) }
    @MainActor func nodes(_ context: ResolveContext) -> [Node] {
        let content = self.content
        return [GeometryNode { size in
            // Layout runs inside `render`, on the main actor, so building the content at layout time is safe.
            MainActor.assumeIsolated { Unchecked(resolveOne(content(GeometryProxy(size: size)), context)) }.value
        }]
    }
}

/// Takes all it is offered, then builds its content for that size and places it top-leading.
final class GeometryNode: Node {
    let make: (CGSize) -> Node
    private var built: [String: Node] = [:]

    init(make: @escaping (CGSize) -> Node) { self.make = make }

    override func computeSize(_ proposal: Proposal) -> CGSize {
        // An unspecified proposal gets SwiftUI's placeholder size for flexible views (10 points).
        CGSize(width: proposal.width ?? 10, height: proposal.height ?? 10)
    }

    override func place(in rect: CGRect, _ canvas: Drawing) {
        let key = "\(rect.width)x\(rect.height)"
        let node = built[key] ?? make(rect.size)
        built[key] = node
        let size = node.size(for: Proposal(rect.size))
        node.place(in: CGRect(origin: rect.origin, size: size), canvas)
    }
}

/// Carries a value out of `MainActor.assumeIsolated`. @unchecked: used only where the caller is already on the
/// main actor, so the value never changes threads.
struct Unchecked<T>: @unchecked Sendable {
    let value: T
    init(_ value: T) { self.value = value }
}
