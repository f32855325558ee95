import Foundation
import SwiftUI
import Testing

/// SwiftUI's `move(fromOffsets:toOffset:)` and `remove(atOffsets:)`, with the offsets a list's `onMove` and
/// `onDelete` give.
@Suite struct CollectionOffsetsTests {
    @Test func movedElementsStandBeforeTheDestinationInTheirOrder() {
        var tasks = ["a", "b", "c", "d", "e"]
        tasks.move(fromOffsets: [1, 3], toOffset: 0)
        #expect(tasks == ["b", "d", "a", "c", "e"])
        tasks = ["a", "b", "c", "d", "e"]
        tasks.move(fromOffsets: [0], toOffset: 3)  // dragged down: before what was "d"
        #expect(tasks == ["b", "c", "a", "d", "e"])
        tasks.move(fromOffsets: [0, 1], toOffset: 5)  // to the end
        #expect(tasks == ["a", "d", "e", "b", "c"])
        tasks.move(fromOffsets: [2], toOffset: 2)  // onto itself: nothing moves
        #expect(tasks == ["a", "d", "e", "b", "c"])
    }

    @Test func removedOffsetsAreGoneAndTheRestKeepTheirOrder() {
        var tasks = ["a", "b", "c", "d"]
        tasks.remove(atOffsets: [0, 2])
        #expect(tasks == ["b", "d"])
        tasks.remove(atOffsets: [])
        #expect(tasks == ["b", "d"])
    }
}
