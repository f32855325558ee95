import Foundation
import SwiftUI

// WidgetKit's smaller declarations of iOS 16 to 26, with Apple's names: how an image shows in accented rendering,
// a complication's label, the locations a widget is not suggested for, and widget push updates.

// MARK: - images in accented rendering (iOS 18)

/// How an `Image` shows when the widget is drawn in accented rendering (Apple's `WidgetAccentedRenderingMode`).
/// Without one, accented rendering draws an image as a template image, in its group's color.
public struct WidgetAccentedRenderingMode: Hashable, Sendable {
    let rendering: ImageAccentedRendering

    /// In the accent group: the picture's shape in the accent color (as `widgetAccentable()` would put it).
    public static let accented = WidgetAccentedRenderingMode(rendering: .accented)
    /// The picture's luminance as its opacity, in the default group's color.
    public static let desaturated = WidgetAccentedRenderingMode(rendering: .desaturated)
    /// The picture's luminance as its opacity, in the accent group's color.
    public static let accentedDesaturated = WidgetAccentedRenderingMode(rendering: .accentedDesaturated)
    /// The picture as it is, in full color.
    public static let fullColor = WidgetAccentedRenderingMode(rendering: .fullColor)
}

extension Image {
    /// How the image shows in accented rendering; nil: as a template image, the system's default.
    public func widgetAccentedRenderingMode(_ renderingMode: WidgetAccentedRenderingMode?) -> some View {
        environment(\.imageAccentedRendering, renderingMode?.rendering)
    }
}

// MARK: - a complication's label (watchOS)

private struct ShowsWidgetLabelKey: EnvironmentKey { static let defaultValue = false }

extension EnvironmentValues {
    /// Whether the family shows a `widgetLabel`: on the watch, in the corner and circular complications. Apple: "The
    /// system only displays labels on widget-based complications in watchOS", never on the iPhone Lock Screen.
    public var showsWidgetLabel: Bool {
        get { self[ShowsWidgetLabelKey.self] }
        set { self[ShowsWidgetLabelKey.self] = newValue }
    }
}

/// A view with its complication label: the label is drawn where the family shows one, else not at all.
struct WidgetLabelled<Content: View, Label: View>: View {
    let content: Content
    let label: Label
    @Environment(\.showsWidgetLabel) var showsWidgetLabel

    var body: some View {
        if showsWidgetLabel {
            // watchOS curves the label along the bezel; Lockstep draws it straight, along the complication's
            // bottom edge, in the small caption the watch face uses.
            VStack(spacing: 1) {
                content
                label.font(.caption2).lineLimit(1)
            }
        } else {
            content
        }
    }
}

extension View {
    /// A label the watch shows beside the corner or circular complication's view (Apple's `widgetLabel(label:)`).
    public func widgetLabel<Label: View>(@ViewBuilder label: () -> Label) -> some View {
        WidgetLabelled(content: self, label: label())
    }

    public func widgetLabel(_ labelKey: LocalizedStringKey) -> some View {
        WidgetLabelled(content: self, label: Text(labelKey))
    }

    @_disfavoredOverload
    public func widgetLabel<S: StringProtocol>(_ label: S) -> some View {
        WidgetLabelled(content: self, label: Text(label))
    }
}

// MARK: - disfavored locations (iOS 17)

/// Where a widget can be placed (Apple's `WidgetLocation`).
public struct WidgetLocation: Hashable, Sendable, CustomStringConvertible {
    let name: String
    public static let homeScreen = WidgetLocation(name: "homeScreen")
    public static let lockScreen = WidgetLocation(name: "lockScreen")
    public static let standBy = WidgetLocation(name: "standBy")
    public static let iPhoneWidgetsOnMac = WidgetLocation(name: "iPhoneWidgetsOnMac")
    public static let carPlay = WidgetLocation(name: "carPlay")
    public var description: String { name }
}

extension WidgetConfiguration {
    /// Locations the system should not suggest the widget's `families` for: `status` lists them, and the gallery
    /// says so under those families' pictures.
    public func disfavoredLocations(_ locations: [WidgetLocation], for families: [WidgetFamily]) -> some WidgetConfiguration {
        _ModifiedWidgetConfiguration(content: self) { descriptor in
            for family in families { descriptor.disfavoredLocations[family, default: []] += locations }
        }
    }
}

// MARK: - widget push updates (iOS 26)

/// The widget extension's push token, as the system hands it to a `WidgetPushHandler` (Apple's `WidgetPushInfo`).
public struct WidgetPushInfo: Sendable, Equatable {
    /// The APNs token the app's server sends widget pushes to.
    public let token: Data

    public init(token: Data) { self.token = token }
}

/// Receives the widget extension's push token (Apple's `WidgetPushHandler`, iOS 26): the app's server sends a
/// widget push to it, and the system reloads the widgets' timelines.
public protocol WidgetPushHandler {
    init()
    func pushTokenDidChange(_ pushInfo: WidgetPushInfo, widgets: [WidgetInfo])
}

extension WidgetConfiguration {
    /// The widget's push handler: the widget process hands it its push token when it starts, and a delivered push
    /// (`push` on the widget process) reloads the widget's timeline, counted against its daily budget.
    public func pushHandler<Handler: WidgetPushHandler>(_ handler: Handler.Type) -> some WidgetConfiguration {
        _ModifiedWidgetConfiguration(content: self) { $0.pushHandler = { Handler().pushTokenDidChange($0, widgets: $1) } }
    }
}
