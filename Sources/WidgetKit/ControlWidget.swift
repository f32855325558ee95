import AppIntents
import Foundation
import SwiftUI

// iOS 18's control widgets, with Apple's names and shapes: a `ControlWidget` in the widget extension's
// `WidgetBundle`, its configuration (`StaticControlConfiguration`, `AppIntentControlConfiguration`), its value
// provider, and `ControlCenter`'s reloads. The widget process serves each control (`ControlSystem`): it asks the
// provider for the value, draws the control as Control Center does, and runs its intent when it is tapped.

/// A control for Control Center, the Lock Screen and the Action button (Apple's `ControlWidget`, iOS 18).
@MainActor @preconcurrency
public protocol ControlWidget {
    associatedtype Body: ControlWidgetConfiguration
    init()
    @ControlWidgetConfigurationBuilder var body: Body { get }
}

/// A control's configuration: `StaticControlConfiguration`, `AppIntentControlConfiguration`, or one of their
/// modified forms (Apple's `ControlWidgetConfiguration`; only WidgetKit's own types conform).
@MainActor @preconcurrency
public protocol ControlWidgetConfiguration {
    var _descriptor: WidgetDescriptor { get }
}

/// Builds a control's configuration (one, or one chosen by `if #available`).
@resultBuilder @MainActor
public enum ControlWidgetConfigurationBuilder {
    public static func buildBlock<Content: ControlWidgetConfiguration>(_ content: Content) -> Content { content }
    public static func buildExpression<Content: ControlWidgetConfiguration>(_ content: Content) -> Content { content }
    public static func buildLimitedAvailability<Content: ControlWidgetConfiguration>(_ content: Content) -> Content { content }
}

extension WidgetBundleBuilder {
    /// A control beside the widgets of a bundle: the same extension process serves both, as on iOS 18.
    public static func buildExpression<Control: ControlWidget>(_ control: Control) -> _ControlWidgetEntry<Control> {
        _ControlWidgetEntry(control)
    }
}

/// A control as one entry of a `WidgetBundle`.
public struct _ControlWidgetEntry<Control: ControlWidget>: Widget, DescribedWidget {
    let control: Control
    init(_ control: Control) { self.control = control }
    public init() { control = Control() }
    public var body: Never { fatalError("a bundle's widget list has no body") }
    var descriptors: [WidgetDescriptor] { [control.body._descriptor] }
}

// MARK: - value providers

/// Gives a control its value (Apple's `ControlValueProvider`): `previewValue` for the controls gallery,
/// `currentValue()` whenever the system shows the control, after a tap and after `ControlCenter`'s reloads.
public protocol ControlValueProvider {
    associatedtype Value
    var previewValue: Value { get }
    func currentValue() async throws -> Value
}

/// Gives a configurable control its value for its configuration (Apple's `AppIntentControlValueProvider`).
public protocol AppIntentControlValueProvider {
    associatedtype Configuration: ControlConfigurationIntent
    associatedtype Value
    func previewValue(configuration: Configuration) -> Value
    func currentValue(configuration: Configuration) async throws -> Value
}

/// A value handed to the task that computes it (providers and values need not be `Sendable`).
final class TaskBox<Value>: @unchecked Sendable {  // @unchecked: used by one task at a time.
    let value: Value
    init(_ value: Value) { self.value = value }
}

/// A control's template for its preview value and for its current value, erased (one widget process serves
/// controls of any value type).
@MainActor
final class ControlSource {
    let preview: () -> _ControlTemplateContent
    /// Asks the provider for the current value (waiting for it, as the system waits) and resolves the template.
    let current: () throws -> _ControlTemplateContent
    /// `AppIntentControlConfiguration`'s: sets the instance's configuration (`--PARAMETER VALUE` text) or throws.
    let configure: (([String: String]) throws -> Void)?

    init(preview: @escaping () -> _ControlTemplateContent, current: @escaping () throws -> _ControlTemplateContent,
         configure: (([String: String]) throws -> Void)? = nil) {
        self.preview = preview
        self.current = current
        self.configure = configure
    }

    /// Asks `provider` for its current value on a task of its own and waits for it. Nonisolated: the task must not
    /// need the main actor, which the waiting caller may be holding.
    nonisolated static func value<Provider, Value>(_ provider: Provider, _ ask: @escaping @Sendable (Provider) async throws -> Value) throws -> Value {
        let box = TaskBox(provider)
        return try IntentExecution.run { TaskBox(try await ask(box.value)) }.value
    }
}

// MARK: - configurations

/// A control with no settings the person can change (Apple's `StaticControlConfiguration`).
public struct StaticControlConfiguration<Content: ControlWidgetTemplate>: ControlWidgetConfiguration {
    public let _descriptor: WidgetDescriptor

    /// A control whose template reads what it shows itself: `content` is evaluated each time the control is shown.
    public init(kind: String, @ControlWidgetTemplateBuilder content: @escaping () -> Content) {
        _descriptor = WidgetDescriptor(kind: kind, control: ControlSource(preview: { content()._content }, current: { content()._content }))
    }

    public init<Provider: ControlValueProvider>(kind: String, provider: Provider,
                                                @ControlWidgetTemplateBuilder content: @escaping (Provider.Value) -> Content) {
        _descriptor = WidgetDescriptor(kind: kind, control: ControlSource(
            preview: { content(provider.previewValue)._content },
            current: { content(try ControlSource.value(provider) { try await $0.currentValue() })._content }))
    }
}

/// A control the person configures (Apple's `AppIntentControlConfiguration`): each instance has its own
/// `ControlConfigurationIntent`; Lockstep serves one instance, set with `configure --PARAMETER VALUE`.
public struct AppIntentControlConfiguration<Intent: ControlConfigurationIntent, Content: ControlWidgetTemplate>: ControlWidgetConfiguration {
    public let _descriptor: WidgetDescriptor

    public init<Provider: AppIntentControlValueProvider>(kind: String, provider: Provider,
                                                         @ControlWidgetTemplateBuilder content: @escaping (Provider.Value) -> Content)
        where Provider.Configuration == Intent {
        let settings = WidgetSettings([:])
        _descriptor = WidgetDescriptor(kind: kind, control: ControlSource(
            preview: { content(provider.previewValue(configuration: (try? Intent.resolve(settings.current)) ?? Intent()))._content },
            current: {
                let configuration = TaskBox(try Intent.resolve(settings.current))
                return content(try ControlSource.value(provider) { try await $0.currentValue(configuration: configuration.value) })._content
            },
            configure: { try Self.configure(settings, $0) }))
    }

    public init(kind: String, intent: Intent.Type = Intent.self, @ControlWidgetTemplateBuilder content: @escaping (Intent) -> Content) {
        let settings = WidgetSettings([:])
        _descriptor = WidgetDescriptor(kind: kind, control: ControlSource(
            preview: { content((try? Intent.resolve(settings.current)) ?? Intent())._content },
            current: { content(try Intent.resolve(settings.current))._content },
            configure: { try Self.configure(settings, $0) }))
    }

    /// Refused settings leave the instance as it was.
    private static func configure(_ settings: WidgetSettings, _ new: [String: String]) throws {
        _ = try Intent.resolve(new)
        settings.set(new)
    }
}

/// A configuration with one of its modifiers applied.
public struct _ModifiedControlConfiguration: ControlWidgetConfiguration {
    public let _descriptor: WidgetDescriptor
}

extension ControlWidgetConfiguration {
    private func modified(_ change: (WidgetDescriptor) -> Void) -> _ModifiedControlConfiguration {
        change(_descriptor)
        return _ModifiedControlConfiguration(_descriptor: _descriptor)
    }

    /// The name the controls gallery shows.
    @_disfavoredOverload
    public func displayName<S: StringProtocol>(_ displayName: S) -> some ControlWidgetConfiguration { setting(\.displayName, String(displayName)) }
    public func displayName(_ displayName: LocalizedStringResource) -> some ControlWidgetConfiguration { setting(\.displayName, displayName.description) }
    public func displayName(_ displayName: Text) -> some ControlWidgetConfiguration { setting(\.displayName, plainText(displayName)) }

    /// The description the controls gallery shows.
    @_disfavoredOverload
    public func description<S: StringProtocol>(_ description: S) -> some ControlWidgetConfiguration { setting(\.description, String(description)) }
    public func description(_ description: LocalizedStringResource) -> some ControlWidgetConfiguration { setting(\.description, description.description) }
    public func description(_ description: Text) -> some ControlWidgetConfiguration { setting(\.description, plainText(description)) }

    private func setting(_ field: ReferenceWritableKeyPath<WidgetDescriptor, String?>, _ text: String) -> _ModifiedControlConfiguration {
        modified { $0[keyPath: field] = text }
    }

    /// The system asks the person to configure the control when they add it: until `configure` sets it, a tap is
    /// refused, naming the command that configures it.
    public func promptsForUserConfiguration() -> some ControlWidgetConfiguration {
        modified { $0.promptsForConfiguration = true }
    }
}
