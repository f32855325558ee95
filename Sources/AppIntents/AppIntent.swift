import Foundation

/// An action the system can run for the user, declared as Apple declares it (rule `intent.perform`): a title,
/// an optional description, typed `@Parameter`s, and `perform()`, whose result carries a dialog and a value. A
/// failure is a thrown error.
public protocol AppIntent: SendableMetatype {
    static var title: LocalizedStringResource { get }
    static var description: IntentDescription? { get }
    /// Whether the intent runs in the app (brought to the foreground), never in an extension.
    static var openAppWhenRun: Bool { get }
    associatedtype PerformResult: IntentResult
    init()
    func perform() async throws -> PerformResult
    /// The sentence the Shortcuts app shows for the action (`ParameterSummary`); none by default.
    associatedtype SummaryContent: ParameterSummary = EmptyParameterSummary
    @ParameterSummaryBuilder<Self> static var parameterSummary: SummaryContent { get }
    /// Whether it runs on a locked device; the simulated device is unlocked, so every policy runs.
    static var authenticationPolicy: IntentAuthenticationPolicy { get }
    /// Whether the system may offer the intent (Spotlight, Shortcuts' suggestions).
    static var isDiscoverable: Bool { get }
}

extension AppIntent where SummaryContent == EmptyParameterSummary {
    public static var parameterSummary: EmptyParameterSummary { EmptyParameterSummary() }
}

extension AppIntent {
    public static var description: IntentDescription? { nil }
    public static var openAppWhenRun: Bool { false }
    public static var authenticationPolicy: IntentAuthenticationPolicy { .alwaysAllowed }
    public static var isDiscoverable: Bool { true }
    /// The name the command line and requests use: the type's name (`CompleteHabitIntent`).
    public static var name: String { String(describing: Self.self) }
    /// Whether `perform()`'s result shows a snippet view (`some IntentResult & ShowsSnippetView`).
    public static var showsSnippet: Bool { PerformResult.self is any ShowsSnippetView.Type }
}

// MARK: - results

/// What `perform()` returns (Apple's `IntentResult`): made with `.result()`, `.result(dialog:)`,
/// `.result(value:)` or `.result(value:dialog:)`.
public protocol IntentResult: Sendable {
    /// What the system says or shows (Lockstep prints it).
    var dialog: IntentDialog? { get }
    /// The value, for the next action of a shortcut, as text.
    var valueText: String? { get }
}

/// A result that has a dialog: `some IntentResult & ProvidesDialog`.
public protocol ProvidesDialog: IntentResult {}

/// A result that returns a value of `Value`: `some IntentResult & ReturnsValue<Int>`.
public protocol ReturnsValue<Value>: IntentResult {
    associatedtype Value
}

/// The one concrete result type (Apple's `IntentResultContainer`), its generic parameters saying what it holds.
public struct IntentResultContainer<Value, Dialog>: IntentResult, ReturnsValue, @unchecked Sendable {  // @unchecked: a result is handed to the system once, as Apple's is.
    public let value: Value?
    public let dialog: IntentDialog?

    public var valueText: String? { value.map { "\($0)" } }
}

extension IntentResultContainer: ProvidesDialog where Dialog == IntentDialog {}

extension IntentResult where Self == IntentResultContainer<Never, Never> {
    public static func result() -> Self { IntentResultContainer(value: nil, dialog: nil) }
}

extension IntentResult where Self == IntentResultContainer<Never, IntentDialog> {
    public static func result(dialog: IntentDialog) -> Self { IntentResultContainer(value: nil, dialog: dialog) }
}

extension IntentResult {
    public static func result<Value>(value: Value) -> Self where Self == IntentResultContainer<Value, Never> {
        IntentResultContainer(value: value, dialog: nil)
    }

    public static func result<Value>(value: Value, dialog: IntentDialog) -> Self where Self == IntentResultContainer<Value, IntentDialog> {
        IntentResultContainer(value: value, dialog: dialog)
    }
}

/// A result as it crosses processes: the dialog and the value as text, and the snippet as drawn (rule
/// `intent.where`).
public struct PerformedResult: Sendable, Equatable {
    public var dialog: String?
    public var value: String?
    public var snippet: RenderedSnippet?
    /// The intent the result opens (`OpensIntent`): its name and arguments, for the system to run next.
    public var opens: OpenedIntentRequest?

    public init(dialog: String?, value: String?, snippet: RenderedSnippet? = nil, opens: OpenedIntentRequest? = nil) {
        self.dialog = dialog
        self.value = value
        self.snippet = snippet
        self.opens = opens
    }

    /// The dialog, the value and the intent it opens: for a result no one sees as a snippet (a widget's button).
    public init(_ result: any IntentResult) {
        self.init(dialog: result.dialog?.description, value: result.valueText, opens: OpenedIntentRequest(openedBy: result))
    }

    /// The dialog and value, and a `ShowsSnippetView` result's view drawn on the main actor, as Siri and the
    /// Shortcuts app show it under the dialog.
    public static func showing(_ result: any IntentResult) async -> PerformedResult {
        var performed = PerformedResult(result)
        if let snippet = result as? any ShowsSnippetView {
            performed.snippet = await MainActor.run { snippet.renderSnippet() }
        }
        return performed
    }
}

/// An intent a result opens, as it crosses processes: its name and its `--NAME VALUE` arguments.
public struct OpenedIntentRequest: Sendable, Equatable {
    public var name: String
    public var arguments: [String: String]

    public init(name: String, arguments: [String: String]) {
        self.name = name
        self.arguments = arguments
    }
}

// MARK: - the intent a widget is configured with

/// An intent that configures a widget instance (Apple's `WidgetConfigurationIntent`): its parameters are the
/// widget's settings; it performs nothing of its own.
public protocol WidgetConfigurationIntent: AppIntent {}

extension WidgetConfigurationIntent {
    public func perform() async throws -> IntentResultContainer<Never, Never> { .result() }
}
