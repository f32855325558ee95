/// A size a parent proposes: `nil` on an axis asks for the child's ideal size on it.
struct Proposal: Hashable {
    var width: CGFloat?
    var height: CGFloat?

    init(width: CGFloat?, height: CGFloat?) {
        self.width = width
        self.height = height
    }

    init(_ size: CGSize) { self.init(width: size.width, height: size.height) }

    static let unspecified = Proposal(width: nil, height: nil)
    static let zero = Proposal(width: 0, height: 0)
    static let infinity = Proposal(width: .infinity, height: .infinity)

    subscript(axis: Axis) -> CGFloat? {
        get { axis == .horizontal ? width : height }
        set { if axis == .horizontal { width = newValue } else { height = newValue } }
    }

    static func along(_ axis: Axis, _ main: CGFloat?, cross: CGFloat?) -> Proposal {
        axis == .horizontal ? Proposal(width: main, height: cross) : Proposal(width: cross, height: main)
    }
}

extension CGSize {
    subscript(axis: Axis) -> CGFloat {
        get { axis == .horizontal ? width : height }
        set { if axis == .horizontal { width = newValue } else { height = newValue } }
    }

    static func along(_ axis: Axis, _ main: CGFloat, cross: CGFloat) -> CGSize {
        axis == .horizontal ? CGSize(width: main, height: cross) : CGSize(width: cross, height: main)
    }
}

extension Axis {
    var other: Axis { self == .horizontal ? .vertical : .horizontal }
}

/// A laid-out view: the parent proposes a size, the node chooses its own (`size(for:)`), the parent places it
/// (`place(in:_:)`), and placing draws it. Nodes are built by resolving views; they hold no views, only what
/// layout and drawing need, so layout never evaluates a body twice.
class Node {
    /// `layoutPriority(_:)`: stacks offer space to higher priorities first.
    var priority: Double = 0
    /// `zIndex(_:)`: the drawing order within a ZStack.
    var zIndex: Double = 0
    private var cache: [Proposal: CGSize] = [:]

    /// The size this view chooses for a proposal (memoised: stacks ask their children several times).
    final func size(for proposal: Proposal) -> CGSize {
        if let cached = cache[proposal] { return cached }
        let size = computeSize(proposal)
        cache[proposal] = size
        return size
    }

    func computeSize(_ proposal: Proposal) -> CGSize { .zero }

    /// Draws the view in `rect` (the size it chose, at its place).
    func place(in rect: CGRect, _ canvas: Drawing) {}

    /// How a stack treats this view along its axis: spacers expand and take no spacing of their own.
    var isSpacer: Bool { false }

    /// Whether a stack along its axis offers this view what the others leave, as it does a spacer (a spacer, or a
    /// date text that updates itself in an `HStack`).
    var takesLeftover: Bool { isSpacer }

    /// The distance from the top of the view to its first or last text baseline, when placed at `size`
    /// (views without text: their bottom edge, as SwiftUI's default).
    func baseline(first: Bool, size: CGSize) -> CGFloat { size.height }

    /// Stacks tell spacers and dividers which way they run.
    func stackAxis(_ axis: Axis) {}

    /// The nodes inside this one, in drawing order: what an inline accessory looks through for its text and image.
    var childNodes: [Node] { [] }

    /// The first node, depth first, that `matches`.
    final func first(where matches: (Node) -> Bool) -> Node? {
        if matches(self) { return self }
        for child in childNodes { if let found = child.first(where: matches) { return found } }
        return nil
    }
}

/// Places a child of `childSize` inside `rect` at `alignment`.
func aligned(_ childSize: CGSize, in rect: CGRect, _ alignment: Alignment, child: Node? = nil) -> CGRect {
    let x = rect.minX + (rect.width - childSize.width) * alignment.horizontal.fraction
    let y: CGFloat
    switch alignment.vertical.guide {
    case let .fraction(f): y = rect.minY + (rect.height - childSize.height) * f
    case .firstBaseline, .lastBaseline:
        // Baselines inside a single-child container: align the child's baseline with the container's own,
        // which is the child's (so: top).
        y = rect.minY
    }
    return CGRect(origin: CGPoint(x: x, y: y), size: childSize)
}

// MARK: - stacks

/// `HStack`/`VStack`: offers space to children from the least to the most flexible, so fixed views get what they
/// need and flexible ones share the rest; higher `layoutPriority` goes first.
final class StackNode: Node {
    let axis: Axis
    let alignment: Alignment
    let spacing: CGFloat?
    let children: [Node]
    override var childNodes: [Node] { children }

    init(axis: Axis, alignment: Alignment, spacing: CGFloat?, children: [Node]) {
        self.axis = axis
        self.alignment = alignment
        self.spacing = spacing
        self.children = children
        super.init()
        for child in children { child.stackAxis(axis) }
    }

    /// SwiftUI's default spacing between adjacent views (8 points on iOS).
    static let defaultSpacing: CGFloat = 8

    private var totalSpacing: CGFloat {
        guard children.count > 1 else { return 0 }
        return CGFloat(children.count - 1) * (spacing ?? StackNode.defaultSpacing)
    }

    /// The main-axis size each child takes for `proposal`.
    private func distribute(_ proposal: Proposal) -> [CGSize] {
        let cross = proposal[axis.other]
        guard let available = proposal[axis] else {
            return children.map { $0.size(for: .along(axis, nil, cross: cross)) }
        }
        var sizes = [CGSize](repeating: .zero, count: children.count)
        // Flexibility: how much a child's size can vary between the smallest and largest offer.
        let minimums = children.map { $0.size(for: .along(axis, 0, cross: cross))[axis] }
        let flexibility = children.indices.map { i -> CGFloat in
            let maximum = children[i].size(for: .along(axis, .infinity, cross: cross))[axis]
            return maximum - minimums[i]
        }
        var remaining = available - totalSpacing
        let priorities = Set(children.map(\.priority)).sorted(by: >)
        for priority in priorities {
            let group = children.indices.filter { children[$0].priority == priority }.sorted { flexibility[$0] < flexibility[$1] }
            // Lower priorities keep at least their minimum sizes.
            let reserved = children.indices.filter { children[$0].priority < priority }.reduce(CGFloat(0)) { $0 + minimums[$1] }
            // Spacers are offered what the other views leave, keeping their minimum length meanwhile: a text beside a
            // spacer takes the room it needs (as in SwiftUI, where `HStack { Text(long); Spacer() }` does not wrap
            // the text at half the width).
            let views = group.filter { !children[$0].takesLeftover }, spacers = group.filter { children[$0].takesLeftover }
            let spacerMinimums = spacers.reduce(CGFloat(0)) { $0 + minimums[$1] }
            for (members, held) in [(views, spacerMinimums), (spacers, CGFloat(0))] {
                var groupRemaining = remaining - reserved - held
                var count = members.count
                for i in members {
                    let offer = max(0, groupRemaining / CGFloat(count))
                    let size = children[i].size(for: .along(axis, offer, cross: cross))
                    sizes[i] = size
                    groupRemaining -= size[axis]
                    remaining -= size[axis]
                    count -= 1
                }
            }
        }
        return sizes
    }

    override func computeSize(_ proposal: Proposal) -> CGSize {
        let sizes = distribute(proposal)
        let main = sizes.reduce(0) { $0 + $1[axis] } + totalSpacing
        let cross = sizes.map { $0[axis.other] }.max() ?? 0
        return .along(axis, main, cross: crossExtent(sizes, cross))
    }

    /// With baseline alignment an HStack is as tall as the aligned children span, not the tallest child.
    private func crossExtent(_ sizes: [CGSize], _ tallest: CGFloat) -> CGFloat {
        guard axis == .horizontal, let offsets = baselineOffsets(sizes) else { return tallest }
        let top = offsets.min() ?? 0
        return zip(offsets, sizes).map { $0 + $1.height }.max().map { $0 - top } ?? tallest
    }

    /// Each child's top relative to the shared baseline, for `.firstTextBaseline`/`.lastTextBaseline` HStacks.
    private func baselineOffsets(_ sizes: [CGSize]) -> [CGFloat]? {
        let first: Bool
        switch alignment.vertical.guide {
        case .firstBaseline: first = true
        case .lastBaseline: first = false
        case .fraction: return nil
        }
        return zip(children, sizes).map { -$0.baseline(first: first, size: $1) }
    }

    private func frames(in rect: CGRect) -> [CGRect] {
        let sizes = distribute(Proposal(rect.size))
        var frames: [CGRect] = []
        var position = axis == .horizontal ? rect.minX : rect.minY
        let offsets = axis == .horizontal ? baselineOffsets(sizes) : nil
        let top = offsets?.min() ?? 0
        for (i, size) in sizes.enumerated() {
            var origin = CGPoint.zero
            if axis == .horizontal {
                origin.x = position
                if let offsets {
                    origin.y = rect.minY + offsets[i] - top
                } else if case let .fraction(f) = alignment.vertical.guide {
                    origin.y = rect.minY + (rect.height - size.height) * f
                }
            } else {
                origin.y = position
                origin.x = rect.minX + (rect.width - size.width) * alignment.horizontal.fraction
            }
            frames.append(CGRect(origin: origin, size: size))
            position += size[axis] + (spacing ?? StackNode.defaultSpacing)
        }
        return frames
    }

    override func place(in rect: CGRect, _ canvas: Drawing) {
        for (child, frame) in zip(children, frames(in: rect)) { child.place(in: frame, canvas) }
    }

    override func baseline(first: Bool, size: CGSize) -> CGFloat {
        let rect = CGRect(origin: .zero, size: size)
        let frames = frames(in: rect)
        guard !children.isEmpty else { return size.height }
        let index = first ? 0 : children.count - 1
        if axis == .vertical {
            return frames[index].minY + children[index].baseline(first: first, size: frames[index].size)
        }
        // An HStack's baseline is its aligned children's, taken from the first child.
        return frames[0].minY + children[0].baseline(first: first, size: frames[0].size)
    }
}

/// `ZStack`: every child is offered the same size; the stack is as large as the largest, children aligned in it.
final class ZStackNode: Node {
    let alignment: Alignment
    let children: [Node]
    override var childNodes: [Node] { children }

    init(alignment: Alignment, children: [Node]) {
        self.alignment = alignment
        self.children = children
    }

    override func computeSize(_ proposal: Proposal) -> CGSize {
        let sizes = children.map { $0.size(for: proposal) }
        return CGSize(width: sizes.map(\.width).max() ?? 0, height: sizes.map(\.height).max() ?? 0)
    }

    override func place(in rect: CGRect, _ canvas: Drawing) {
        // Later children in front, a higher zIndex in front of a lower one (a stable order otherwise).
        let order = children.indices.sorted { (children[$0].zIndex, $0) < (children[$1].zIndex, $1) }
        for child in order.map({ children[$0] }) {
            child.place(in: aligned(child.size(for: Proposal(rect.size)), in: rect, alignment), canvas)
        }
    }

    override func baseline(first: Bool, size: CGSize) -> CGFloat {
        guard let child = children.first else { return size.height }
        let frame = aligned(child.size(for: Proposal(size)), in: CGRect(origin: .zero, size: size), alignment)
        return frame.minY + child.baseline(first: first, size: frame.size)
    }
}

/// `Spacer`: as long as offered along its stack's axis (at least `minLength`), nothing across.
final class SpacerNode: Node {
    let minLength: CGFloat
    var axis: Axis?

    init(minLength: CGFloat?) { self.minLength = minLength ?? StackNode.defaultSpacing }

    override var isSpacer: Bool { true }
    override func stackAxis(_ axis: Axis) { self.axis = axis }

    override func computeSize(_ proposal: Proposal) -> CGSize {
        // An infinite offer gets an infinite spacer: that is what makes it the most flexible view of a stack.
        func length(_ offer: CGFloat?) -> CGFloat { max(minLength, offer ?? minLength) }
        switch axis {
        case .horizontal?: return CGSize(width: length(proposal.width), height: 0)
        case .vertical?: return CGSize(width: 0, height: length(proposal.height))
        case nil: return CGSize(width: length(proposal.width), height: length(proposal.height))
        }
    }
}

/// `Divider`: a hairline across its stack's axis (horizontal outside an HStack).
final class DividerNode: Node {
    let paint: Paint
    var vertical = false

    init(paint: Paint) { self.paint = paint }

    override func stackAxis(_ axis: Axis) { vertical = axis == .horizontal }

    static let thickness: CGFloat = 1

    override func computeSize(_ proposal: Proposal) -> CGSize {
        vertical ? CGSize(width: DividerNode.thickness, height: proposal.height ?? 0)
            : CGSize(width: proposal.width ?? 0, height: DividerNode.thickness)
    }

    override func place(in rect: CGRect, _ canvas: Drawing) {
        canvas.ops.append(.path(Path(CGRect(origin: .zero, size: rect.size)).data, at: rect.origin, fill: paint, stroke: nil))
        canvas.placed.append(("Divider", rect))
    }
}

func finite(_ value: CGFloat?) -> CGFloat? {
    guard let value, value.isFinite else { return nil }
    return value
}

// MARK: - padding and frames

/// `padding`: offers the child the proposal less the insets, and is the child's size plus them.
final class PaddingNode: Node {
    let insets: EdgeInsets
    let child: Node
    override var childNodes: [Node] { [child] }

    init(insets: EdgeInsets, child: Node) {
        self.insets = insets
        self.child = child
    }

    override func computeSize(_ proposal: Proposal) -> CGSize {
        let h = insets.leading + insets.trailing, v = insets.top + insets.bottom
        let inner = Proposal(width: proposal.width.map { max(0, $0 - h) }, height: proposal.height.map { max(0, $0 - v) })
        let size = child.size(for: inner)
        return CGSize(width: size.width + h, height: size.height + v)
    }

    override func place(in rect: CGRect, _ canvas: Drawing) {
        child.place(in: inner(rect), canvas)
    }

    private func inner(_ rect: CGRect) -> CGRect {
        CGRect(x: rect.minX + insets.leading, y: rect.minY + insets.top,
               width: max(0, rect.width - insets.leading - insets.trailing), height: max(0, rect.height - insets.top - insets.bottom))
    }

    override func baseline(first: Bool, size: CGSize) -> CGFloat {
        let r = inner(CGRect(origin: .zero, size: size))
        return r.minY + child.baseline(first: first, size: r.size)
    }
}

/// What both `frame` modifiers share: the child gets the proposal `childProposal` makes of the frame's own, and is
/// aligned inside the frame, for drawing and for the baseline alike.
class FrameNode: Node {
    let alignment: Alignment
    let child: Node
    override var childNodes: [Node] { [child] }

    init(alignment: Alignment, child: Node) {
        self.alignment = alignment
        self.child = child
    }

    /// What the frame offers its child when it is itself offered `proposal`.
    func childProposal(_ proposal: Proposal) -> Proposal { proposal }

    override func place(in rect: CGRect, _ canvas: Drawing) {
        let size = child.size(for: childProposal(Proposal(rect.size)))
        child.place(in: aligned(size, in: rect, alignment), canvas)
    }

    override func baseline(first: Bool, size: CGSize) -> CGFloat {
        let childSize = child.size(for: childProposal(Proposal(size)))
        let frame = aligned(childSize, in: CGRect(origin: .zero, size: size), alignment)
        return frame.minY + child.baseline(first: first, size: childSize)
    }
}

/// `frame(width:height:alignment:)`: offers the fixed dimensions, is exactly them (the child's size where nil),
/// and aligns the child inside.
final class FixedFrameNode: FrameNode {
    let width: CGFloat?
    let height: CGFloat?

    init(width: CGFloat?, height: CGFloat?, alignment: Alignment, child: Node) {
        self.width = width
        self.height = height
        super.init(alignment: alignment, child: child)
    }

    override func childProposal(_ proposal: Proposal) -> Proposal {
        Proposal(width: width ?? proposal.width, height: height ?? proposal.height)
    }

    override func computeSize(_ proposal: Proposal) -> CGSize {
        let size = child.size(for: childProposal(proposal))
        return CGSize(width: width ?? size.width, height: height ?? size.height)
    }

}

/// `frame(minWidth:idealWidth:maxWidth:minHeight:idealHeight:maxHeight:alignment:)`: clamps the proposal to
/// [min, max] (an unspecified proposal takes the ideal), offers it to the child, and then is the child's size
/// pulled into [min, max] toward the proposal, as SwiftUI's flexible frame documents.
final class FlexibleFrameNode: FrameNode {
    let minWidth: CGFloat?, idealWidth: CGFloat?, maxWidth: CGFloat?
    let minHeight: CGFloat?, idealHeight: CGFloat?, maxHeight: CGFloat?

    init(minWidth: CGFloat?, idealWidth: CGFloat?, maxWidth: CGFloat?, minHeight: CGFloat?, idealHeight: CGFloat?,
         maxHeight: CGFloat?, alignment: Alignment, child: Node) {
        self.minWidth = minWidth
        self.idealWidth = idealWidth
        self.maxWidth = maxWidth
        self.minHeight = minHeight
        self.idealHeight = idealHeight
        self.maxHeight = maxHeight
        super.init(alignment: alignment, child: child)
    }

    private static func clamp(_ value: CGFloat?, _ lower: CGFloat?, _ upper: CGFloat?) -> CGFloat? {
        guard var v = value else { return nil }
        if let lower { v = max(lower, v) }
        if let upper { v = min(upper, v) }
        return v
    }

    override func childProposal(_ proposal: Proposal) -> Proposal {
        Proposal(width: FlexibleFrameNode.clamp(proposal.width ?? idealWidth, minWidth, maxWidth),
                 height: FlexibleFrameNode.clamp(proposal.height ?? idealHeight, minHeight, maxHeight))
    }

    private static func resolve(_ child: CGFloat, proposed: CGFloat?, _ lower: CGFloat?, _ upper: CGFloat?) -> CGFloat {
        var result = child
        if let lower { result = max(lower, min(result, proposed ?? result)) }
        if let upper { result = min(upper, max(result, proposed ?? result)) }
        return result
    }

    override func computeSize(_ proposal: Proposal) -> CGSize {
        let inner = childProposal(proposal)
        let size = child.size(for: inner)
        return CGSize(width: FlexibleFrameNode.resolve(size.width, proposed: inner.width, minWidth, maxWidth),
                      height: FlexibleFrameNode.resolve(size.height, proposed: inner.height, minHeight, maxHeight))
    }

}

/// `fixedSize()`: offers the child nothing (its ideal size) on the fixed axes.
final class FixedSizeNode: Node {
    let horizontal: Bool, vertical: Bool
    let child: Node
    override var childNodes: [Node] { [child] }

    init(horizontal: Bool, vertical: Bool, child: Node) {
        self.horizontal = horizontal
        self.vertical = vertical
        self.child = child
    }

    private func inner(_ p: Proposal) -> Proposal {
        Proposal(width: horizontal ? nil : p.width, height: vertical ? nil : p.height)
    }

    override func computeSize(_ proposal: Proposal) -> CGSize { child.size(for: inner(proposal)) }

    override func place(in rect: CGRect, _ canvas: Drawing) {
        let size = child.size(for: inner(Proposal(rect.size)))
        child.place(in: aligned(size, in: rect, .center), canvas)
    }

    override func baseline(first: Bool, size: CGSize) -> CGFloat { child.baseline(first: first, size: size) }
}

/// `aspectRatio(_:contentMode:)`: the largest (fit) or smallest (fill) size of that ratio for the proposal.
final class AspectRatioNode: Node {
    let ratio: CGFloat?
    let fill: Bool
    let child: Node
    override var childNodes: [Node] { [child] }

    init(ratio: CGFloat?, fill: Bool, child: Node) {
        self.ratio = ratio
        self.fill = fill
        self.child = child
    }

    private func target(_ proposal: Proposal) -> CGSize {
        let ideal = child.size(for: .unspecified)
        let r = ratio ?? (ideal.height > 0 ? ideal.width / ideal.height : 1)
        guard r > 0 else { return .zero }
        let w = finite(proposal.width), h = finite(proposal.height)
        switch (w, h) {
        case let (w?, h?):
            let byWidth = CGSize(width: w, height: w / r), byHeight = CGSize(width: h * r, height: h)
            if fill { return byWidth.height >= h ? byWidth : byHeight }
            return byWidth.height <= h ? byWidth : byHeight
        case let (w?, nil): return CGSize(width: w, height: w / r)
        case let (nil, h?): return CGSize(width: h * r, height: h)
        case (nil, nil): return ideal.height > 0 ? CGSize(width: ideal.height * r, height: ideal.height) : ideal
        }
    }

    override func computeSize(_ proposal: Proposal) -> CGSize { child.size(for: Proposal(target(proposal))) }

    override func place(in rect: CGRect, _ canvas: Drawing) {
        let size = child.size(for: Proposal(target(Proposal(rect.size))))
        child.place(in: aligned(size, in: rect, .center), canvas)
    }
}

// MARK: - background, overlay, drawing modifiers

/// A modifier that changes how its child draws, never how it lays out: as big as the child for every proposal, with
/// its layout priority, and the same to a stack (spacer or not, its axis) and to baseline alignment.
class DrawingModifierNode: Node {
    let child: Node
    override var childNodes: [Node] { [child] }

    init(child: Node) {
        self.child = child
        super.init()
        self.priority = child.priority
    }

    final override func computeSize(_ proposal: Proposal) -> CGSize { child.size(for: proposal) }
    final override var isSpacer: Bool { child.isSpacer }
    final override var takesLeftover: Bool { child.takesLeftover }
    final override func stackAxis(_ axis: Axis) { child.stackAxis(axis) }
    final override func baseline(first: Bool, size: CGSize) -> CGFloat { child.baseline(first: first, size: size) }
}

/// `background`/`overlay`: sized by the base view (the child); the secondary view is offered the base's size and
/// aligned on it.
final class LayeredNode: DrawingModifierNode {
    let layer: Node
    let alignment: Alignment
    let behind: Bool

    init(base: Node, layer: Node, alignment: Alignment, behind: Bool) {
        self.layer = layer
        self.alignment = alignment
        self.behind = behind
        super.init(child: base)
    }

    override func place(in rect: CGRect, _ canvas: Drawing) {
        let layerFrame = aligned(layer.size(for: Proposal(rect.size)), in: rect, alignment)
        if behind { layer.place(in: layerFrame, canvas) }
        child.place(in: rect, canvas)
        if !behind { layer.place(in: layerFrame, canvas) }
    }
}

/// A modifier that changes only how its child draws (opacity, clipping, offset, shadow), never its size.
final class EffectNode: DrawingModifierNode {
    enum Effect {
        case opacity(Double)
        case clip(any Shape)
        case offset(CGSize)
        case shadow(Drawing.Shadow)
        case scale(CGSize, UnitPoint)
        case rotation(Angle, UnitPoint)
        case colorMultiply(RGBA)
        /// A style's blend mode, as CSS names it (`ShapeStyle.blendMode(_:)`).
        case blend(String)
        /// A style's inner shadow (`ShadowStyle.inner`).
        case innerShadow(Drawing.Shadow)
    }

    let effect: Effect

    init(_ effect: Effect, child: Node) {
        self.effect = effect
        super.init(child: child)
        self.zIndex = child.zIndex
    }

    override func place(in rect: CGRect, _ canvas: Drawing) {
        switch effect {
        case let .opacity(o): canvas.ops.append(.beginGroup(opacity: o, clip: nil, offset: .zero, shadow: nil))
        case let .clip(shape):
            let path = shape.path(in: CGRect(origin: .zero, size: rect.size))
            canvas.ops.append(.beginGroup(opacity: nil, clip: (path.data, rect.origin), offset: .zero, shadow: nil))
        case let .offset(d): canvas.ops.append(.beginGroup(opacity: nil, clip: nil, offset: CGPoint(x: d.width, y: d.height), shadow: nil))
        case let .shadow(s): canvas.ops.append(.beginGroup(opacity: nil, clip: nil, offset: .zero, shadow: s))
        case let .colorMultiply(c): canvas.ops.append(.beginColorMultiply(c))
        case let .blend(mode): canvas.ops.append(.beginBlend(mode))
        case let .innerShadow(s): canvas.ops.append(.beginInnerShadow(s))
        case let .rotation(angle, anchor):
            canvas.ops.append(.beginRotation(angle, around: CGPoint(x: rect.minX + rect.width * anchor.x, y: rect.minY + rect.height * anchor.y)))
        case let .scale(s, anchor):
            canvas.ops.append(.beginScale(s, around: CGPoint(x: rect.minX + rect.width * anchor.x, y: rect.minY + rect.height * anchor.y)))
        }
        child.place(in: rect, canvas)
        canvas.ops.append(.endGroup)
    }
}

/// Several views where one is expected (a group modified as a whole, a `Group` in a `ZStack`): a ZStack of them.
func single(_ nodes: [Node]) -> Node {
    nodes.count == 1 ? nodes[0] : ZStackNode(alignment: .center, children: nodes)
}

/// Nothing: the node of `EmptyView` where one node is needed.
final class EmptyNode: Node {}

/// Runs `action` when placed (a control or link records itself and the texts its label draws).
final class CaptureNode: DrawingModifierNode {
    let finish: (String, Drawing) -> Void

    init(child: Node, finish: @escaping (String, Drawing) -> Void) {
        self.finish = finish
        super.init(child: child)
    }

    override func place(in rect: CGRect, _ canvas: Drawing) {
        canvas.beginCapture()
        child.place(in: rect, canvas)
        finish(canvas.endCapture(), canvas)
    }
}
