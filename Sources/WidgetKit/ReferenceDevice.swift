import Foundation

/// A device whose widget sizes Lockstep draws at (`render --device NAME`): an iPhone, iPad or Apple Watch, named
/// for a model with that screen, and the size Apple publishes for each family it has.
///
/// The sizes are Apple's tables, one row per device:
/// - iPhone and iPad: Human Interface Guidelines, Widgets, "Specifications" → "iOS dimensions" and "iPadOS
///   dimensions" (https://developer.apple.com/design/human-interface-guidelines/widgets#Specifications). The
///   iPad table gives a "Canvas" size, which the widget's view is laid out at, and a smaller "Device" size the Home
///   Screen scales it to: Lockstep draws the canvas. It gives no Lock Screen accessory size on iPad, so an iPad here
///   has no accessory family.
/// - Apple Watch: Human Interface Guidelines, Complications, "Circular", "Corner" and "Rectangular"
///   (https://developer.apple.com/design/human-interface-guidelines/complications): the circular layout (40 mm
///   42×42 pt … 45/49 mm 50×50), the corner's circular image (32×32 … 38×38) and the rectangular "large image
///   without title" (162×69 … 193×82). Apple publishes no size for the inline complication, a single line of text:
///   Lockstep draws it as wide as the rectangular one and 21 pt high.
public struct ReferenceDevice: Sendable, Hashable, CustomStringConvertible {
    public enum Idiom: String, Sendable { case phone, pad, watch }

    /// The model's name (`iPhone 15`), which `--device` takes.
    public let name: String
    public let idiom: Idiom
    /// The screen in points, portrait: the row of Apple's table (for a watch, its case size in `name`).
    public let screen: CGSize
    let sizes: [WidgetFamily: CGSize]

    public var description: String { name }
    public static func == (a: ReferenceDevice, b: ReferenceDevice) -> Bool { a.name == b.name }
    public func hash(into hasher: inout Hasher) { hasher.combine(name) }

    /// The family's size on this device, or nil when the device has no such family (`systemExtraLarge` on an
    /// iPhone, `accessoryCorner` anywhere but the watch, the Home Screen families on the watch).
    public func size(of family: WidgetFamily) -> CGSize? { sizes[family] }

    /// The families this device has, in `WidgetFamily`'s order.
    public var families: [WidgetFamily] { WidgetFamily.allCases.filter { sizes[$0] != nil } }

    /// "iPhone 15 (393×852 pt)", as the gallery and `render` name it.
    public var summary: String {
        idiom == .watch ? name : "\(name) (\(SVGDocument.number(screen.width))×\(SVGDocument.number(screen.height)) pt)"
    }

    /// An iPhone row of the HIG's "iOS dimensions": small, medium, large, circular, rectangular and inline.
    static func phone(_ name: String, _ screen: (CGFloat, CGFloat), small: CGFloat, medium: (CGFloat, CGFloat),
                      large: (CGFloat, CGFloat), circular: CGFloat, rectangular: (CGFloat, CGFloat), inline: CGFloat) -> ReferenceDevice {
        ReferenceDevice(name: name, idiom: .phone, screen: CGSize(width: screen.0, height: screen.1), sizes: [
            .systemSmall: CGSize(width: small, height: small), .systemMedium: CGSize(width: medium.0, height: medium.1),
            .systemLarge: CGSize(width: large.0, height: large.1), .accessoryCircular: CGSize(width: circular, height: circular),
            .accessoryRectangular: CGSize(width: rectangular.0, height: rectangular.1), .accessoryInline: CGSize(width: inline, height: 26),
        ])
    }

    /// An iPad row of the HIG's "iPadOS dimensions", its Canvas sizes: small, medium (`width`×small), large
    /// (`width`×`width`) and extra large (`extraLarge`×`width`).
    static func pad(_ name: String, _ screen: (CGFloat, CGFloat), small: CGFloat, width: CGFloat, extraLarge: CGFloat) -> ReferenceDevice {
        ReferenceDevice(name: name, idiom: .pad, screen: CGSize(width: screen.0, height: screen.1), sizes: [
            .systemSmall: CGSize(width: small, height: small), .systemMedium: CGSize(width: width, height: small),
            .systemLarge: CGSize(width: width, height: width), .systemExtraLarge: CGSize(width: extraLarge, height: width),
        ])
    }

    /// A column of the HIG's Complications tables.
    static func watch(_ millimetres: Int, _ screen: (CGFloat, CGFloat), circular: CGFloat, corner: CGFloat, rectangular: (CGFloat, CGFloat)) -> ReferenceDevice {
        ReferenceDevice(name: "Apple Watch \(millimetres)mm", idiom: .watch, screen: CGSize(width: screen.0, height: screen.1), sizes: [
            .accessoryCircular: CGSize(width: circular, height: circular), .accessoryCorner: CGSize(width: corner, height: corner),
            .accessoryRectangular: CGSize(width: rectangular.0, height: rectangular.1),
            .accessoryInline: CGSize(width: rectangular.0, height: 21),
        ])
    }

    /// The default iPhone: iPhone 15 (6.1", 393×852 pt).
    public static let iPhone = phone("iPhone 15", (393, 852), small: 158, medium: (338, 158), large: (338, 354), circular: 72,
                                     rectangular: (160, 72), inline: 234)
    /// The default iPad, the one with the largest canvas in the table: iPad Pro 12.9-inch (1024×1366 pt).
    public static let iPad = pad("iPad Pro 12.9-inch", (1024, 1366), small: 170, width: 378.5, extraLarge: 795)
    /// The default Apple Watch: 45 mm.
    public static let appleWatch = watch(45, (198, 242), circular: 50, corner: 38, rectangular: (193, 82))

    /// The default device that has `family`: the iPad for `systemExtraLarge`, the watch for `accessoryCorner`, else
    /// the iPhone.
    public static func standard(for family: WidgetFamily) -> ReferenceDevice {
        family == .accessoryCorner ? .appleWatch : family == .systemExtraLarge ? .iPad : .iPhone
    }

    /// Every device `--device` knows, phones first.
    public static let all: [ReferenceDevice] = [
        phone("iPhone 15 Pro Max", (430, 932), small: 170, medium: (364, 170), large: (364, 382), circular: 76, rectangular: (172, 76), inline: 257),
        phone("iPhone 14 Plus", (428, 926), small: 170, medium: (364, 170), large: (364, 382), circular: 76, rectangular: (172, 76), inline: 257),
        phone("iPhone 11", (414, 896), small: 169, medium: (360, 169), large: (360, 379), circular: 76, rectangular: (160, 72), inline: 248),
        phone("iPhone 8 Plus", (414, 736), small: 159, medium: (348, 157), large: (348, 357), circular: 76, rectangular: (170, 76), inline: 248),
        iPhone,
        phone("iPhone 14", (390, 844), small: 158, medium: (338, 158), large: (338, 354), circular: 72, rectangular: (160, 72), inline: 234),
        phone("iPhone 13 mini", (375, 812), small: 155, medium: (329, 155), large: (329, 345), circular: 72, rectangular: (157, 72), inline: 225),
        phone("iPhone SE", (375, 667), small: 148, medium: (321, 148), large: (321, 324), circular: 68, rectangular: (153, 68), inline: 225),
        pad("iPad mini", (744, 1133), small: 141, width: 305.5, extraLarge: 634.5),
        pad("iPad (9th generation)", (810, 1080), small: 146, width: 320.5, extraLarge: 669),
        pad("iPad Air", (820, 1180), small: 155, width: 342, extraLarge: 715.5),
        pad("iPad Pro 11-inch", (834, 1194), small: 155, width: 342, extraLarge: 715.5),
        iPad,
        watch(40, (162, 197), circular: 42, corner: 32, rectangular: (162, 69)),
        watch(41, (176, 215), circular: 44.5, corner: 34, rectangular: (171.5, 73)),
        watch(44, (184, 224), circular: 47, corner: 36, rectangular: (184, 78)),
        appleWatch,
        watch(49, (205, 251), circular: 50, corner: 38, rectangular: (193, 82)),
    ]
}

extension ReferenceDevice {
    /// The device `name` names: a model (`"iPhone 13 mini"`, `iphone-13-mini`: case, spaces and hyphens do not
    /// matter), or `iPhone`, `iPad`, `watch` for the defaults.
    /// - Throws: `WidgetKitError.unknownDevice` (exit 64) listing the names.
    public init(named name: String) throws(WidgetKitError) {
        func key(_ text: String) -> String { String(text.lowercased().unicodeScalars.filter { CharacterSet.alphanumerics.contains($0) }) }
        let wanted = key(name)
        let defaults: [String: ReferenceDevice] = ["iphone": .iPhone, "ipad": .iPad, "watch": .appleWatch, "applewatch": .appleWatch]
        guard let device = defaults[wanted] ?? Self.all.first(where: { key($0.name) == wanted }) else {
            throw WidgetKitError(.unknownDevice, subject: name, detail: Self.all.map(\.name).joined(separator: ", "))
        }
        self = device
    }
}
