import Testing
@testable import SwiftUI

/// NavigationSplitView as an iPhone's first frame shows it: collapsed into a stack that starts at its sidebar, or at
/// the column `preferredCompactColumn` names.
@MainActor
@Suite struct NavigationSplitViewTests {
    func texts(_ view: some View) -> [String] { render(view, RenderRequest(size: CGSize(width: 393, height: 600))).texts }

    @Test func aCollapsedSplitViewShowsItsSidebar() {
        let three = NavigationSplitView {
            List { NavigationLink("Trucks", value: 1) }
        } content: {
            Text("Orders")
        } detail: {
            Text("Pick an order")
        }
        .navigationSplitViewStyle(.balanced)
        #expect(texts(three) == ["Trucks"])
        var visibility = NavigationSplitViewVisibility.all
        let binding = Binding(get: { visibility }, set: { visibility = $0 })
        let two = NavigationSplitView(columnVisibility: binding) {
            Text("Birds").navigationSplitViewColumnWidth(min: 180, ideal: 200)
        } detail: {
            Text("Select a bird")
        }
        #expect(texts(two) == ["Birds"] && visibility == .all)
    }

    @Test func thePreferredCompactColumnIsShownFirst() {
        let split = NavigationSplitView(columnVisibility: .constant(.automatic), preferredCompactColumn: .constant(.detail)) {
            Text("Sidebar")
        } content: {
            Text("Content")
        } detail: {
            Text("Detail")
        }
        #expect(texts(split) == ["Detail"])
        let content = NavigationSplitView(columnVisibility: .constant(.doubleColumn), preferredCompactColumn: .constant(.content)) {
            Text("Sidebar")
        } content: {
            Text("Content")
        } detail: {
            Text("Detail")
        }
        #expect(texts(content) == ["Content"])
        // A two-column split view has no content column: the stack starts at its sidebar.
        let two = NavigationSplitView(columnVisibility: .constant(.all), preferredCompactColumn: .constant(.content)) {
            Text("Sidebar")
        } detail: {
            Text("Detail")
        }
        #expect(texts(two) == ["Sidebar"])
    }
}
