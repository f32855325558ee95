/// A value within a range, shown as a ring or a bar (`.gaugeStyle`); lock-screen accessories' usual view.
public struct Gauge<Label: View, CurrentValueLabel: View, BoundsLabel: View, MarkedValueLabels: View> {
    let fraction: Double
    let label: Label
    let currentValueLabel: CurrentValueLabel?
    let minimumValueLabel: BoundsLabel?
    let maximumValueLabel: BoundsLabel?

    init(fraction: Double, label: Label, current: CurrentValueLabel?, minimum: BoundsLabel?, maximum: BoundsLabel?) {
        self.fraction = fraction.isFinite ? min(1, max(0, fraction)) : 0
        self.label = label
        self.currentValueLabel = current
        self.minimumValueLabel = minimum
        self.maximumValueLabel = maximum
    }

    static func fraction<V: BinaryFloatingPoint>(_ value: V, _ bounds: ClosedRange<V>) -> Double {
        let span = Double(bounds.upperBound - bounds.lowerBound)
        return span > 0 ? Double(value - bounds.lowerBound) / span : 0
    }
}

extension Gauge where CurrentValueLabel == EmptyView, BoundsLabel == EmptyView, MarkedValueLabels == EmptyView {
    public init<V: BinaryFloatingPoint>(value: V, in bounds: ClosedRange<V> = 0...1, @ViewBuilder label: () -> Label) {
        self.init(fraction: Self.fraction(value, bounds), label: label(), current: nil, minimum: nil, maximum: nil)
    }
}

extension Gauge where BoundsLabel == EmptyView, MarkedValueLabels == EmptyView {
    public init<V: BinaryFloatingPoint>(value: V, in bounds: ClosedRange<V> = 0...1, @ViewBuilder label: () -> Label,
                                        @ViewBuilder currentValueLabel: () -> CurrentValueLabel) {
        self.init(fraction: Self.fraction(value, bounds), label: label(), current: currentValueLabel(), minimum: nil, maximum: nil)
    }
}

extension Gauge where MarkedValueLabels == EmptyView {
    public init<V: BinaryFloatingPoint>(value: V, in bounds: ClosedRange<V> = 0...1, @ViewBuilder label: () -> Label,
                                        @ViewBuilder currentValueLabel: () -> CurrentValueLabel,
                                        @ViewBuilder minimumValueLabel: () -> BoundsLabel, @ViewBuilder maximumValueLabel: () -> BoundsLabel) {
        self.init(fraction: Self.fraction(value, bounds), label: label(), current: currentValueLabel(),
                  minimum: minimumValueLabel(), maximum: maximumValueLabel())
    }
}

extension Gauge: View { public typealias Body = Never }
extension Gauge: PrimitiveView {
    @MainActor public static func _resolve(_ view: Self, _ inputs: _ResolveInputs) -> _ResolvedNodes { _ResolvedNodes(nodes: view.nodes(inputs.context)) }
    @MainActor func nodes(_ context: ResolveContext) -> [Node] {
        if let custom = context.environment.customGaugeStyle {
            // Your own GaugeStyle: its makeBody draws the gauge (a Gauge inside it draws as the style before it).
            var inner = context
            inner.environment.customGaugeStyle = nil
            let configuration = GaugeStyleConfiguration(
                label: .init(label), currentValueLabel: currentValueLabel.map { .init($0) },
                minimumValueLabel: minimumValueLabel.map { .init($0) }, maximumValueLabel: maximumValueLabel.map { .init($0) },
                value: fraction)
            return resolve(custom.body(configuration), inner)
        }
        let env = context.environment
        let style = env.gaugeStyleKind
        // A gradient tint runs along the value, from its start to its end.
        let gradient = env.tintGradient.map { Paint.linear(stops: $0.stops.map { ($0.color.resolve(env), $0.location) }, start: .leading, end: .trailing) }
        // A tint is a color of the view: the widget's rendering mode draws it as it draws the others (white when vibrant).
        let tint = (gradient ?? env.tintColor.map { Paint.color($0.resolve(env)) }).map(env.grouped) ?? env.foregroundPaint(level: 0)
        let track = env.foregroundPaint(level: 2)
        func text(_ view: (some View)?, font: Font) -> [Node] {
            guard let view else { return [] }
            var inner = context
            if inner.environment.font == nil || style != .linearCapacity { inner.environment.font = font }
            return resolve(view, inner)
        }
        // `labelsHidden()`: the gauge draws without its label, as SwiftUI's.
        let shownLabel = env.labelsHidden ? nil : label
        switch style {
        case .accessoryCircular, .accessoryCircularCapacity:
            let capacity = style == .accessoryCircularCapacity
            // The center shows the current value (else the label); an open ring's gap shows the bounds (else the label).
            var center = text(currentValueLabel, font: .system(size: 20, weight: .medium))
            var bottom: [Node] = []
            let minimum = text(minimumValueLabel, font: .system(size: 10, weight: .medium))
            let maximum = text(maximumValueLabel, font: .system(size: 10, weight: .medium))
            if center.isEmpty {
                center = text(shownLabel, font: .system(size: 12, weight: .medium))
            } else if !capacity {
                bottom = minimum.isEmpty && maximum.isEmpty ? text(shownLabel, font: .system(size: 10, weight: .medium)) : []
            }
            return [RingGaugeNode(value: GaugeValue(fraction: fraction, capacity: capacity, paint: tint, track: track), center: center,
                                  bottom: bottom, minimum: capacity ? [] : minimum, maximum: capacity ? [] : maximum)]
        case .accessoryLinear, .accessoryLinearCapacity, .linearCapacity:
            let capacity = style != .accessoryLinear
            let top: [Node]
            if style == .linearCapacity {
                top = text(shownLabel, font: env.font ?? .body)
            } else {
                let current = text(currentValueLabel, font: .system(size: 15, weight: .medium))
                top = current.isEmpty ? text(shownLabel, font: .system(size: 15, weight: .medium)) : current
            }
            let bar = BarNode(value: GaugeValue(fraction: fraction, capacity: capacity, paint: tint, track: track), height: 6)
            let bounds = StackNode(axis: .horizontal, alignment: .center, spacing: 6,
                                   children: text(minimumValueLabel, font: .caption2) + [bar] + text(maximumValueLabel, font: .caption2))
            var rows: [Node] = top + [bounds]
            if style == .linearCapacity { rows += text(currentValueLabel, font: .caption) }
            return [StackNode(axis: .vertical, alignment: .leading, spacing: 4, children: rows)]
        }
    }
}

/// What a gauge draws of its value, as a ring or a bar: how full it is, whether it is filled to the value (capacity)
/// or marked at it, and the paints of the value and of the track.
struct GaugeValue {
    var fraction: Double
    var capacity: Bool
    var paint: Paint
    var track: Paint
}

/// A circular gauge: an open ring (gap at the bottom, a marker at the value) or a closed capacity ring filled
/// clockwise from the top, with the center label and the bounds in the gap. Its size is the accessory circle's
/// (58 points), or less when offered less.
final class RingGaugeNode: Node {
    let value: GaugeValue
    let center: [Node], bottom: [Node], minimum: [Node], maximum: [Node]

    static let side: CGFloat = 58
    static let lineWidth: CGFloat = 6

    init(value: GaugeValue, center: [Node], bottom: [Node], minimum: [Node], maximum: [Node]) {
        self.value = value
        self.center = center
        self.bottom = bottom
        self.minimum = minimum
        self.maximum = maximum
    }

    override func computeSize(_ proposal: Proposal) -> CGSize {
        let side = min(RingGaugeNode.side, finite(proposal.width) ?? RingGaugeNode.side, finite(proposal.height) ?? RingGaugeNode.side)
        return CGSize(width: side, height: side)
    }

    override func place(in rect: CGRect, _ canvas: Drawing) {
        let side = min(rect.width, rect.height)
        let square = CGRect(x: rect.midX - side / 2, y: rect.midY - side / 2, width: side, height: side)
        let w = RingGaugeNode.lineWidth
        let radius = side / 2 - w / 2
        let c = CGPoint(x: side / 2, y: side / 2)
        func arc(_ from: Double, _ to: Double) -> String {
            var p = Path()
            p.addArc(center: c, radius: radius, startAngle: .degrees(from), endAngle: .degrees(to), clockwise: false)
            return p.data
        }
        let start = value.capacity ? -90.0 : 135.0, sweep = value.capacity ? 360.0 : 270.0
        let line = StrokeStyle(lineWidth: w, lineCap: value.capacity ? .butt : .round)
        canvas.ops.append(.path(arc(start, start + sweep), at: square.origin, fill: nil, stroke: (value.track, line)))
        if value.capacity {
            if value.fraction > 0 { canvas.ops.append(.path(arc(start, start + sweep * value.fraction), at: square.origin, fill: nil, stroke: (value.paint, line))) }
        } else {
            // The open ring's marker: a dot on the ring at the value.
            let angle = (start + sweep * value.fraction) * .pi / 180
            let dot = CGRect(x: c.x + radius * CGFloat(cos(angle)) - w / 2 - 1, y: c.y + radius * CGFloat(sin(angle)) - w / 2 - 1, width: w + 2, height: w + 2)
            canvas.ops.append(.path(arc(start, start + sweep * value.fraction), at: square.origin, fill: nil, stroke: (value.paint, line)))
            canvas.ops.append(.path(Path(ellipseIn: dot).data, at: square.origin, fill: .color(RGBA(1, 1, 1)), stroke: (value.paint, StrokeStyle(lineWidth: 1))))
        }
        let inner = square.insetBy(dx: w + 2, dy: w + 2)
        if let node = center.first {
            let size = node.size(for: Proposal(inner.size))
            node.place(in: aligned(size, in: inner, .center), canvas)
        }
        let gap = CGRect(x: square.minX + side * 0.22, y: square.maxY - side * 0.3, width: side * 0.56, height: side * 0.3)
        if let node = bottom.first {
            node.place(in: aligned(node.size(for: Proposal(gap.size)), in: gap, .bottom), canvas)
        }
        if let node = minimum.first {
            node.place(in: aligned(node.size(for: Proposal(width: gap.width / 2, height: gap.height)), in: gap, .bottomLeading), canvas)
        }
        if let node = maximum.first {
            node.place(in: aligned(node.size(for: Proposal(width: gap.width / 2, height: gap.height)), in: gap, .bottomTrailing), canvas)
        }
    }
}

/// A horizontal bar: as wide as offered, `height` tall; filled to the value (capacity) or marked at it.
final class BarNode: Node {
    let value: GaugeValue
    let height: CGFloat

    init(value: GaugeValue, height: CGFloat) {
        self.value = value
        self.height = height
    }

    override func computeSize(_ proposal: Proposal) -> CGSize {
        CGSize(width: proposal.width ?? 10, height: height)
    }

    override func place(in rect: CGRect, _ canvas: Drawing) {
        let local = CGRect(origin: .zero, size: rect.size)
        canvas.ops.append(.path(Path(roundedRect: local, cornerRadius: height / 2).data, at: rect.origin, fill: value.track, stroke: nil))
        if value.capacity {
            let filled = CGRect(x: 0, y: 0, width: rect.width * CGFloat(value.fraction), height: height)
            if filled.width > 0 {
                canvas.ops.append(.path(Path(roundedRect: filled, cornerRadius: height / 2).data, at: rect.origin, fill: value.paint, stroke: nil))
            }
        } else {
            let x = (rect.width - height - 2) * CGFloat(value.fraction)
            let dot = CGRect(x: x, y: -1, width: height + 2, height: height + 2)
            canvas.ops.append(.path(Path(ellipseIn: dot).data, at: rect.origin, fill: .color(RGBA(1, 1, 1)), stroke: (value.paint, StrokeStyle(lineWidth: 1.5))))
        }
    }
}

/// Progress toward completion: a bar (or ring) filled to `value / total`, or to how far now is through a
/// timer interval.
public struct ProgressView<Label: View, CurrentValueLabel: View> {
    enum Progress {
        case fraction(Double?)
        case timer(ClosedRange<Date>, countsDown: Bool)
    }
    let progress: Progress
    let label: Label?
    let currentValueLabel: CurrentValueLabel?
}

extension ProgressView where Label == EmptyView, CurrentValueLabel == EmptyView {
    public init() {
        self.init(progress: .fraction(nil), label: nil, currentValueLabel: nil)
    }
    public init<V: BinaryFloatingPoint>(value: V?, total: V = 1.0) {
        self.init(progress: .fraction(value.map { total > 0 ? Double($0 / total) : 0 }), label: nil, currentValueLabel: nil)
    }
}

extension ProgressView where CurrentValueLabel == EmptyView {
    public init(@ViewBuilder label: () -> Label) {
        self.init(progress: .fraction(nil), label: label(), currentValueLabel: nil)
    }
    public init<V: BinaryFloatingPoint>(value: V?, total: V = 1.0, @ViewBuilder label: () -> Label) {
        self.init(progress: .fraction(value.map { total > 0 ? Double($0 / total) : 0 }), label: label(), currentValueLabel: nil)
    }
}

extension ProgressView where Label == Text, CurrentValueLabel == EmptyView {
    public init(_ titleKey: LocalizedStringKey) {
        self.init(progress: .fraction(nil), label: Text(titleKey), currentValueLabel: nil)
    }
    public init<V: BinaryFloatingPoint>(_ titleKey: LocalizedStringKey, value: V?, total: V = 1.0) {
        self.init(progress: .fraction(value.map { total > 0 ? Double($0 / total) : 0 }), label: Text(titleKey), currentValueLabel: nil)
    }
    @_disfavoredOverload
    public init<S: StringProtocol, V: BinaryFloatingPoint>(_ title: S, value: V?, total: V = 1.0) {
        self.init(progress: .fraction(value.map { total > 0 ? Double($0 / total) : 0 }), label: Text(title), currentValueLabel: nil)
    }
}

extension ProgressView {
    public init<V: BinaryFloatingPoint>(value: V?, total: V = 1.0, @ViewBuilder label: () -> Label,
                                        @ViewBuilder currentValueLabel: () -> CurrentValueLabel) {
        self.init(progress: .fraction(value.map { total > 0 ? Double($0 / total) : 0 }), label: label(), currentValueLabel: currentValueLabel())
    }

    public init(timerInterval: ClosedRange<Date>, countsDown: Bool = true, @ViewBuilder label: () -> Label,
                @ViewBuilder currentValueLabel: () -> CurrentValueLabel) {
        self.init(progress: .timer(timerInterval, countsDown: countsDown), label: label(), currentValueLabel: currentValueLabel())
    }
}

extension ProgressView where Label == EmptyView, CurrentValueLabel == Text {
    /// A bar through a timer interval, with the remaining (or elapsed) time below it.
    public init(timerInterval: ClosedRange<Date>, countsDown: Bool = true) {
        self.init(progress: .timer(timerInterval, countsDown: countsDown), label: nil,
                  currentValueLabel: Text(timerInterval: timerInterval, countsDown: countsDown))
    }
}

extension ProgressView where CurrentValueLabel == Text {
    public init(timerInterval: ClosedRange<Date>, countsDown: Bool = true, @ViewBuilder label: () -> Label) {
        self.init(progress: .timer(timerInterval, countsDown: countsDown), label: label(),
                  currentValueLabel: Text(timerInterval: timerInterval, countsDown: countsDown))
    }
}

extension ProgressView: View { public typealias Body = Never }
extension ProgressView: PrimitiveView {
    @MainActor public static func _resolve(_ view: Self, _ inputs: _ResolveInputs) -> _ResolvedNodes { _ResolvedNodes(nodes: view.nodes(inputs.context)) }
    @MainActor func nodes(_ context: ResolveContext) -> [Node] {
        let env = context.environment
        let fraction: Double?
        switch progress {
        case let .fraction(f): fraction = f.map { $0.isFinite ? min(1, max(0, $0)) : 0 }
        case let .timer(range, countsDown):
            let now = env.renderDate ?? Date()
            let total = range.upperBound.timeIntervalSince(range.lowerBound)
            let elapsed = min(max(now.timeIntervalSince(range.lowerBound), 0), total)
            let done = total > 0 ? elapsed / total : 1
            fraction = countsDown ? 1 - done : done
        }
        if let custom = env.customProgressViewStyle {
            // Your own ProgressViewStyle: its makeBody draws the progress view (one inside it draws as the style before).
            var inner = context
            inner.environment.customProgressViewStyle = nil
            let configuration = ProgressViewStyleConfiguration(
                fractionCompleted: fraction, label: label.map { .init($0) }, currentValueLabel: currentValueLabel.map { .init($0) })
            return resolve(custom.body(configuration), inner)
        }
        let tint = env.grouped(Paint.color((env.tintColor ?? Color.accentColor).resolve(env)))
        let track = env.foregroundPaint(level: 3)
        let labelNodes = label.map { resolve($0, context) } ?? []
        var small = context
        small.environment.font = env.font ?? .caption
        small.environment.foregroundStyleValue = nil
        let currentNodes = currentValueLabel.map { view -> [Node] in
            var inner = small
            inner.environment.foregroundStyleValue = AnyShapeStyle(HierarchicalShapeStyle.secondary)
            return resolve(view, inner)
        } ?? []
        let circular = env.progressViewStyleKind == .circular || fraction == nil
        if circular {
            let value = GaugeValue(fraction: fraction ?? 0.25, capacity: true, paint: fraction == nil ? env.foregroundPaint(level: 1) : tint, track: track)
            let ring = RingGaugeNode(value: value, center: [], bottom: [], minimum: [], maximum: [])
            let sized = FixedFrameNode(width: 20, height: 20, alignment: .center, child: ring)
            return [StackNode(axis: .vertical, alignment: .center, spacing: 8, children: [sized] + labelNodes + currentNodes)]
        }
        let bar = BarNode(value: GaugeValue(fraction: fraction ?? 0, capacity: true, paint: tint, track: track), height: 4)
        return [StackNode(axis: .vertical, alignment: .leading, spacing: 4, children: labelNodes + [bar] + currentNodes)]
    }
}

