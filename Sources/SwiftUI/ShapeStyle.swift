/// Something a shape or text is filled with: a color, a hierarchical level of the foreground, a gradient.
public protocol ShapeStyle: Sendable {
    /// iOS 17's custom styles: a style of the team's own resolves to another in the environment it is drawn in.
    associatedtype Resolved: ShapeStyle = Never
    func resolve(in environment: EnvironmentValues) -> Resolved
}

extension ShapeStyle where Resolved == Never {
    /// Lockstep's own styles are resolved by the renderer (`resolvePaint`), not through this.
    public func resolve(in environment: EnvironmentValues) -> Never { fatalError("\(Self.self) is resolved by the renderer") }
}

extension Never: ShapeStyle {}

extension Color: ShapeStyle {}

/// The foreground's levels (`.primary`, `.secondary` …): the current foreground style at decreasing prominence.
public struct HierarchicalShapeStyle: ShapeStyle, Hashable {
    let level: Int
    public static let primary = HierarchicalShapeStyle(level: 0)
    public static let secondary = HierarchicalShapeStyle(level: 1)
    public static let tertiary = HierarchicalShapeStyle(level: 2)
    public static let quaternary = HierarchicalShapeStyle(level: 3)
    public static let quinary = HierarchicalShapeStyle(level: 4)
}

/// The view's foreground style, as a style value (`.foreground`).
public struct ForegroundStyle: ShapeStyle, Hashable {
    public init() {}
}

/// The tint (`.tint`): the environment's tint color, else the accent color.
public struct TintShapeStyle: ShapeStyle, Hashable {
    public init() {}
}

/// Any style, type-erased.
public struct AnyShapeStyle: ShapeStyle {
    let style: any ShapeStyle
    public init<S: ShapeStyle>(_ style: S) { self.style = (style as? AnyShapeStyle)?.style ?? style }
}

/// Colors and where they sit along a gradient.
public struct Gradient: Hashable, Sendable {
    public struct Stop: Hashable, Sendable {
        public var color: Color
        public var location: CGFloat
        public init(color: Color, location: CGFloat) {
            self.color = color
            self.location = location
        }
    }
    public var stops: [Stop]
    public init(stops: [Gradient.Stop]) { self.stops = stops }
    public init(colors: [Color]) {
        let n = colors.count
        self.stops = colors.enumerated().map { Stop(color: $1, location: n > 1 ? CGFloat($0) / CGFloat(n - 1) : 0) }
    }
}

/// A gradient along a line from `startPoint` to `endPoint` (unit points of the filled shape).
public struct LinearGradient: ShapeStyle, Hashable {
    let gradient: Gradient
    let startPoint: UnitPoint
    let endPoint: UnitPoint
    public init(gradient: Gradient, startPoint: UnitPoint, endPoint: UnitPoint) {
        self.gradient = gradient
        self.startPoint = startPoint
        self.endPoint = endPoint
    }
    public init(colors: [Color], startPoint: UnitPoint, endPoint: UnitPoint) {
        self.init(gradient: Gradient(colors: colors), startPoint: startPoint, endPoint: endPoint)
    }
    public init(stops: [Gradient.Stop], startPoint: UnitPoint, endPoint: UnitPoint) {
        self.init(gradient: Gradient(stops: stops), startPoint: startPoint, endPoint: endPoint)
    }
}

/// A color's gradient (`Color.red.gradient`): the color lighter at the top, as Apple's `AnyGradient` draws it.
public struct AnyGradient: ShapeStyle, Hashable {
    let color: Color
}

extension Color {
    public var gradient: AnyGradient { AnyGradient(color: self) }
}

extension ShapeStyle where Self == Color {
    public static var clear: Color { Color.clear }
    public static var black: Color { Color.black }
    public static var white: Color { Color.white }
    public static var red: Color { Color.red }
    public static var orange: Color { Color.orange }
    public static var yellow: Color { Color.yellow }
    public static var green: Color { Color.green }
    public static var mint: Color { Color.mint }
    public static var teal: Color { Color.teal }
    public static var cyan: Color { Color.cyan }
    public static var blue: Color { Color.blue }
    public static var indigo: Color { Color.indigo }
    public static var purple: Color { Color.purple }
    public static var pink: Color { Color.pink }
    public static var brown: Color { Color.brown }
    public static var gray: Color { Color.gray }
    public static var accentColor: Color { Color.accentColor }
}

extension ShapeStyle where Self == HierarchicalShapeStyle {
    public static var primary: HierarchicalShapeStyle { .primary }
    public static var secondary: HierarchicalShapeStyle { .secondary }
    public static var tertiary: HierarchicalShapeStyle { .tertiary }
    public static var quaternary: HierarchicalShapeStyle { .quaternary }
    public static var quinary: HierarchicalShapeStyle { .quinary }
}

extension ShapeStyle where Self == ForegroundStyle {
    public static var foreground: ForegroundStyle { ForegroundStyle() }
}

extension ShapeStyle where Self == TintShapeStyle {
    public static var tint: TintShapeStyle { TintShapeStyle() }
}

extension ShapeStyle where Self == LinearGradient {
    public static func linearGradient(_ gradient: Gradient, startPoint: UnitPoint, endPoint: UnitPoint) -> LinearGradient {
        LinearGradient(gradient: gradient, startPoint: startPoint, endPoint: endPoint)
    }
    public static func linearGradient(colors: [Color], startPoint: UnitPoint, endPoint: UnitPoint) -> LinearGradient {
        LinearGradient(colors: colors, startPoint: startPoint, endPoint: endPoint)
    }
}

/// iOS's fill colors for thin shapes and backgrounds (`.fill`, `.fill.tertiary`: UIKit's `systemFill` …).
public struct FillShapeStyle: ShapeStyle, Hashable {
    public init() {}
}

extension ShapeStyle where Self == FillShapeStyle {
    public static var fill: FillShapeStyle { FillShapeStyle() }
}

/// A style at a lower level of prominence (`.fill.tertiary`, `Color.red.secondary`).
struct _LevelShapeStyle: ShapeStyle {
    let base: AnyShapeStyle
    let level: Int
}

extension ShapeStyle {
    public var secondary: some ShapeStyle { _LevelShapeStyle(base: AnyShapeStyle(self), level: 1) }
    public var tertiary: some ShapeStyle { _LevelShapeStyle(base: AnyShapeStyle(self), level: 2) }
    public var quaternary: some ShapeStyle { _LevelShapeStyle(base: AnyShapeStyle(self), level: 3) }
    public var quinary: some ShapeStyle { _LevelShapeStyle(base: AnyShapeStyle(self), level: 4) }

    /// This style at an opacity.
    public func opacity(_ opacity: Double) -> some ShapeStyle { _OpacityShapeStyle(base: AnyShapeStyle(self), opacity: opacity) }
}

struct _OpacityShapeStyle: ShapeStyle {
    let base: AnyShapeStyle
    let opacity: Double
}

// MARK: - resolution

/// A color with its components fixed for one color scheme.
struct RGBA: Hashable {
    var r: Double, g: Double, b: Double, a: Double

    init(_ r: Double, _ g: Double, _ b: Double, _ a: Double = 1) {
        self.r = r
        self.g = g
        self.b = b
        self.a = a
    }

    init(hex: UInt32, alpha: Double = 1) {
        self.init(Double((hex >> 16) & 0xFF) / 255, Double((hex >> 8) & 0xFF) / 255, Double(hex & 0xFF) / 255, alpha)
    }

    func with(opacity: Double) -> RGBA { RGBA(r, g, b, a * opacity) }

    /// `#rrggbb`, for SVG's fill/stroke (the alpha goes in fill-opacity).
    var hex: String {
        func c(_ v: Double) -> String {
            let n = Int((min(max(v, 0), 1) * 255).rounded())
            let s = String(n, radix: 16)
            return n < 16 ? "0" + s : s
        }
        return "#" + c(r) + c(g) + c(b)
    }
}

/// A style resolved for drawing.
enum Paint: Hashable {
    case color(RGBA)
    case linear(stops: [(RGBA, CGFloat)], start: UnitPoint, end: UnitPoint)
    /// A radial gradient in the drawing's own coordinates (a `Canvas`'s `GraphicsContext` gives points, not unit
    /// points).
    case radial(stops: [(RGBA, CGFloat)], center: CGPoint, startRadius: CGFloat, endRadius: CGFloat)

    private var stops: [(RGBA, CGFloat)] {
        switch self {
        case .color: return []
        case let .linear(stops, _, _), let .radial(stops, _, _, _): return stops
        }
    }

    static func == (a: Paint, b: Paint) -> Bool {
        guard a.stops.map(\.0) == b.stops.map(\.0), a.stops.map(\.1) == b.stops.map(\.1) else { return false }
        switch (a, b) {
        case let (.color(x), .color(y)): return x == y
        case let (.linear(_, a1, e1), .linear(_, a2, e2)): return a1 == a2 && e1 == e2
        case let (.radial(_, c1, s1, e1), .radial(_, c2, s2, e2)): return c1 == c2 && s1 == s2 && e1 == e2
        default: return false
        }
    }

    func hash(into hasher: inout Hasher) {
        for (c, l) in stops {
            hasher.combine(c)
            hasher.combine(l)
        }
        switch self {
        case let .color(c): hasher.combine(c)
        case let .linear(_, start, end):
            hasher.combine(start)
            hasher.combine(end)
        case let .radial(_, center, startRadius, endRadius):
            hasher.combine(center.x)
            hasher.combine(center.y)
            hasher.combine(startRadius)
            hasher.combine(endRadius)
        }
    }

    func with(opacity: Double) -> Paint {
        switch self {
        case let .color(c): return .color(c.with(opacity: opacity))
        case let .linear(stops, s, e): return .linear(stops: stops.map { ($0.0.with(opacity: opacity), $0.1) }, start: s, end: e)
        case let .radial(stops, c, s, e):
            return .radial(stops: stops.map { ($0.0.with(opacity: opacity), $0.1) }, center: c, startRadius: s, endRadius: e)
        }
    }

    /// The one color a gradient is summarised by where a single color is needed (text).
    var firstColor: RGBA {
        switch self {
        case let .color(c): return c
        case .linear, .radial: return stops.first?.0 ?? RGBA(0, 0, 0)
        }
    }
}

extension Color {
    func resolve(_ env: EnvironmentValues) -> RGBA {
        let dark = env.colorScheme == .dark
        switch storage {
        case let .rgba(r, g, b, a): return RGBA(r, g, b, a)
        case let .opacity(color, o): return color.resolve(env).with(opacity: o)
        // A color the bundle's catalogs lack is a neutral gray, named in the SVG's title of the view.
        case let .named(name): return AssetCatalog.current.color(name, dark: dark).map(RGBA.init) ?? RGBA(hex: 0x8E8E93)
        case let .uiColor(color): return RGBA(color.components(dark: dark))
        case let .system(name):
            switch name {
            case "primary": return Color.label(level: 0, dark: dark)
            case "secondary": return Color.label(level: 1, dark: dark)
            // The app's AccentColor asset (ASSETCATALOG_COMPILER_GLOBAL_ACCENT_COLOR_NAME's default) tints, as on a device.
            case "accentColor": return env.tintColor?.resolve(env) ?? AssetCatalog.current.color("AccentColor", dark: dark).map(RGBA.init) ?? Color.blue.resolve(env)
            default: return RGBA(hex: SystemColors.tint(name, dark: dark) ?? 0x8E8E93)
            }
        }
    }

    /// UIKit's fill colors: `systemFill`, `secondarySystemFill`, `tertiarySystemFill`, `quaternarySystemFill`.
    static func fill(level: Int, dark: Bool) -> RGBA { RGBA(SystemColors.fill(level: level, dark: dark)) }

    /// UIKit's label colors: `label`, `secondaryLabel`, `tertiaryLabel`, `quaternaryLabel`.
    static func label(level: Int, dark: Bool) -> RGBA { RGBA(SystemColors.label(level: level, dark: dark)) }
}

extension RGBA {
    init(_ components: AssetCatalog.Components) {
        self.init(components.red, components.green, components.blue, components.alpha)
    }
}

/// Resolves a style in an environment: hierarchical levels are taken from the environment's foreground style.
func resolvePaint(_ style: any ShapeStyle, _ env: EnvironmentValues) -> Paint {
    env.grouped(resolveUngrouped(style, env))
}

private func resolveUngrouped(_ style: any ShapeStyle, _ env: EnvironmentValues) -> Paint {
    let dark = env.colorScheme == .dark
    switch style {
    case let color as Color: return .color(color.resolve(env))
    case let any as AnyShapeStyle: return resolvePaint(any.style, env)
    case let o as _OpacityShapeStyle: return resolvePaint(o.base, env).with(opacity: o.opacity)
    case is FillShapeStyle: return .color(Color.fill(level: 0, dark: dark))
    case let l as _LevelShapeStyle:
        if l.base.style is FillShapeStyle { return .color(Color.fill(level: l.level, dark: dark)) }
        if let h = l.base.style as? HierarchicalShapeStyle { return env.foregroundPaint(level: h.level + l.level) }
        let opacity: [Double] = [1, 0.6, 0.3, 0.18, 0.1]
        return resolvePaint(l.base, env).with(opacity: opacity[min(l.level, opacity.count - 1)])
    case is ForegroundStyle: return env.foregroundPaint(level: 0)
    case let r as _ResolvedStyle: return r.paint
    case is _SystemBackground where env.backgroundStyle != nil, is BackgroundStyle where env.backgroundStyle != nil:
        // `backgroundStyle(_:)`'s style, resolved where it is not itself the background (no loop through itself).
        var outer = env
        outer.backgroundStyle = nil
        return resolvePaint(env.backgroundStyle!, outer)
    case is _SystemBackground, is BackgroundStyle: return .color(dark ? RGBA(0, 0, 0) : RGBA(1, 1, 1))
    case let material as Material: return .color(material.resolve(env))
    case is TintShapeStyle: return .color((env.tintColor ?? Color.blue).resolve(env))
    case let h as HierarchicalShapeStyle: return env.foregroundPaint(level: h.level)
    case let g as Gradient:
        return .linear(stops: g.stops.map { ($0.color.resolve(env), $0.location) }, start: .top, end: .bottom)
    case let g as LinearGradient:
        return .linear(stops: g.gradient.stops.map { ($0.color.resolve(env), $0.location) }, start: g.startPoint, end: g.endPoint)
    case let g as AnyGradient:
        let base = g.color.resolve(env)
        let lighter = RGBA(base.r + (1 - base.r) * 0.25, base.g + (1 - base.g) * 0.25, base.b + (1 - base.b) * 0.25, base.a)
        return .linear(stops: [(lighter, 0), (base, 1)], start: .top, end: .bottom)
    case is SeparatorShapeStyle: return .color(SeparatorShapeStyle.color(dark: dark))
    case let blended as _EffectShapeStyle: return resolvePaint(blended.base, env)
    default:
        if let custom = customResolution(style, env) { return resolveUngrouped(custom, env) }
        return .color(Color.label(level: 0, dark: dark))
    }
}

/// A team's own style (`resolve(in:)`), resolved in the environment it is drawn in; nil for Lockstep's own.
func customResolution<S: ShapeStyle>(_ style: S, _ env: EnvironmentValues) -> (any ShapeStyle)? {
    S.Resolved.self == Never.self ? nil : style.resolve(in: env)
}

extension EnvironmentValues {
    /// The foreground at a hierarchical level: the label colors when no foreground style was set, else the style
    /// at decreasing opacity.
    func foregroundPaint(level: Int) -> Paint {
        grouped(ungroupedForeground(level: level))
    }

    private func ungroupedForeground(level: Int) -> Paint {
        if level < foregroundHierarchy.count {
            var outer = self
            outer.foregroundStyleValue = nil
            outer.foregroundHierarchy = []
            return resolveUngrouped(foregroundHierarchy[level], outer)
        }
        guard let style = foregroundStyleValue else { return .color(Color.label(level: level, dark: colorScheme == .dark)) }
        var outer = self
        outer.foregroundStyleValue = nil
        outer.foregroundHierarchy = []
        let base = resolveUngrouped(style, outer)
        let opacity: [Double] = [1, 0.6, 0.3, 0.18, 0.1]
        return base.with(opacity: opacity[min(level, opacity.count - 1)])
    }
}

/// How the system draws a widget's colors: as they are, in two groups (accented: the accent group in the tint, the
/// rest white), or vibrant (Lock Screen: white, its opacity from the color's brightness).
package enum WidgetColorRendering: Sendable {
    case fullColor
    case accented
    case vibrant
}

extension EnvironmentValues {
    /// A resolved paint as the widget's rendering mode draws it.
    func grouped(_ paint: Paint) -> Paint {
        switch widgetColorRendering {
        case .fullColor: return paint
        case .accented:
            if isWidgetAccentable {
                var outer = self
                outer.widgetColorRendering = .fullColor
                let accent = (tintColor ?? Color.blue).resolve(outer)
                return .color(accent.with(opacity: paint.firstColor.a))
            }
            return .color(RGBA(1, 1, 1, paint.firstColor.a))
        case .vibrant:
            let c = paint.firstColor
            let luminance = 0.2126 * c.r + 0.7152 * c.g + 0.0722 * c.b
            return .color(RGBA(1, 1, 1, c.a * max(0.25, luminance)))
        }
    }
}
