/// UIKit's `separator` color as a style (`.separator`): 3C3C43 at 29 % (light), 545458 at 60 % (dark).
public struct SeparatorShapeStyle: ShapeStyle {
    public init() {}
    static func color(dark: Bool) -> RGBA { dark ? RGBA(hex: 0x545458, alpha: 0.6) : RGBA(hex: 0x3C3C43, alpha: 0.29) }
}

extension ShapeStyle where Self == SeparatorShapeStyle {
    public static var separator: SeparatorShapeStyle { SeparatorShapeStyle() }
}

/// How a drawing combines with what is under it.
public enum BlendMode: Hashable, Sendable {
    case normal, multiply, screen, overlay, darken, lighten, colorDodge, colorBurn, softLight, hardLight, difference, exclusion,
         hue, saturation, color, luminosity, sourceAtop, destinationOver, destinationOut, plusDarker, plusLighter

    /// CSS's `mix-blend-mode` for the mode, which SVG draws; nil for Core Graphics' compositing operators (source
    /// atop, destination over and out), which a blend mode cannot say: those are drawn as `normal`.
    var css: String? {
        switch self {
        case .normal: return nil
        case .multiply: return "multiply"
        case .screen: return "screen"
        case .overlay: return "overlay"
        case .darken: return "darken"
        case .lighten: return "lighten"
        case .colorDodge: return "color-dodge"
        case .colorBurn: return "color-burn"
        case .softLight: return "soft-light"
        case .hardLight: return "hard-light"
        case .difference: return "difference"
        case .exclusion: return "exclusion"
        case .hue: return "hue"
        case .saturation: return "saturation"
        case .color: return "color"
        case .luminosity: return "luminosity"
        case .plusDarker: return "plus-darker"
        case .plusLighter: return "plus-lighter"
        case .sourceAtop, .destinationOver, .destinationOut: return nil
        }
    }
}

/// What a style adds to its base style: a blend mode or a shadow (`.blendMode(_:)`, `.shadow(_:)`).
enum StyleEffect: Hashable, Sendable {
    case blend(BlendMode)
    case shadow(ShadowStyle)
}

/// A style with a blend mode or shadow: filled as its base style, inside a group that blends or casts the shadow.
struct _EffectShapeStyle: ShapeStyle {
    let base: AnyShapeStyle
    let effect: StyleEffect
}

extension ShapeStyle {
    public func blendMode(_ mode: BlendMode) -> some ShapeStyle { _EffectShapeStyle(base: AnyShapeStyle(self), effect: .blend(mode)) }
    public func shadow(_ style: ShadowStyle) -> some ShapeStyle { _EffectShapeStyle(base: AnyShapeStyle(self), effect: .shadow(style)) }
}

/// A style's shadow (`.drop(color:radius:x:y:)`, `.inner(…)`): outside the shape, or inside its edges.
public struct ShadowStyle: Hashable, Sendable {
    let inner: Bool
    let color: Color
    let radius: CGFloat
    let x: CGFloat
    let y: CGFloat
    public static func drop(color: Color = Color(.sRGBLinear, white: 0, opacity: 0.33), radius: CGFloat, x: CGFloat = 0, y: CGFloat = 0) -> ShadowStyle {
        ShadowStyle(inner: false, color: color, radius: radius, x: x, y: y)
    }
    public static func inner(color: Color = Color(.sRGBLinear, white: 0, opacity: 0.55), radius: CGFloat, x: CGFloat = 0, y: CGFloat = 0) -> ShadowStyle {
        ShadowStyle(inner: true, color: color, radius: radius, x: x, y: y)
    }
}

/// The effects `style` carries, innermost first (`.red.shadow(a).blendMode(b)`: the shadow, then the blend), looked
/// for through the wrappers that keep them (a type-erased style, an opacity, the foreground style, a team's own
/// `resolve(in:)`).
func styleEffects(_ style: any ShapeStyle, _ env: EnvironmentValues) -> [StyleEffect] {
    switch style {
    case let effect as _EffectShapeStyle: return styleEffects(effect.base, env) + [effect.effect]
    case let any as AnyShapeStyle: return styleEffects(any.style, env)
    case let o as _OpacityShapeStyle: return styleEffects(o.base, env)
    case is ForegroundStyle:
        guard let foreground = env.foregroundStyleValue else { return [] }
        var outer = env
        outer.foregroundStyleValue = nil
        return styleEffects(foreground, outer)
    default:
        return customResolution(style, env).map { styleEffects($0, env) } ?? []
    }
}

/// Wraps `node` in a group per effect of `style` (none: the node itself).
func withStyleEffects(_ node: Node, _ style: (any ShapeStyle)?, _ env: EnvironmentValues) -> Node {
    guard let style else { return node }
    return styleEffects(style, env).reduce(node) { child, effect in
        switch effect {
        case let .blend(mode):
            guard let css = mode.css else { return child }
            return EffectNode(.blend(css), child: child)
        case let .shadow(shadow):
            let color = env.grouped(.color(shadow.color.resolve(env))).firstColor
            let drawn = Drawing.Shadow(color: color, radius: shadow.radius, x: shadow.x, y: shadow.y)
            return EffectNode(shadow.inner ? .innerShadow(drawn) : .shadow(drawn), child: child)
        }
    }
}
