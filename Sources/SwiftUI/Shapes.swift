/// A 2D shape: a path in a rectangle. As a view it takes the space it is offered and is filled with the
/// foreground style.
public protocol Shape: Sendable, View {
    nonisolated func path(in rect: CGRect) -> Path
}

nonisolated extension Shape {
    public var body: _ShapeView<Self> { _ShapeView(shape: self, fill: nil, stroke: nil) }

    /// Fills the shape with a style.
    public func fill<S: ShapeStyle>(_ content: S, style: FillStyle = FillStyle()) -> _ShapeView<Self> {
        _ShapeView(shape: self, fill: AnyShapeStyle(content), stroke: nil)
    }

    /// Fills the shape with the foreground style.
    public func fill(style: FillStyle = FillStyle()) -> _ShapeView<Self> {
        _ShapeView(shape: self, fill: AnyShapeStyle(ForegroundStyle()), stroke: nil)
    }

    /// Outlines the shape (centered on its edge).
    public func stroke<S: ShapeStyle>(_ content: S, lineWidth: CGFloat = 1) -> _ShapeView<Self> {
        _ShapeView(shape: self, fill: nil, stroke: (AnyShapeStyle(content), StrokeStyle(lineWidth: lineWidth)), inset: false)
    }

    public func stroke<S: ShapeStyle>(_ content: S, style: StrokeStyle) -> _ShapeView<Self> {
        _ShapeView(shape: self, fill: nil, stroke: (AnyShapeStyle(content), style), inset: false)
    }

    public func stroke(lineWidth: CGFloat = 1) -> _ShapeView<Self> {
        _ShapeView(shape: self, fill: nil, stroke: (AnyShapeStyle(ForegroundStyle()), StrokeStyle(lineWidth: lineWidth)), inset: false)
    }

    public func stroke(style: StrokeStyle) -> _ShapeView<Self> {
        _ShapeView(shape: self, fill: nil, stroke: (AnyShapeStyle(ForegroundStyle()), style), inset: false)
    }

    /// Outlines the shape inside its edge.
    public func strokeBorder<S: ShapeStyle>(_ content: S, lineWidth: CGFloat = 1) -> _ShapeView<Self> {
        _ShapeView(shape: self, fill: nil, stroke: (AnyShapeStyle(content), StrokeStyle(lineWidth: lineWidth)), inset: true)
    }

    public func strokeBorder(lineWidth: CGFloat = 1) -> _ShapeView<Self> {
        _ShapeView(shape: self, fill: nil, stroke: (AnyShapeStyle(ForegroundStyle()), StrokeStyle(lineWidth: lineWidth)), inset: true)
    }

    /// The part of the shape from `startFraction` to `endFraction` of its outline (the whole shape when 0…1;
    /// rings and arcs otherwise, as gauges draw them).
    public func trim(from startFraction: CGFloat = 0, to endFraction: CGFloat = 1) -> _TrimmedShape<Self> {
        _TrimmedShape(shape: self, from: startFraction, to: endFraction)
    }

    public func rotation(_ angle: Angle, anchor: UnitPoint = .center) -> _RotatedShape<Self> {
        _RotatedShape(shape: self, angle: angle)
    }
}

/// How a path is filled (the even-odd rule is not drawn differently).
public struct FillStyle: Equatable, Sendable {
    public var isEOFilled: Bool
    public var isAntialiased: Bool
    public init(eoFill: Bool = false, antialiased: Bool = true) {
        isEOFilled = eoFill
        isAntialiased = antialiased
    }
}

/// How a path is outlined.
public struct StrokeStyle: Equatable, Sendable {
    public var lineWidth: CGFloat
    public var lineCap: LineCap
    public var dash: [CGFloat]

    public enum LineCap: Equatable, Sendable { case butt, round, square }
    public enum LineJoin: Equatable, Sendable { case miter, round, bevel }

    public init(lineWidth: CGFloat = 1, lineCap: LineCap = .butt, lineJoin: LineJoin = .miter, miterLimit: CGFloat = 10,
                dash: [CGFloat] = [], dashPhase: CGFloat = 0) {
        self.lineWidth = lineWidth
        self.lineCap = lineCap
        self.dash = dash
    }
}

/// A shape drawn: filled or outlined with a style.
public struct _ShapeView<S: Shape> {
    let shape: S
    let fill: AnyShapeStyle?
    let stroke: (AnyShapeStyle, StrokeStyle)?
    var inset = false

    init(shape: S, fill: AnyShapeStyle?, stroke: (AnyShapeStyle, StrokeStyle)?, inset: Bool = false) {
        self.shape = shape
        self.fill = fill
        self.stroke = stroke
        self.inset = inset
    }
}
extension _ShapeView: View { public typealias Body = Never }
extension _ShapeView: PrimitiveView {
    @MainActor public static func _resolve(_ view: Self, _ inputs: _ResolveInputs) -> _ResolvedNodes { _ResolvedNodes(nodes: view.nodes(inputs.context)) }
    @MainActor func nodes(_ context: ResolveContext) -> [Node] {
        let env = context.environment
        let fillPaint: Paint? = stroke == nil ? resolvePaint(fill ?? AnyShapeStyle(ForegroundStyle()), env) : fill.map { resolvePaint($0, env) }
        let strokePaint = stroke.map { (resolvePaint($0.0, env), $0.1) }
        let node = ShapeNode(shape: shape, fill: fillPaint, stroke: strokePaint, inset: inset, containerRadius: env.containerCornerRadius)
        return [withStyleEffects(node, stroke?.0 ?? fill ?? AnyShapeStyle(ForegroundStyle()), env)]
    }
}

/// A shape takes whatever it is offered (SwiftUI's placeholder 10 points where nothing is) and draws its path.
final class ShapeNode: Node {
    let shape: any Shape
    let fill: Paint?
    let stroke: (Paint, StrokeStyle)?
    let inset: Bool
    let containerRadius: CGFloat

    init(shape: any Shape, fill: Paint?, stroke: (Paint, StrokeStyle)?, inset: Bool, containerRadius: CGFloat) {
        self.shape = shape
        self.fill = fill
        self.stroke = stroke
        self.inset = inset
        self.containerRadius = containerRadius
    }

    override func computeSize(_ proposal: Proposal) -> CGSize {
        // Whatever is offered, infinity included (so a stack sees a shape as fully flexible).
        return CGSize(width: proposal.width ?? 10, height: proposal.height ?? 10)
    }

    override func place(in rect: CGRect, _ canvas: Drawing) {
        var local = CGRect(origin: .zero, size: rect.size)
        if inset, let (_, style) = stroke { local = local.insetBy(dx: style.lineWidth / 2, dy: style.lineWidth / 2) }
        let path: Path
        if shape is ContainerRelativeShape {
            path = Path(roundedRect: local, cornerRadius: max(0, containerRadius - min(rect.minX, rect.minY)))
        } else {
            path = shape.path(in: local)
        }
        canvas.ops.append(.path(path.data, at: rect.origin, fill: fill, stroke: stroke))
        canvas.placed.append(("\(type(of: shape))", rect))
    }
}

public struct Rectangle: Sendable {
    public init() {}
    nonisolated public func path(in rect: CGRect) -> Path { Path(rect) }
}

public struct RoundedRectangle: Sendable {
    public var cornerSize: CGSize
    public var style: RoundedCornerStyle
    public init(cornerRadius: CGFloat, style: RoundedCornerStyle = .continuous) {
        self.cornerSize = CGSize(width: cornerRadius, height: cornerRadius)
        self.style = style
    }
    public init(cornerSize: CGSize, style: RoundedCornerStyle = .continuous) {
        self.cornerSize = cornerSize
        self.style = style
    }
    nonisolated public func path(in rect: CGRect) -> Path { Path(roundedRect: rect, cornerSize: cornerSize, style: style) }
}

public struct Circle: Sendable {
    public init() {}
    nonisolated public func path(in rect: CGRect) -> Path {
        let side = min(rect.width, rect.height)
        return Path(ellipseIn: CGRect(x: rect.midX - side / 2, y: rect.midY - side / 2, width: side, height: side))
    }
}

public struct Ellipse: Sendable {
    public init() {}
    nonisolated public func path(in rect: CGRect) -> Path { Path(ellipseIn: rect) }
}

public struct Capsule: Sendable {
    public var style: RoundedCornerStyle
    public init(style: RoundedCornerStyle = .continuous) { self.style = style }
    nonisolated public func path(in rect: CGRect) -> Path {
        Path(roundedRect: rect, cornerRadius: min(rect.width, rect.height) / 2)
    }
}

/// The shape of the container the view is in (a widget's rounded corners), concentric with it: the radius
/// shrinks by how far the view is inset.
public struct ContainerRelativeShape: Sendable {
    public init() {}
    nonisolated public func path(in rect: CGRect) -> Path { Path(roundedRect: rect, cornerRadius: 0) }
}

/// A shape's outline from one fraction to another: for circles and capsules, an arc starting at the
/// 3 o'clock position going clockwise, as Core Graphics starts them.
public struct _TrimmedShape<S: Shape>: Sendable {
    let shape: S
    let from: CGFloat
    let to: CGFloat
    nonisolated public func path(in rect: CGRect) -> Path {
        if from <= 0 && to >= 1 { return shape.path(in: rect) }
        guard to > from else { return Path() }
        var path = Path()
        let side = min(rect.width, rect.height)
        path.addArc(center: CGPoint(x: rect.midX, y: rect.midY), radius: side / 2,
                    startAngle: .degrees(Double(from) * 360), endAngle: .degrees(Double(to) * 360), clockwise: false)
        return path
    }
}

/// A shape rotated about its center (arcs: their start angle moves).
public struct _RotatedShape<S: Shape>: Sendable {
    let shape: S
    let angle: Angle
    nonisolated public func path(in rect: CGRect) -> Path {
        if let trimmed = shape as? any _Trimmable {
            return trimmed.rotatedPath(in: rect, by: angle)
        }
        return shape.path(in: rect)
    }
}

protocol _Trimmable {
    func rotatedPath(in rect: CGRect, by angle: Angle) -> Path
}

extension _TrimmedShape: _Trimmable {
    nonisolated func rotatedPath(in rect: CGRect, by angle: Angle) -> Path {
        guard to > from else { return Path() }
        var path = Path()
        let side = min(rect.width, rect.height)
        path.addArc(center: CGPoint(x: rect.midX, y: rect.midY), radius: side / 2,
                    startAngle: .degrees(Double(from) * 360 + angle.degrees), endAngle: .degrees(Double(to) * 360 + angle.degrees), clockwise: false)
        return path
    }
}

/// A shape whose outline can be inset (strokeBorder's shapes).
public protocol InsettableShape: Shape {
    associatedtype InsetShape: InsettableShape
    func inset(by amount: CGFloat) -> InsetShape
}

extension Path: Shape {
    nonisolated public func path(in rect: CGRect) -> Path { self }
}

extension Color: View { public typealias Body = Never }
extension Color: PrimitiveView {
    @MainActor public static func _resolve(_ view: Self, _ inputs: _ResolveInputs) -> _ResolvedNodes { _ResolvedNodes(nodes: view.nodes(inputs.context)) }
    /// A color as a view: a rectangle filled with it, taking the space offered.
    @MainActor func nodes(_ context: ResolveContext) -> [Node] {
        [ShapeNode(shape: Rectangle(), fill: context.environment.grouped(.color(resolve(context.environment))), stroke: nil, inset: false, containerRadius: 0)]
    }
}

extension LinearGradient: View { public typealias Body = Never }
extension LinearGradient: PrimitiveView {
    @MainActor public static func _resolve(_ view: Self, _ inputs: _ResolveInputs) -> _ResolvedNodes { _ResolvedNodes(nodes: view.nodes(inputs.context)) }
    @MainActor func nodes(_ context: ResolveContext) -> [Node] {
        [ShapeNode(shape: Rectangle(), fill: resolvePaint(self, context.environment), stroke: nil, inset: false, containerRadius: 0)]
    }
}

extension Rectangle: Shape {}
extension RoundedRectangle: Shape {}
extension Circle: Shape {}
extension Ellipse: Shape {}
extension Capsule: Shape {}
extension ContainerRelativeShape: Shape {}
extension _TrimmedShape: Shape {}
extension _RotatedShape: Shape {}

extension Shape where Self == Rectangle {
    public static var rect: Rectangle { Rectangle() }
}

extension Shape where Self == RoundedRectangle {
    public static func rect(cornerRadius: CGFloat, style: RoundedCornerStyle = .continuous) -> RoundedRectangle {
        RoundedRectangle(cornerRadius: cornerRadius, style: style)
    }
    public static func rect(cornerSize: CGSize, style: RoundedCornerStyle = .continuous) -> RoundedRectangle {
        RoundedRectangle(cornerSize: cornerSize, style: style)
    }
}

extension Shape where Self == Circle {
    public static var circle: Circle { Circle() }
}

extension Shape where Self == Capsule {
    public static var capsule: Capsule { Capsule() }
    public static func capsule(style: RoundedCornerStyle) -> Capsule { Capsule(style: style) }
}

extension Shape where Self == Ellipse {
    public static var ellipse: Ellipse { Ellipse() }
}

extension Shape where Self == ContainerRelativeShape {
    public static var containerRelative: ContainerRelativeShape { ContainerRelativeShape() }
}
