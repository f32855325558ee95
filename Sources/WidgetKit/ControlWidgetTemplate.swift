import AppIntents
import Foundation
import SwiftUI

// iOS 18's control templates — what a control shows and which intent a tap runs — with Apple's names and shapes,
// so that a control file written for iOS builds unchanged. Control Center draws them (`ControlPicture`); the
// widget extension runs their intents (`ControlSystem`).

/// What a control shows and does, as its template resolved it for one value.
@MainActor
public struct _ControlTemplateContent {
    enum Kind: Equatable { case button, toggle(isOn: Bool) }
    var kind: Kind
    /// The control's label: its title, and its symbol when it is a `Label`.
    var label: AnyView
    /// The toggle's label for its current state (its title is the status text, its symbol replaces the label's).
    var valueLabel: AnyView?
    /// The intent the view holds: a tap performs it.
    var intent: any AppIntent
    /// A toggle's intent with `value` set to the state a tap asks for.
    var settingValue: ((Bool) -> any AppIntent)?
    var tint: Color?
    var actionHint: String?
    var status: String?
    /// `disabled(true)`: drawn dimmed, and a tap does nothing but say so.
    var isDisabled = false

    var isOn: Bool? {
        if case .toggle(let isOn) = kind { return isOn }
        return nil
    }

    /// The intent's type name, as `tap` matches it.
    var intentTypeName: String { String(describing: type(of: intent)) }
}

/// A control's template: `ControlWidgetButton` or `ControlWidgetToggle`, with its modifiers (Apple's
/// `ControlWidgetTemplate`; like Apple's, only WidgetKit's own types conform).
@MainActor @preconcurrency
public protocol ControlWidgetTemplate {
    var _content: _ControlTemplateContent { get }
}

/// Builds a control's template (one, or one chosen by `if`/`if #available`).
@resultBuilder @MainActor
public enum ControlWidgetTemplateBuilder {
    public static func buildBlock<Content: ControlWidgetTemplate>(_ content: Content) -> Content { content }
    public static func buildExpression<Content: ControlWidgetTemplate>(_ content: Content) -> Content { content }
    public static func buildEither<First: ControlWidgetTemplate, Second: ControlWidgetTemplate>(first: First) -> _ConditionalControlTemplate<First, Second> { .init(_content: first._content) }
    public static func buildEither<First: ControlWidgetTemplate, Second: ControlWidgetTemplate>(second: Second) -> _ConditionalControlTemplate<First, Second> { .init(_content: second._content) }
    public static func buildLimitedAvailability<Content: ControlWidgetTemplate>(_ content: Content) -> Content { content }
}

/// One of two templates, as an `if`/`else` chose.
public struct _ConditionalControlTemplate<First: ControlWidgetTemplate, Second: ControlWidgetTemplate>: ControlWidgetTemplate {
    public let _content: _ControlTemplateContent
}

/// A control that performs an action (Apple's `ControlWidgetButton`, iOS 18): a tap runs `action` in the widget
/// extension's process (or, for an `openAppWhenRun` intent, in the app).
public struct ControlWidgetButton<Label: View, ActionLabel: View>: ControlWidgetTemplate {
    public let _content: _ControlTemplateContent

    public init<Action: AppIntent>(action: Action, @ViewBuilder label: () -> Label) where ActionLabel == EmptyView {
        let label = label()
        _content = _ControlTemplateContent(kind: .button, label: AnyView(label), intent: action).annotated(by: [label])
    }

    /// A button with a title, whose `actionLabel(isActive)` gives its symbol and value; the simulated tap completes
    /// at once, so the picture shows it at rest (`isActive` false).
    public init<Action: AppIntent>(_ titleKey: LocalizedStringKey, action: Action,
                                   @ViewBuilder actionLabel: @escaping (Bool) -> ActionLabel) where Label == Text {
        let value = actionLabel(false)
        _content = _ControlTemplateContent(kind: .button, label: AnyView(Text(titleKey)), valueLabel: AnyView(value), intent: action)
            .annotated(by: [value])
    }

    @_disfavoredOverload
    public init<Action: AppIntent, S: StringProtocol>(_ title: S, action: Action,
                                                      @ViewBuilder actionLabel: @escaping (Bool) -> ActionLabel) where Label == Text {
        let value = actionLabel(false)
        _content = _ControlTemplateContent(kind: .button, label: AnyView(Text(title)), valueLabel: AnyView(value), intent: action)
            .annotated(by: [value])
    }

    /// `actionLabel(isActive)` is what the button shows while its action runs; the simulated tap completes at once,
    /// so the picture shows the label at rest.
    public init<Action: AppIntent>(action: Action, @ViewBuilder label: () -> Label,
                                   @ViewBuilder actionLabel: @escaping (Bool) -> ActionLabel) {
        let label = label()
        _content = _ControlTemplateContent(kind: .button, label: AnyView(label), intent: action).annotated(by: [label])
    }
}

/// A control that turns a state on and off (Apple's `ControlWidgetToggle`, iOS 18): a tap hands `action` the
/// opposite of `isOn` as its `value` and performs it in the widget extension's process; then the control's value
/// provider is asked again.
public struct ControlWidgetToggle<Label: View, ValueLabel: View>: ControlWidgetTemplate {
    public let _content: _ControlTemplateContent

    init<Action: SetValueIntent>(isOn: Bool, action: Action, label: Label, valueLabel: ValueLabel?) where Action.ValueType == Bool {
        _content = _ControlTemplateContent(kind: .toggle(isOn: isOn), label: AnyView(label), valueLabel: valueLabel.map { AnyView($0) },
                                           intent: action, settingValue: { value in
                                               var intent = action
                                               intent.value = value
                                               return intent
                                           }).annotated(by: [label, valueLabel])
    }

    public init<Action: SetValueIntent>(isOn: Bool, action: Action, @ViewBuilder label: () -> Label) where Action.ValueType == Bool, ValueLabel == EmptyView {
        self.init(isOn: isOn, action: action, label: label(), valueLabel: nil)
    }

    public init<Action: SetValueIntent>(isOn: Bool, action: Action, @ViewBuilder label: () -> Label,
                                        @ViewBuilder valueLabel: (Bool) -> ValueLabel) where Action.ValueType == Bool {
        self.init(isOn: isOn, action: action, label: label(), valueLabel: valueLabel(isOn))
    }

    public init<Action: SetValueIntent>(_ titleKey: LocalizedStringKey, isOn: Bool, action: Action,
                                        @ViewBuilder valueLabel: (Bool) -> ValueLabel) where Action.ValueType == Bool, Label == Text {
        self.init(isOn: isOn, action: action, label: Text(titleKey), valueLabel: valueLabel(isOn))
    }

    @_disfavoredOverload
    public init<Action: SetValueIntent, S: StringProtocol>(_ title: S, isOn: Bool, action: Action,
                                                           @ViewBuilder valueLabel: (Bool) -> ValueLabel) where Action.ValueType == Bool, Label == Text {
        self.init(isOn: isOn, action: action, label: Text(title), valueLabel: valueLabel(isOn))
    }

    public init<Action: SetValueIntent>(_ titleKey: LocalizedStringKey, systemImage: String, isOn: Bool, action: Action)
        where Action.ValueType == Bool, Label == SwiftUI.Label<Text, Image>, ValueLabel == EmptyView {
        self.init(isOn: isOn, action: action, label: SwiftUI.Label(titleKey, systemImage: systemImage), valueLabel: nil)
    }

    @_disfavoredOverload
    public init<Action: SetValueIntent, S: StringProtocol>(_ title: S, systemImage: String, isOn: Bool, action: Action)
        where Action.ValueType == Bool, Label == SwiftUI.Label<Text, Image>, ValueLabel == EmptyView {
        self.init(isOn: isOn, action: action, label: SwiftUI.Label(title, systemImage: systemImage), valueLabel: nil)
    }
}

/// A template with one of its modifiers applied.
public struct _ModifiedControlTemplate: ControlWidgetTemplate {
    public let _content: _ControlTemplateContent
}

extension ControlWidgetTemplate {
    private func modified(_ change: (inout _ControlTemplateContent) -> Void) -> _ModifiedControlTemplate {
        var content = _content
        change(&content)
        return _ModifiedControlTemplate(_content: content)
    }

    /// The control's tint: the fill of a toggle that is on (Control Center ignores a tint on the label itself).
    public func tint(_ tint: Color?) -> some ControlWidgetTemplate {
        modified { $0.tint = tint }
    }

    /// A disabled control is drawn dimmed, and a tap runs nothing.
    public func disabled(_ disabled: Bool) -> some ControlWidgetTemplate {
        modified { $0.isDisabled = $0.isDisabled || disabled }
    }

    /// What the Action button's hint says the control does ("Turn Off"): `status` prints it.
    public func controlWidgetActionHint(_ hint: LocalizedStringKey) -> some ControlWidgetTemplate { setting(\.actionHint, plainText(Text(hint))) }
    @_disfavoredOverload
    public func controlWidgetActionHint<S: StringProtocol>(_ hint: S) -> some ControlWidgetTemplate { setting(\.actionHint, String(hint)) }
    public func controlWidgetActionHint(_ hint: Text) -> some ControlWidgetTemplate { setting(\.actionHint, plainText(hint)) }

    /// A status the system shows briefly after the control's action ("Opened"): drawn as its value.
    public func controlWidgetStatus(_ status: LocalizedStringKey) -> some ControlWidgetTemplate { setting(\.status, plainText(Text(status))) }
    @_disfavoredOverload
    public func controlWidgetStatus<S: StringProtocol>(_ status: S) -> some ControlWidgetTemplate { setting(\.status, String(status)) }
    public func controlWidgetStatus(_ status: Text) -> some ControlWidgetTemplate { setting(\.status, plainText(status)) }

    private func setting(_ field: WritableKeyPath<_ControlTemplateContent, String?>, _ text: String) -> _ModifiedControlTemplate {
        modified { $0[keyPath: field] = text }
    }
}

// MARK: - hints on the label

/// A control's label with the hint or status its `View` modifiers gave it (Apple declares
/// `controlWidgetActionHint(_:)` and `controlWidgetStatus(_:)` on `View`, for the label).
public struct _ControlLabelAnnotation<Content: View> {
    let content: Content
    let actionHint: String?
    let status: String?
}

extension _ControlLabelAnnotation: View {
    public var body: some View { content }
}

/// Lets the template read a label's annotations whatever its content type.
protocol ControlLabelAnnotated {
    var actionHint: String? { get }
    var status: String? { get }
}

extension _ControlLabelAnnotation: ControlLabelAnnotated {}

// The control draws a `Label`'s symbol and title apart, also when the label carries a hint.
extension _ControlLabelAnnotation: LabelParts where Content: LabelParts {
    package var titlePart: AnyView { content.titlePart }
    package var iconPart: AnyView { content.iconPart }
}

extension _ControlTemplateContent {
    /// The hint and status the labels carry, the template's own modifiers winning.
    func annotated(by labels: [Any?]) -> _ControlTemplateContent {
        var content = self
        for case let label as any ControlLabelAnnotated in labels.compactMap({ $0 }) {
            content.actionHint = content.actionHint ?? label.actionHint
            content.status = content.status ?? label.status
        }
        return content
    }
}

extension View {
    /// What the Action button says the control does ("Turn Off"): `status` prints it.
    public func controlWidgetActionHint(_ hint: LocalizedStringKey) -> _ControlLabelAnnotation<Self> {
        _ControlLabelAnnotation(content: self, actionHint: plainText(Text(hint)), status: nil)
    }

    @_disfavoredOverload
    public func controlWidgetActionHint<S: StringProtocol>(_ hint: S) -> _ControlLabelAnnotation<Self> {
        _ControlLabelAnnotation(content: self, actionHint: String(hint), status: nil)
    }

    public func controlWidgetActionHint(_ hint: Text) -> _ControlLabelAnnotation<Self> {
        _ControlLabelAnnotation(content: self, actionHint: plainText(hint), status: nil)
    }

    /// A status the control shows after its action ("Opened"): drawn as its value.
    public func controlWidgetStatus(_ status: LocalizedStringKey) -> _ControlLabelAnnotation<Self> {
        _ControlLabelAnnotation(content: self, actionHint: nil, status: plainText(Text(status)))
    }

    @_disfavoredOverload
    public func controlWidgetStatus<S: StringProtocol>(_ status: S) -> _ControlLabelAnnotation<Self> {
        _ControlLabelAnnotation(content: self, actionHint: nil, status: String(status))
    }

    public func controlWidgetStatus(_ status: Text) -> _ControlLabelAnnotation<Self> {
        _ControlLabelAnnotation(content: self, actionHint: nil, status: plainText(status))
    }
}
