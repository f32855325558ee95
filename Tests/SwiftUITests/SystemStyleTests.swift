import AppIntents
import Testing
@testable import SwiftUI

/// The styles and modifiers of SystemStyles.swift, each drawn or laid out as SwiftUI does.
@MainActor
@Suite struct SystemStyleTests {
    private func svg<V: View>(_ view: V, dark: Bool = false) -> String {
        var environment = EnvironmentValues()
        environment.colorScheme = dark ? .dark : .light
        return render(view, RenderRequest(size: CGSize(width: 100, height: 100), environment: environment)).svg(title: nil)
    }

    @Test func theBackgroundStyleIsTheSystemBackgroundOfTheAppearance() {
        #expect(svg(Rectangle().fill(.background)).contains("fill=\"#ffffff\""))
        #expect(svg(Rectangle().fill(.background), dark: true).contains("fill=\"#000000\""))
    }

    @Test func aMaterialIsItsTintAtItsThickness() {
        // Regular: the light tint (0.98 → #fafafa) at 0.65; ultra-thin at 0.35; dark: #1c1c1f.
        #expect(svg(Rectangle().fill(.regularMaterial)).contains("fill=\"#fafafa\" fill-opacity=\"0.65\""))
        #expect(svg(Rectangle().fill(.ultraThinMaterial)).contains("fill-opacity=\"0.35\""))
        #expect(svg(Rectangle().fill(.thickMaterial), dark: true).contains("fill=\"#1c1c1f\" fill-opacity=\"0.8\""))
    }

    @Test func aSymbolVariantIsTheSymbolOfThatName() {
        func name<V: View>(_ view: V) -> [String] { placed(view, width: 100, height: 100).map(\.what) }
        #expect(name(Image(systemName: "heart").symbolVariant(.fill)) == ["Image(heart.fill)"])
        #expect(name(Image(systemName: "person").symbolVariant(.circle.fill)) == ["Image(person.circle.fill)"])
        #expect(name(Image(systemName: "bell").symbolVariant(.fill).symbolVariant(.slash)) == ["Image(bell.slash.fill)"])
        // A name that already has the variant keeps it once.
        #expect(name(Image(systemName: "heart.fill").symbolVariant(.fill)) == ["Image(heart.fill)"])
        #expect(SymbolVariants.circle.fill.contains(.fill) && !SymbolVariants.fill.contains(.circle))
    }

    @Test func hiddenLabelsLeaveTheControlAlone() {
        // With its label the row fills the 200-pt width and the 51 × 31 switch sits at its end: x = 200 − 51 = 149.
        let toggle = Toggle(isOn: true, intent: TapIntent()) { Text("Wi-Fi") }
        let shown = placed(toggle, width: 200, height: 100)
        #expect(shown.contains { $0.what.hasPrefix("Text(") })
        #expect(shown.first { $0.what == "Capsule" }?.rect.minX == 149)
        // Hidden: the switch alone, centered: x = (200 − 51) / 2 = 74.5, y = (100 − 31) / 2 = 34.5.
        let hidden = placed(toggle.labelsHidden(), width: 200, height: 100)
        #expect(!hidden.contains { $0.what.hasPrefix("Text(") })
        #expect(hidden.first { $0.what == "Capsule" }?.rect == rect(74.5, 34.5, 51, 31))
        // A gauge's label goes too; its bar stays.
        #expect(svg(Gauge(value: 0.5) { Text("Speed") }).contains(">Speed<"))
        let gauge = svg(Gauge(value: 0.5) { Text("Speed") }.labelsHidden())
        #expect(!gauge.contains(">Speed<") && gauge.contains("<path"), "\(gauge)")
    }

    @Test func aCompositingGroupIsOneGroupAndChangesNoFrame() {
        let view = ZStack { Circle().fill(Color.red); Circle().fill(Color.blue).padding(10) }
        #expect(close(shapeFrames(view.compositingGroup().opacity(0.5), width: 100, height: 100), shapeFrames(view, width: 100, height: 100)))
        #expect(svg(view.compositingGroup()).contains("<g opacity=\"1\">"))
    }

    @Test func luminanceIsFullAndEdgesAndTransitionsHaveApplesForms() {
        #expect(EnvironmentValues().isLuminanceReduced == false)
        var dimmed = EnvironmentValues()
        dimmed.isLuminanceReduced = true
        #expect(dimmed.isLuminanceReduced)
        #expect(HorizontalEdge.Set.all.contains(.leading) && HorizontalEdge.Set(.trailing) == .trailing)
        // A picture shows the view inserted: a transition changes no frame.
        let transition = AnyTransition.asymmetric(insertion: .offset(y: 20).combined(with: .opacity), removal: .scale(scale: 0.5))
        #expect(close(shapeFrames(Rectangle().frame(width: 30, height: 30).transition(transition), width: 100, height: 100),
                      [rect(35, 35, 30, 30)]))
    }
}

@MainActor
@Suite struct GridTests {
    @Test func columnsAreTheirWidestCellAndRowsTheirTallest() {
        let grid = Grid(horizontalSpacing: 10, verticalSpacing: 4) {
            GridRow {
                Rectangle().frame(width: 30, height: 10)
                Rectangle().frame(width: 50, height: 20)
            }
            GridRow {
                Rectangle().frame(width: 40, height: 30)
                Rectangle().frame(width: 20, height: 10)
            }
        }
        // Columns 40 and 50, rows 20 and 30: 40 + 10 + 50 = 100 by 20 + 4 + 30 = 54, centered in 200 × 200 at (50, 73).
        // Each cell is centered in its column and row: (50 + 5, 73 + 5), (100, 73); the second row starts at
        // 73 + 20 + 4 = 97: (50, 97), (100 + 15, 97 + 10).
        #expect(close(shapeFrames(grid, width: 200, height: 200),
                      [rect(55, 78, 30, 10), rect(100, 73, 50, 20), rect(50, 97, 40, 30), rect(115, 107, 20, 10)]))
    }

    @Test func aRowsAlignmentAndASpanningViewFollowApplesRules() {
        let grid = Grid(alignment: .topLeading, horizontalSpacing: 0, verticalSpacing: 0) {
            GridRow(alignment: .bottom) {
                Rectangle().frame(width: 30, height: 10)
                Rectangle().frame(width: 50, height: 20)
            }
            Rectangle().frame(width: 60, height: 5)
        }
        // 80 × 25 at ((200 − 80) / 2, (200 − 25) / 2) = (60, 87.5). The row is bottom-aligned: the short cell sits
        // 10 pt down; the view outside a row spans the 80-pt grid, leading-aligned, below it at 87.5 + 20.
        #expect(close(shapeFrames(grid, width: 200, height: 200),
                      [rect(60, 97.5, 30, 10), rect(90, 87.5, 50, 20), rect(60, 107.5, 60, 5)]))
    }

    /// A flexible cell takes the room the other columns leave, as in SwiftUI (Backyard Birds' gauges beside their
    /// icons and hours), where it was drawn at its 10-point placeholder size.
    @Test func aFlexibleColumnTakesTheWidthTheOthersLeave() {
        let grid = Grid(horizontalSpacing: 10, verticalSpacing: 0) {
            GridRow {
                Rectangle().frame(width: 20, height: 10)
                Color.red.frame(height: 10)
            }
            GridRow {
                Rectangle().frame(width: 30, height: 10)
                Color.blue.frame(height: 10)
            }
        }
        // Columns 30 and 200 − 30 − 10 = 160; the first column's cells centered in it.
        #expect(close(shapeFrames(grid, width: 200, height: 20),
                      [rect(5, 0, 20, 10), rect(40, 0, 160, 10), rect(0, 10, 30, 10), rect(40, 10, 160, 10)]))
    }
}

@MainActor
@Suite struct GradientTintTests {
    @Test func aGradientTintRunsAlongTheGaugesValue() {
        let gauge = Gauge(value: 0.5) { Text("Speed") }.gaugeStyle(.accessoryLinear).tint(Gradient(colors: [.green, .red]))
        let svg = render(gauge, RenderRequest(size: CGSize(width: 160, height: 72))).svg(title: nil)
        // From leading (x 0) to trailing (x 1): green at 0, red at 1.
        #expect(svg.contains(##"x1="0" y1="0.5" x2="1" y2="0.5"><stop offset="0" stop-color="#34c759"/><stop offset="1" stop-color="#ff3b30"/>"##), "\(svg)")
        // A color through the generic form tints as before.
        let plain = render(Gauge(value: 0.5) { Text("S") }.gaugeStyle(.accessoryLinear).tint(AnyShapeStyle(Color.red)),
                           RenderRequest(size: CGSize(width: 160, height: 72))).svg(title: nil)
        #expect(plain.contains("#ff3b30") && !plain.contains("linearGradient"))
    }
}

/// Your own gauge style: its body is drawn in the gauge's place.
private struct SplitBarStyle: GaugeStyle {
    func makeBody(configuration: Configuration) -> some View {
        VStack(spacing: 0) {
            configuration.label
            HStack(spacing: 0) {
                Rectangle().frame(width: 100 * configuration.value, height: 10)
                Rectangle().frame(width: 100 * (1 - configuration.value), height: 10)
            }
        }
    }
}

@MainActor
@Suite struct CustomGaugeStyleTests {
    @Test func aCustomStyleDrawsItsBodyWithTheGaugesValueAndLabel() {
        // 30 in 0…120 is a value of 0.25: bars of 25 and 75 pt, 100 × 10 together, centered in 200 × 100 under
        // the label: the HStack's top is at (100 − (label height + 10)) / 2 + label height.
        let gauge = Gauge(value: 30, in: 0...120) { Text("Speed") }.gaugeStyle(SplitBarStyle())
        let found = placed(gauge, width: 200, height: 100)
        let label = found.first { $0.what == "Text(Speed)" }!.rect
        let top = (100 - (label.height + 10)) / 2 + label.height
        #expect(close(found.filter { $0.what == "Rectangle" }.map(\.rect), [rect(50, top, 25, 10), rect(75, top, 75, 10)]), "\(found)")
        // A built-in style still draws as the renderer does.
        #expect(!placed(Gauge(value: 0.5) { Text("S") }.gaugeStyle(.accessoryLinear), width: 200, height: 100).contains { $0.what == "Rectangle" })
    }
}
