import Testing
@testable import SwiftUI

/// A team's own style: black in light appearance, white in dark (iOS 17's `resolve(in:)`).
private struct Ink: ShapeStyle {
    func resolve(in environment: EnvironmentValues) -> some ShapeStyle {
        environment.colorScheme == .dark ? Color.white.blendMode(.plusLighter) : Color.black.blendMode(.plusDarker)
    }
}

/// The app-side views of a team's shared UI package, drawn as a first frame shows them.
@MainActor
@Suite struct AppViewsTests {
    @Test func listRowsStackAndNavigationLinksAndButtonsDrawTheirLabels() {
        var tapped = false
        let view = List {
            NavigationLink(value: 1) { Text("Backyard") }
            Button("Dismiss") { tapped = true }
                .swipeActions { Button("Delete") { tapped = true } }
            Button(action: { tapped = true }) { Label("More", systemImage: "plus") }
        }
        let rendered = render(view, RenderRequest(size: CGSize(width: 300, height: 400)))
        // The swipe action is not shown; no action ran; a plain button is no intent control.
        #expect(rendered.texts == ["Backyard", "Dismiss", "More"])
        #expect(!tapped && rendered.controls.isEmpty)
        let texts = placed(view, width: 300, height: 400).filter { $0.what.hasPrefix("Text(") }
        // Rows one under another, from the top.
        #expect(texts[0].rect.minY < texts[1].rect.minY && texts[1].rect.minY < texts[2].rect.minY && texts[0].rect.minY < 40)
    }

    @Test func aTeamsOwnStyleResolvesInTheEnvironmentItIsDrawnIn() {
        var dark = EnvironmentValues()
        dark.colorScheme = .dark
        #expect(resolvePaint(Ink(), EnvironmentValues()) == .color(RGBA(0, 0, 0)))
        #expect(resolvePaint(Ink(), dark) == .color(RGBA(1, 1, 1)))
        #expect(resolvePaint(SeparatorShapeStyle(), EnvironmentValues()) == .color(RGBA(hex: 0x3C3C43, alpha: 0.29)))
    }

    @Test func containerShapeSetsTheContainerRelativeShapesCorners() {
        func path(_ view: some View) -> String? {
            let svg = render(view, RenderRequest(size: CGSize(width: 40, height: 40))).svg(title: nil)
            return svg.firstMatch(of: /<path d="([^"]*)"/).map { String($0.1) }
        }
        let contained = path(ContainerRelativeShape().fill(Color.red).containerShape(.rect(cornerRadius: 10)))
        #expect(contained != nil && contained == path(RoundedRectangle(cornerRadius: 10).fill(Color.red)))
        #expect(contained != path(ContainerRelativeShape().fill(Color.red)))
    }

    @Test func aScrollTransitionIsDrawnAtItsIdentityPhase() {
        let view = Color.red.frame(width: 10, height: 10).scrollTransition { effect, phase in
            effect.scaleEffect(phase.isIdentity ? 1 : 0.5).opacity(phase.isIdentity ? 1 : 0)
        }
        let svg = render(view, RenderRequest(size: CGSize(width: 10, height: 10))).svg(title: nil)
        #expect(!svg.contains("scale(0.5") && !svg.contains("opacity=\"0\""))
        #expect(ScrollTransitionPhase.topLeading.value == -1 && ScrollTransitionPhase.identity.isIdentity)
    }

    @Test func aGeometryProxyKnowsItsOwnBoundsOnly() {
        let proxy = GeometryProxy(size: CGSize(width: 20, height: 30))
        #expect(proxy.bounds(of: .local) == CGRect(x: 0, y: 0, width: 20, height: 30))
        #expect(proxy.bounds(of: .scrollView) == nil)
        #expect(proxy.frame(in: .global).size == CGSize(width: 20, height: 30))
        var environment = EnvironmentValues()
        environment.backgroundMaterial = .regular
        #expect(environment.backgroundMaterial == .regularMaterial)
    }
}
