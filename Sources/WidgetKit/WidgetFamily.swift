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

    /// The size in points on the reference iPhone (`accessoryCorner`, watch-only: on the reference Apple Watch;
    /// `systemExtraLarge`, iPad-only: on a 12.9" iPad).
    public var displaySize: CGSize { displaySize(on: accessoryCornerOnly ? .appleWatch : .iPhone) }

    private var accessoryCornerOnly: Bool { self == .accessoryCorner }

    /// The size in points on a reference device, from the widget dimension tables of Apple's Human Interface
    /// Guidelines, Widgets, "Specifications" (https://developer.apple.com/design/human-interface-guidelines/widgets):
    /// the iPhone row for a 393×852 pt screen (iPhone 15, 6.1"), the Apple Watch row for 45 mm.
    public func displaySize(on device: ReferenceDevice) -> CGSize {
        switch (device, self) {
        case (_, .systemExtraLarge): return CGSize(width: 715, height: 330)
        case (.iPhone, .systemSmall): return CGSize(width: 158, height: 158)
        case (.iPhone, .systemMedium): return CGSize(width: 338, height: 158)
        case (.iPhone, .systemLarge): return CGSize(width: 338, height: 354)
        case (.iPhone, .accessoryCircular): return CGSize(width: 72, height: 72)
        case (.iPhone, .accessoryRectangular): return CGSize(width: 160, height: 72)
        case (.iPhone, .accessoryInline): return CGSize(width: 234, height: 26)
        case (_, .accessoryCorner): return CGSize(width: 32, height: 32)
        case (.appleWatch, .accessoryCircular): return CGSize(width: 50, height: 50)
        case (.appleWatch, .accessoryRectangular): return CGSize(width: 184, height: 89)
        case (.appleWatch, .accessoryInline): return CGSize(width: 196, height: 21)
        // The watch has no Home Screen: its Smart Stack shows the rectangular size.
        case (.appleWatch, .systemSmall), (.appleWatch, .systemMedium), (.appleWatch, .systemLarge): return CGSize(width: 184, height: 89)
        }
    }

    /// iOS 17's default content margins: 16 pt on every edge of a Home Screen widget on iPhone, none for the
    /// accessory families (the system draws them to their edges).
    public var contentMargins: EdgeInsets {
        isAccessory ? EdgeInsets() : EdgeInsets(top: 16, leading: 16, bottom: 16, trailing: 16)
    }

    /// How WidgetKit draws the family on `device` (`\.widgetRenderingMode`): the iPhone Lock Screen's accessories
    /// vibrant (WidgetRenderingMode.vibrant: "the Lock Screen on iPhone"), the Home Screen and the watch face in full
    /// colour (a tinted watch face, accented, is a choice of the user's face Lockstep does not make).
    public func renderingMode(on device: ReferenceDevice) -> WidgetRenderingMode {
        isAccessory && device == .iPhone && self != .accessoryCorner ? .vibrant : .fullColor
    }

    /// Whether iOS 17 draws "Please adopt containerBackground API" in place of a widget of the family that declares
    /// no container background: the iPhone's Home Screen families (what it does on the Lock Screen and the watch is
    /// not something Lockstep has seen, so it draws those as they are).
    func showsMissingBackgroundMessage(on device: ReferenceDevice) -> Bool { device == .iPhone && !isAccessory }

    /// The corner radius of the widget's container, which `ContainerRelativeShape` follows. Apple does not publish
    /// it: Lockstep uses 22 pt for the Home Screen families (as the gallery frames them), a circle for
    /// `accessoryCircular`, 11 pt for `accessoryRectangular` and none for the inline and corner families, which
    /// have no container shape.
    public func cornerRadius(on device: ReferenceDevice) -> CGFloat {
        switch self {
        case .systemSmall, .systemMedium, .systemLarge, .systemExtraLarge: return device == .iPhone ? 22 : 11
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

/// The devices whose widget sizes Lockstep draws at.
public enum ReferenceDevice: String, Sendable {
    /// iPhone 15 (6.1", 393×852 pt).
    case iPhone
    /// Apple Watch 45 mm.
    case appleWatch
}

/// The placeholder look of a widget's texts (rule `widget.provider`: rendered redacted): letters and digits
/// become blocks.
public enum WidgetRedaction {
    public static func redacted(_ lines: [String]) -> [String] {
        lines.map { String($0.map { $0.isLetter || $0.isNumber ? "▒" : $0 }) }
    }
}
