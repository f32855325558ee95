import Foundation
import SwiftUI

/// The widget sizes (rule `widget.families`): Apple's system and accessory families.
public enum WidgetFamily: String, Sendable, CaseIterable, Codable, CustomDebugStringConvertible {
    case systemSmall
    case systemMedium
    case systemLarge
    /// iPad only.
    case systemExtraLarge
    /// Apple Watch only.
    case accessoryCorner
    case accessoryCircular
    case accessoryRectangular
    case accessoryInline

    public var debugDescription: String { rawValue }

    /// The Lock Screen and watch-face families: no container background, tinted by the system.
    public var isAccessory: Bool { rawValue.hasPrefix("accessory") }

    /// The size in points on the default iPhone (`accessoryCorner`, watch-only: on the default Apple Watch;
    /// `systemExtraLarge`, iPad-only: on the default iPad).
    public var displaySize: CGSize { displaySize(on: .standard(for: self)) }

    /// The size in points on `device`, from Apple's tables (see `ReferenceDevice`); a family the device does not
    /// have is drawn at the default device's size of its kind.
    public func displaySize(on device: ReferenceDevice) -> CGSize {
        device.size(of: self) ?? displaySize
    }

    /// iOS 17's default content margins: 16 pt on every edge of a Home Screen widget on iPhone, none for the
    /// accessory families (the system draws them to their edges).
    public var contentMargins: EdgeInsets {
        isAccessory ? EdgeInsets() : EdgeInsets(top: 16, leading: 16, bottom: 16, trailing: 16)
    }

    /// How WidgetKit draws the family on `device` (`\.widgetRenderingMode`): the iPhone and iPad Lock Screen's
    /// accessories vibrant (WidgetRenderingMode.vibrant: "the Lock Screen on iPhone"), the Home Screen and the watch
    /// face in full colour. `renderingModes(on:)` lists the others WidgetKit also uses.
    public func renderingMode(on device: ReferenceDevice) -> WidgetRenderingMode {
        renderingModes(on: device)[0]
    }

    /// Every mode WidgetKit draws the family in on `device`, the usual one first (Apple's `WidgetRenderingMode`:
    /// "it renders widgets on the Lock Screen on iPhone using the vibrant mode, while it renders widget-based
    /// complications in watchOS using either the fullColor or accented modes, depending on the watch face"; and
    /// "Preparing widgets for additional platforms, contexts, and appearances": the Home Screen shows widgets in full
    /// colour or, tinted, accented, since iOS 18). What `lockstep gallery` shows side by side.
    public func renderingModes(on device: ReferenceDevice) -> [WidgetRenderingMode] {
        isAccessory && device.idiom != .watch ? [.vibrant] : [.fullColor, .accented]
    }

    /// Whether iOS 17 draws "Please adopt containerBackground API" in place of a widget of the family that declares
    /// no container background: the iPhone's Home Screen families (what it does on the Lock Screen and the watch is
    /// not something Lockstep has seen, so it draws those as they are).
    func showsMissingBackgroundMessage(on device: ReferenceDevice) -> Bool { device.idiom != .watch && !isAccessory }

    /// The corner radius of the widget's container, which `ContainerRelativeShape` follows. Apple does not publish
    /// it: Lockstep uses 22 pt for the Home Screen families (as the gallery frames them), a circle for
    /// `accessoryCircular`, 11 pt for `accessoryRectangular` and none for the inline and corner families, which
    /// have no container shape.
    public func cornerRadius(on device: ReferenceDevice) -> CGFloat {
        switch self {
        case .systemSmall, .systemMedium, .systemLarge, .systemExtraLarge: return device.idiom == .watch ? 11 : 22
        case .accessoryCircular: return displaySize(on: device).width / 2
        case .accessoryRectangular: return 11
        case .accessoryInline, .accessoryCorner: return 0
        }
    }

    /// Parses a family name, listing the valid ones in the error.
    public init(parsing name: String) throws(WidgetKitError) {
        guard let family = WidgetFamily(rawValue: name) else {
            throw WidgetKitError(.unknownFamily, subject: name,
                                 detail: WidgetFamily.allCases.map(\.rawValue).joined(separator: ", "))
        }
        self = family
    }
}

/// The placeholder look of a widget's texts (rule `widget.provider`: rendered redacted): letters and digits
/// become blocks.
public enum WidgetRedaction {
    public static func redacted(_ lines: [String]) -> [String] {
        lines.map { String($0.map { $0.isLetter || $0.isNumber ? "▒" : $0 }) }
    }
}
