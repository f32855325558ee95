import SwiftUI

/// What a widget is drawn on: a device, its appearance and its Dynamic Type size — `render`'s `--device`,
/// `--appearance` and `--dynamic-type` — and, for the gallery's side-by-side pictures, a rendering mode.
public struct WidgetDisplay: Sendable, Equatable {
    public var device: ReferenceDevice
    /// Light or dark (`\.colorScheme`): dynamic colours and asset catalogs' dark variants follow it. The Lock
    /// Screen, accented rendering and the watch face are dark whatever it is.
    public var colorScheme: ColorScheme
    /// `\.dynamicTypeSize`: text styles take Apple's size for it (`Font.TextStyle`).
    public var dynamicTypeSize: DynamicTypeSize
    /// nil: the mode WidgetKit usually draws the family in on the device (`WidgetFamily.renderingMode(on:)`).
    public var renderingMode: WidgetRenderingMode?

    public init(device: ReferenceDevice = .iPhone, colorScheme: ColorScheme = .light, dynamicTypeSize: DynamicTypeSize = .large,
                renderingMode: WidgetRenderingMode? = nil) {
        self.device = device
        self.colorScheme = colorScheme
        self.dynamicTypeSize = dynamicTypeSize
        self.renderingMode = renderingMode
    }

    /// What the system draws `family` with on this display: its rendering mode (this one's, else the family's usual
    /// one on the device) and the appearance that mode forces — the Lock Screen, a tinted Home Screen and the watch
    /// face are dark, their primary text white (watchOS has no light appearance).
    public func drawing(_ family: WidgetFamily) -> WidgetDisplay {
        var drawn = self
        let mode = renderingMode ?? family.renderingMode(on: device)
        drawn.renderingMode = mode
        if mode != .fullColor || device.idiom == .watch { drawn.colorScheme = .dark }
        return drawn
    }

    /// "iPhone 15 (393×852 pt) · dark · xxLarge · fullColor": what a picture says it shows.
    public var summary: String {
        ([device.summary, colorScheme == .dark ? "dark" : "light", "\(dynamicTypeSize)"] + (renderingMode.map { ["\($0)"] } ?? []))
            .joined(separator: " · ")
    }

    /// Takes `--device NAME`, `--appearance light|dark` and `--dynamic-type SIZE` out of `words`, leaving the rest.
    /// - Throws: `WidgetKitError` (exit 64) naming a value that is not one of the option's, or an option without one.
    public mutating func take(from words: inout [String]) throws(WidgetKitError) {
        var rest: [String] = []
        var index = 0
        while index < words.count {
            let word = words[index]
            guard ["--device", "--appearance", "--dynamic-type"].contains(word) else {
                rest.append(word)
                index += 1
                continue
            }
            guard index + 1 < words.count else {
                throw WidgetKitError(.invalidOption, subject: word, detail: "followed by a value")
            }
            let value = words[index + 1]
            switch word {
            case "--device":
                device = try ReferenceDevice(named: value)
            case "--appearance":
                guard let scheme = ColorScheme.allCases.first(where: { "\($0)" == value.lowercased() }) else {
                    throw WidgetKitError(.invalidOption, subject: value, detail: "an appearance (light, dark)")
                }
                colorScheme = scheme
            default:
                guard let size = DynamicTypeSize.allCases.first(where: { "\($0)".lowercased() == value.lowercased() }) else {
                    throw WidgetKitError(.invalidOption, subject: value,
                                         detail: "a Dynamic Type size (\(DynamicTypeSize.allCases.map { "\($0)" }.joined(separator: ", ")))")
                }
                dynamicTypeSize = size
            }
            index += 2
        }
        words = rest
    }

    /// The family's size on the device.
    /// - Throws: `WidgetKitError.familyNotOnDevice` (exit 64) when the device has no such family.
    public func size(of family: WidgetFamily) throws(WidgetKitError) -> CGSize {
        guard let size = device.size(of: family) else {
            let why = device.idiom == .pad && family.isAccessory
                ? "\(family.rawValue) size: Apple's iPadOS widget table gives none for the Lock Screen's accessories"
                : "\(family.rawValue) family (its families: \(device.families.map(\.rawValue).joined(separator: ", ")))"
            throw WidgetKitError(.familyNotOnDevice, subject: device.name, detail: why)
        }
        return size
    }
}
