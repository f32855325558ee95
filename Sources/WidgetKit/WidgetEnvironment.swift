import SwiftUI

// The SwiftUI API Apple declares in WidgetKit: what a widget's view reads from its environment and the modifiers
// only widgets have.

private struct WidgetFamilyKey: EnvironmentKey { static let defaultValue: WidgetFamily = .systemSmall }
private struct WidgetRenderingModeKey: EnvironmentKey { static let defaultValue: WidgetRenderingMode = .fullColor }
private struct ShowsWidgetContainerBackgroundKey: EnvironmentKey { static let defaultValue = true }
private struct WidgetContentMarginsKey: EnvironmentKey { static let defaultValue = EdgeInsets() }

extension EnvironmentValues {
    /// The family the view is drawn in: `@Environment(\.widgetFamily) var family`.
    public var widgetFamily: WidgetFamily {
        get { self[WidgetFamilyKey.self] }
        set { self[WidgetFamilyKey.self] = newValue }
    }

    /// How the system draws the widget: full colour on the Home Screen, vibrant on the iPhone Lock Screen,
    /// accented on a tinted watch face.
    public var widgetRenderingMode: WidgetRenderingMode {
        get { self[WidgetRenderingModeKey.self] }
        set { self[WidgetRenderingModeKey.self] = newValue }
    }

    /// Whether the system shows the widget's container background (false in StandBy and on the Lock Screen).
    /// Read-only, as Apple declares it: the system decides, and a view cannot set it.
    public var showsWidgetContainerBackground: Bool { self[ShowsWidgetContainerBackgroundKey.self] }

    /// The content margins the system applies to the widget (iOS 17). Read-only, as Apple declares it.
    public var widgetContentMargins: EdgeInsets { self[WidgetContentMarginsKey.self] }

    /// What the system decides for the widget being drawn: whether its container background shows, and its margins.
    mutating func setWidgetContainer(showsBackground: Bool, margins: EdgeInsets) {
        self[ShowsWidgetContainerBackgroundKey.self] = showsBackground
        self[WidgetContentMarginsKey.self] = margins
    }
}

/// How the system renders a widget (Apple's `WidgetRenderingMode`).
public struct WidgetRenderingMode: Equatable, Hashable, CustomStringConvertible, Sendable {
    let name: String
    public static let fullColor = WidgetRenderingMode(name: "fullColor")
    public static let accented = WidgetRenderingMode(name: "accented")
    public static let vibrant = WidgetRenderingMode(name: "vibrant")
    public var description: String { name }
}

extension ContainerBackgroundPlacement {
    /// The widget's background: `.containerBackground(.blue, for: .widget)`, drawn full-bleed behind the content
    /// margins, and removed where the system removes it.
    public static let widget = ContainerBackgroundPlacement("widget")
}

/// The standard backdrop of a Lock Screen accessory (Apple's `AccessoryWidgetBackground`): the family's container
/// shape (a circle for `accessoryCircular`, a rounded rectangle for `accessoryRectangular`) filled with a translucent
/// white, which vibrant rendering draws as the Lock Screen's frosted disc. It takes the whole space it is offered.
public struct AccessoryWidgetBackground: View {
    public init() {}
    public var body: some View {
        ContainerRelativeShape().fill(Color.white.opacity(0.2))
    }
}

