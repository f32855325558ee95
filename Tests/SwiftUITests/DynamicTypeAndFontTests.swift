import Foundation
import Testing
@testable import SwiftUI

/// Dynamic Type sizes from Apple's table, the embedded face, and emoji: what makes a picture's text as a device
/// draws it, on any viewer.
@MainActor
@Suite struct DynamicTypeAndFontTests {
    func frame<V: View>(_ view: V, _ size: DynamicTypeSize) throws -> CGRect {
        var environment = EnvironmentValues()
        environment.dynamicTypeSize = size
        let drawn = render(view, RenderRequest(size: CGSize(width: 600, height: 400), environment: environment))
        return try #require(drawn.canvas.placed.first { $0.what.hasPrefix("Text(") }).rect
    }

    func svg<V: View>(_ view: V, width: CGFloat = 300, height: CGFloat = 100) -> String {
        render(view, RenderRequest(size: CGSize(width: width, height: height))).svg(title: nil)
    }

    /// Apple's "iOS, iPadOS Dynamic Type sizes": Body is 17 pt at Large, 21 at xxLarge, 53 at AX5; Caption 2 is 11
    /// at xSmall … Large and 40 at AX5. A line is (ascender + descender) / unitsPerEm = 3408 / 2816 of the size.
    @Test func textStylesTakeTheirSizeFromTheDynamicTypeTable() throws {
        let line = 3408.0 / 2816.0
        #expect(abs(try frame(Text("Hi").font(.body), .large).height - 17 * line) < 0.001)
        #expect(abs(try frame(Text("Hi").font(.body), .xxLarge).height - 21 * line) < 0.001)
        #expect(abs(try frame(Text("Hi").font(.body), .accessibility5).height - 53 * line) < 0.001)
        #expect(abs(try frame(Text("Hi").font(.caption2), .xSmall).height - 11 * line) < 0.001)
        #expect(abs(try frame(Text("Hi").font(.caption2), .accessibility5).height - 40 * line) < 0.001)
        #expect(abs(try frame(Text("Hi").font(.largeTitle), .xxxLarge).height - 40 * line) < 0.001)
        // Widths scale with the size: "Hi" at 21 pt is 21/17 of "Hi" at 17 pt.
        let ratio = try frame(Text("Hi"), .xxLarge).width / frame(Text("Hi"), .large).width
        #expect(abs(ratio - 21.0 / 17.0) < 0.0001)
        // A fixed size does not scale.
        #expect(abs(try frame(Text("Hi").font(.system(size: 15)), .accessibility3).height - 15 * line) < 0.001)
        // The headline keeps its semibold weight at every size.
        #expect(Font.headline.resolved(.accessibility2).weight == 600 && Font.headline.resolved(.accessibility2).size == 33)
    }

    /// Every SVG embeds the weights of Inter its text uses, as WOFF2, under a family name no installed font has,
    /// and each run starts where the layout measured it.
    @Test func theSVGEmbedsTheMeasuredFaceAtTheWeightsItUses() throws {
        let picture = svg(HStack(spacing: 0) { Text("Walk").font(.headline); Text(" 3").font(.body) })
        let faces = picture.matches(of: /@font-face\{font-family:"Lockstep Inter";font-weight:(\d+);font-style:normal;src:url\(data:font\/woff2;base64,([A-Za-z0-9+\/=]+)\)/)
        #expect(faces.map { String($0.1) } == ["400", "600"], "\(picture.prefix(300))")
        for face in faces {
            let data = try #require(Data(base64Encoded: String(face.2)))
            // A WOFF2 file ("wOF2") wrapping Inter's CFF outlines ("OTTO").
            #expect(Array(data.prefix(8)) == Array("wOF2OTTO".utf8))
        }
        #expect(picture.contains("font-family=\"'Lockstep Inter', Inter, sans-serif\""))
        #expect(!picture.contains("SF Pro") && !picture.contains("-apple-system"))
        // The semibold run is drawn in the 600 face; the regular one starts where "Walk" ends, as measured.
        let walk = TextMeasure.width("Walk", Font.headline.resolved)
        let xs = picture.matches(of: /<tspan x="([0-9.]+)"[^>]*font-weight="(\d+)"/).map { (Double(String($0.1))!, String($0.2)) }
        #expect(xs.count == 2 && xs[0].1 == "600" && xs[1].1 == "400", "\(xs)")
        #expect(abs(xs[1].0 - xs[0].0 - Double(walk)) < 0.011, "\(xs), \(walk)")
        // A picture without text embeds nothing.
        #expect(!svg(Color.red).contains("@font-face"))
    }

    /// An emoji is one em wide, whatever its scalars, and drawn as a coloured square named for it: no viewer needs
    /// an emoji font.
    @Test func emojiAreOneEmWideAndDrawnAsNamedSquares() throws {
        let body = Font.body.resolved
        // 🧘‍♀️ is four scalars (person in lotus position, ZWJ, female sign, VS16) and one glyph: 17 pt at Body.
        #expect(abs(TextMeasure.width("🧘‍♀️", body) - 17) < 0.001)
        #expect(abs(TextMeasure.width("📚 Read", body) - 17 - TextMeasure.width(" Read", body)) < 0.001)
        // Digits are emoji only with the emoji variation selector.
        #expect(!TextMeasure.isEmoji("1") && TextMeasure.isEmoji("1️⃣"))
        let picture = svg(Text("🧘‍♀️ Stretch"))
        #expect(picture.contains("<g class=\"emoji\"><title>person in lotus position, female sign</title>"), "\(picture)")
        #expect(picture.contains(">PL</text></g>"), "the initials of its name's first two words that are not 'in', 'of' …")
        #expect(!picture.contains("🧘") && picture.contains("Stretch</tspan>"))
        // The initials are drawn in the embedded bold face.
        #expect(picture.contains("font-weight:700"))
        // On the Lock Screen (vibrant) the square is white as bright as its colour, like every other colour.
        var environment = EnvironmentValues()
        environment.widgetColorRendering = .vibrant
        let lockScreen = render(Text("📚 Read"), RenderRequest(size: CGSize(width: 160, height: 72), environment: environment)).svg(title: nil)
        let square = try #require(lockScreen.firstMatch(of: /<g class="emoji"><title>books<\/title><rect [^>]* fill="(#[0-9a-f]{6})"/))
        #expect(square.1 == "#ffffff", "\(lockScreen)")
    }

    /// `dynamicTypeSize(_:)` sets the size; with a range it clamps the person's size into it.
    @Test func theModifierSetsOrClampsTheSize() throws {
        let line = 3408.0 / 2816.0
        #expect(abs(try frame(Text("A").dynamicTypeSize(.xLarge), .large).height - 19 * line) < 0.001)
        // ...xxLarge: AX3 becomes xxLarge (Body 21); Large stays 17.
        #expect(abs(try frame(Text("A").dynamicTypeSize(...DynamicTypeSize.xxLarge), .accessibility3).height - 21 * line) < 0.001)
        #expect(abs(try frame(Text("A").dynamicTypeSize(...DynamicTypeSize.xxLarge), .large).height - 17 * line) < 0.001)
        // .medium...: xSmall becomes medium (Body 16).
        #expect(abs(try frame(Text("A").dynamicTypeSize(DynamicTypeSize.medium...), .xSmall).height - 16 * line) < 0.001)
    }
}
