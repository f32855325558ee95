import AppIntents
import Foundation
import SwiftUI

/// A provider whose widgets the person configures (Apple's `AppIntentTimelineProvider`, iOS 17): each widget
/// instance has its own `WidgetConfigurationIntent`, and each reload serves it its own timeline.
public protocol AppIntentTimelineProvider {
    associatedtype Entry: TimelineEntry
    associatedtype Intent: WidgetConfigurationIntent
    typealias Context = TimelineProviderContext

    func placeholder(in context: Context) -> Entry
    func snapshot(for configuration: Intent, in context: Context) async -> Entry
    func timeline(for configuration: Intent, in context: Context) async -> Timeline<Entry>
    /// The configurations to offer where a widget cannot be edited (watchOS's Smart Stack): none by default.
    func recommendations() -> [AppIntentRecommendation<Intent>]
}

extension AppIntentTimelineProvider {
    public func recommendations() -> [AppIntentRecommendation<Intent>] { [] }
}

/// A preconfigured widget configuration, with its description, that the system offers.
public struct AppIntentRecommendation<Intent: WidgetConfigurationIntent> {
    public let intent: Intent
    public let description: Text

    public init(intent: Intent, description: Text) {
        self.intent = intent
        self.description = description
    }

    public init(intent: Intent, description: LocalizedStringResource) {
        self.init(intent: intent, description: Text(description.description))
    }

    public init<S: StringProtocol>(intent: Intent, description: S) {
        self.init(intent: intent, description: Text(String(description)))
    }
}

/// A configurable widget instance's settings, as `--PARAMETER VALUE` text (`configure` replaces them).
final class WidgetSettings: @unchecked Sendable {  // @unchecked: guarded by `lock`.
    private let lock = NSLock()
    private var values: [String: String]
    init(_ values: [String: String]) { self.values = values }
    var current: [String: String] { lock.withLock { values } }
    func set(_ new: [String: String]) { lock.withLock { values = new } }
}

/// An `AppIntentTimelineProvider` with one instance's configuration, served as a `TimelineProvider`: what
/// `WidgetExtension.main` runs for a configurable widget.
struct ConfiguredProvider<Provider: AppIntentTimelineProvider>: TimelineProvider {
    let provider: Provider
    /// The instance's settings, as `--PARAMETER VALUE` text: resolved into the intent on each request, so a
    /// `configure` takes effect at the next reload.
    let settings: WidgetSettings

    func configuration() throws -> Provider.Intent { try Provider.Intent.resolve(settings.current) }

    func placeholder(in context: Context) -> Provider.Entry { provider.placeholder(in: context) }

    func getSnapshot(in context: Context, completion: @escaping (Provider.Entry) -> ()) {
        guard let configuration = try? configuration() else { return completion(provider.placeholder(in: context)) }
        let work = Work(provider, configuration, context)
        completion((try? IntentExecution.run { await work.provider.snapshot(for: work.configuration, in: work.context) }) ?? provider.placeholder(in: context))
    }

    func getTimeline(in context: Context, completion: @escaping (Timeline<Provider.Entry>) -> ()) {
        guard let configuration = try? configuration() else { return completion(Timeline(entries: [], policy: .never)) }
        let work = Work(provider, configuration, context)
        completion((try? IntentExecution.run { await work.provider.timeline(for: work.configuration, in: work.context) }) ?? Timeline(entries: [], policy: .never))
    }

    /// What one request hands to the task that serves it (providers and intents need not be `Sendable`).
    final class Work: @unchecked Sendable {  // @unchecked: used by one task at a time.
        let provider: Provider
        let configuration: Provider.Intent
        let context: Context
        init(_ provider: Provider, _ configuration: Provider.Intent, _ context: Context) {
            self.provider = provider
            self.configuration = configuration
            self.context = context
        }
    }
}
