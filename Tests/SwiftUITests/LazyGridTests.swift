import AppIntents
import Foundation
@testable import SwiftUI
import Testing

/// `LazyVGrid`, `LazyHGrid` and `GridItem`, laid out as Apple documents `GridItem.Size`; frames computed by hand.
@MainActor
@Suite struct LazyGridTests {
    @Test func aVerticalGridSizesFixedFlexibleAndAdaptiveColumnsAsGridItemDocuments() {
        let grid = LazyVGrid(columns: [GridItem(.fixed(40)), GridItem(.flexible()), GridItem(.adaptive(minimum: 30))], spacing: 4) {
            ForEach([10, 20, 30, 5, 15, 25], id: \.self) { height in
                Rectangle().frame(width: 20, height: CGFloat(height))
            }
        }
        // 200 pt across: less the fixed 40 and two 8-pt spacings, 144 is shared by the two flexible items, 72 each.
        // The adaptive item fits floor((72 + 8) / (30 + 8)) = 2 columns of (72 − 8) / 2 = 32. Columns: 40, 72, 32,
        // 32 at x 0, 48, 128, 168. Rows: 30 (the tallest of 10, 20, 30, 5) and 25, 4 apart: 59 tall, centered in
        // 200 at y 70.5. Each cell is centered in its column and row.
        #expect(close(shapeFrames(grid, width: 200, height: 200),
                      [rect(10, 80.5, 20, 10), rect(74, 75.5, 20, 20), rect(134, 70.5, 20, 30), rect(174, 83, 20, 5),
                       rect(10, 109.5, 20, 15), rect(74, 104.5, 20, 25)]))
    }

    @Test func aHorizontalGridFillsItsRowsColumnByColumn() {
        let grid = LazyHGrid(rows: [GridItem(.fixed(20)), GridItem(.flexible(minimum: 10, maximum: 50))], spacing: 6) {
            Rectangle().frame(width: 30, height: 10)
            Rectangle().frame(width: 10, height: 10)
            Rectangle().frame(width: 16, height: 10)
        }
        // 100 pt down: less the fixed 20 and one 8-pt spacing, 72 for the flexible row, clamped to its maximum 50.
        // Rows 20 and 50 (78 tall, at y 11 in 100); columns as wide as their widest cell, 30 and 16, 6 apart: 52
        // wide at x 74 in 200. Cells fill the first column top to bottom, then the next; each centered in its space.
        #expect(close(shapeFrames(grid, width: 200, height: 100),
                      [rect(74, 16, 30, 10), rect(84, 59, 10, 10), rect(110, 16, 16, 10)]))
    }

    @Test func aGridItemsAlignmentPlacesItsCells() {
        let grid = LazyVGrid(columns: [GridItem(.fixed(50), alignment: .topLeading), GridItem(.fixed(50))], spacing: 0) {
            Rectangle().frame(width: 10, height: 10)
            Rectangle().frame(width: 10, height: 30)
        }
        // Columns 50 and 50, 8 apart: 108 wide at x 46 in 200; the row is 30 tall at y 85. The first cell sits at
        // its column's top leading corner, the second centered.
        #expect(close(shapeFrames(grid, width: 200, height: 200), [rect(46, 85, 10, 10), rect(124, 85, 10, 30)]))
    }
}

/// Your own `ProgressViewStyle`: its `makeBody` is drawn in the progress view's place with its fraction and labels.
@MainActor
@Suite struct ProgressViewStyleTests {
    struct Bar: ProgressViewStyle {
        func makeBody(configuration: Configuration) -> some View {
            VStack(spacing: 0) {
                configuration.label
                ZStack(alignment: .leading) {
                    Rectangle().frame(width: 100, height: 6)
                    Rectangle().frame(width: 100 * (configuration.fractionCompleted ?? 0), height: 6)
                }
            }
        }
    }

    @Test func aCustomStyleDrawsItsBodyWithTheFraction() {
        let view = ProgressView(value: 3, total: 12).progressViewStyle(Bar())
        // The body is 100 × 6, centered in 200 × 100: (50, 47); the fill is a quarter of it.
        #expect(close(shapeFrames(view, width: 200, height: 100), [rect(50, 47, 100, 6), rect(50, 47, 25, 6)]))
        let labelled = render(ProgressView("Steps", value: 0.5).progressViewStyle(Bar()), RenderRequest(size: CGSize(width: 200, height: 100)))
        #expect(labelled.texts == ["Steps"])
    }

    @Test func aProgressViewOfTheConfigurationDrawsAsTheStyleBefore() {
        struct Wrapped: ProgressViewStyle {
            func makeBody(configuration: Configuration) -> some View { ProgressView(configuration).frame(width: 80) }
        }
        let svg = render(ProgressView(value: 0.5).progressViewStyle(Wrapped()).progressViewStyle(.circular),
                         RenderRequest(size: CGSize(width: 100, height: 100))).svg(title: nil)
        let plain = render(ProgressView(value: 0.5).progressViewStyle(.circular), RenderRequest(size: CGSize(width: 100, height: 100))).svg(title: nil)
        // The circular style set outside yours draws the ring inside it: the same picture as the ring alone.
        #expect(svg == plain, "\(svg)\n\(plain)")
    }
}
