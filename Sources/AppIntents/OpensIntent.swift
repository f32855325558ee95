import Foundation

// Results that open another intent when the first is done (Apple's `OpensIntent`): `.result(opensIntent:)` and its
// forms with a value and a dialog. The extension runs the opened intent next, where iOS would run it; an
// `OpenURLIntent` opens its URL in the app.

/// A result that opens another intent when it is done.
public protocol OpensIntent: IntentResult {
    /// The intent the system runs next.
    var openedIntent: any AppIntent { get }
}

/// The result of `.result(opensIntent:)` and its forms.
public struct OpensIntentResultContainer<Value, Dialog, Opened: AppIntent>: OpensIntent, ReturnsValue, @unchecked Sendable {  // @unchecked: a result is handed to the system once, as Apple's is.
    public let value: Value?
    public let dialog: IntentDialog?
    let opened: Opened

    public var valueText: String? { value.map { "\($0)" } }
    public var openedIntent: any AppIntent { opened }
}

extension OpensIntentResultContainer: ProvidesDialog where Dialog == IntentDialog {}

extension IntentResult {
    public static func result<Opened: AppIntent>(opensIntent: Opened) -> Self where Self == OpensIntentResultContainer<Never, Never, Opened> {
        OpensIntentResultContainer(value: nil, dialog: nil, opened: opensIntent)
    }

    public static func result<Opened: AppIntent>(opensIntent: Opened, dialog: IntentDialog) -> Self
    where Self == OpensIntentResultContainer<Never, IntentDialog, Opened> {
        OpensIntentResultContainer(value: nil, dialog: dialog, opened: opensIntent)
    }

    public static func result<Value, Opened: AppIntent>(value: Value, opensIntent: Opened) -> Self
    where Self == OpensIntentResultContainer<Value, Never, Opened> {
        OpensIntentResultContainer(value: value, dialog: nil, opened: opensIntent)
    }

    public static func result<Value, Opened: AppIntent>(value: Value, opensIntent: Opened, dialog: IntentDialog) -> Self
    where Self == OpensIntentResultContainer<Value, IntentDialog, Opened> {
        OpensIntentResultContainer(value: value, dialog: dialog, opened: opensIntent)
    }
}

/// Opens a URL — a deep link or universal link into the app — as the system does when an intent's result opens it
/// (Apple's `OpenURLIntent`). It opens the app, so it never runs in an extension.
public struct OpenURLIntent: AppIntent {
    public static let title: LocalizedStringResource = "Open URL"
    public static let openAppWhenRun = true

    @Parameter(title: "URL") public var url: URL

    public init() {}

    public init(_ url: URL) { self.url = url }

    public func perform() async throws -> some IntentResult { .result() }
}

extension OpenedIntentRequest {
    /// The intent `result` opens, as its name and `--NAME VALUE` arguments; nil when it opens none.
    init?(openedBy result: any IntentResult) {
        guard let opens = result as? any OpensIntent else { return nil }
        self.init(name: type(of: opens.openedIntent).name, arguments: opens.openedIntent.argumentTexts)
    }
}
