import AppIntents

/// A button that runs an app intent when pressed: the only kind of button a widget or Live Activity may have
/// (rule `widget.interactive`); the renderer reports it with the very intent instance it holds.
public struct Button<Label: View> {
    let label: Label
    /// The intent a widget's button runs when tapped; nil for an app's `Button(action:)`.
    let intent: (any AppIntent)?

    public init(intent: some AppIntent, @ViewBuilder label: () -> Label) {
        self.intent = intent
        self.label = label()
    }

    /// An app's button: drawn as a button; its action runs when a person taps it, which no one does in a picture or
    /// a headless app (and a widget runs only intents, as on iOS).
    public init(action: @escaping @MainActor () -> Void, @ViewBuilder label: () -> Label) {
        intent = nil
        self.label = label()
    }

    public init(role: ButtonRole?, action: @escaping @MainActor () -> Void, @ViewBuilder label: () -> Label) {
        self.init(action: action, label: label)
    }
}

/// What a button does, for its styling: `.destructive`, `.cancel`.
public struct ButtonRole: Hashable, Sendable {
    let name: String
    public static let destructive = ButtonRole(name: "destructive")
    public static let cancel = ButtonRole(name: "cancel")
}

extension Button where Label == Text {
    public init(_ titleKey: LocalizedStringKey, intent: some AppIntent) {
        self.init(intent: intent) { Text(titleKey) }
    }
    @_disfavoredOverload
    public init<S: StringProtocol>(_ title: S, intent: some AppIntent) {
        self.init(intent: intent) { Text(title) }
    }
    public init(_ titleKey: LocalizedStringKey, role: ButtonRole? = nil, action: @escaping @MainActor () -> Void) {
        self.init(action: action) { Text(titleKey) }
    }
    @_disfavoredOverload
    public init<S: StringProtocol>(_ title: S, role: ButtonRole? = nil, action: @escaping @MainActor () -> Void) {
        self.init(action: action) { Text(title) }
    }
}

extension Button where Label == SwiftUI.Label<Text, Image> {
    public init(_ titleKey: LocalizedStringKey, systemImage: String, role: ButtonRole? = nil, action: @escaping @MainActor () -> Void) {
        self.init(action: action) { SwiftUI.Label(titleKey, systemImage: systemImage) }
    }
    public init(_ titleKey: LocalizedStringKey, systemImage: String, intent: some AppIntent) {
        self.init(intent: intent) { SwiftUI.Label(titleKey, systemImage: systemImage) }
    }
}

extension Button: View { public typealias Body = Never }
extension Button: PrimitiveView {
    @MainActor public static func _resolve(_ view: Self, _ inputs: _ResolveInputs) -> _ResolvedNodes { _ResolvedNodes(nodes: view.nodes(inputs.context)) }
    @MainActor func nodes(_ context: ResolveContext) -> [Node] {
        var inner = context
        let style = context.environment.buttonStyleKind
        let tint = context.environment.tintColor ?? Color.accentColor
        switch style {
        case .automatic, .borderless:
            if context.environment.foregroundStyleValue == nil { inner.environment.foregroundStyleValue = AnyShapeStyle(tint) }
        case .plain: break
        case .bordered:
            if context.environment.foregroundStyleValue == nil { inner.environment.foregroundStyleValue = AnyShapeStyle(tint) }
        case .borderedProminent:
            inner.environment.foregroundStyleValue = AnyShapeStyle(Color.white)
        }
        var label = single(resolve(self.label, inner))
        if style == .bordered || style == .borderedProminent {
            let fill = tint.resolve(context.environment).with(opacity: style == .bordered ? 0.15 : 1)
            label = bordered(label, fill: fill, shape: context.environment.buttonBorderShape)
        }
        if !context.environment.isEnabled { label = EffectNode(.opacity(0.4), child: label) }
        guard let intent else { return [label] }
        return [intentControl(label, intent)]
    }
}

/// A switch that runs an app intent when flipped (`Toggle(isOn:intent:)`): its label, then the switch.
public struct Toggle<Label: View> {
    let label: Label
    let isOn: Bool
    let intent: any AppIntent

    public init(isOn: Bool, intent: some AppIntent, @ViewBuilder label: () -> Label) {
        self.isOn = isOn
        self.intent = intent
        self.label = label()
    }
}

extension Toggle where Label == Text {
    public init(_ titleKey: LocalizedStringKey, isOn: Bool, intent: some AppIntent) {
        self.init(isOn: isOn, intent: intent) { Text(titleKey) }
    }
    @_disfavoredOverload
    public init<S: StringProtocol>(_ title: S, isOn: Bool, intent: some AppIntent) {
        self.init(isOn: isOn, intent: intent) { Text(title) }
    }
}

extension Toggle: View { public typealias Body = Never }
extension Toggle: PrimitiveView {
    @MainActor public static func _resolve(_ view: Self, _ inputs: _ResolveInputs) -> _ResolvedNodes { _ResolvedNodes(nodes: view.nodes(inputs.context)) }
    @MainActor func nodes(_ context: ResolveContext) -> [Node] {
        let env = context.environment
        let label = resolve(self.label, context)
        // iOS's switch: 51 × 31 points, the tint (green by default) when on, a gray track when off.
        let track = isOn ? (env.tintColor ?? Color.green).resolve(env) : (env.colorScheme == .dark ? RGBA(hex: 0x39393D) : RGBA(hex: 0xE9E9EA))
        let switchNode = ZStackNode(alignment: isOn ? .trailing : .leading, children: [
            FixedFrameNode(width: 51, height: 31, alignment: .center,
                           child: ShapeNode(shape: Capsule(), fill: .color(track), stroke: nil, inset: false, containerRadius: 0)),
            PaddingNode(insets: EdgeInsets(top: 2, leading: 2, bottom: 2, trailing: 2),
                        child: FixedFrameNode(width: 27, height: 27, alignment: .center,
                                              child: ShapeNode(shape: Circle(), fill: .color(RGBA(1, 1, 1)), stroke: nil, inset: false, containerRadius: 0))),
        ])
        let row: Node = env.toggleStyleKind == .button
            ? bordered(single(label), fill: (env.tintColor ?? Color.accentColor).resolve(env).with(opacity: isOn ? 1 : 0.15), shape: env.buttonBorderShape)
            : StackNode(axis: .horizontal, alignment: .center, spacing: nil,
                        children: env.labelsHidden ? [switchNode] : label + [SpacerNode(minLength: nil), switchNode])
        return [intentControl(row, intent)]
    }
}

/// A control that opens a URL (in a widget: the app, with that URL).
public struct Link<Label: View> {
    let destination: URL
    let label: Label
    public init(destination: URL, @ViewBuilder label: () -> Label) {
        self.destination = destination
        self.label = label()
    }
}

extension Link where Label == Text {
    public init(_ titleKey: LocalizedStringKey, destination: URL) {
        self.init(destination: destination) { Text(titleKey) }
    }
    @_disfavoredOverload
    public init<S: StringProtocol>(_ title: S, destination: URL) {
        self.init(destination: destination) { Text(title) }
    }
}

extension Link: View { public typealias Body = Never }
extension Link: PrimitiveView {
    @MainActor public static func _resolve(_ view: Self, _ inputs: _ResolveInputs) -> _ResolvedNodes { _ResolvedNodes(nodes: view.nodes(inputs.context)) }
    @MainActor func nodes(_ context: ResolveContext) -> [Node] {
        var inner = context
        if inner.environment.foregroundStyleValue == nil {
            inner.environment.foregroundStyleValue = AnyShapeStyle(context.environment.tintColor ?? Color.accentColor)
        }
        let url = destination
        return [CaptureNode(child: single(resolve(label, inner))) { text, canvas in
            canvas.links.append(RenderedLink(label: text, url: url))
        }]
    }
}

// MARK: - styles

/// How buttons draw: `.automatic`/`.borderless` (tinted label), `.plain`, `.bordered`, `.borderedProminent`.
public protocol PrimitiveButtonStyle {}
public protocol ButtonStyle {}
public struct DefaultButtonStyle: PrimitiveButtonStyle { public init() {} }
public struct PlainButtonStyle: PrimitiveButtonStyle, ButtonStyle { public init() {} }
public struct BorderlessButtonStyle: PrimitiveButtonStyle { public init() {} }
public struct BorderedButtonStyle: PrimitiveButtonStyle { public init() {} }
public struct BorderedProminentButtonStyle: PrimitiveButtonStyle { public init() {} }

extension PrimitiveButtonStyle where Self == DefaultButtonStyle { public static var automatic: DefaultButtonStyle { DefaultButtonStyle() } }
extension PrimitiveButtonStyle where Self == PlainButtonStyle { public static var plain: PlainButtonStyle { PlainButtonStyle() } }
extension PrimitiveButtonStyle where Self == BorderlessButtonStyle { public static var borderless: BorderlessButtonStyle { BorderlessButtonStyle() } }
extension PrimitiveButtonStyle where Self == BorderedButtonStyle { public static var bordered: BorderedButtonStyle { BorderedButtonStyle() } }
extension PrimitiveButtonStyle where Self == BorderedProminentButtonStyle {
    public static var borderedProminent: BorderedProminentButtonStyle { BorderedProminentButtonStyle() }
}

enum ButtonStyleKind { case automatic, plain, borderless, bordered, borderedProminent }

/// How toggles draw: a switch, or a button that is filled when on.
public protocol ToggleStyle {}
public struct DefaultToggleStyle: ToggleStyle { public init() {} }
public struct SwitchToggleStyle: ToggleStyle { public init() {} }
public struct ButtonToggleStyle: ToggleStyle { public init() {} }
extension ToggleStyle where Self == DefaultToggleStyle { public static var automatic: DefaultToggleStyle { DefaultToggleStyle() } }
extension ToggleStyle where Self == SwitchToggleStyle { public static var `switch`: SwitchToggleStyle { SwitchToggleStyle() } }
extension ToggleStyle where Self == ButtonToggleStyle { public static var button: ButtonToggleStyle { ButtonToggleStyle() } }

enum ToggleStyleKind { case `switch`, button }

nonisolated extension View {
    public func buttonStyle<S: PrimitiveButtonStyle>(_ style: S) -> some View {
        let kind: ButtonStyleKind
        switch style {
        case is PlainButtonStyle: kind = .plain
        case is BorderlessButtonStyle: kind = .borderless
        case is BorderedButtonStyle: kind = .bordered
        case is BorderedProminentButtonStyle: kind = .borderedProminent
        default: kind = .automatic
        }
        return environmentModifier { $0.buttonStyleKind = kind }
    }

    public func toggleStyle<S: ToggleStyle>(_ style: S) -> some View {
        let kind: ToggleStyleKind = style is ButtonToggleStyle ? .button : .switch
        return environmentModifier { $0.toggleStyleKind = kind }
    }
}

/// A bordered button's look, which a `.button`-style toggle shares: the label padded inside its border shape, filled
/// (a capsule unless `buttonBorderShape(_:)` says otherwise; a circle makes the button as wide as it is tall).
private func bordered(_ label: Node, fill: RGBA, shape: ButtonBorderShape) -> Node {
    var padded: Node = PaddingNode(insets: EdgeInsets(top: 7, leading: 12, bottom: 7, trailing: 12), child: label)
    let border: any Shape
    switch shape.kind {
    case .automatic, .capsule: border = Capsule()
    case let .roundedRectangle(radius): border = RoundedRectangle(cornerRadius: radius ?? ButtonBorderShape.systemCornerRadius)
    case .circle:
        border = Circle()
        padded = SquareNode(child: padded)
    }
    return LayeredNode(base: padded, layer: ShapeNode(shape: border, fill: .color(fill), stroke: nil, inset: false, containerRadius: 0),
                       alignment: .center, behind: true)
}

/// Its child centered in a square as large as the child's longer side (a circular button's frame).
private final class SquareNode: Node {
    let child: Node
    override var childNodes: [Node] { [child] }

    init(child: Node) { self.child = child }

    override func computeSize(_ proposal: Proposal) -> CGSize {
        let size = child.size(for: proposal)
        let side = max(size.width, size.height)
        return CGSize(width: side, height: side)
    }

    override func place(in rect: CGRect, _ canvas: Drawing) {
        child.place(in: aligned(child.size(for: Proposal(rect.size)), in: rect, .center), canvas)
    }
}

/// A control that runs `intent`: what it draws is recorded with its label's text, so a test can find and tap it.
private func intentControl(_ node: Node, _ intent: any AppIntent) -> Node {
    CaptureNode(child: node) { text, canvas in
        canvas.controls.append(RenderedControl(label: text, intentTypeName: String(describing: type(of: intent)), intent: intent))
    }
}
