// The view modifiers widgets use. Each either wraps the modified view's nodes (layout and drawing), changes the
// environment its content resolves in, or records something the renderer reports (widget URL, container
// background). A modifier SwiftUI has and this file does not is a compile error, never a silent no-op.

// MARK: - layout

nonisolated extension View {
    /// Insets the view by the same amount on the given edges (SwiftUI's default: 16 points).
    public func padding(_ edges: Edge.Set = .all, _ length: CGFloat? = nil) -> some View {
        let l = length ?? 16
        let insets = EdgeInsets(top: edges.contains(.top) ? l : 0, leading: edges.contains(.leading) ? l : 0,
                                bottom: edges.contains(.bottom) ? l : 0, trailing: edges.contains(.trailing) ? l : 0)
        return layoutModifier { child, _ in PaddingNode(insets: insets, child: child) }
    }

    public func padding(_ length: CGFloat) -> some View { padding(.all, length) }

    public func padding(_ insets: EdgeInsets) -> some View {
        layoutModifier { child, _ in PaddingNode(insets: insets, child: child) }
    }

    /// A frame of fixed width and/or height; the view is aligned inside it.
    public func frame(width: CGFloat? = nil, height: CGFloat? = nil, alignment: Alignment = .center) -> some View {
        layoutModifier { child, _ in FixedFrameNode(width: width, height: height, alignment: alignment, child: child) }
    }

    /// A flexible frame: the proposal clamped to the bounds is offered to the view, and the frame takes the
    /// view's size clamped toward the proposal.
    public func frame(minWidth: CGFloat? = nil, idealWidth: CGFloat? = nil, maxWidth: CGFloat? = nil,
                      minHeight: CGFloat? = nil, idealHeight: CGFloat? = nil, maxHeight: CGFloat? = nil,
                      alignment: Alignment = .center) -> some View {
        layoutModifier { child, _ in
            FlexibleFrameNode(minWidth: minWidth, idealWidth: idealWidth, maxWidth: maxWidth, minHeight: minHeight,
                              idealHeight: idealHeight, maxHeight: maxHeight, alignment: alignment, child: child)
        }
    }

    /// The view at its ideal size on both axes, whatever it is offered.
    public func fixedSize() -> some View { fixedSize(horizontal: true, vertical: true) }

    public func fixedSize(horizontal: Bool, vertical: Bool) -> some View {
        layoutModifier { child, _ in FixedSizeNode(horizontal: horizontal, vertical: vertical, child: child) }
    }

    /// Stacks offer space to views of higher priority first.
    public func layoutPriority(_ value: Double) -> some View {
        layoutModifier { child, _ in
            child.priority = value
            return child
        }
    }

    public func aspectRatio(_ aspectRatio: CGFloat? = nil, contentMode: ContentMode) -> some View {
        layoutModifier { child, _ in AspectRatioNode(ratio: aspectRatio, fill: contentMode == .fill, child: child) }
    }

    public func aspectRatio(_ aspectRatio: CGSize, contentMode: ContentMode) -> some View {
        let ratio = aspectRatio.height > 0 ? aspectRatio.width / aspectRatio.height : 1
        return self.aspectRatio(ratio, contentMode: contentMode)
    }

    public func scaledToFit() -> some View { aspectRatio(nil, contentMode: .fit) }
    public func scaledToFill() -> some View { aspectRatio(nil, contentMode: .fill) }

    /// Moves the drawing, not the layout.
    public func offset(_ offset: CGSize) -> some View {
        layoutModifier { child, _ in EffectNode(.offset(offset), child: child) }
    }

    public func offset(x: CGFloat = 0, y: CGFloat = 0) -> some View { offset(CGSize(width: x, height: y)) }

    /// A widget has no safe area to leave: its content is placed by the content margins instead.
    public func ignoresSafeArea(_ regions: SafeAreaRegions = .all, edges: Edge.Set = .all) -> some View { self }

    public func edgesIgnoringSafeArea(_ edges: Edge.Set) -> some View { self }

    /// A widget is drawn once from its entry and runs none of its code afterwards, on a device as here: the
    /// publisher is not subscribed and the action never runs.
    public func onReceive<P: Publisher>(_ publisher: P, perform action: @escaping (P.Output) -> Void) -> some View where P.Failure == Never {
        self
    }

    /// Draws the view scaled about an anchor; its layout is unchanged.
    public func scaleEffect(_ s: CGFloat, anchor: UnitPoint = .center) -> some View {
        scaleEffect(CGSize(width: s, height: s), anchor: anchor)
    }

    public func scaleEffect(_ scale: CGSize, anchor: UnitPoint = .center) -> some View {
        layoutModifier { child, _ in EffectNode(.scale(scale, anchor), child: child) }
    }

    public func scaleEffect(x: CGFloat = 1, y: CGFloat = 1, anchor: UnitPoint = .center) -> some View {
        scaleEffect(CGSize(width: x, height: y), anchor: anchor)
    }

    /// Draws the view rotated about an anchor; its layout is unchanged.
    public func rotationEffect(_ angle: Angle, anchor: UnitPoint = .center) -> some View {
        layoutModifier { child, _ in EffectNode(.rotation(angle, anchor), child: child) }
    }

    /// A still picture takes no touches: nothing to change.
    public func allowsHitTesting(_ enabled: Bool) -> some View { self }

    /// The order views of a ZStack are drawn in (higher in front); layout is unchanged.
    public func zIndex(_ value: Double) -> some View {
        layoutModifier { child, _ in
            child.zIndex = value
            return child
        }
    }

    /// Keeps the view's space but draws nothing.
    public func hidden() -> some View {
        layoutModifier { child, _ in EffectNode(.opacity(0), child: child) }
    }
}

/// How a view fills a space of another aspect ratio.
public enum ContentMode: Hashable, CaseIterable, Sendable {
    case fit
    case fill
}

/// The kinds of safe area (`ignoresSafeArea`).
public struct SafeAreaRegions: OptionSet, Sendable {
    public let rawValue: UInt
    public init(rawValue: UInt) { self.rawValue = rawValue }
    public static let container = SafeAreaRegions(rawValue: 1)
    public static let keyboard = SafeAreaRegions(rawValue: 2)
    public static let all: SafeAreaRegions = [.container, .keyboard]
}

// MARK: - background and overlay

/// A view drawn behind or in front of another, sized by it.
nonisolated struct _LayeredView<Content: View, Layer: View>: View, PrimitiveView {
    @MainActor public static func _resolve(_ view: Self, _ inputs: _ResolveInputs) -> _ResolvedNodes { _ResolvedNodes(nodes: view.nodes(inputs.context)) }
    typealias Body = Never
    let content: Content
    let layer: Layer
    let alignment: Alignment
    let behind: Bool

    @MainActor func nodes(_ context: ResolveContext) -> [Node] {
        resolve(content, context).map { base in
            let node = LayeredNode(base: base, layer: resolveOne(layer, context), alignment: alignment, behind: behind)
            node.priority = base.priority
            return node
        }
    }
}

/// A style filling a shape, as a view (`background(_:in:)`, `overlay(_:in:)`, `containerBackground(_:for:)`).
nonisolated struct _StyledShape<S: Shape>: View, PrimitiveView {
    @MainActor public static func _resolve(_ view: Self, _ inputs: _ResolveInputs) -> _ResolvedNodes { _ResolvedNodes(nodes: view.nodes(inputs.context)) }
    typealias Body = Never
    let style: AnyShapeStyle
    let shape: S

    @MainActor func nodes(_ context: ResolveContext) -> [Node] {
        [withStyleEffects(ShapeNode(shape: shape, fill: resolvePaint(style, context.environment), stroke: nil, inset: false,
                                    containerRadius: context.environment.containerCornerRadius), style, context.environment)]
    }
}

/// iOS's `systemBackground` (what `background()` with no arguments draws).
struct _SystemBackground: ShapeStyle {}

nonisolated extension View {
    @_disfavoredOverload
    public func background<V: View>(_ background: V, alignment: Alignment = .center) -> some View {
        _LayeredView(content: self, layer: background, alignment: alignment, behind: true)
    }

    public func background<V: View>(alignment: Alignment = .center, @ViewBuilder content: () -> V) -> some View {
        _LayeredView(content: self, layer: content(), alignment: alignment, behind: true)
    }

    public func background<S: ShapeStyle>(_ style: S, ignoresSafeAreaEdges edges: Edge.Set = .all) -> some View {
        _LayeredView(content: self, layer: _StyledShape(style: AnyShapeStyle(style), shape: Rectangle()), alignment: .center, behind: true)
    }

    public func background(ignoresSafeAreaEdges edges: Edge.Set = .all) -> some View {
        background(_SystemBackground(), ignoresSafeAreaEdges: edges)
    }

    public func background<S: ShapeStyle, T: Shape>(_ style: S, in shape: T, fillStyle: FillStyle = FillStyle()) -> some View {
        _LayeredView(content: self, layer: _StyledShape(style: AnyShapeStyle(style), shape: shape), alignment: .center, behind: true)
    }

    public func background<T: Shape>(in shape: T, fillStyle: FillStyle = FillStyle()) -> some View {
        background(_SystemBackground(), in: shape, fillStyle: fillStyle)
    }

    @_disfavoredOverload
    public func overlay<V: View>(_ overlay: V, alignment: Alignment = .center) -> some View {
        _LayeredView(content: self, layer: overlay, alignment: alignment, behind: false)
    }

    public func overlay<V: View>(alignment: Alignment = .center, @ViewBuilder content: () -> V) -> some View {
        _LayeredView(content: self, layer: content(), alignment: alignment, behind: false)
    }

    public func overlay<S: ShapeStyle>(_ style: S, ignoresSafeAreaEdges edges: Edge.Set = .all) -> some View {
        _LayeredView(content: self, layer: _StyledShape(style: AnyShapeStyle(style), shape: Rectangle()), alignment: .center, behind: false)
    }

    public func overlay<S: ShapeStyle, T: Shape>(_ style: S, in shape: T, fillStyle: FillStyle = FillStyle()) -> some View {
        _LayeredView(content: self, layer: _StyledShape(style: AnyShapeStyle(style), shape: shape), alignment: .center, behind: false)
    }
}

// MARK: - drawing

nonisolated extension View {
    public func opacity(_ opacity: Double) -> some View {
        layoutModifier { child, _ in EffectNode(.opacity(min(1, max(0, opacity))), child: child) }
    }

    public func clipShape<S: Shape>(_ shape: S, style: FillStyle = FillStyle()) -> some View {
        layoutModifier { child, context in
            if shape is ContainerRelativeShape {
                return EffectNode(.clip(RoundedRectangle(cornerRadius: context.environment.containerCornerRadius)), child: child)
            }
            return EffectNode(.clip(shape), child: child)
        }
    }

    public func clipped(antialiased: Bool = false) -> some View { clipShape(Rectangle()) }

    public func cornerRadius(_ radius: CGFloat, antialiased: Bool = true) -> some View {
        clipShape(RoundedRectangle(cornerRadius: radius, style: .circular))
    }

    public func shadow(color: Color = Color(.sRGBLinear, white: 0, opacity: 0.33), radius: CGFloat, x: CGFloat = 0, y: CGFloat = 0) -> some View {
        layoutModifier { child, context in
            EffectNode(.shadow(Drawing.Shadow(color: color.resolve(context.environment), radius: radius, x: x, y: y)), child: child)
        }
    }

    /// Redacted views draw their text as bars when the environment's reasons include `.invalidated`.
    public func invalidatableContent(_ invalidatable: Bool = true) -> some View {
        layoutModifier { child, context in
            invalidatable && context.environment.redactionReasons.contains(.invalidated) ? EffectNode(.opacity(0.5), child: child) : child
        }
    }
}

// MARK: - text and color

nonisolated extension View {
    public func font(_ font: Font?) -> some View {
        environmentModifier { $0.font = font }
    }

    /// The weight of all text in the view (over each text's own font).
    public func fontWeight(_ weight: Font.Weight?) -> some View {
        environmentModifier { $0.textTraits.weight = weight }
    }

    public func bold(_ isActive: Bool = true) -> some View {
        environmentModifier { if isActive { $0.textTraits.weight = .bold } }
    }

    public func italic(_ isActive: Bool = true) -> some View {
        environmentModifier { if isActive { $0.textTraits.italic = true } }
    }

    public func monospacedDigit() -> some View {
        environmentModifier { $0.textTraits.monospacedDigit = true }
    }

    public func monospaced(_ isActive: Bool = true) -> some View {
        environmentModifier { if isActive { $0.textTraits.monospaced = true } }
    }

    public func fontDesign(_ design: Font.Design?) -> some View {
        environmentModifier { $0.textTraits.monospaced = design == .monospaced }
    }

    public func foregroundColor(_ color: Color?) -> some View {
        environmentModifier { $0.foregroundStyleValue = color.map { AnyShapeStyle($0) } }
    }

    public func foregroundStyle<S: ShapeStyle>(_ style: S) -> some View {
        environmentModifier { env in
            // A hierarchical level is resolved against the foreground the view already has.
            if style is HierarchicalShapeStyle || style is _OpacityShapeStyle {
                let paint = resolvePaint(style, env)
                env.foregroundStyleValue = AnyShapeStyle(_ResolvedStyle(paint: paint))
            } else {
                env.foregroundStyleValue = AnyShapeStyle(style)
            }
            env.foregroundHierarchy = []
        }
    }

    public func foregroundStyle<S1: ShapeStyle, S2: ShapeStyle>(_ primary: S1, _ secondary: S2) -> some View {
        environmentModifier { env in
            env.foregroundStyleValue = AnyShapeStyle(primary)
            env.foregroundHierarchy = [AnyShapeStyle(primary), AnyShapeStyle(secondary)]
        }
    }

    public func foregroundStyle<S1: ShapeStyle, S2: ShapeStyle, S3: ShapeStyle>(_ primary: S1, _ secondary: S2, _ tertiary: S3) -> some View {
        environmentModifier { env in
            env.foregroundStyleValue = AnyShapeStyle(primary)
            env.foregroundHierarchy = [AnyShapeStyle(primary), AnyShapeStyle(secondary), AnyShapeStyle(tertiary)]
        }
    }

    /// The tint controls, gauges and progress views use (and the accent color).
    public func tint(_ tint: Color?) -> some View {
        environmentModifier { $0.tintColor = tint }
    }

    public func lineLimit(_ number: Int?) -> some View {
        environmentModifier { $0.lineLimit = number }
    }

    /// At most `upperBound` lines, and at least `lowerBound` lines tall.
    public func lineLimit(_ limit: ClosedRange<Int>) -> some View {
        environmentModifier {
            $0.lineLimit = limit.upperBound
            $0.reservedLines = limit.lowerBound
        }
    }

    public func lineLimit(_ limit: PartialRangeFrom<Int>) -> some View {
        environmentModifier {
            $0.lineLimit = nil
            $0.reservedLines = limit.lowerBound
        }
    }

    public func lineLimit(_ limit: PartialRangeThrough<Int>) -> some View {
        environmentModifier {
            $0.lineLimit = limit.upperBound
            $0.reservedLines = nil
        }
    }

    /// At most `limit` lines; with `reservesSpace`, as tall as `limit` lines however few the text needs.
    public func lineLimit(_ limit: Int, reservesSpace: Bool) -> some View {
        environmentModifier {
            $0.lineLimit = limit
            $0.reservedLines = reservesSpace ? limit : nil
        }
    }

    public func minimumScaleFactor(_ factor: CGFloat) -> some View {
        environmentModifier { $0.minimumScaleFactor = factor }
    }

    public func multilineTextAlignment(_ alignment: TextAlignment) -> some View {
        environmentModifier { $0.multilineTextAlignment = alignment }
    }

    public func truncationMode(_ mode: Text.TruncationMode) -> some View {
        environmentModifier { $0.truncationMode = mode }
    }

    /// Extra space between the lines of multiline text.
    public func lineSpacing(_ lineSpacing: CGFloat) -> some View {
        environmentModifier { $0.lineSpacing = lineSpacing }
    }

    public func textCase(_ textCase: Text.Case?) -> some View {
        environmentModifier { $0.textCase = textCase }
    }

    /// Lockstep draws text without tightening its letter spacing; truncation still applies.
    public func allowsTightening(_ flag: Bool) -> some View { self }
}

/// A paint already resolved against the environment it was set in (hierarchical foreground levels).
struct _ResolvedStyle: ShapeStyle, @unchecked Sendable {  // @unchecked: Paint is plain value data.
    let paint: Paint
}

struct TextTraits {
    var weight: Font.Weight?
    var italic = false
    var monospacedDigit = false
    var monospaced = false
}

// MARK: - controls

extension View {
    /// Disabled controls draw dimmed.
    public func disabled(_ disabled: Bool) -> some View {
        environmentModifier { if disabled { $0.isEnabled = false } }
    }

    /// How SF Symbols color their layers; the placeholder glyph has one layer, drawn in the foreground style.
    public func symbolRenderingMode(_ mode: SymbolRenderingMode?) -> some View { self }
}

/// How an SF Symbol's layers are colored.
public struct SymbolRenderingMode: Sendable {
    let name: String
    public static let monochrome = SymbolRenderingMode(name: "monochrome")
    public static let hierarchical = SymbolRenderingMode(name: "hierarchical")
    public static let palette = SymbolRenderingMode(name: "palette")
    public static let multicolor = SymbolRenderingMode(name: "multicolor")
}

// MARK: - widgets

nonisolated extension View {
    /// The URL the app opens with when the widget (outside its links and buttons) is tapped.
    public func widgetURL(_ url: URL?) -> some View {
        _FindingModifier(content: self) { context in
            if context.found.widgetURL == nil { context.found.widgetURL = url }
        }
    }

    /// The container's background (a widget's, with `for: .widget`): drawn full-bleed behind the content margins,
    /// and removed where the system removes it (StandBy, accented rendering).
    public func containerBackground<S: ShapeStyle>(_ style: S, for container: ContainerBackgroundPlacement) -> some View {
        _ContainerBackground(content: self, background: _StyledShape(style: AnyShapeStyle(style), shape: Rectangle()),
                             alignment: .center, placement: container)
    }

    public func containerBackground<V: View>(for container: ContainerBackgroundPlacement, alignment: Alignment = .center,
                                             @ViewBuilder content: () -> V) -> some View {
        _ContainerBackground(content: self, background: content(), alignment: alignment, placement: container)
    }

    /// Puts the view in the accent group: in accented rendering it is drawn in the tint, the rest in white.
    public func widgetAccentable(_ accentable: Bool = true) -> some View {
        environmentModifier { $0.isWidgetAccentable = accentable }
    }

    /// Hidden (redacted) when the system shows the widget in a privacy-sensitive context.
    public func privacySensitive(_ sensitive: Bool = true) -> some View {
        environmentModifier { $0.isPrivacySensitive = sensitive }
    }

    /// Draws the view as a placeholder: texts become rounded bars, images gray.
    public func redacted(reason: RedactionReasons) -> some View {
        environmentModifier { $0.redactionReasons.formUnion(reason) }
    }

    /// Draws the view as it is inside a redacted one.
    public func unredacted() -> some View {
        environmentModifier { $0.isUnredacted = true }
    }
}

/// Records the container background for its placement and shows the content unchanged.
nonisolated struct _ContainerBackground<Content: View, Background: View>: View, PrimitiveView {
    @MainActor public static func _resolve(_ view: Self, _ inputs: _ResolveInputs) -> _ResolvedNodes { _ResolvedNodes(nodes: view.nodes(inputs.context)) }
    typealias Body = Never
    let content: Content
    let background: Background
    let alignment: Alignment
    let placement: ContainerBackgroundPlacement

    @MainActor func nodes(_ context: ResolveContext) -> [Node] {
        if context.found.containerBackgrounds[placement.name] == nil {
            let layer = resolveOne(background, context)
            // Full-bleed: the background is offered the container's whole size and aligned in it.
            context.found.containerBackgrounds[placement.name] = FlexibleFrameNode(
                minWidth: nil, idealWidth: nil, maxWidth: .infinity, minHeight: nil, idealHeight: nil, maxHeight: .infinity,
                alignment: alignment, child: layer)
        }
        return resolve(content, context)
    }
}

// MARK: - identity, animation, accessibility: nothing to draw in a still picture

nonisolated extension View {
    /// Identity across updates (animations between timeline entries): a still picture has one state.
    public func id<ID: Hashable>(_ id: ID) -> some View { self }

    /// How text changes animate between timeline entries: a still picture shows the final state.
    public func contentTransition(_ transition: ContentTransition) -> some View { self }

    public func transition(_ t: AnyTransition) -> some View { self }

    public func animation<V: Equatable>(_ animation: Animation?, value: V) -> some View { self }

    public func accessibilityLabel(_ label: Text) -> some View { self }
    public func accessibilityLabel(_ labelKey: LocalizedStringKey) -> some View { self }
    @_disfavoredOverload
    public func accessibilityLabel<S: StringProtocol>(_ label: S) -> some View { self }
    public func accessibilityHidden(_ hidden: Bool) -> some View { self }
    public func accessibilityValue(_ valueDescription: Text) -> some View { self }
    public func accessibilityHint(_ hint: Text) -> some View { self }
    public func accessibilityElement(children: AccessibilityChildBehavior = .ignore) -> some View { self }
    public func accessibilityAddTraits(_ traits: AccessibilityTraits) -> some View { self }
}

public struct ContentTransition: Sendable {
    let name: String
    public static let identity = ContentTransition(name: "identity")
    public static let opacity = ContentTransition(name: "opacity")
    public static let interpolate = ContentTransition(name: "interpolate")
    public static func numericText(countsDown: Bool = false) -> ContentTransition { ContentTransition(name: "numericText") }
    public static func numericText(value: Double) -> ContentTransition { ContentTransition(name: "numericText") }
}

public struct AnyTransition: Sendable {
    let name: String
    public static let identity = AnyTransition(name: "identity")
    public static let opacity = AnyTransition(name: "opacity")
    public static let scale = AnyTransition(name: "scale")
    public static let slide = AnyTransition(name: "slide")
    public static func move(edge: Edge) -> AnyTransition { AnyTransition(name: "move") }
    public static func push(from edge: Edge) -> AnyTransition { AnyTransition(name: "push") }
}

public struct Animation: Equatable, Sendable {
    let name: String
    public static let `default` = Animation(name: "default")
    public static let linear = Animation(name: "linear")
    public static let easeIn = Animation(name: "easeIn")
    public static let easeOut = Animation(name: "easeOut")
    public static let easeInOut = Animation(name: "easeInOut")
    public static let spring = Animation(name: "spring")
    public static func linear(duration: Double) -> Animation { Animation(name: "linear") }
    public static func easeInOut(duration: Double) -> Animation { Animation(name: "easeInOut") }
    public static func spring(response: Double = 0.5, dampingFraction: Double = 0.825, blendDuration: Double = 0) -> Animation { Animation(name: "spring") }
    public static let smooth = Animation(name: "smooth")
    public static let snappy = Animation(name: "snappy")
    public static let bouncy = Animation(name: "bouncy")
    public static func smooth(duration: Double = 0.5, extraBounce: Double = 0) -> Animation { Animation(name: "smooth") }
    public static func snappy(duration: Double = 0.5, extraBounce: Double = 0) -> Animation { Animation(name: "snappy") }
    public static func bouncy(duration: Double = 0.5, extraBounce: Double = 0) -> Animation { Animation(name: "bouncy") }
    public static func easeIn(duration: Double) -> Animation { Animation(name: "easeIn") }
    public static func easeOut(duration: Double) -> Animation { Animation(name: "easeOut") }
    public static func spring(duration: Double = 0.5, bounce: Double = 0, blendDuration: Double = 0) -> Animation { Animation(name: "spring") }
    public static func interactiveSpring(response: Double = 0.15, dampingFraction: Double = 0.86, blendDuration: Double = 0.25) -> Animation {
        Animation(name: "spring")
    }
    public static func interpolatingSpring(stiffness: Double, damping: Double, initialVelocity: Double = 0) -> Animation { Animation(name: "spring") }
    public func delay(_ delay: Double) -> Animation { self }
    public func speed(_ speed: Double) -> Animation { self }
    public func repeatCount(_ count: Int, autoreverses: Bool = true) -> Animation { self }
    public func repeatForever(autoreverses: Bool = true) -> Animation { self }
}

/// Runs `body` (the state change); a still picture draws its result, without the frames in between.
public func withAnimation<Result>(_ animation: Animation? = .default, _ body: () throws -> Result) rethrows -> Result {
    try body()
}

public struct AccessibilityChildBehavior: Sendable {
    let name: String
    public static let ignore = AccessibilityChildBehavior(name: "ignore")
    public static let contain = AccessibilityChildBehavior(name: "contain")
    public static let combine = AccessibilityChildBehavior(name: "combine")
}

public struct AccessibilityTraits: OptionSet, Sendable {
    public let rawValue: UInt
    public init(rawValue: UInt) { self.rawValue = rawValue }
    public static let isButton = AccessibilityTraits(rawValue: 1)
    public static let isHeader = AccessibilityTraits(rawValue: 2)
    public static let isStaticText = AccessibilityTraits(rawValue: 4)
    public static let isImage = AccessibilityTraits(rawValue: 8)
}
