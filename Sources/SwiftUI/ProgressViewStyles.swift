import AppIntents

/// How a progress view draws: the built-in styles (a bar, a ring), or your own, whose `makeBody(configuration:)`
/// is drawn in the progress view's place with its labels and fraction.
public protocol ProgressViewStyle {
    associatedtype Body: View
    typealias Configuration = ProgressViewStyleConfiguration
    @ViewBuilder func makeBody(configuration: Configuration) -> Body
}

/// What a progress view hands its style (Apple's `ProgressViewStyleConfiguration`): how far it is, nil while
/// indeterminate, and its labels.
public struct ProgressViewStyleConfiguration: @unchecked Sendable {  // @unchecked: made and drawn by the main actor's rendering alone.
    /// The progress view's label, as a view.
    public struct Label: View {
        let content: AnyView
        init(_ view: some View) { content = AnyView(view) }
        public var body: some View { content }
    }

    /// The progress view's current-value label, as a view.
    public struct CurrentValueLabel: View {
        let content: AnyView
        init(_ view: some View) { content = AnyView(view) }
        public var body: some View { content }
    }

    /// 0…1; nil for an indeterminate progress view. A timer's is how far the render date is through its interval.
    public let fractionCompleted: Double?
    public var label: Label?
    public var currentValueLabel: CurrentValueLabel?
}

extension ProgressView where Label == ProgressViewStyleConfiguration.Label, CurrentValueLabel == ProgressViewStyleConfiguration.CurrentValueLabel {
    /// A progress view of a style's configuration: inside your style's `makeBody`, it draws as the style in effect
    /// before yours.
    public init(_ configuration: ProgressViewStyleConfiguration) {
        self.init(progress: .fraction(configuration.fractionCompleted), label: configuration.label,
                  currentValueLabel: configuration.currentValueLabel)
    }
}

/// A built-in style's body: the progress view of the configuration, drawn in that style.
public struct _BuiltInProgressView: View {
    let configuration: ProgressViewStyleConfiguration
    let kind: ProgressViewStyleKind
    let tint: Color?
    public var body: some View {
        ProgressView(configuration).environmentModifier {
            $0.progressViewStyleKind = kind
            if let tint { $0.tintColor = tint }
        }
    }
}

/// The styles SwiftUI provides, each drawn by the renderer itself.
protocol BuiltInProgressViewStyle: ProgressViewStyle where Body == _BuiltInProgressView {
    var kind: ProgressViewStyleKind { get }
    var tint: Color? { get }
}

extension BuiltInProgressViewStyle {
    public func makeBody(configuration: Configuration) -> _BuiltInProgressView {
        _BuiltInProgressView(configuration: configuration, kind: kind, tint: tint)
    }
}

public struct DefaultProgressViewStyle: ProgressViewStyle, BuiltInProgressViewStyle {
    public init() {}
    var kind: ProgressViewStyleKind { .linear }
    var tint: Color? { nil }
}
public struct LinearProgressViewStyle: ProgressViewStyle, BuiltInProgressViewStyle {
    let tint: Color?
    public init() { tint = nil }
    public init(tint: Color) { self.tint = tint }
    var kind: ProgressViewStyleKind { .linear }
}
public struct CircularProgressViewStyle: ProgressViewStyle, BuiltInProgressViewStyle {
    let tint: Color?
    public init() { tint = nil }
    public init(tint: Color) { self.tint = tint }
    var kind: ProgressViewStyleKind { .circular }
}
extension ProgressViewStyle where Self == DefaultProgressViewStyle { public static var automatic: DefaultProgressViewStyle { DefaultProgressViewStyle() } }
extension ProgressViewStyle where Self == LinearProgressViewStyle { public static var linear: LinearProgressViewStyle { LinearProgressViewStyle() } }
extension ProgressViewStyle where Self == CircularProgressViewStyle { public static var circular: CircularProgressViewStyle { CircularProgressViewStyle() } }

enum ProgressViewStyleKind { case linear, circular }

/// Your own style, erased to the body it makes.
struct CustomProgressViewStyle: @unchecked Sendable {  // @unchecked: a style is a value the main actor's rendering alone calls.
    let body: (ProgressViewStyleConfiguration) -> AnyView
}

private struct CustomProgressViewStyleKey: EnvironmentKey {
    static let defaultValue: CustomProgressViewStyle? = nil
}

extension EnvironmentValues {
    /// Your own progress view style in effect, as its body for a configuration.
    var customProgressViewStyle: CustomProgressViewStyle? {
        get { self[CustomProgressViewStyleKey.self] }
        set { self[CustomProgressViewStyleKey.self] = newValue }
    }
}

nonisolated extension View {
    public func progressViewStyle<S: ProgressViewStyle>(_ style: S) -> some View {
        let builtIn = style as? any BuiltInProgressViewStyle
        let custom = builtIn == nil ? CustomProgressViewStyle { AnyView(style.makeBody(configuration: $0)) } : nil
        return environmentModifier { environment in
            if let builtIn {
                environment.progressViewStyleKind = builtIn.kind
                if let tint = builtIn.tint { environment.tintColor = tint }
            }
            environment.customProgressViewStyle = custom
        }
    }
}
