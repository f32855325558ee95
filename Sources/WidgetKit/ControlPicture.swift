import Foundation
import SwiftUI

/// The sizes a person gives a control in iOS 18's Control Center: one cell, two cells wide, two by two.
///
/// Apple's Human Interface Guidelines (Controls) describe what each size shows — the small control its symbol
/// only, the medium and large ones the symbol with the title and the value — but publish no point sizes; Lockstep
/// draws a cell as 68 pt with 16 pt between cells (`cell`, `gap`), its own figures.
public enum ControlCenterSize: String, CaseIterable, Sendable {
    case small, medium, large

    static let cell: CGFloat = 68
    static let gap: CGFloat = 16

    /// The control's frame: one cell, two cells and the gap wide, or two by two.
    public var size: CGSize {
        let double = 2 * Self.cell + Self.gap
        switch self {
        case .small: return CGSize(width: Self.cell, height: Self.cell)
        case .medium: return CGSize(width: double, height: Self.cell)
        case .large: return CGSize(width: double, height: double)
        }
    }
}

/// A control as Control Center draws it: a round symbol button — white with the symbol in the control's tint
/// when a toggle is on, translucent with a white symbol otherwise — and, from the medium size up, the title and
/// the value ("On", "Off", or the toggle's value label) beside or below it, on the dark Control Center backdrop.
struct ControlPicture: View {
    let content: _ControlTemplateContent
    let size: ControlCenterSize

    /// The symbol circle of a medium or large control.
    static let innerCircle: CGFloat = 48
    /// Control Center's translucent fill (an off toggle, a button, the medium and large platters).
    static let platter = Color.white.opacity(0.2)

    var body: some View {
        // A disabled control is drawn dimmed, as Control Center dims what cannot be used.
        picture.opacity(content.isDisabled ? 0.4 : 1)
    }

    @ViewBuilder private var picture: some View {
        switch size {
        case .small:
            symbol(diameter: ControlCenterSize.cell)
        case .medium:
            HStack(spacing: 8) {
                symbol(diameter: Self.innerCircle)
                texts.frame(maxWidth: .infinity, alignment: .leading)
            }
            .padding(.horizontal, (ControlCenterSize.cell - Self.innerCircle) / 2)
            .frame(width: size.size.width, height: size.size.height)
            .background(Self.platter, in: RoundedRectangle(cornerRadius: ControlCenterSize.cell / 2))
        case .large:
            VStack(alignment: .leading, spacing: 0) {
                symbol(diameter: Self.innerCircle)
                Spacer(minLength: 0)
                texts
            }
            .padding(14)
            .frame(width: size.size.width, height: size.size.height, alignment: .leading)
            .background(Self.platter, in: RoundedRectangle(cornerRadius: 34))
        }
    }

    /// The control's symbol in its circle: the value label's symbol when the toggle has one, else the label's.
    private func symbol(diameter: CGFloat) -> some View {
        let on = content.isOn == true
        let icon = content.valueLabel.flatMap { part($0, \.iconPart) } ?? part(content.label, \.iconPart)
        return ZStack {
            Circle().fill(on ? Color.white : Self.platter)
            if let icon {
                icon.font(.system(size: diameter * 0.4)).foregroundStyle(on ? (content.tint ?? .blue) : .white)
            }
        }
        .frame(width: diameter, height: diameter)
    }

    /// The title, then the value: the value label's title, "On"/"Off" for a toggle without one, else the status.
    private var texts: some View {
        VStack(alignment: .leading, spacing: 1) {
            (part(content.label, \.titlePart) ?? content.label)
                .font(.subheadline.weight(.semibold)).foregroundStyle(.white).lineLimit(1)
            if let value = valueText {
                value.font(.subheadline).foregroundStyle(Color.white.opacity(0.7)).lineLimit(1)
            }
        }
    }

    private var valueText: AnyView? {
        if let valueLabel = content.valueLabel { return part(valueLabel, \.titlePart) ?? valueLabel }
        if let isOn = content.isOn { return AnyView(Text(isOn ? "On" : "Off")) }
        return content.status.map { AnyView(Text($0)) }
    }

    /// A part of `view` when it is a `Label`; nil for another view (a `Text` title has no symbol).
    private func part(_ view: AnyView, _ part: (any LabelParts) -> AnyView) -> AnyView? {
        (view.base as? any LabelParts).map(part)
    }
}
