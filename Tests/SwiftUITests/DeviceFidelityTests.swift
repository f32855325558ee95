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
