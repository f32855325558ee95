nonisolated extension View {
    /// A border: the style stroked inside the view's edges, `width` points thick, as SwiftUI draws it (an overlay
    /// of a rectangle's inner stroke, so the view's size does not change).
    public func border<S: ShapeStyle>(_ content: S, width: CGFloat = 1) -> some View {
        overlay(Rectangle().strokeBorder(content, lineWidth: width))
    }

    /// A tap's action. Widgets take no taps but a `Button`'s or `Toggle`'s intent (a tap elsewhere opens the app at
    /// the `widgetURL`), and a picture or a headless app is never tapped: the action does not run, as in a widget.
    public func onTapGesture(count: Int = 1, perform action: @escaping () -> Void) -> some View { self }

    /// A long press's action: never run, for the reason `onTapGesture` gives.
    public func onLongPressGesture(minimumDuration: Double = 0.5, maximumDistance: CGFloat = 10,
                                   perform action: @escaping () -> Void, onPressingChanged: ((Bool) -> Void)? = nil) -> some View { self }

    /// The size of the controls inside (`\.controlSize`).
    public func controlSize(_ controlSize: ControlSize) -> some View { environment(\.controlSize, controlSize) }
}

/// How large controls are drawn.
public enum ControlSize: CaseIterable, Hashable, Sendable { case mini, small, regular, large, extraLarge }

private struct ControlSizeKey: EnvironmentKey {
    static let defaultValue = ControlSize.regular
}

extension EnvironmentValues {
    public var controlSize: ControlSize {
        get { self[ControlSizeKey.self] }
        set { self[ControlSizeKey.self] = newValue }
    }
}

nonisolated extension View {
    /// Multiplies every color the view draws by `color`, channel by channel (an SVG color matrix, exactly the
    /// multiplication SwiftUI documents).
    public func colorMultiply(_ color: Color) -> some View {
        layoutModifier { child, context in EffectNode(.colorMultiply(color.resolve(context.environment)), child: child) }
    }

    /// Mirrors the view horizontally in a right-to-left layout. Lockstep lays out left to right (`\.layoutDirection`
    /// set by the environment), where it changes nothing.
    public func flipsForRightToLeftLayoutDirection(_ enabled: Bool) -> some View {
        layoutModifier { child, context in
            guard enabled, context.environment.layoutDirection == .rightToLeft else { return child }
            return EffectNode(.scale(CGSize(width: -1, height: 1), .center), child: child)
        }
    }
}
