/// SwiftUI's immediate-mode view: its renderer closure draws into a `GraphicsContext` at the size the canvas is
/// given, when the canvas is placed (the layout has no views inside it to measure).
public struct Canvas<Symbols: View> {
    let renderer: (inout GraphicsContext, CGSize) -> Void
    let isOpaque: Bool

    public init(opaque: Bool = false, colorMode: ColorRenderingMode = .nonLinear, rendersAsynchronously: Bool = false,
                renderer: @escaping (inout GraphicsContext, CGSize) -> Void) where Symbols == EmptyView {
        self.renderer = renderer
        isOpaque = opaque
    }
}
extension Canvas: View { public typealias Body = Never }
extension Canvas: PrimitiveView {
    @MainActor public static func _resolve(_ view: Self, _ inputs: _ResolveInputs) -> _ResolvedNodes { _ResolvedNodes(nodes: view.nodes(inputs.context)) }
    @MainActor func nodes(_ context: ResolveContext) -> [Node] {
        let renderer = self.renderer
        return [CanvasNode { size, drawing in
            let target = Unchecked(drawing)
            MainActor.assumeIsolated {
                var graphics = GraphicsContext(drawing: target.value, resolveContext: context)
                renderer(&graphics, size)
            }
        }]
    }
}

/// How a canvas blends its colors; Lockstep's drawing is in sRGB whatever is asked.
public enum ColorRenderingMode: Hashable, Sendable { case nonLinear, linear, extendedLinear }

/// A canvas: as large as it is offered (10 × 10 when offered nothing, as SwiftUI's), drawn by its closure in its
/// own coordinates.
final class CanvasNode: Node {
    let draw: (CGSize, Drawing) -> Void

    init(draw: @escaping (CGSize, Drawing) -> Void) { self.draw = draw }

    override func computeSize(_ proposal: Proposal) -> CGSize {
        ProposedViewSize(proposal).replacingUnspecifiedDimensions()
    }

    override func place(in rect: CGRect, _ canvas: Drawing) {
        canvas.ops.append(.beginGroup(opacity: nil, clip: nil, offset: rect.origin, shadow: nil))
        draw(rect.size, canvas)
        canvas.ops.append(.endGroup)
        canvas.placed.append(("Canvas", rect))
    }
}

/// What a `Canvas` draws with: fills, strokes, texts and images, under a transform, opacity and clip that are the
/// context's own (a copy changed, or a `drawLayer`'s context, leaves the original as it was, as SwiftUI's value
/// semantics promise).
///
/// Not main-actor isolated, as Apple's is not: a team's drawing helpers take an `inout GraphicsContext` from any
/// context. A canvas draws while the renderer places its views, on the main actor, where the texts and images it
/// draws are resolved. @unchecked: a context lives only inside its canvas's drawing, on that actor.
public struct GraphicsContext: @unchecked Sendable {
    let drawing: Drawing
    let resolveContext: ResolveContext
    /// The state each drawing is made under, outermost first.
    private var state: [State] = []
    public var opacity: Double = 1
    public var blendMode: BlendMode = .normal
    public var environment: EnvironmentValues { resolveContext.environment }

    enum State {
        case translate(CGPoint)
        case rotate(Angle)
        case scale(CGSize)
        case clip(Path)
    }

    init(drawing: Drawing, resolveContext: ResolveContext) {
        self.drawing = drawing
        self.resolveContext = resolveContext
    }

    // MARK: the transform and the clip

    public mutating func translateBy(x: CGFloat, y: CGFloat) { state.append(.translate(CGPoint(x: x, y: y))) }
    public mutating func scaleBy(x: CGFloat, y: CGFloat) { state.append(.scale(CGSize(width: x, height: y))) }
    public mutating func rotate(by angle: Angle) { state.append(.rotate(angle)) }
    public mutating func clip(to path: Path, style: FillStyle = FillStyle(), options: ClipOptions = ClipOptions()) {
        state.append(.clip(path))
    }

    public struct ClipOptions: OptionSet, Sendable {
        public let rawValue: UInt32
        public init(rawValue: UInt32) { self.rawValue = rawValue }
        public static let inverse = ClipOptions(rawValue: 1)
    }

    public enum BlendMode: Sendable { case normal, multiply, screen, overlay, darken, lighten, plusLighter, plusDarker, sourceAtop, destinationOut, copy, clear }

    /// A context whose changes stay inside `content`, drawn as one layer.
    public func drawLayer(content: (inout GraphicsContext) throws -> Void) rethrows {
        var layer = self
        try content(&layer)
    }

    // MARK: drawing

    /// How a fill or stroke is colored.
    public struct Shading {
        let paint: (EnvironmentValues) -> Paint

        public static func color(_ color: Color) -> Shading { Shading { .color(color.resolve($0)) } }
        public static func color(red: Double, green: Double, blue: Double, opacity: Double = 1) -> Shading {
            .color(Color(red: red, green: green, blue: blue, opacity: opacity))
        }
        public static func style<S: ShapeStyle>(_ style: S) -> Shading { Shading { resolvePaint(style, $0) } }
        public static var foreground: Shading { Shading { $0.foregroundPaint(level: 0) } }
        public static func linearGradient(_ gradient: Gradient, startPoint: CGPoint, endPoint: CGPoint, options: GradientOptions = GradientOptions()) -> Shading {
            Shading { env in .linear(stops: gradient.stops.map { ($0.color.resolve(env), $0.location) },
                                     start: UnitPoint(x: startPoint.x, y: startPoint.y), end: UnitPoint(x: endPoint.x, y: endPoint.y)) }
        }
        public static func radialGradient(_ gradient: Gradient, center: CGPoint, startRadius: CGFloat, endRadius: CGFloat,
                                          options: GradientOptions = GradientOptions()) -> Shading {
            Shading { env in .radial(stops: gradient.stops.map { ($0.color.resolve(env), $0.location) }, center: center,
                                     startRadius: startRadius, endRadius: endRadius) }
        }
    }

    public struct GradientOptions: OptionSet, Sendable {
        public let rawValue: UInt32
        public init(rawValue: UInt32) { self.rawValue = rawValue }
        public static let `repeat` = GradientOptions(rawValue: 1)
        public static let mirror = GradientOptions(rawValue: 2)
        public static let linearColor = GradientOptions(rawValue: 4)
    }

    public func fill(_ path: Path, with shading: Shading, style: FillStyle = FillStyle()) {
        draw { $0.ops.append(.path(path.data, at: .zero, fill: paint(shading, for: path), stroke: nil)) }
    }

    public func stroke(_ path: Path, with shading: Shading, lineWidth: CGFloat = 1) {
        stroke(path, with: shading, style: StrokeStyle(lineWidth: lineWidth))
    }

    public func stroke(_ path: Path, with shading: Shading, style: StrokeStyle) {
        draw { $0.ops.append(.path(path.data, at: .zero, fill: nil, stroke: (paint(shading, for: path), style))) }
    }

    public func draw(_ text: Text, at point: CGPoint, anchor: UnitPoint = .center) { draw(view: text, at: point, anchor: anchor) }
    public func draw(_ image: Image, at point: CGPoint, anchor: UnitPoint = .center) { draw(view: image, at: point, anchor: anchor) }
    public func draw(_ text: Text, in rect: CGRect) { draw(view: text, in: rect) }
    public func draw(_ image: Image, in rect: CGRect, style: FillStyle = FillStyle()) { draw(view: image.resizable(), in: rect) }
    public func draw(_ text: ResolvedText, at point: CGPoint, anchor: UnitPoint = .center) { draw(text.text, at: point, anchor: anchor) }
    public func draw(_ text: ResolvedText, in rect: CGRect) { draw(text.text, in: rect) }
    public func draw(_ image: ResolvedImage, at point: CGPoint, anchor: UnitPoint = .center) { draw(image.image, at: point, anchor: anchor) }
    public func draw(_ image: ResolvedImage, in rect: CGRect, style: FillStyle = FillStyle()) { draw(image.image, in: rect, style: style) }

    /// A text resolved in this context's environment, to measure before drawing.
    public func resolve(_ text: Text) -> ResolvedText {
        ResolvedText(text: text, size: node(text).size(for: .unspecified))
    }

    public func resolve(_ image: Image) -> ResolvedImage {
        ResolvedImage(image: image, size: node(image).size(for: .unspecified))
    }

    public struct ResolvedText {
        let text: Text
        let size: CGSize
        public func measure(in size: CGSize) -> CGSize { CGSize(width: min(self.size.width, size.width), height: self.size.height) }
    }

    public struct ResolvedImage {
        let image: Image
        public let size: CGSize
    }

    // MARK: the drawing under the state

    private func paint(_ shading: Shading, for path: Path) -> Paint {
        let paint = shading.paint(environment)
        guard case let .linear(stops, start, end) = paint else { return paint }
        // The gradient's points are in the canvas's coordinates; a path's gradient is laid along its bounds.
        let bounds = path.boundingRect
        func unit(_ p: UnitPoint) -> UnitPoint {
            UnitPoint(x: bounds.width > 0 ? (p.x - bounds.minX) / bounds.width : 0,
                      y: bounds.height > 0 ? (p.y - bounds.minY) / bounds.height : 0)
        }
        return .linear(stops: stops, start: unit(start), end: unit(end))
    }

    /// A view's layout node, resolved on the main actor, where the canvas draws.
    private func node(_ view: some View) -> Node {
        let context = Unchecked(resolveContext), view = Unchecked(view)
        return MainActor.assumeIsolated { Unchecked(resolveOne(view.value, context.value)) }.value
    }

    private func draw(view: some View, at point: CGPoint, anchor: UnitPoint) {
        let node = node(view)
        let size = node.size(for: .unspecified)
        let origin = CGPoint(x: point.x - size.width * anchor.x, y: point.y - size.height * anchor.y)
        draw { node.place(in: CGRect(origin: origin, size: size), $0) }
    }

    private func draw(view: some View, in rect: CGRect) {
        let node = node(view)
        draw { node.place(in: rect, $0) }
    }

    /// Opens a group per state change (outermost first) and the context's opacity, draws, and closes them.
    private func draw(_ body: (Drawing) -> Void) {
        var opened = 0
        if opacity < 1 {
            drawing.ops.append(.beginGroup(opacity: opacity, clip: nil, offset: .zero, shadow: nil))
            opened += 1
        }
        for change in state {
            switch change {
            case let .translate(d): drawing.ops.append(.beginGroup(opacity: nil, clip: nil, offset: d, shadow: nil))
            case let .rotate(angle): drawing.ops.append(.beginRotation(angle, around: .zero))
            case let .scale(s): drawing.ops.append(.beginScale(s, around: .zero))
            case let .clip(path): drawing.ops.append(.beginGroup(opacity: nil, clip: (path.data, .zero), offset: .zero, shadow: nil))
            }
            opened += 1
        }
        body(drawing)
        for _ in 0..<opened { drawing.ops.append(.endGroup) }
    }
}
