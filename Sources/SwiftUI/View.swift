@_exported import Foundation
// Apple's SwiftUI re-exports Combine: a view file that imports only SwiftUI names ObservableObject and @Published.
@_exported import Combine

/// A piece of user interface, declared as Apple declares it: a value whose `body` is another view.
///
/// Main-actor isolated with `@preconcurrency`, as Apple's is, so a view's `body` may call main-actor code and views
/// written for iOS compile unchanged under Swift 6's strict concurrency.
@MainActor @preconcurrency
public protocol View {
    associatedtype Body: View
    @ViewBuilder @MainActor @preconcurrency var body: Self.Body { get }
    /// The renderer's entry (underscored, as Apple's own `_makeView`; no view implements it): how this view becomes
    /// layout nodes. Each primitive view's conformance names its own, any other view's is its body's: the renderer
    /// finds it through the conformance instead of asking at run time whether a view is primitive — a cast whose
    /// first answer for each view type scans every protocol conformance the process loaded.
    @MainActor @preconcurrency static func _resolve(_ view: Self, _ inputs: _ResolveInputs) -> _ResolvedNodes
}

/// A view with no body of its own, drawn by the renderer (Apple's primitive views have `Body == Never`).
extension Never: View {
    public typealias Body = Never
    public var body: Never { fatalError("Never has no body") }
}

extension View where Body == Never {
    /// Primitive views have no body: the renderer draws them itself.
    public var body: Never { fatalError("\(Self.self) is a primitive view: it has no body") }
}

/// A view that shows nothing and takes no space.
public struct EmptyView: Sendable {
    public init() {}
}
extension EmptyView: View { public typealias Body = Never }

/// Several views, as a `@ViewBuilder` block with more than one statement makes them.
public struct TupleView<T> {
    public var value: T { didSet { children = nil } }
    /// The elements as views, when a `@ViewBuilder` block made this and `value` is unchanged since (the renderer
    /// walks them instead of reflecting on `value`, whose first reflection and casts for each tuple type cost more
    /// than drawing it).
    var children: [any View]?
    public init(_ value: T) { self.value = value }
}
extension TupleView: View { public typealias Body = Never }

/// One of two views, as `if`/`else` and `switch` in a `@ViewBuilder` make it.
public struct _ConditionalContent<TrueContent: View, FalseContent: View> {
    enum Storage {
        case trueContent(TrueContent)
        case falseContent(FalseContent)
    }
    let storage: Storage
    init(storage: Storage) { self.storage = storage }
}
extension _ConditionalContent: View { public typealias Body = Never }

/// `if` without `else` in a `@ViewBuilder`: the view, or nothing.
extension Optional: View where Wrapped: View {
    public typealias Body = Never
}

/// A type-erased view.
public struct AnyView {
    let view: any View
    public init<V: View>(_ view: V) { self.view = view }
    public init<V: View>(erasing view: V) { self.view = view }
    /// The view it holds, for code that asks what it is (WidgetKit's controls look for a `Label`).
    package var base: any View { view }
}
extension AnyView: View { public typealias Body = Never }

/// Views grouped without a layout of their own: modifiers on a group apply to each of its views.
public struct Group<Content> {
    let content: Content
}
extension Group: View where Content: View {
    public typealias Body = Never
    public init(@ViewBuilder content: () -> Content) { self.content = content() }
}
