import Foundation
import Testing
@testable import SwiftUI

/// Pictures as a device draws them, where an earlier renderer did not: live dates, accented symbols, button border
/// shapes, a style's blend mode and shadow, UIKit's fonts at the Dynamic Type size drawn.
@MainActor
@Suite struct DeviceFidelityTests {
    private func frames<V: View>(_ view: V, width: CGFloat, height: CGFloat = 100, environment: EnvironmentValues = EnvironmentValues())
        -> [(what: String, rect: CGRect)] {
        render(view, RenderRequest(size: CGSize(width: width, height: height), environment: environment)).canvas.placed
    }

    private func svg<V: View>(_ view: V, width: CGFloat = 200, height: CGFloat = 100, environment: EnvironmentValues = EnvironmentValues()) -> String {
        render(view, RenderRequest(size: CGSize(width: width, height: height), environment: environment)).svg(title: nil)
    }

    private static let start = Date(timeIntervalSince1970: 1_700_000_000)

    private var atStart: EnvironmentValues {
        var environment = EnvironmentValues()
        environment.renderDate = DeviceFidelityTests.start
        return environment
    }

    /// A timer beside its label: the label keeps the room it needs (untruncated) and the timer takes the rest of the
    /// row, its value drawn at its leading edge — what a device draws, where a timer fills the width it is offered.
    @Test func aTimerBesideALabelTakesTheRoomTheLabelLeaves() throws {
        let label = "Time left in the workout"
        let view = HStack(spacing: 8) {
            Text(label)
            Text(DeviceFidelityTests.start.addingTimeInterval(3 * 3600 + 125), style: .timer)
        }
        let placed = frames(view, width: 250, environment: atStart).filter { $0.what.hasPrefix("Text(") }
        try #require(placed.count == 2)
        #expect(placed[0].what == "Text(\(label))", "\(placed)")
        #expect(placed[1].what == "Text(3:02:05)")
        let labelWidth = TextMeasure.width(Substring(label), Font.body.resolved)
        #expect(abs(placed[0].rect.width - labelWidth) < 0.01, "\(placed)")
        // The timer's frame runs from after the spacing to the row's end.
        #expect(abs(placed[1].rect.minX - (labelWidth + 8)) < 0.01 && abs(placed[1].rect.maxX - 250) < 0.01, "\(placed)")
        // Its value is drawn at its frame's leading edge.
        let drawn = svg(view, width: 250, environment: atStart)
        #expect(drawn.contains("<tspan x=\"\(svgNumber(labelWidth + 8))\""), "\(drawn.suffix(600))")
    }

    /// A relative date and an offset fill the width as a timer does; a fixed frame or `fixedSize` holds it to its
    /// value; a time does not update itself and keeps its own width.
    @Test func liveDatesFillTheirWidthUnlessAFrameHoldsThem() throws {
        let date = DeviceFidelityTests.start.addingTimeInterval(-90)
        for text in [Text(date, style: .relative), Text(date, style: .offset),
                     Text(timerInterval: DeviceFidelityTests.start...DeviceFidelityTests.start.addingTimeInterval(60))] {
            let widths = frames(VStack { text }, width: 300, environment: atStart).map(\.rect.width)
            #expect(widths == [300], "\(widths)")
        }
        let time = frames(VStack { Text(date, style: .time) }, width: 300, environment: atStart)
        #expect(time.count == 1 && time[0].rect.width < 100, "\(time)")
        let fixed = frames(VStack { Text(date, style: .timer).fixedSize() }, width: 300, environment: atStart)
        #expect(fixed.count == 1 && abs(fixed[0].rect.width - TextMeasure.width("1:30", Font.body.resolved)) < 0.01, "\(fixed)")
        let framed = frames(VStack { Text(date, style: .timer).frame(width: 60) }, width: 300, environment: atStart)
        #expect(framed.count == 1 && framed[0].rect.width == 60, "\(framed)")
    }

    /// `buttonBorderShape(_:)`: the border a bordered button is filled in.
    @Test func buttonBorderShapesAreDrawnAsAsked() throws {
        func border(_ shape: ButtonBorderShape?) throws -> (what: String, rect: CGRect) {
            let button = Button("Go") {}.buttonStyle(.bordered)
            let view = VStack { if let shape { button.buttonBorderShape(shape) } else { button } }
            return try #require(frames(view, width: 200).first { !$0.what.hasPrefix("Text(") })
        }
        #expect(try border(nil).what == "Capsule" && border(.automatic).what == "Capsule" && border(.capsule).what == "Capsule")
        #expect(try border(.roundedRectangle).what == "RoundedRectangle" && border(.roundedRectangle(radius: 3)).what == "RoundedRectangle")
        let circle = try border(.circle)
        #expect(circle.what == "Circle" && circle.rect.width == circle.rect.height, "\(circle)")
        func path(_ shape: ButtonBorderShape) -> String {
            svg(Button("Go") {}.buttonStyle(.borderedProminent).buttonBorderShape(shape))
        }
        #expect(path(.roundedRectangle(radius: 3)).contains("A3 3"))
        #expect(path(.roundedRectangle).contains("A8 8"))
    }

    /// A style's blend mode and shadows are drawn: a group with CSS's `mix-blend-mode`, a drop shadow's filter, an
    /// inner shadow's filter — for a filled shape, a background style and a text's foreground style.
    @Test func aStylesBlendModeAndShadowsAreDrawn() throws {
        let blended = svg(Rectangle().fill(Color.red.blendMode(.multiply)))
        #expect(blended.contains("<g style=\"mix-blend-mode:multiply\">"), "\(blended)")
        let plusLighter = svg(Text("Hi").foregroundStyle(Color.white.blendMode(.plusLighter)))
        #expect(plusLighter.contains("mix-blend-mode:plus-lighter"))
        // Compositing operators have no blend mode: drawn as the style alone.
        #expect(!svg(Rectangle().fill(Color.red.blendMode(.destinationOut))).contains("mix-blend-mode"))

        let dropped = svg(Circle().fill(Color.blue.shadow(.drop(color: .black, radius: 4, x: 1, y: 2))))
        #expect(dropped.contains("<feDropShadow dx=\"1\" dy=\"2\" stdDeviation=\"2\" flood-color=\"#000000\" flood-opacity=\"1\"/>"), "\(dropped)")
        #expect(dropped.contains("<g filter=\"url(#p"))

        let inner = svg(Color.clear.background(Color.green.shadow(.inner(radius: 6)), in: RoundedRectangle(cornerRadius: 8)))
        #expect(inner.contains("<feFuncA type=\"table\" tableValues=\"1 0\"/>") && inner.contains("stdDeviation=\"3\""), "\(inner)")
        #expect(inner.contains("operator=\"in\"") && inner.contains("<feMergeNode in=\"SourceGraphic\"/>"))

        // Both, nested in the order written: the shadow inside the blend.
        let both = svg(Rectangle().foregroundStyle(Color.red.shadow(.drop(radius: 2)).blendMode(.screen)))
        let blendAt = try #require(both.range(of: "mix-blend-mode:screen")).lowerBound
        let shadowAt = try #require(both.range(of: "<g filter=")).lowerBound
        #expect(blendAt < shadowAt)
        // Every document stays well-formed XML.
        for document in [blended, dropped, inner, both] {
            #expect(try SVGTests().parse(document).root?.name == "svg")
        }
    }

    /// `UIFont.preferredFont(forTextStyle:)` reads the same Dynamic Type table as SwiftUI's text styles, at the size
    /// the view is drawn at.
    @Test func uiKitsPreferredFontFollowsTheDrawnDynamicTypeSize() throws {
        struct Measured: View {
            var body: some View {
                Text("\(Int(UIFont.preferredFont(forTextStyle: .body).pointSize)) \(Int(UIFont.preferredFont(forTextStyle: .caption1).pointSize))")
            }
        }
        for size in DynamicTypeSize.allCases {
            var environment = EnvironmentValues()
            environment.dynamicTypeSize = size
            let texts = render(Measured(), RenderRequest(size: CGSize(width: 300, height: 100), environment: environment)).texts
            let body = Int(Font.TextStyle.body.metrics(at: size).size), caption = Int(Font.TextStyle.caption.metrics(at: size).size)
            #expect(texts == ["\(body) \(caption)"], "\(size)")
        }
        // Outside a drawing: the Large size; with traits of their own, theirs.
        #expect(UIFont.preferredFont(forTextStyle: .body).pointSize == 17)
        let traits = UITraitCollection(preferredContentSizeCategory: .accessibilityExtraExtraExtraLarge)
        #expect(UIFont.preferredFont(forTextStyle: .body, compatibleWith: traits).pointSize == 53)
        #expect(UIFont.preferredFont(forTextStyle: .title1, compatibleWith: UITraitCollection(preferredContentSizeCategory: .extraSmall)).pointSize == 25)
        #expect(DynamicTypeSize(UIContentSizeCategory.extraExtraLarge) == .xxLarge && DynamicTypeSize(UIContentSizeCategory.unspecified) == nil)
    }
}
