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
}

/// A style with a blend mode or shadow: drawn as its base style. The SVG draws a style's fill without blending it
/// with what lies under it or casting its shadow (a documented limit; the view's own `shadow` is drawn).
struct _EffectShapeStyle: ShapeStyle {
    let base: AnyShapeStyle
}

extension ShapeStyle {
    public func blendMode(_ mode: BlendMode) -> some ShapeStyle { _EffectShapeStyle(base: AnyShapeStyle(self)) }
    public func shadow(_ style: ShadowStyle) -> some ShapeStyle { _EffectShapeStyle(base: AnyShapeStyle(self)) }
}

/// A style's shadow (`.drop(color:radius:x:y:)`, `.inner(…)`).
public struct ShadowStyle: Hashable, Sendable {
    let radius: CGFloat
    public static func drop(color: Color = Color(.sRGBLinear, white: 0, opacity: 0.33), radius: CGFloat, x: CGFloat = 0, y: CGFloat = 0) -> ShadowStyle {
        ShadowStyle(radius: radius)
    }
    public static func inner(color: Color = Color(.sRGBLinear, white: 0, opacity: 0.55), radius: CGFloat, x: CGFloat = 0, y: CGFloat = 0) -> ShadowStyle {
        ShadowStyle(radius: radius)
    }
}
