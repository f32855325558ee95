/// `onChange(of:initial:_:)`. A headless app lays its windows out once, and a widget is drawn once per timeline entry
/// from a fresh view value, so a value a view watches never changes between two layouts of the same view: the action
/// runs only for `initial: true`, when the view appears (with the value as both old and new, as Apple's does), and
/// never otherwise — what a device does for a view whose value does not change.
nonisolated extension View {
    public func onChange<V: Equatable>(of value: V, initial: Bool = false, _ action: @escaping (_ oldValue: V, _ newValue: V) -> Void) -> some View {
        // Views are resolved on the main actor, where the action then runs: as Apple's, it is no Sendable closure.
        nonisolated(unsafe) let action = action
        nonisolated(unsafe) let value = value
        return _FindingModifier(content: self) { context in
            if initial { context.found.appearing.append { action(value, value) } }
        }
    }

    public func onChange<V: Equatable>(of value: V, initial: Bool = false, _ action: @escaping () -> Void) -> some View {
        onChange(of: value, initial: initial) { _, _ in action() }
    }

    /// iOS 14's form, deprecated in iOS 17: it never runs for the first value, so never here.
    public func onChange<V: Equatable>(of value: V, perform action: @escaping (_ newValue: V) -> Void) -> some View {
        onChange(of: value, initial: false) { _, _ in }
    }
}
