// The background style a view sets for the views inside (`backgroundStyle(_:)`): what `.background`, `background()`
// and `background(in:)` fill with there instead of the system background.

private struct BackgroundStyleKey: EnvironmentKey {
    static let defaultValue: AnyShapeStyle? = nil
}

extension EnvironmentValues {
    /// The style `.background` is inside this view; nil: the system background.
    public var backgroundStyle: AnyShapeStyle? {
        get { self[BackgroundStyleKey.self] }
        set { self[BackgroundStyleKey.self] = newValue }
    }
}

nonisolated extension View {
    /// Sets the style `.background` fills with in the views inside.
    public func backgroundStyle<S: ShapeStyle>(_ style: S) -> some View {
        environmentModifier { $0.backgroundStyle = AnyShapeStyle(style) }
    }
}
