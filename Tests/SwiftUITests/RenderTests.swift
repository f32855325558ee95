import Testing
@testable import SwiftUI

@MainActor
@Suite struct RenderTests {
    @Test func renderedSizeIsTheRequestedSize() {
        let rendered = render(EmptyView(), RenderRequest(size: CGSize(width: 170, height: 170)))
        #expect(rendered.size == CGSize(width: 170, height: 170))
    }
}
