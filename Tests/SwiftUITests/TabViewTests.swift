import Testing
@testable import SwiftUI

private enum Screen: String, CaseIterable, Identifiable, Hashable {
    case birds = "Birds", plants = "Plants"
    var id: String { rawValue }
}

/// A tab view drawn as an iPhone's first frame shows it.
@MainActor
@Suite struct TabViewTests {
    private func tabs(_ selection: Screen?) -> some View {
        TabView(selection: .constant(selection)) {
            ForEach(Screen.allCases) { screen in
                Text("\(screen.rawValue) screen")
                    .tag(screen as Screen?)
                    .tabItem { Label(screen.rawValue, systemImage: "leaf") }
            }
        }
    }

    @Test func theSelectedTabIsDrawnAboveABarOfEveryTabsItem() {
        let request = RenderRequest(size: CGSize(width: 390, height: 800))
        #expect(render(tabs(.plants), request).texts == ["Plants screen", "Birds", "Plants"])
        // Without a matching selection, the first tab.
        #expect(render(tabs(nil), request).texts == ["Birds screen", "Birds", "Plants"])
        #expect(render(TabView { Text("One").tabItem { Text("1") }; Text("Two").tabItem { Text("2") } }, request).texts == ["One", "1", "2"])

        let texts = render(tabs(.plants), request).canvas.placed.filter { $0.what.hasPrefix("Text(") }.map(\.rect)
        // The items share the bar's width, their titles inside the bottom 49 points, in 10-point type.
        #expect(texts[1].midX < 195 && texts[2].midX > 195 && abs(texts[1].midX - 97.5) < 0.5)
        #expect(texts[1].minY > 800 - 49 && texts[1].maxY <= 800 && texts[1].height < texts[0].height)
        // The screen's content is centered in the space above the bar.
        #expect(abs(texts[0].midY - (800 - 49 - 1) / 2) < 1)
        // The selected item in the tint (blue), the other in gray.
        let svg = render(tabs(.plants), request).svg(title: nil)
        let titleFills = svg.matches(of: /font-size="10" font-weight="500" fill="(#[0-9a-f]{6})"/).map { String($0.1) }
        #expect(titleFills == ["#8e8e93", "#007aff"])
    }
}
