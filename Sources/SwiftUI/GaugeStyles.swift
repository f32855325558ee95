import AppIntents

/// How a gauge draws: the built-in styles, or your own, whose `makeBody(configuration:)` is drawn in the gauge's
/// place with the gauge's labels and value.
public protocol GaugeStyle {
    associatedtype Body: View
    typealias Configuration = GaugeStyleConfiguration
    @ViewBuilder func makeBody(configuration: Configuration) -> Body
}

/// What a gauge hands its style: its labels and its value (0…1 within its bounds).
public struct GaugeStyleConfiguration {
    /// One of the gauge's labels, as a view.
    public struct Label: View {
        let content: AnyView
        init(_ view: some View) { content = AnyView(view) }
        public var body: some View { content }
    }
    public typealias CurrentValueLabel = Label
    public typealias MinimumValueLabel = Label
    public typealias MaximumValueLabel = Label
    public typealias MarkedValueLabel = Label

    public var label: Label
    public var currentValueLabel: CurrentValueLabel?
    public var minimumValueLabel: MinimumValueLabel?
    public var maximumValueLabel: MaximumValueLabel?
    public var value: Double
}

/// A built-in style's body: the gauge of the configuration, drawn in that style.
// Nonisolated (SE-0449): `GaugeStyle.makeBody`, which makes it, is not on the main actor.
public nonisolated struct _BuiltInGauge: View {
    let configuration: GaugeStyleConfiguration
    let kind: GaugeStyleKind?
    public var body: some View {
        Gauge<GaugeStyleConfiguration.Label, GaugeStyleConfiguration.Label, GaugeStyleConfiguration.Label, EmptyView>(
            fraction: configuration.value, label: configuration.label, current: configuration.currentValueLabel,
            minimum: configuration.minimumValueLabel, maximum: configuration.maximumValueLabel)
            .environmentModifier { if let kind { $0.gaugeStyleKind = kind } }
    }
}

/// The styles SwiftUI provides, each drawn by the renderer itself.
protocol BuiltInGaugeStyle: GaugeStyle where Body == _BuiltInGauge {
    var kind: GaugeStyleKind? { get }
}

extension BuiltInGaugeStyle {
    public func makeBody(configuration: Configuration) -> _BuiltInGauge { _BuiltInGauge(configuration: configuration, kind: kind) }
}

public struct DefaultGaugeStyle: GaugeStyle, BuiltInGaugeStyle { public init() {}; var kind: GaugeStyleKind? { nil } }
public struct AccessoryCircularGaugeStyle: GaugeStyle, BuiltInGaugeStyle { public init() {}; var kind: GaugeStyleKind? { .accessoryCircular } }
public struct AccessoryCircularCapacityGaugeStyle: GaugeStyle, BuiltInGaugeStyle {
    public init() {}
    var kind: GaugeStyleKind? { .accessoryCircularCapacity }
}
public struct AccessoryLinearGaugeStyle: GaugeStyle, BuiltInGaugeStyle { public init() {}; var kind: GaugeStyleKind? { .accessoryLinear } }
public struct AccessoryLinearCapacityGaugeStyle: GaugeStyle, BuiltInGaugeStyle {
    public init() {}
    var kind: GaugeStyleKind? { .accessoryLinearCapacity }
}
public struct LinearCapacityGaugeStyle: GaugeStyle, BuiltInGaugeStyle { public init() {}; var kind: GaugeStyleKind? { .linearCapacity } }

extension GaugeStyle where Self == DefaultGaugeStyle { public static var automatic: DefaultGaugeStyle { DefaultGaugeStyle() } }
extension GaugeStyle where Self == AccessoryCircularGaugeStyle { public static var accessoryCircular: AccessoryCircularGaugeStyle { AccessoryCircularGaugeStyle() } }
extension GaugeStyle where Self == AccessoryCircularCapacityGaugeStyle {
    public static var accessoryCircularCapacity: AccessoryCircularCapacityGaugeStyle { AccessoryCircularCapacityGaugeStyle() }
}
extension GaugeStyle where Self == AccessoryLinearGaugeStyle { public static var accessoryLinear: AccessoryLinearGaugeStyle { AccessoryLinearGaugeStyle() } }
extension GaugeStyle where Self == AccessoryLinearCapacityGaugeStyle {
    public static var accessoryLinearCapacity: AccessoryLinearCapacityGaugeStyle { AccessoryLinearCapacityGaugeStyle() }
}
extension GaugeStyle where Self == LinearCapacityGaugeStyle { public static var linearCapacity: LinearCapacityGaugeStyle { LinearCapacityGaugeStyle() } }

enum GaugeStyleKind: Sendable { case accessoryCircular, accessoryCircularCapacity, accessoryLinear, accessoryLinearCapacity, linearCapacity }

/// Your own style, erased to the body it makes.
struct CustomGaugeStyle: @unchecked Sendable {  // @unchecked: a style is a value the main actor's rendering alone calls.
    let body: (GaugeStyleConfiguration) -> AnyView
}

private struct CustomGaugeStyleKey: EnvironmentKey {
    static let defaultValue: CustomGaugeStyle? = nil
}

extension EnvironmentValues {
    /// The gauge style in effect: `.automatic` is the linear capacity style on iOS, the circular one in the
    /// circular accessory family (WidgetKit sets `automaticGaugeStyle` for that family).
    var gaugeStyleKind: GaugeStyleKind {
        get { chosenGaugeStyle ?? (isCircularAccessory ? .accessoryCircular : .linearCapacity) }
        set { chosenGaugeStyle = newValue }
    }

    /// Your own gauge style in effect, as its body for a configuration.
    var customGaugeStyle: CustomGaugeStyle? {
        get { self[CustomGaugeStyleKey.self] }
        set { self[CustomGaugeStyleKey.self] = newValue }
    }
}

nonisolated extension View {
    public func gaugeStyle<S: GaugeStyle>(_ style: S) -> some View {
        let builtIn = style as? any BuiltInGaugeStyle
        let kind = builtIn?.kind
        let custom = builtIn == nil ? CustomGaugeStyle { AnyView(style.makeBody(configuration: $0)) } : nil
        return environmentModifier { environment in
            if let kind { environment.gaugeStyleKind = kind }
            environment.customGaugeStyle = custom
        }
    }
}
