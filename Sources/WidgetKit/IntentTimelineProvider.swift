import AppIntents
import Foundation
import Intents

/// A provider whose widgets the person configures through a SiriKit intent (Apple's `IntentTimelineProvider`,
/// iOS 14): `Intent` is the class Xcode generates from the app's `.intentdefinition`, kept as a source file. Each
/// widget instance has its own intent object, and each request is served it. As with `TimelineProvider`, the
/// completions are not `@Sendable`, so a provider written as Xcode's template writes it builds unchanged.
public protocol IntentTimelineProvider {
    associatedtype Entry: TimelineEntry
    associatedtype Intent: INIntent
    typealias Context = TimelineProviderContext

    /// A placeholder, synchronously and without fetching data: rendered redacted while the real entry loads.
    func placeholder(in context: Context) -> Entry
    /// One entry for the instance's configuration, fast: the widget gallery and one-shot renders use it.
    func getSnapshot(for configuration: Intent, in context: Context, completion: @escaping (Entry) -> ())
    /// Entries for now and the future for the instance's configuration, with the policy for the next request.
    func getTimeline(for configuration: Intent, in context: Context, completion: @escaping (Timeline<Entry>) -> ())
    /// Preconfigured instances, for platforms with no interface to configure a widget (watchOS complications):
    /// kept, not offered, as on iOS, where they are inactive. None unless the provider says otherwise.
    func recommendations() -> [IntentRecommendation<Intent>]
}

extension IntentTimelineProvider {
    public func recommendations() -> [IntentRecommendation<Intent>] { [] }
}

/// A preconfigured instance of a SiriKit-configured widget, with a description (Apple's `IntentRecommendation`).
public struct IntentRecommendation<T: INIntent> {
    let intent: T
    let text: String

    public init<S: StringProtocol>(intent: T, description: S) {
        self.intent = intent
        text = String(description)
    }

    public init(intent: T, description: LocalizedStringResource) {
        self.intent = intent
        text = String(describing: description)
    }
}

/// An `IntentTimelineProvider` with one instance's configuration, served as a `TimelineProvider`: what
/// `WidgetExtension.main` runs for an `IntentConfiguration` widget.
struct SiriConfiguredProvider<Provider: IntentTimelineProvider>: TimelineProvider {
    let provider: Provider
    /// The instance's settings, as `--PARAMETER VALUE` text: a fresh intent object is made from them for each
    /// request, so a `configure` takes effect at the next reload and the provider never sees a half-set intent.
    let settings: WidgetSettings

    /// The instance's intent: the generated class's `@IntentManaged` parameters set from its definition's defaults,
    /// then from the settings.
    /// - Throws: `WidgetKitError.invalidConfiguration` for a parameter the class lacks or a value not of its type.
    static func intent(_ settings: [String: String]) throws -> Provider.Intent {
        let intent = Provider.Intent()
        let parameters = intent.managedParameters
        // An instance starts with its `.intentdefinition`'s defaults, as a widget the person adds on a device.
        let defaults = Provider.Intent.definitionDefaults.filter { parameters[$0.key] != nil }
        for (name, text) in defaults.merging(settings, uniquingKeysWith: { $1 }).sorted(by: { $0.key < $1.key }) {
            guard let parameter = parameters[name] else {
                let known = parameters.keys.sorted().map { "--\($0)" }.joined(separator: ", ")
                throw WidgetKitError(.invalidConfiguration, subject: name,
                                     detail: "\(Provider.Intent.self) has no such parameter (its parameters: \(known.isEmpty ? "none" : known))")
            }
            guard parameter.set(text: text) else {
                throw WidgetKitError(.invalidConfiguration, subject: name, detail: "'\(text)' is not a value of type \(parameter.valueTypeName)")
            }
        }
        return intent
    }

    func placeholder(in context: Context) -> Provider.Entry { provider.placeholder(in: context) }

    func getSnapshot(in context: Context, completion: @escaping (Provider.Entry) -> ()) {
        guard let intent = try? Self.intent(settings.current) else { return completion(provider.placeholder(in: context)) }
        provider.getSnapshot(for: intent, in: context, completion: completion)
    }

    func getTimeline(in context: Context, completion: @escaping (Timeline<Provider.Entry>) -> ()) {
        guard let intent = try? Self.intent(settings.current) else { return completion(Timeline(entries: [], policy: .never)) }
        provider.getTimeline(for: intent, in: context, completion: completion)
    }
}
