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
