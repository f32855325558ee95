// Styles, environment values and modifiers real widgets use that change what is drawn but not how SwiftUI lays the
// view out: the background style and materials, symbol variants, hidden labels, reduced luminance, compositing
// groups, transition forms.

/// The background style (`.background`): the system background, white in light appearance, black in dark —
/// what `.containerBackground(.background, for: .widget)` fills the widget with.
public struct BackgroundStyle: ShapeStyle, Hashable {
    public init() {}
}

extension ShapeStyle where Self == BackgroundStyle {
    public static var background: BackgroundStyle { BackgroundStyle() }
}

/// A material (`.regularMaterial` …): on a device a blur of what lies behind, tinted. An SVG cannot blur the
/// picture behind it, so Lockstep draws the tint alone: the system background at the material's opacity (thinner is
/// more transparent).
public struct Material: ShapeStyle, Hashable {
    let opacity: Double
    public static let ultraThinMaterial = Material(opacity: 0.35)
    public static let thinMaterial = Material(opacity: 0.5)
    public static let regularMaterial = Material(opacity: 0.65)
    public static let thickMaterial = Material(opacity: 0.8)
    public static let ultraThickMaterial = Material(opacity: 0.9)
    /// The material of bars (toolbars, tab bars).
    public static let bar = Material(opacity: 0.8)
    public static let ultraThin = ultraThinMaterial
    public static let thin = thinMaterial
    public static let regular = regularMaterial
    public static let thick = thickMaterial
    public static let ultraThick = ultraThickMaterial
}

private struct BackgroundMaterialKey: EnvironmentKey {
    static let defaultValue: Material? = nil
}

extension EnvironmentValues {
    /// The material the view is drawn over, which on a device makes its hierarchical styles vibrant over the blur;
    /// kept here, and the styles drawn as they are (an SVG has no blur to blend with).
    public var backgroundMaterial: Material? {
        get { self[BackgroundMaterialKey.self] }
        set { self[BackgroundMaterialKey.self] = newValue }
    }
}

extension ShapeStyle where Self == Material {
    public static var ultraThinMaterial: Material { .ultraThinMaterial }
    public static var thinMaterial: Material { .thinMaterial }
    public static var regularMaterial: Material { .regularMaterial }
    public static var thickMaterial: Material { .thickMaterial }
    public static var ultraThickMaterial: Material { .ultraThickMaterial }
    public static var bar: Material { .bar }
}

extension Material {
    func resolve(_ env: EnvironmentValues) -> RGBA {
        env.colorScheme == .dark ? RGBA(0.11, 0.11, 0.12, opacity) : RGBA(0.98, 0.98, 0.98, opacity)
    }
}

/// The horizontal edges (`HorizontalEdge.leading`), as a set too.
public enum HorizontalEdge: Int8, CaseIterable, Hashable, Sendable {
    case leading, trailing

    public struct Set: OptionSet, Hashable, Sendable {
        public let rawValue: Int8
        public init(rawValue: Int8) { self.rawValue = rawValue }
        public init(_ edge: HorizontalEdge) { self.init(rawValue: 1 << edge.rawValue) }
        public static let leading = Set(.leading)
        public static let trailing = Set(.trailing)
        public static let all: Set = [.leading, .trailing]
    }
}

/// The variants of an SF Symbol (`.fill`, `.circle`, `.slash` …): `symbolVariant(.fill)` draws `heart` as
/// `heart.fill`, the name SF Symbols gives that variant (shapes first, then fill, then slash, as Apple composes
/// `person.crop.circle.fill`).
public struct SymbolVariants: Hashable, Sendable {
    var shape: String?
    var filled = false
    var slashed = false

    public static let none = SymbolVariants()
    public static let circle = SymbolVariants(shape: "circle")
    public static let square = SymbolVariants(shape: "square")
    public static let rectangle = SymbolVariants(shape: "rectangle")
    public static let fill = SymbolVariants(filled: true)
    public static let slash = SymbolVariants(slashed: true)

    public var circle: SymbolVariants { var v = self; v.shape = "circle"; return v }
    public var square: SymbolVariants { var v = self; v.shape = "square"; return v }
    public var rectangle: SymbolVariants { var v = self; v.shape = "rectangle"; return v }
    public var fill: SymbolVariants { var v = self; v.filled = true; return v }
    public var slash: SymbolVariants { var v = self; v.slashed = true; return v }

    public func contains(_ other: SymbolVariants) -> Bool {
        (other.shape == nil || other.shape == shape) && (!other.filled || filled) && (!other.slashed || slashed)
    }

    /// `name` with the variants' suffixes it does not already have.
    func applied(to name: String) -> String {
        var parts = name.split(separator: ".").map(String.init)
        if let shape, !parts.contains(shape) { parts.append(shape) }
        if filled, !parts.contains("fill") { parts.append("fill") }
        if slashed, !parts.contains("slash") { parts.insert("slash", at: parts.firstIndex(of: "fill") ?? parts.endIndex) }
        return parts.joined(separator: ".")
    }
}

private struct SymbolVariantsKey: EnvironmentKey { static let defaultValue = SymbolVariants.none }
private struct LabelsHiddenKey: EnvironmentKey { static let defaultValue = false }
private struct LuminanceReducedKey: EnvironmentKey { static let defaultValue = false }

extension EnvironmentValues {
    /// The symbol variants `symbolVariant(_:)` set.
    public var symbolVariants: SymbolVariants {
        get { self[SymbolVariantsKey.self] }
        set { self[SymbolVariantsKey.self] = newValue }
    }

    /// Whether the display is dimmed (Always-On): false in every rendering Lockstep makes, as on an awake device.
    public var isLuminanceReduced: Bool {
        get { self[LuminanceReducedKey.self] }
        set { self[LuminanceReducedKey.self] = newValue }
    }

    /// Whether controls hide their labels (`labelsHidden()`).
    var labelsHidden: Bool {
        get { self[LabelsHiddenKey.self] }
        set { self[LabelsHiddenKey.self] = newValue }
    }
}

nonisolated extension View {
    /// Draws the SF Symbols inside with the variant: `Image(systemName: "heart").symbolVariant(.fill)` is
    /// `heart.fill`.
    public func symbolVariant(_ variant: SymbolVariants) -> some View {
        environmentModifier { environment in
            var combined = environment.symbolVariants
            if let shape = variant.shape { combined.shape = shape }
            combined.filled = combined.filled || variant.filled
            combined.slashed = combined.slashed || variant.slashed
            environment.symbolVariants = combined
        }
    }

    /// Hides the labels of the controls inside (a toggle's, a gauge's): the control alone takes the room.
    public func labelsHidden() -> some View {
        environmentModifier { $0.labelsHidden = true }
    }

    /// Composites the view's layers into one before the modifiers after it (an opacity, a blend) apply: one SVG
    /// group, so `.opacity` fades the whole rather than each overlapping part.
    public func compositingGroup() -> some View {
        layoutModifier { child, _ in EffectNode(.opacity(1), child: child) }
    }
}

extension AnyTransition {
    // A transition animates a view's insertion and removal; a picture shows the view inserted, so every form draws
    // the view as it is, as SwiftUI does once the transition has run.
    public static func offset(_ offset: CGSize) -> AnyTransition { AnyTransition(name: "offset") }
    public static func offset(x: CGFloat = 0, y: CGFloat = 0) -> AnyTransition { AnyTransition(name: "offset") }
    public static func scale(scale: CGFloat, anchor: UnitPoint = .center) -> AnyTransition { AnyTransition(name: "scale") }
    public static func asymmetric(insertion: AnyTransition, removal: AnyTransition) -> AnyTransition {
        AnyTransition(name: "asymmetric(\(insertion.name), \(removal.name))")
    }
    public func combined(with other: AnyTransition) -> AnyTransition { AnyTransition(name: "\(name)+\(other.name)") }
}

// A gradient is a style of its own (`.tint(Gradient(colors: [.green, .red]))`), drawn from top to bottom where a
// shape is filled with it, and along the bar or ring of a gauge it tints.
extension Gradient: ShapeStyle {}

private struct TintGradientKey: EnvironmentKey { static let defaultValue: Gradient? = nil }

extension EnvironmentValues {
    /// `tint(_:)` with a gradient: what gauges draw their value in.
    var tintGradient: Gradient? {
        get { self[TintGradientKey.self] }
        set { self[TintGradientKey.self] = newValue }
    }
}

nonisolated extension View {
    /// The tint as any style: a color tints as `tint(_: Color?)` does; a gradient tints gauges along their value
    /// (controls take its first color).
    @_disfavoredOverload
    public func tint<S: ShapeStyle>(_ tint: S?) -> some View {
        environmentModifier { environment in
            switch tint {
            case let color as Color: environment.tintColor = color; environment.tintGradient = nil
            case let gradient as Gradient: environment.tintColor = gradient.stops.first?.color; environment.tintGradient = gradient
            case let any as AnyShapeStyle:
                environment.tintColor = any.style as? Color
                environment.tintGradient = any.style as? Gradient
            default: break
            }
        }
    }
}
