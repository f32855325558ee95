import AppIntents
import Foundation
import Intents
import SwiftUI

// Apple's widget declarations, with Apple's names and shapes, so that a widget file written for iOS — its `Widget`,
// its configuration, its `@main WidgetBundle` — builds unchanged. Each configuration also describes itself to the
// simulated system (`WidgetDescriptor`): what Lockstep's widget process serves and draws.

/// A widget's configuration: `StaticConfiguration`, `AppIntentConfiguration`, `ActivityConfiguration`, or a type
/// of yours whose `body` is one.
@MainActor @preconcurrency
public protocol WidgetConfiguration {
    associatedtype Body: WidgetConfiguration
    @WidgetConfigurationBuilder var body: Body { get }
}

/// A widget: `var body: some WidgetConfiguration`.
@MainActor @preconcurrency
public protocol Widget {
    associatedtype Body: WidgetConfiguration
    init()
    @WidgetConfigurationBuilder var body: Body { get }
}

/// The widgets an extension offers: the `@main` type of a widget extension.
@MainActor @preconcurrency
public protocol WidgetBundle {
    associatedtype Body: Widget
    init()
    @WidgetBundleBuilder var body: Body { get }
}

/// The configurations WidgetKit declares itself have no body.
extension Never: WidgetConfiguration {
    public typealias Body = Never
    public var body: Never { fatalError("Never has no body.") }
}

extension Never: Widget {
    public init() { fatalError("Never cannot be made.") }
}

/// How a configuration describes itself: the primitive configurations answer directly, the rest through `body`.
@MainActor
protocol DescribedConfiguration {
    var descriptors: [WidgetDescriptor] { get }
}

@MainActor
protocol DescribedWidget {
    var descriptors: [WidgetDescriptor] { get }
}

@MainActor
enum Describe {
    // Only a type with no body can be one of the described primitives: the cast's first answer for each type scans
    // every protocol conformance the process loaded, and a widget you write (it has a body) need not pay it.
    static func configuration<C: WidgetConfiguration>(_ configuration: C) -> [WidgetDescriptor] {
        if C.Body.self == Never.self, let described = configuration as? any DescribedConfiguration { return described.descriptors }
        return Self.configuration(configuration.body)
    }

    static func widget<W: Widget>(_ widget: W) -> [WidgetDescriptor] {
        if W.Body.self == Never.self, let described = widget as? any DescribedWidget { return described.descriptors }
        return configuration(widget.body)
    }

    static func bundle<B: WidgetBundle>(_ bundle: B) -> [WidgetDescriptor] { widget(bundle.body) }
}

// MARK: - builders

/// Builds a widget's configuration (one, or one chosen by `if`/`if #available`).
@resultBuilder @MainActor
public enum WidgetConfigurationBuilder {
    public static func buildBlock() -> EmptyWidgetConfiguration { EmptyWidgetConfiguration() }
    public static func buildBlock<Content: WidgetConfiguration>(_ content: Content) -> Content { content }
    public static func buildExpression<Content: WidgetConfiguration>(_ content: Content) -> Content { content }
    public static func buildEither<First: WidgetConfiguration, Second: WidgetConfiguration>(first: First) -> _ConditionalWidgetConfiguration<First, Second> { .init(storage: .first(first)) }
    public static func buildEither<First: WidgetConfiguration, Second: WidgetConfiguration>(second: Second) -> _ConditionalWidgetConfiguration<First, Second> { .init(storage: .second(second)) }
    public static func buildLimitedAvailability<Content: WidgetConfiguration>(_ content: Content) -> Content { content }
}

/// One of two configurations, as an `if`/`else` in a widget's `body` chose.
public struct _ConditionalWidgetConfiguration<First: WidgetConfiguration, Second: WidgetConfiguration>: WidgetConfiguration, DescribedConfiguration {
    enum Storage { case first(First), second(Second) }
    let storage: Storage
    public var body: Never { fatalError("a primitive configuration has no body") }
    var descriptors: [WidgetDescriptor] {
        switch storage {
        case .first(let first): return Describe.configuration(first)
        case .second(let second): return Describe.configuration(second)
        }
    }
}

/// Builds a bundle's widgets: a list, with `if`, `if #available` and `if let`.
@resultBuilder @MainActor
public enum WidgetBundleBuilder {
    public static func buildBlock() -> _EmptyWidget { _EmptyWidget() }
    public static func buildBlock<each W: Widget>(_ widgets: repeat each W) -> _TupleWidget<repeat each W> { _TupleWidget(repeat each widgets) }
    public static func buildExpression<W: Widget>(_ widget: W) -> W { widget }
    public static func buildOptional<W: Widget>(_ widget: W?) -> _OptionalWidget<W> { _OptionalWidget(widget) }
    public static func buildEither<First: Widget, Second: Widget>(first: First) -> _ConditionalWidget<First, Second> { .init(storage: .first(first)) }
    public static func buildEither<First: Widget, Second: Widget>(second: Second) -> _ConditionalWidget<First, Second> { .init(storage: .second(second)) }
    public static func buildLimitedAvailability<W: Widget>(_ widget: W) -> _OptionalWidget<W> { _OptionalWidget(widget) }
}

/// A bundle with no widget.
public struct _EmptyWidget: Widget, DescribedWidget {
    public init() {}
    public var body: Never { fatalError("a bundle's widget list has no body") }
    var descriptors: [WidgetDescriptor] { [] }
}

/// A bundle's widgets, in order.
public struct _TupleWidget<each W: Widget>: Widget, DescribedWidget {
    let widgets: (repeat each W)
    init(_ widgets: repeat each W) { self.widgets = (repeat each widgets) }
    public init() { widgets = (repeat (each W)()) }
    public var body: Never { fatalError("a bundle's widget list has no body") }
    var descriptors: [WidgetDescriptor] {
        var all: [WidgetDescriptor] = []
        for widget in repeat each widgets { all += Describe.widget(widget) }
        return all
    }
}

/// A widget an `if` (or `if #available`) left in or out.
public struct _OptionalWidget<W: Widget>: Widget, DescribedWidget {
    let widget: W?
    init(_ widget: W?) { self.widget = widget }
    public init() { widget = W() }
    public var body: Never { fatalError("a bundle's widget list has no body") }
    var descriptors: [WidgetDescriptor] { widget.map(Describe.widget) ?? [] }
}

/// One of two widgets, as an `if`/`else` chose.
public struct _ConditionalWidget<First: Widget, Second: Widget>: Widget, DescribedWidget {
    enum Storage { case first(First), second(Second) }
    let storage: Storage
    init(storage: Storage) { self.storage = storage }
    public init() { storage = .first(First()) }
    public var body: Never { fatalError("a bundle's widget list has no body") }
    var descriptors: [WidgetDescriptor] {
        switch storage {
        case .first(let first): return Describe.widget(first)
        case .second(let second): return Describe.widget(second)
        }
    }
}

// MARK: - the configurations

/// A configuration with no widget (Apple's `EmptyWidgetConfiguration`).
public struct EmptyWidgetConfiguration: WidgetConfiguration, DescribedConfiguration {
    public init() {}
    public var body: Never { fatalError("a primitive configuration has no body") }
    var descriptors: [WidgetDescriptor] { [] }
}

/// A widget with no settings the person can change (Apple's `StaticConfiguration`).
public struct StaticConfiguration<Content: View>: WidgetConfiguration, DescribedConfiguration {
    let descriptor: WidgetDescriptor
    public var body: Never { fatalError("a primitive configuration has no body") }
    var descriptors: [WidgetDescriptor] { [descriptor] }

    public init<Provider: TimelineProvider>(kind: String, provider: Provider,
                                           @ViewBuilder content: @escaping (Provider.Entry) -> Content) {
        descriptor = WidgetDescriptor(kind: kind, source: TimelineSource(provider: provider, content: content))
    }
}

/// A widget the person configures (Apple's `AppIntentConfiguration`, iOS 17): each instance has its own
/// `WidgetConfigurationIntent` (rule `widget.configurable`); Lockstep serves one instance, set with `configure`.
public struct AppIntentConfiguration<Intent: WidgetConfigurationIntent, Content: View>: WidgetConfiguration, DescribedConfiguration {
    let descriptor: WidgetDescriptor
    public var body: Never { fatalError("a primitive configuration has no body") }
    var descriptors: [WidgetDescriptor] { [descriptor] }

    public init<Provider: AppIntentTimelineProvider>(kind: String, intent: Intent.Type = Intent.self, provider: Provider,
                                                    @ViewBuilder content: @escaping (Provider.Entry) -> Content) where Intent == Provider.Intent {
        let configured = ConfiguredProvider(provider: provider, settings: .init([:]))
        descriptor = WidgetDescriptor(kind: kind, source: TimelineSource(provider: configured, content: content, configure: { settings in
            let previous = configured.settings.current
            configured.settings.set(settings)
            do { _ = try configured.configuration() } catch { configured.settings.set(previous); throw error }
        }))
    }
}

/// A widget the person configures through a SiriKit intent (Apple's `IntentConfiguration`, iOS 14): `Intent` is the
/// class Xcode generates from an `.intentdefinition`; each instance has its own intent object (rule
/// `widget.configurable`). Lockstep serves one instance, set with `configure --PARAMETER VALUE`, which sets the
/// generated class's `@IntentManaged` parameters.
public struct IntentConfiguration<Intent: INIntent, Content: View>: WidgetConfiguration, DescribedConfiguration {
    let descriptor: WidgetDescriptor
    public var body: Never { fatalError("a primitive configuration has no body") }
    var descriptors: [WidgetDescriptor] { [descriptor] }

    public init<Provider: IntentTimelineProvider>(kind: String, intent: Intent.Type, provider: Provider,
                                                 @ViewBuilder content: @escaping (Provider.Entry) -> Content) where Intent == Provider.Intent {
        let configured = SiriConfiguredProvider(provider: provider, settings: WidgetSettings([:]))
        descriptor = WidgetDescriptor(kind: kind, source: TimelineSource(provider: configured, content: content, configure: { settings in
            _ = try SiriConfiguredProvider<Provider>.intent(settings)  // refused settings leave the instance as it was
            configured.settings.set(settings)
        }))
    }
}

// MARK: - modifiers

/// A configuration with one of WidgetKit's modifiers applied.
public struct _ModifiedWidgetConfiguration<Content: WidgetConfiguration>: WidgetConfiguration, DescribedConfiguration {
    let content: Content
    let change: (WidgetDescriptor) -> Void
    public var body: Never { fatalError("a primitive configuration has no body") }
    var descriptors: [WidgetDescriptor] {
        let all = Describe.configuration(content)
        all.forEach(change)
        return all
    }
}

extension WidgetConfiguration {
    private func modified(_ change: @escaping (WidgetDescriptor) -> Void) -> _ModifiedWidgetConfiguration<Self> {
        _ModifiedWidgetConfiguration(content: self, change: change)
    }

    /// The name the widget gallery shows.
    public func configurationDisplayName<S: StringProtocol>(_ displayName: S) -> some WidgetConfiguration {
        modified { $0.displayName = String(displayName) }
    }

    @_disfavoredOverload
    public func configurationDisplayName(_ displayName: LocalizedStringResource) -> some WidgetConfiguration {
        modified { $0.displayName = String(describing: displayName) }
    }

    public func configurationDisplayName(_ displayNameKey: LocalizedStringKey) -> some WidgetConfiguration {
        let text = plainText(Text(displayNameKey))
        return modified { $0.displayName = text }
    }

    public func configurationDisplayName(_ displayName: Text) -> some WidgetConfiguration {
        let text = plainText(displayName)
        return modified { $0.displayName = text }
    }

    /// The description the widget gallery shows.
    public func description<S: StringProtocol>(_ description: S) -> some WidgetConfiguration {
        modified { $0.description = String(description) }
    }

    @_disfavoredOverload
    public func description(_ description: LocalizedStringResource) -> some WidgetConfiguration {
        modified { $0.description = String(describing: description) }
    }

    public func description(_ descriptionKey: LocalizedStringKey) -> some WidgetConfiguration {
        let text = plainText(Text(descriptionKey))
        return modified { $0.description = text }
    }

    public func description(_ description: Text) -> some WidgetConfiguration {
        let text = plainText(description)
        return modified { $0.description = text }
    }

    /// The families the widget offers (rule `widget.families`); without it, every family of the platform.
    public func supportedFamilies(_ families: [WidgetFamily]) -> some WidgetConfiguration {
        modified { $0.families = families }
    }

    /// The widget draws to its edges: the system adds no content margins (iOS 17).
    public func contentMarginsDisabled() -> some WidgetConfiguration {
        modified { $0.contentMarginsDisabled = true }
    }

    /// Whether the system may remove the widget's container background (StandBy, the Lock Screen); default true.
    public func containerBackgroundRemovable(_ isRemovable: Bool = true) -> some WidgetConfiguration {
        modified { $0.containerBackgroundRemovable = isRemovable }
    }

}

/// What a `Text` says, as the renderer draws it on one long line (a configuration's or control's name).
@MainActor
func plainText(_ text: Text) -> String {
    SwiftUI.render(text, RenderRequest(size: CGSize(width: 100_000, height: 1_000))).texts.joined(separator: " ")
}
