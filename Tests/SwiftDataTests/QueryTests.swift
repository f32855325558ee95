import Foundation
import Testing
import SwiftData
@testable import SwiftUI

/// A view's `@Query` reads the context `.modelContainer(_:)` put in its environment, each time it is drawn.
@MainActor
struct QueryTests {
    struct ShelfList: View {
        @Query(sort: \Shelf.label) var shelves: [Shelf]
        @Environment(\.modelContext) var context

        var body: some View {
            VStack {
                ForEach(shelves) { shelf in Text(shelf.label) }
                Text("\(context.container.schema.types.count) models")
            }
        }
    }

    func texts(_ view: some View) -> [String] {
        render(view, RenderRequest(size: CGSize(width: 300, height: 300))).canvas.placed.map(\.what).filter { $0.hasPrefix("Text(") }
    }

    @Test func queryShowsWhatTheContainerHoldsWhenDrawn() throws {
        let container = try ModelContainer(for: Shelf.self, configurations: ModelConfiguration(isStoredInMemoryOnly: true))
        let view = ShelfList().modelContainer(container)
        #expect(texts(view).count == 1)  // no shelves yet: the count line only
        let context = ModelContext(container)
        context.insert(Shelf(label: "B"))
        context.insert(Shelf(label: "A"))
        try context.save()
        let drawn = texts(view)
        #expect(drawn.count == 3 && drawn[0].contains("A") && drawn[1].contains("B") && drawn[2].contains("2 models"), "\(drawn)")
    }
}
