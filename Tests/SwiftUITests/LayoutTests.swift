import Testing
@testable import SwiftUI

/// Layout against sizes computed by hand from SwiftUI's rules: the parent proposes, the child chooses, the parent
/// places; stacks offer the space left to the least flexible child first, divided by the children left.
@MainActor
@Suite struct LayoutTests {
    @Test func hstackGivesFixedChildrenTheirSizeAndSharesTheRest() {
        // 170 wide: the fixed 50 first, then 120 shared by two colors: 60 each.
        let view = HStack(spacing: 0) {
            Color.red.frame(width: 50)
            Color.blue
            Color.green
        }
        #expect(close(shapeFrames(view, width: 170, height: 100), [rect(0, 0, 50, 100), rect(50, 0, 60, 100), rect(110, 0, 60, 100)]))
    }

    @Test func defaultSpacingIsEightAndTheStackIsCentered() {
        // 20 + 8 + 20 = 48 wide, centered in 200 × 100: x = 76, y = 40.
        let view = HStack {
            Color.red.frame(width: 20, height: 20)
            Color.blue.frame(width: 20, height: 20)
        }
        #expect(close(shapeFrames(view, width: 200, height: 100), [rect(76, 40, 20, 20), rect(104, 40, 20, 20)]))
    }

    @Test func spacerTakesTheRemainingLength() {
        // 200 − 30 − 30 = 140 for the spacer; the stack is as tall as its tallest child (10), centered: y = 20.
        let view = HStack(spacing: 0) {
            Color.red.frame(width: 30, height: 10)
            Spacer()
            Color.blue.frame(width: 30, height: 10)
        }
        #expect(close(shapeFrames(view, width: 200, height: 50), [rect(0, 20, 30, 10), rect(170, 20, 30, 10)]))
    }

    @Test func spacersGetWhatTheOtherViewsLeave() {
        // A text beside a spacer takes the room it needs: the text (about 150 points on one line) is not offered half
        // of the 300 points, which would wrap it; the spacer keeps what is left.
        let text = Text("A line of about thirty characters")
        let row = placed(HStack(spacing: 0) { text; Spacer() }, width: 300, height: 100).filter { $0.what.hasPrefix("Text(") }
        let alone = placed(text.fixedSize(), width: 300, height: 100).filter { $0.what.hasPrefix("Text(") }
        #expect(row.count == 1 && alone.count == 1 && abs(row[0].rect.height - alone[0].rect.height) < 0.01 && row[0].rect.width > 150)
        // Down a column: a four-line text above a spacer gets its lines, not half the height.
        let column = placed(VStack(alignment: .leading, spacing: 0) {
            Text("one two three four five six seven eight nine ten eleven twelve").lineLimit(4)
            Spacer(minLength: 0)
        }, width: 80, height: 120).filter { $0.what.hasPrefix("Text(") }
        #expect(column.count == 1 && column[0].rect.height > 60, "\(column)")
    }

    @Test func spacerKeepsItsMinimumLength() {
        // 100 offered, children 60 + 60: the spacer still takes its minimum 10, the colors share the 90 left…
        // least flexible first: both fixed frames keep 60, so the stack overflows to 130 and is centered: x = −15.
        let view = HStack(spacing: 0) {
            Color.red.frame(width: 60, height: 10)
            Spacer(minLength: 10)
            Color.blue.frame(width: 60, height: 10)
        }
        #expect(close(shapeFrames(view, width: 100, height: 10), [rect(-15, 0, 60, 10), rect(55, 0, 60, 10)]))
    }

    @Test func lessFlexibleChildrenAreOfferedSpaceFirst() {
        // The red frame can be 0…30 wide (flexibility 30), the blue color anything: red is offered 100 / 2 = 50 and
        // takes 30; blue gets the 70 left.
        let view = HStack(spacing: 0) {
            Color.red.frame(maxWidth: 30)
            Color.blue
        }
        #expect(close(shapeFrames(view, width: 100, height: 10), [rect(0, 0, 30, 10), rect(30, 0, 70, 10)]))
    }

    @Test func higherLayoutPriorityIsOfferedSpaceBeforeTheOthers() {
        // Blue (priority 1) is offered 150 less red's minimum 10 = 140 and clamps to 100; red gets the 50 left.
        let view = HStack(spacing: 0) {
            Color.red.frame(minWidth: 10, maxWidth: 100)
            Color.blue.frame(minWidth: 10, maxWidth: 100).layoutPriority(1)
        }
        #expect(close(shapeFrames(view, width: 150, height: 10), [rect(0, 0, 50, 10), rect(50, 0, 100, 10)]))
    }

    @Test func vstackAlignsLeadingWithExplicitSpacing() {
        // 80 × (10 + 4 + 10) = 80 × 24, centered in 100 × 100 at (10, 38); children leading-aligned.
        let view = VStack(alignment: .leading, spacing: 4) {
            Color.red.frame(width: 40, height: 10)
            Color.blue.frame(width: 80, height: 10)
        }
        #expect(close(shapeFrames(view, width: 100, height: 100), [rect(10, 38, 40, 10), rect(10, 52, 80, 10)]))
    }

    @Test func vstackTrailingAlignment() {
        let view = VStack(alignment: .trailing, spacing: 0) {
            Color.red.frame(width: 40, height: 10)
            Color.blue.frame(width: 80, height: 10)
        }
        #expect(close(shapeFrames(view, width: 80, height: 20), [rect(40, 0, 40, 10), rect(0, 10, 80, 10)]))
    }

    @Test func maxWidthInfinityTakesTheProposedWidthAndAlignsTheChild() {
        // The flexible frame is offered 100 and takes min(∞, max(20, 100)) = 100 wide, its child's 20 tall;
        // centered vertically in 50: y = 15; the child sits trailing: x = 80.
        let view = Color.red.frame(width: 20, height: 20).frame(maxWidth: .infinity, alignment: .trailing)
        #expect(close(shapeFrames(view, width: 100, height: 50), [rect(80, 15, 20, 20)]))
    }

    @Test func minWidthWidensASmallerChild() {
        // Offered 200, the frame takes max(50, min(10, 200)) = 50: a 50 × 10 frame centered at (75, 95), the
        // child centered in it at x = 95.
        let view = Color.red.frame(width: 10, height: 10).frame(minWidth: 50)
        #expect(close(shapeFrames(view, width: 200, height: 200), [rect(95, 95, 10, 10)]))
    }

    @Test func maxHeightCapsAFlexibleChild() {
        let view = Color.red.frame(maxHeight: 30)
        #expect(close(shapeFrames(view, width: 60, height: 100), [rect(0, 35, 60, 30)]))
    }

    @Test func paddingInsetsTheProposalAndAddsToTheSize() {
        #expect(close(shapeFrames(Color.red.padding(10), width: 100, height: 60), [rect(10, 10, 80, 40)]))
        #expect(close(shapeFrames(Color.red.padding(.horizontal, 5), width: 100, height: 60), [rect(5, 0, 90, 60)]))
        #expect(close(shapeFrames(Color.red.padding(EdgeInsets(top: 1, leading: 2, bottom: 3, trailing: 4)), width: 100, height: 60),
                      [rect(2, 1, 94, 56)]))
        // The default padding is 16 on every edge.
        #expect(close(shapeFrames(Color.red.padding(), width: 100, height: 60), [rect(16, 16, 68, 28)]))
    }

    @Test func zstackIsAsLargeAsItsLargestChildAndAlignsTheOthers() {
        // 60 × 40 centered in 100 × 100 at (20, 30); the small child bottom-trailing in it.
        let view = ZStack(alignment: .bottomTrailing) {
            Color.red.frame(width: 60, height: 40)
            Color.blue.frame(width: 20, height: 10)
        }
        #expect(close(shapeFrames(view, width: 100, height: 100), [rect(20, 30, 60, 40), rect(60, 60, 20, 10)]))
    }

    @Test func backgroundIsSizedByTheViewItBacks() {
        // The base is 40 × 20 at (80, 90); the background, offered that size, is a fixed 100 × 100 centered on it.
        let view = Color.red.frame(width: 40, height: 20).background(Color.blue.frame(width: 100, height: 100))
        #expect(close(shapeFrames(view, width: 200, height: 200), [rect(50, 50, 100, 100), rect(80, 90, 40, 20)]))
        // A flexible overlay takes the base's size exactly, drawn after it.
        let overlay = Color.red.frame(width: 40, height: 20).overlay(Color.blue)
        #expect(close(shapeFrames(overlay, width: 200, height: 200), [rect(80, 90, 40, 20), rect(80, 90, 40, 20)]))
    }

    @Test func overlayAlignment() {
        let view = Color.red.frame(width: 40, height: 20).overlay(alignment: .topLeading) { Color.blue.frame(width: 5, height: 5) }
        #expect(close(shapeFrames(view, width: 40, height: 20), [rect(0, 0, 40, 20), rect(0, 0, 5, 5)]))
    }

    @Test func fixedSizeIgnoresTheProposal() {
        // A shape's ideal size is SwiftUI's 10 × 10 placeholder.
        #expect(close(shapeFrames(Rectangle().fixedSize(), width: 100, height: 100), [rect(45, 45, 10, 10)]))
    }

    @Test func aspectRatioFitsTheProposal() {
        // 2:1 in 100 × 100: 100 × 50, centered at y = 25.
        #expect(close(shapeFrames(Color.red.aspectRatio(2, contentMode: .fit), width: 100, height: 100), [rect(0, 25, 100, 50)]))
    }

    @Test func contentMarginsInsetTheContentAndTheContainerBackgroundIsFullBleed() {
        let view = Color.red.containerBackground(Color.blue, for: ContainerBackgroundPlacement("widget"))
        let request = RenderRequest(size: CGSize(width: 170, height: 170), contentMargins: EdgeInsets(top: 16, leading: 16, bottom: 16, trailing: 16),
                                    containerBackground: ContainerBackgroundPlacement("widget"))
        let rendered = render(view, request)
        #expect(rendered.hasContainerBackground)
        #expect(close(rendered.canvas.placed.map(\.rect), [rect(0, 0, 170, 170), rect(16, 16, 138, 138)]))
        // Removed (StandBy): only the content is drawn.
        var removed = request
        removed.showsContainerBackground = false
        #expect(close(render(view, removed).canvas.placed.map(\.rect), [rect(16, 16, 138, 138)]))
    }

    @Test func viewThatFitsTakesTheFirstCandidateThatFits() {
        let view = ViewThatFits {
            Color.red.frame(width: 200, height: 10)
            Color.blue.frame(width: 50, height: 10)
        }
        #expect(close(shapeFrames(view, width: 100, height: 10), [rect(25, 0, 50, 10)]))
        #expect(close(shapeFrames(view, width: 300, height: 10), [rect(50, 0, 200, 10)]))
    }

    @Test func geometryReaderTakesTheOfferAndBuildsItsContentForIt() {
        // The reader is 100 × 50; its content, built for that size, sits top-leading.
        let view = GeometryReader { proxy in
            Color.red.frame(width: proxy.size.width / 2, height: proxy.size.height / 5)
        }
        #expect(close(shapeFrames(view, width: 100, height: 50), [rect(0, 0, 50, 10)]))
    }

    @Test func dividerIsAHairlineAcrossTheStack() {
        let view = VStack(spacing: 0) {
            Color.red.frame(height: 10)
            Divider()
            Color.blue.frame(height: 10)
        }
        #expect(close(shapeFrames(view, width: 50, height: 21), [rect(0, 0, 50, 10), rect(0, 10, 50, 1), rect(0, 11, 50, 10)]))
    }
}
