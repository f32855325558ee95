import Foundation

// How many values a list parameter takes (Apple's `IntentCollectionSize`), overall or per widget family
// (`@Parameter(title: "Habits", size: [.systemSmall: 1, .systemLarge: 4])`): the Shortcuts app and a widget's
// configuration let a person pick no fewer and no more.

/// A widget family, as a list parameter's sizes name it (Apple's `IntentWidgetFamily`, WidgetKit's families).
public enum IntentWidgetFamily: String, Hashable, Sendable, CaseIterable {
    case systemSmall, systemMedium, systemLarge, systemExtraLarge, systemExtraLargePortrait
    case accessoryCorner, accessoryCircular, accessoryRectangular, accessoryInline
}

/// How many values a list takes: exactly some, or between a minimum and a maximum; an integer literal is "at most".
public struct IntentCollectionSize: ExpressibleByIntegerLiteral, Equatable, Sendable {
    public let min: Int
    public let max: Int

    public init(exactly count: Int) { self.init(min: count, max: count) }
    public init(min: Int, max: Int) {
        self.min = min
        self.max = max
    }

    /// `size: 3`: up to three.
    public init(integerLiteral value: Int) { self.init(min: 0, max: value) }

    func accepts(_ count: Int) -> Bool { (min...Swift.max(min, max)).contains(count) }

    var text: String { min == max ? "exactly \(max)" : min == 0 ? "at most \(max)" : "\(min) to \(max)" }
}

/// A list parameter's bounds: one size, or one per widget family.
struct ListBounds: Sendable {
    var size: IntentCollectionSize?
    var perFamily: [IntentWidgetFamily: IntentCollectionSize] = [:]

    /// Whether a list of `count` values may be picked. Per family: when some family takes it, since a widget's
    /// configuration here serves every family it draws.
    func accepts(_ count: Int) -> Bool {
        if let size { return size.accepts(count) }
        return perFamily.isEmpty || perFamily.values.contains { $0.accepts(count) }
    }

    /// How `list` and a refusal name the bounds (`at most 2`, `systemSmall: exactly 1, systemLarge: at most 4`).
    var text: String? {
        if let size { return size.text }
        guard !perFamily.isEmpty else { return nil }
        return IntentWidgetFamily.allCases.compactMap { family in perFamily[family].map { "\(family.rawValue): \($0.text)" } }
            .joined(separator: ", ")
    }
}
