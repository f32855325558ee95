import AppIntents
import Foundation

// The App Intents results that show a view (Apple's `ShowsSnippetView`). Apple declares them in App Intents, which
// sees SwiftUI; Lockstep's AppIntents cannot import SwiftUI (SwiftUI imports it), so they live here, and code that
// builds a snippet's view imports SwiftUI anyway.

/// A result with a snippet view: the value and dialog of `IntentResultContainer`, and `Content` drawn by the renderer
/// widgets are drawn with, at the snippet's width.
public struct SnippetIntentResult<Value, Dialog, Content: View>: ShowsSnippetView, ReturnsValue, @unchecked Sendable {  // @unchecked: a result is handed to the system once, as Apple's is.
    public let value: Value?
    public let dialog: IntentDialog?
    let view: Content

    public var valueText: String? { value.map { "\($0)" } }

    /// The width Siri and the Shortcuts app give a snippet: the card's width on a large iPhone. The height is the
    /// view's own (its ideal height at that width).
    static var width: CGFloat { 364 }

    @MainActor public func renderSnippet() -> RenderedSnippet {
        let environment = EnvironmentValues()
        let height = fittingSize(view, width: Self.width, height: nil, environment: environment).height
        let drawn = render(view, RenderRequest(size: CGSize(width: Self.width, height: max(1, height.rounded(.up))), environment: environment))
        return RenderedSnippet(texts: drawn.texts, svg: drawn.svg(title: "snippet"))
    }
}

extension SnippetIntentResult: ProvidesDialog where Dialog == IntentDialog {}

extension IntentResult {
    /// `.result(value:dialog:view:)`: a value, what Siri says, and a view shown under it.
    public static func result<Value, Content: View>(value: Value, dialog: IntentDialog, view: Content) -> Self
    where Self == SnippetIntentResult<Value, IntentDialog, Content> {
        SnippetIntentResult(value: value, dialog: dialog, view: view)
    }

    public static func result<Content: View>(dialog: IntentDialog, view: Content) -> Self
    where Self == SnippetIntentResult<Never, IntentDialog, Content> {
        SnippetIntentResult(value: nil, dialog: dialog, view: view)
    }

    public static func result<Value, Content: View>(value: Value, view: Content) -> Self
    where Self == SnippetIntentResult<Value, Never, Content> {
        SnippetIntentResult(value: value, dialog: nil, view: view)
    }

    public static func result<Content: View>(view: Content) -> Self where Self == SnippetIntentResult<Never, Never, Content> {
        SnippetIntentResult(value: nil, dialog: nil, view: view)
    }

    /// The `content:` forms: the view from a builder.
    public static func result<Value, Content: View>(value: Value, dialog: IntentDialog, @ViewBuilder content: () -> Content) -> Self
    where Self == SnippetIntentResult<Value, IntentDialog, Content> {
        SnippetIntentResult(value: value, dialog: dialog, view: content())
    }

    public static func result<Content: View>(dialog: IntentDialog, @ViewBuilder content: () -> Content) -> Self
    where Self == SnippetIntentResult<Never, IntentDialog, Content> {
        SnippetIntentResult(value: nil, dialog: dialog, view: content())
    }
}
