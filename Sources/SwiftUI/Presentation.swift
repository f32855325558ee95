// Presentations: sheets, alerts and dialogs a screen presents, and the dismiss action a presented view calls. The
// system draws a presentation above the window after it slides in, so a first frame shows the presenting view; a
// presented sheet's content is made and appears (its `onAppear` and `task` work runs in a headless app), and its
// `dismiss()` does what it does on an iPhone: it sets the presentation's binding back (`isPresented` to false, the
// item to nil), which the app's state then shows.

/// Dismisses the presentation the view is in: `@Environment(\.dismiss) private var dismiss`, then `dismiss()`.
/// Outside any presentation it does nothing, as Apple's does.
public struct DismissAction: Sendable {
    /// @unchecked: the action sets a SwiftUI binding, which the main actor owns; views call it on the main actor.
    struct Action: @unchecked Sendable { let run: () -> Void }
    let action: Action?

    @MainActor public func callAsFunction() { action?.run() }
}

private struct DismissKey: EnvironmentKey {
    static let defaultValue = DismissAction(action: nil)
}

private struct IsPresentedKey: EnvironmentKey {
    static let defaultValue = false
}

extension EnvironmentValues {
    /// The action that dismisses the presentation the view is in.
    public var dismiss: DismissAction {
        get { self[DismissKey.self] }
        set { self[DismissKey.self] = newValue }
    }

    /// Whether the view is in a presentation (a sheet's content).
    public var isPresented: Bool {
        get { self[IsPresentedKey.self] }
        set { self[IsPresentedKey.self] = newValue }
    }
}

nonisolated extension View {
    /// A sheet over this view while `isPresented` is true: its content is made and appears, with a `dismiss` that
    /// sets `isPresented` to false; the first frame draws this view.
    public func sheet<Content: View>(isPresented: Binding<Bool>, onDismiss: (() -> Void)? = nil,
                                     @ViewBuilder content: @escaping () -> Content) -> some View {
        presenting({ isPresented.wrappedValue ? content : nil }, onDismiss: onDismiss) { isPresented.wrappedValue = false }
    }

    /// A sheet for `item` while it is not nil: its content is made and appears, with a `dismiss` that sets the item
    /// to nil; the first frame draws this view.
    public func sheet<Item: Identifiable, Content: View>(item: Binding<Item?>, onDismiss: (() -> Void)? = nil,
                                                         @ViewBuilder content: @escaping (Item) -> Content) -> some View {
        presenting({ item.wrappedValue.map { value in { content(value) } } }, onDismiss: onDismiss) { item.wrappedValue = nil }
    }

    /// A full-screen cover: presented as a sheet is (the first frame draws this view).
    public func fullScreenCover<Content: View>(isPresented: Binding<Bool>, onDismiss: (() -> Void)? = nil,
                                               @ViewBuilder content: @escaping () -> Content) -> some View {
        sheet(isPresented: isPresented, onDismiss: onDismiss, content: content)
    }

    public func fullScreenCover<Item: Identifiable, Content: View>(item: Binding<Item?>, onDismiss: (() -> Void)? = nil,
                                                                   @ViewBuilder content: @escaping (Item) -> Content) -> some View {
        sheet(item: item, onDismiss: onDismiss, content: content)
    }

    private func presenting<Content: View>(_ content: @escaping () -> (() -> Content)?, onDismiss: (() -> Void)?,
                                           clear: @escaping () -> Void) -> some View {
        _PresentingModifier(content: self, presented: content, onDismiss: onDismiss, clear: clear)
    }

    /// An alert while `isPresented` is true: the system draws it above the window after the first frame; its actions
    /// run only when tapped, which never happens here.
    public func alert<A: View>(_ titleKey: LocalizedStringKey, isPresented: Binding<Bool>, @ViewBuilder actions: () -> A) -> some View { self }
    public func alert<A: View, M: View>(_ titleKey: LocalizedStringKey, isPresented: Binding<Bool>, @ViewBuilder actions: () -> A,
                                        @ViewBuilder message: () -> M) -> some View { self }
    @_disfavoredOverload
    public func alert<S: StringProtocol, A: View>(_ title: S, isPresented: Binding<Bool>, @ViewBuilder actions: () -> A) -> some View { self }
    @_disfavoredOverload
    public func alert<S: StringProtocol, A: View, M: View>(_ title: S, isPresented: Binding<Bool>, @ViewBuilder actions: () -> A,
                                                           @ViewBuilder message: () -> M) -> some View { self }
    public func alert<A: View, M: View, T>(_ titleKey: LocalizedStringKey, isPresented: Binding<Bool>, presenting data: T?,
                                           @ViewBuilder actions: (T) -> A, @ViewBuilder message: (T) -> M) -> some View { self }

    /// A confirmation dialog while `isPresented` is true: drawn by the system above the window after the first
    /// frame; its actions run only when tapped.
    public func confirmationDialog<A: View>(_ titleKey: LocalizedStringKey, isPresented: Binding<Bool>,
                                            titleVisibility: Visibility = .automatic, @ViewBuilder actions: () -> A) -> some View { self }
    public func confirmationDialog<A: View, M: View>(_ titleKey: LocalizedStringKey, isPresented: Binding<Bool>,
                                                     titleVisibility: Visibility = .automatic, @ViewBuilder actions: () -> A,
                                                     @ViewBuilder message: () -> M) -> some View { self }
    @_disfavoredOverload
    public func confirmationDialog<S: StringProtocol, A: View>(_ title: S, isPresented: Binding<Bool>,
                                                               titleVisibility: Visibility = .automatic, @ViewBuilder actions: () -> A) -> some View { self }

    /// Presentation sizes of a sheet: the sheet is not drawn.
    public func presentationDetents(_ detents: Set<PresentationDetent>) -> some View { self }
    public func presentationDragIndicator(_ visibility: Visibility) -> some View { self }
    /// Whether a person may swipe the sheet away: nobody swipes here.
    public func interactiveDismissDisabled(_ isDisabled: Bool = true) -> some View { self }
}

/// A view presenting another: the presented content is resolved (for what appears with it) in an environment whose
/// `dismiss` clears the presentation's binding and then runs `onDismiss`; the view is drawn alone.
nonisolated struct _PresentingModifier<Content: View, Presented: View>: View, PrimitiveView {
    typealias Body = Never
    let content: Content
    /// The presented content's maker while the binding presents it, read as the view is resolved.
    let presented: () -> (() -> Presented)?
    let onDismiss: (() -> Void)?
    let clear: () -> Void

    @MainActor static func _resolve(_ view: Self, _ inputs: _ResolveInputs) -> _ResolvedNodes { _ResolvedNodes(nodes: view.nodes(inputs.context)) }

    @MainActor func nodes(_ context: ResolveContext) -> [Node] {
        if let presented = presented() {
            var environment = context.environment
            environment.isPresented = true
            let (clear, onDismiss) = (clear, onDismiss)
            environment.dismiss = DismissAction(action: DismissAction.Action { clear(); onDismiss?() })
            let inner = ResolveContext(environment: environment, found: Findings())
            _ = resolve(presented(), inner)
            // The presented views' appearing work reads the presentation's environment (`dismiss`) when it runs.
            for action in inner.found.appearing {
                context.found.appearing.append { CurrentEnvironment.with(environment) { action() } }
            }
        }
        return resolve(content, context)
    }
}

/// A height a sheet rests at.
public struct PresentationDetent: Hashable, Sendable {
    let name: String
    public static let large = PresentationDetent(name: "large")
    public static let medium = PresentationDetent(name: "medium")
    public static func fraction(_ fraction: CGFloat) -> PresentationDetent { PresentationDetent(name: "fraction \(fraction)") }
    public static func height(_ height: CGFloat) -> PresentationDetent { PresentationDetent(name: "height \(height)") }
}
