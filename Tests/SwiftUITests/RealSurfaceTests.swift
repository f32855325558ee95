import Foundation
import Testing
@testable import SwiftUI

/// A custom `Layout` places up to two views on a diagonal: the first top-leading, the second centered at the
/// bounds' bottom-trailing corner, as a team's own layout would.
private struct Diagonal: Layout {
    func sizeThatFits(proposal: ProposedViewSize, subviews: Subviews, cache: inout Void) -> CGSize {
        let size = proposal.replacingUnspecifiedDimensions(by: CGSize(width: 60, height: 60))
        let side = min(size.width, size.height)
        return CGSize(width: side, height: side)
    }

    func placeSubviews(in bounds: CGRect, proposal: ProposedViewSize, subviews: Subviews, cache: inout Void) {
        guard let first = subviews.first else { return }
        first.place(at: CGPoint(x: bounds.minX, y: bounds.minY), proposal: ProposedViewSize(width: 20, height: 20))
        if subviews.count > 1 {
            subviews[1].place(at: CGPoint(x: bounds.maxX, y: bounds.maxY), anchor: .center, proposal: .unspecified)
        }
    }
}

private struct Rank: LayoutValueKey { static let defaultValue = 0 }

/// A team's drawing helper, nonisolated as a file's functions are: Apple's GraphicsContext is not main-actor bound.
private func dot(in context: inout GraphicsContext, at point: CGPoint) {
    context.fill(Path(ellipseIn: CGRect(x: point.x - 1, y: point.y - 1, width: 2, height: 2)), with: .color(.blue))
    context.draw(Text("•"), at: point)
}

/// Keeps its subviews' layout values, to check `layoutValue(key:value:)` reaches the layout.
private struct RankReader: Layout {
    let seen: Seen
    final class Seen: @unchecked Sendable { var ranks: [Int] = [] }
    func sizeThatFits(proposal: ProposedViewSize, subviews: Subviews, cache: inout Void) -> CGSize {
        seen.ranks = subviews.map { $0[Rank.self] }
        return .zero
    }
    func placeSubviews(in bounds: CGRect, proposal: ProposedViewSize, subviews: Subviews, cache: inout Void) {}
}

/// SwiftUI surface real widget and app-model files stop on without: `Layout`, `ScrollView`, `TimelineView`,
/// `Canvas`, `ImageRenderer`, custom symbols, a label's subtitles, `String(localized:)` with interpolations. Frames
/// are computed by hand from the documented rules.
@MainActor
@Suite struct RealSurfaceTests {
    @Test func customLayoutSizesAndPlacesItsSubviews() {
        // Offered 100 × 80: the layout is 80 × 80, centered: x 10…90. The first subview is 20 × 20 at the top-leading
        // corner (10, 0); the second (a 10 × 6 frame, its ideal size) is centered on the bottom-trailing corner (90, 80).
        let view = Diagonal {
            Color.red
            Color.blue.frame(width: 10, height: 6)
        }
        #expect(close(shapeFrames(view, width: 100, height: 80), [rect(10, 0, 20, 20), rect(85, 77, 10, 6)]))
    }

    @Test func aSubviewTheLayoutDoesNotPlaceIsCentered() {
        // Only two are placed; the third, a 10 × 10 frame, is centered in the 60 × 60 bounds: (25, 25).
        let view = Diagonal {
            Color.red
            Color.blue.frame(width: 10, height: 6)
            Color.green.frame(width: 10, height: 10)
        }
        #expect(shapeFrames(view, width: 60, height: 60).last == rect(25, 25, 10, 10))
    }

    @Test func layoutValuesReachTheLayout() {
        let seen = RankReader.Seen()
        _ = placed(RankReader(seen: seen) {
            Color.red.layoutValue(key: Rank.self, value: 3)
            Color.blue
        }, width: 10, height: 10)
        #expect(seen.ranks == [3, 0])
    }

    @Test func anyLayoutOfAStackLaysOutAsTheStack() {
        let view = AnyLayout(HStackLayout(spacing: 0)) {
            Color.red.frame(width: 20, height: 10)
            Color.blue.frame(width: 30, height: 10)
        }
        // 50 wide centered in 100: x = 25.
        #expect(close(shapeFrames(view, width: 100, height: 10), [rect(25, 0, 20, 10), rect(45, 0, 30, 10)]))
    }

    @Test func scrollViewDrawsItsContentFromTheStartAtItsIdealLength() {
        // A vertical scroll view takes the 100 × 50 offered; its content (a VStack of two 40-tall frames, 88 tall
        // with the default 8 spacing) starts at the top, centered across: x = 30.
        let view = ScrollView {
            Color.red.frame(width: 40, height: 40)
            Color.blue.frame(width: 40, height: 40)
        }
        #expect(close(shapeFrames(view, width: 100, height: 50), [rect(30, 0, 40, 40), rect(30, 48, 40, 40)]))
        #expect(render(view, RenderRequest(size: CGSize(width: 100, height: 50))).svg(title: nil).contains("clip-path"))
    }

    @Test func timelineViewDrawsTheEntryAtTheMomentDrawn() {
        var environment = EnvironmentValues()
        environment.renderDate = Date(timeIntervalSinceReferenceDate: 600 + 59)
        let everyMinute = TimelineView(.everyMinute) { context in Text("\(Int(context.date.timeIntervalSinceReferenceDate))") }
        #expect(render(everyMinute, RenderRequest(size: CGSize(width: 100, height: 40), environment: environment)).texts == ["600"])
        let explicit = TimelineView(.explicit([Date(timeIntervalSinceReferenceDate: 10), Date(timeIntervalSinceReferenceDate: 700)])) { context in
            Text("\(Int(context.date.timeIntervalSinceReferenceDate))")
        }
        #expect(render(explicit, RenderRequest(size: CGSize(width: 100, height: 40), environment: environment)).texts == ["10"])
    }

    @Test func canvasDrawsUnderItsTransformAndLeavesTheOriginalContextAlone() throws {
        let view = Canvas { context, size in
            context.fill(Path(CGRect(origin: .zero, size: size)), with: .color(.red))
            context.drawLayer { layer in
                layer.translateBy(x: 10, y: 5)
                layer.fill(Path(ellipseIn: CGRect(x: 0, y: 0, width: 4, height: 4)),
                           with: .radialGradient(Gradient(colors: [.white, .black]), center: CGPoint(x: 2, y: 2), startRadius: 0, endRadius: 2))
            }
            context.draw(Text("Hi"), at: CGPoint(x: size.width / 2, y: size.height / 2))
            dot(in: &context, at: CGPoint(x: 3, y: 3))
        }
        let rendered = render(view.frame(width: 80, height: 40), RenderRequest(size: CGSize(width: 80, height: 40)))
        let svg = rendered.svg(title: nil)
        #expect(rendered.texts == ["Hi", "•"])
        #expect(svg.contains("<radialGradient"))
        #expect(svg.contains("translate(10 5)"))
        // The text is drawn after the layer's group closed: not under its translation.
        let text = try #require(svg.range(of: ">Hi<")), layer = try #require(svg.range(of: "translate(10 5)"))
        #expect(layer.lowerBound < text.lowerBound)
        #expect(placed(view, width: 80, height: 40).contains { $0.what == "Canvas" && $0.rect == rect(0, 0, 80, 40) })
    }

    @Test func imageRendererDrawsTheViewIntoAnImageAnImageDrawsAgain() throws {
        let renderer = ImageRenderer(content: Color.red.frame(width: 30, height: 20))
        renderer.scale = 2
        let image = try #require(renderer.cgImage)
        #expect(image.width == 60 && image.height == 40)
        #expect(String(decoding: image.data, as: UTF8.self).contains("<svg"))
        let drawn = placed(Image(image, scale: 2, label: Text("red")), width: 100, height: 100)
        #expect(drawn.first?.rect.size == CGSize(width: 30, height: 20))
    }

    @Test func aLabelsSeveralTitlesStackUnderEachOther() {
        let view = Label {
            Text("Parking")
            Text("Cupertino")
        } icon: {
            Color.red.frame(width: 10, height: 10)
        }
        let texts = placed(view, width: 300, height: 100).filter { $0.what.hasPrefix("Text(") }
        #expect(texts.count == 2)
        #expect(texts[0].rect.minX == texts[1].rect.minX)
        #expect(texts[0].rect.maxY <= texts[1].rect.minY)
    }

    @Test func contentUnavailableViewCentersItsIconAboveItsTitleAndDescription() {
        let view = ContentUnavailableView("No Account", systemImage: "bird", description: Text("Pick one."))
        let drawn = placed(view, width: 300, height: 400)
        #expect(render(view, RenderRequest(size: CGSize(width: 300, height: 400))).texts == ["No Account", "Pick one."])
        let icon = drawn.first { $0.what.hasPrefix("Image(") }!.rect, title = drawn.first { $0.what == "Text(No Account)" }!.rect
        // The 48-point icon is above the title, both centered across the 300 points.
        #expect(icon.maxY <= title.minY && abs(icon.midX - 150) < 0.5 && abs(title.midX - 150) < 0.5 && icon.height >= 48)
        #expect(render(ContentUnavailableView.search(text: "owl"), RenderRequest(size: CGSize(width: 300, height: 400))).texts
            == ["No Results", "No results for “owl”"])
    }

    @Test func colorMultiplyScalesEachChannelAndRightToLeftFlips() {
        let svg = render(Color.white.colorMultiply(Color(red: 1, green: 0.5, blue: 0)), RenderRequest(size: CGSize(width: 10, height: 10))).svg(title: nil)
        #expect(svg.contains("values=\"1 0 0 0 0 0 0.5 0 0 0 0 0 0 0 0 0 0 0 1 0\"") && svg.contains("filter=\"url(#"), "\(svg)")
        let flipped = Color.red.frame(width: 10, height: 10).flipsForRightToLeftLayoutDirection(true)
        #expect(!render(flipped, RenderRequest(size: CGSize(width: 10, height: 10))).svg(title: nil).contains("scale(-1 1)"))
        #expect(render(flipped.environment(\.layoutDirection, .rightToLeft), RenderRequest(size: CGSize(width: 10, height: 10))).svg(title: nil)
            .contains("scale(-1 1)"))
    }

    @Test func anglesNegateAndAdd() {
        #expect(-Angle.degrees(90) == .degrees(-90))
        #expect((Angle.degrees(30) + .degrees(60)).degrees == 90)
    }
}


private struct Context: PreviewContext { let name: String }

private struct TwoPreviews: PreviewProvider {
    static var previews: some View {
        Text("A").previewContext(Context(name: "small")).previewDisplayName("First")
        Group {
            Text("B").previewLayout(.fixed(width: 40, height: 20))
            Text("C")
        }
    }
}

/// A `PreviewProvider`'s previews are each of its top-level views (a group's too), with their settings read off.
@MainActor
@Suite struct ProviderPreviewTests {
    @Test func eachTopLevelViewIsAPreviewWithItsSettings() {
        let preview = _LockstepPreview(provider: TwoPreviews.self)
        #expect(preview.name == "TwoPreviews")
        let parts = (preview.payload as! ProviderPreview).parts()
        #expect(parts.map(\.name) == ["First", nil, nil])
        #expect((parts[0].context as? Context)?.name == "small")
        if case let .fixed(width, height) = parts[1].layout { #expect(width == 40 && height == 20) } else { Issue.record("\(parts[1].layout)") }
        if case .device = parts[2].layout {} else { Issue.record("\(parts[2].layout)") }
        #expect(render(AnyView(parts[2].view), RenderRequest(size: CGSize(width: 50, height: 20))).texts == ["C"])
    }
}
