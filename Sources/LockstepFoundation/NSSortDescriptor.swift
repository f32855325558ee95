import Foundation

/// Foundation's `NSSortDescriptor` with its string keys, whose initializer Foundation on Linux refuses ("Key-value
/// coding is not available in swift-corelibs-foundation"): the Linux shim names it
/// (`typealias NSSortDescriptor = LockstepFoundation.NSSortDescriptor`), as it names `NSPredicate`.
///
/// A key is read as `NSPredicate` reads one: a dictionary's entry, else a Swift value's stored property of that name,
/// a dotted key through each step; a nil key compares the objects themselves. Values compare as `compare:` does:
/// numbers with numbers, strings with strings (literally, case first), dates with dates; a missing value (nil) comes
/// before every other, and two values that cannot be compared are the same, so a stable sort keeps their order.
open class NSSortDescriptor: NSObject, @unchecked Sendable {  // @unchecked: immutable after init.
    /// The key the objects are compared by (for a key-path descriptor, nil, as Apple's gives for a Swift key path
    /// with no Objective-C name).
    public let key: String?
    /// Whether the objects are put in ascending order.
    public let ascending: Bool
    /// The Swift key path the objects are compared by, when the descriptor was made with one.
    public let keyPath: AnyKeyPath?
    private let value: (Any) -> Any?
    private let comparator: Comparator?

    private init(key: String?, keyPath: AnyKeyPath?, ascending: Bool, comparator: Comparator?, value: @escaping (Any) -> Any?) {
        self.key = key
        self.keyPath = keyPath
        self.ascending = ascending
        self.comparator = comparator
        self.value = value
        super.init()
    }

    /// Compares objects by the value of `key` (nil: the objects themselves).
    public convenience init(key: String?, ascending: Bool) {
        self.init(key: key, keyPath: nil, ascending: ascending, comparator: nil, value: Self.reader(of: key))
    }

    /// Compares objects by the value of `key` with `cmptr`.
    public convenience init(key: String?, ascending: Bool, comparator cmptr: @escaping Comparator) {
        self.init(key: key, keyPath: nil, ascending: ascending, comparator: cmptr, value: Self.reader(of: key))
    }

    /// Compares objects of type `Root` by the value at `keyPath`.
    public convenience init<Root, Value>(keyPath: KeyPath<Root, Value>, ascending: Bool) {
        self.init(key: nil, keyPath: keyPath, ascending: ascending, comparator: nil) { ($0 as? Root).map { $0[keyPath: keyPath] } }
    }

    /// Compares objects of type `Root` by the value at `keyPath` with `cmptr`.
    public convenience init<Root, Value>(keyPath: KeyPath<Root, Value>, ascending: Bool, comparator cmptr: @escaping Comparator) {
        self.init(key: nil, keyPath: keyPath, ascending: ascending, comparator: cmptr) { ($0 as? Root).map { $0[keyPath: keyPath] } }
    }

    /// Reads `key` of an object, a dotted key step by step; a nil key gives the object.
    private static func reader(of key: String?) -> (Any) -> Any? {
        let steps = key?.split(separator: ".").map(String.init) ?? []
        return { object in steps.reduce(Optional(object)) { value, step in PredicateValues.member(step, of: value) } }
    }

    /// The descriptor with the opposite order.
    open var reversedSortDescriptor: Any {
        NSSortDescriptor(key: key, keyPath: keyPath, ascending: !ascending, comparator: comparator, value: value)
    }

    /// How `object1` orders before or after `object2` under this descriptor.
    open func compare(_ object1: Any, to object2: Any) -> ComparisonResult {
        let left = PredicateValues.unwrapped(value(object1)), right = PredicateValues.unwrapped(value(object2))
        let order: ComparisonResult
        switch (left, right) {
        case (nil, nil): order = .orderedSame
        case (nil, _): order = .orderedAscending
        case (_, nil): order = .orderedDescending
        case let (left?, right?):
            order = comparator?(left, right) ?? PredicateValues.order(left, right, .init()) ?? .orderedSame
        }
        guard !ascending else { return order }
        switch order {
        case .orderedAscending: return .orderedDescending
        case .orderedDescending: return .orderedAscending
        case .orderedSame: return .orderedSame
        }
    }

    open override var description: String {
        "(\(key ?? keyPath.map { "\($0)" } ?? "self"), \(ascending ? "ascending" : "descending"), compare:)"
    }

    /// Whether `lhs` goes before `rhs` under `descriptors`: the first that does not find them the same decides.
    static func precedes(_ lhs: Any, _ rhs: Any, under descriptors: [NSSortDescriptor]) -> Bool {
        for descriptor in descriptors {
            switch descriptor.compare(lhs, to: rhs) {
            case .orderedAscending: return true
            case .orderedDescending: return false
            case .orderedSame: continue
            }
        }
        return false
    }
}

extension Foundation.NSArray {
    /// The array's objects in the order `sortDescriptors` give, as Foundation's `sortedArray(using:)` (a stable sort).
    public func sortedArray(using sortDescriptors: [NSSortDescriptor]) -> [Any] {
        Array(self).sortedStably(using: sortDescriptors)
    }
}

extension Foundation.NSMutableArray {
    /// Sorts the array in place in the order `sortDescriptors` give, as Foundation's `sort(using:)`.
    public func sort(using sortDescriptors: [NSSortDescriptor]) {
        let sorted = Array(self).sortedStably(using: sortDescriptors)
        removeAllObjects()
        addObjects(from: sorted)
    }
}

extension Array {
    /// The elements in the order `descriptors` give, elements they find the same keeping their order, as
    /// Foundation's sorts by descriptors do.
    func sortedStably(using descriptors: [NSSortDescriptor]) -> [Element] {
        enumerated().sorted { lhs, rhs in
            if NSSortDescriptor.precedes(lhs.element, rhs.element, under: descriptors) { return true }
            if NSSortDescriptor.precedes(rhs.element, lhs.element, under: descriptors) { return false }
            return lhs.offset < rhs.offset
        }.map(\.element)
    }
}
