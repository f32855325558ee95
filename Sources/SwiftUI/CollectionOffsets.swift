import Foundation

// SwiftUI's collection edits by offsets, which a list's `onMove` and `onDelete` hand their `IndexSet`s to: app
// models call them on their own arrays, with or without a list.

extension MutableCollection {
    /// Moves the elements at the offsets in `source` so that they stand, in their order, before the element that was
    /// at offset `destination` (at the end when `destination` is the count), as SwiftUI's does.
    public mutating func move(fromOffsets source: IndexSet, toOffset destination: Int) {
        var moving: [Element] = []
        var staying: [Element] = []
        var insertion = 0
        for (offset, element) in zip(0..., self) {
            if source.contains(offset) {
                moving.append(element)
            } else {
                if offset < destination { insertion += 1 }
                staying.append(element)
            }
        }
        staying.insert(contentsOf: moving, at: insertion)
        for (index, element) in zip(indices, staying) { self[index] = element }
    }
}

extension RangeReplaceableCollection {
    /// Removes the elements at the offsets in `offsets`, as SwiftUI's does.
    public mutating func remove(atOffsets offsets: IndexSet) {
        var kept = Self()
        for (offset, element) in zip(0..., self) where !offsets.contains(offset) { kept.append(element) }
        self = kept
    }
}
