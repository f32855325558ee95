/// What the renderer carries down the view tree while it turns views into layout nodes.
struct ResolveContext {
    var environment: EnvironmentValues
    let found: Findings
    /// The content of the `ViewModifier`s being resolved, innermost last (`_ViewModifier_Content` resolves it).
    var modifierContents: [(ResolveContext) -> [Node]] = []
}

/// What resolving finds that is not drawn in place: container backgrounds and the widget URL.
final class Findings {
    /// The first `containerBackground` declared for each placement, already resolved.
    var containerBackgrounds: [String: Node] = [:]
    /// The outermost `widgetURL`.
    var widgetURL: URL?
    /// `onAppear` and `task` work of the views resolved, in order: what a headless app runs (`App.main`).
    var appearing: [@MainActor () -> Void] = []
}

/// A view the renderer knows how to turn into nodes itself (Apple's primitive views).
protocol PrimitiveView {
    @MainActor func nodes(_ context: ResolveContext) -> [Node]
}

/// Turns a view into layout nodes: primitives make their own, others are their body's (`View._resolve`).
@MainActor
func resolve<V: View>(_ view: V, _ context: ResolveContext) -> [Node] {
    V._resolve(view, _ResolveInputs(context: context)).nodes
}

/// What the renderer hands `View._resolve`: the resolve context, opaque outside this module.
public struct _ResolveInputs {
    let context: ResolveContext
}

/// What `View._resolve` gives back: the view's layout nodes, opaque outside this module.
public struct _ResolvedNodes {
    let nodes: [Node]
}

extension View {
    /// A view with a body: its body's nodes. Every `PrimitiveView` names its own `_resolve`; a primitive (no body)
    /// that did not would still draw itself through the cast.
    @MainActor @preconcurrency public static func _resolve(_ view: Self, _ inputs: _ResolveInputs) -> _ResolvedNodes {
        if Body.self == Never.self, let primitive = view as? any PrimitiveView {
            return _ResolvedNodes(nodes: primitive.nodes(inputs.context))
        }
        let body = CurrentEnvironment.with(inputs.context.environment) { view.body }
        return _ResolvedNodes(nodes: resolve(body, inputs.context))
    }
}

/// A view resolved to exactly one node (several become a ZStack, none an empty node).
@MainActor
func resolveOne<V: View>(_ view: V, _ context: ResolveContext) -> Node {
    let nodes = resolve(view, context)
    return nodes.isEmpty ? EmptyNode() : single(nodes)
}

// MARK: - the structural views

extension EmptyView: PrimitiveView {
    @MainActor public static func _resolve(_ view: Self, _ inputs: _ResolveInputs) -> _ResolvedNodes { _ResolvedNodes(nodes: view.nodes(inputs.context)) }
    @MainActor func nodes(_ context: ResolveContext) -> [Node] { [] }
}

extension TupleView: PrimitiveView {
    @MainActor public static func _resolve(_ view: Self, _ inputs: _ResolveInputs) -> _ResolvedNodes { _ResolvedNodes(nodes: view.nodes(inputs.context)) }
    @MainActor func nodes(_ context: ResolveContext) -> [Node] {
        var out: [Node] = []
        if let children {
            for child in children { out += resolve(child, context) }
            return out
        }
        // A tuple of views made by hand (`TupleView((a, b))`): each element is a view.
        for child in Mirror(reflecting: value).children {
            if let view = child.value as? any View { out += resolve(view, context) }
        }
        return out
    }
}

extension _ConditionalContent: PrimitiveView {
    @MainActor public static func _resolve(_ view: Self, _ inputs: _ResolveInputs) -> _ResolvedNodes { _ResolvedNodes(nodes: view.nodes(inputs.context)) }
    @MainActor func nodes(_ context: ResolveContext) -> [Node] {
        switch storage {
        case let .trueContent(view): return resolve(view, context)
        case let .falseContent(view): return resolve(view, context)
        }
    }
}

extension Optional: PrimitiveView where Wrapped: View {
    @MainActor public static func _resolve(_ view: Self, _ inputs: _ResolveInputs) -> _ResolvedNodes { _ResolvedNodes(nodes: view.nodes(inputs.context)) }
    @MainActor func nodes(_ context: ResolveContext) -> [Node] {
        switch self {
        case let .some(view): return resolve(view, context)
        case .none: return []
        }
    }
}

extension AnyView: PrimitiveView {
    @MainActor public static func _resolve(_ view: Self, _ inputs: _ResolveInputs) -> _ResolvedNodes { _ResolvedNodes(nodes: view.nodes(inputs.context)) }
    @MainActor func nodes(_ context: ResolveContext) -> [Node] { resolve(view, context) }
}

extension Group: PrimitiveView where Content: View {
    @MainActor public static func _resolve(_ view: Self, _ inputs: _ResolveInputs) -> _ResolvedNodes { _ResolvedNodes(nodes: view.nodes(inputs.context)) }
    @MainActor func nodes(_ context: ResolveContext) -> [Node] { resolve(content, context) }
}

// MARK: - modifiers

/// The content a modifier's `body(content:)` places.
public struct _ViewModifier_Content<Modifier: ViewModifier> {
    init() {}
}
extension _ViewModifier_Content: View { public typealias Body = Never }
extension _ViewModifier_Content: PrimitiveView {
    @MainActor public static func _resolve(_ view: Self, _ inputs: _ResolveInputs) -> _ResolvedNodes { _ResolvedNodes(nodes: view.nodes(inputs.context)) }
    @MainActor func nodes(_ context: ResolveContext) -> [Node] {
        guard let content = context.modifierContents.last else { return [] }
        var outer = context
        outer.modifierContents.removeLast()
        outer.environment = context.environment
        return content(outer)
    }
}

/// A modifier you write: `body(content:)` returns the modified view (`.modifier(_:)` applies it).
@MainActor @preconcurrency
public protocol ViewModifier {
    associatedtype Body: View
    typealias Content = _ViewModifier_Content<Self>
    @ViewBuilder @MainActor @preconcurrency func body(content: Self.Content) -> Self.Body
}

/// A view with a modifier applied.
public struct ModifiedContent<Content, Modifier> {
    public var content: Content
    public var modifier: Modifier
    public init(content: Content, modifier: Modifier) {
        self.content = content
        self.modifier = modifier
    }
}
extension ModifiedContent: View where Content: View, Modifier: ViewModifier {
    public typealias Body = Never
}
extension ModifiedContent: PrimitiveView where Content: View, Modifier: ViewModifier {
    @MainActor public static func _resolve(_ view: Self, _ inputs: _ResolveInputs) -> _ResolvedNodes { _ResolvedNodes(nodes: view.nodes(inputs.context)) }
    @MainActor func nodes(_ context: ResolveContext) -> [Node] {
        var inner = context
        let content = self.content
        inner.modifierContents.append { resolve(content, $0) }
        let body = CurrentEnvironment.with(context.environment) { modifier.body(content: _ViewModifier_Content<Modifier>()) }
        return resolve(body, inner)
    }
}

nonisolated extension View {
    /// Applies a modifier you wrote.
    public func modifier<T>(_ modifier: T) -> ModifiedContent<Self, T> {
        ModifiedContent(content: self, modifier: modifier)
    }
}

/// The renderer's own modifiers: each wraps every node its content resolves to.
nonisolated struct _LayoutModifier<Content: View>: View, PrimitiveView {
    @MainActor public static func _resolve(_ view: Self, _ inputs: _ResolveInputs) -> _ResolvedNodes { _ResolvedNodes(nodes: view.nodes(inputs.context)) }
    typealias Body = Never
    let content: Content
    let wrap: (Node, ResolveContext) -> Node

    @MainActor func nodes(_ context: ResolveContext) -> [Node] {
        resolve(content, context).map { child in
            let node = wrap(child, context)
            if node !== child, node.priority == 0 { node.priority = child.priority }
            return node
        }
    }
}

/// A modifier that changes the environment its content resolves in.
nonisolated struct _EnvironmentModifier<Content: View>: View, PrimitiveView {
    @MainActor public static func _resolve(_ view: Self, _ inputs: _ResolveInputs) -> _ResolvedNodes { _ResolvedNodes(nodes: view.nodes(inputs.context)) }
    typealias Body = Never
    let content: Content
    let transform: (inout EnvironmentValues) -> Void

    @MainActor func nodes(_ context: ResolveContext) -> [Node] {
        var inner = context
        transform(&inner.environment)
        return resolve(content, inner)
    }
}

/// A modifier that records something when resolved (`widgetURL`, `containerBackground`).
nonisolated struct _FindingModifier<Content: View>: View, PrimitiveView {
    @MainActor public static func _resolve(_ view: Self, _ inputs: _ResolveInputs) -> _ResolvedNodes { _ResolvedNodes(nodes: view.nodes(inputs.context)) }
    typealias Body = Never
    let content: Content
    let record: (ResolveContext) -> Void

    @MainActor func nodes(_ context: ResolveContext) -> [Node] {
        record(context)
        return resolve(content, context)
    }
}

nonisolated extension View {
    func layoutModifier(_ wrap: @escaping (Node, ResolveContext) -> Node) -> _LayoutModifier<Self> {
        _LayoutModifier(content: self, wrap: wrap)
    }

    func environmentModifier(_ transform: @escaping (inout EnvironmentValues) -> Void) -> _EnvironmentModifier<Self> {
        _EnvironmentModifier(content: self, transform: transform)
    }

    /// Sets an environment value for this view and its descendants.
    public func environment<V>(_ keyPath: WritableKeyPath<EnvironmentValues, V>, _ value: V) -> some View {
        environmentModifier { $0[keyPath: keyPath] = value }
    }

    /// Changes an environment value for this view and its descendants.
    public func transformEnvironment<V>(_ keyPath: WritableKeyPath<EnvironmentValues, V>, transform: @escaping (inout V) -> Void) -> some View {
        environmentModifier { transform(&$0[keyPath: keyPath]) }
    }
}
