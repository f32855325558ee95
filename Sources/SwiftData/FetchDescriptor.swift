import Foundation

/// What to fetch: a predicate, a sort order, and a window (offset and limit).
public struct FetchDescriptor<T: PersistentModel> {
    public var predicate: Predicate<T>?
    public var sortBy: [SortDescriptor<T>]
    public var fetchLimit: Int?
    public var fetchOffset: Int?
    public var includePendingChanges = true
    /// Accepted; every property is read.
    public var propertiesToFetch: [PartialKeyPath<T>] = []
    /// Accepted; relationships are read on first access.
    public var relationshipKeyPathsForPrefetching: [PartialKeyPath<T>] = []

    public init(predicate: Predicate<T>? = nil, sortBy: [SortDescriptor<T>] = []) {
        self.predicate = predicate
        self.sortBy = sortBy
    }
}

extension ModelContext {
    /// The objects the descriptor selects, in its order. The predicate is evaluated by Lockstep over the stored
    /// objects (not translated to SQL), after checking it reads only what the store holds, as SwiftData's store does.
    /// - Throws: `.unsupportedPredicate` for a predicate or sort on a computed or `@Transient` property,
    ///   `.predicateFailed` when the predicate throws, a store error.
    public func fetch<T: PersistentModel>(_ descriptor: FetchDescriptor<T>) throws -> [T] {
        let entity = try entity(T.self)
        try PredicateCheck.check(descriptor, entity: entity)
        var objects = try candidates(entity, includePendingChanges: descriptor.includePendingChanges).compactMap { $0 as? T }
        if let predicate = descriptor.predicate {
            do {
                objects = try objects.filter { try predicate.evaluate($0) }
            } catch {
                throw SwiftDataError(.predicateFailed, subject: entity.name, detail: "\(error)")
            }
        }
        if !descriptor.sortBy.isEmpty {
            objects.sort { lhs, rhs in
                for sort in descriptor.sortBy {
                    switch sort.compare(lhs, rhs) {
                    case .orderedAscending: return true
                    case .orderedDescending: return false
                    case .orderedSame: continue
                    }
                }
                return false
            }
        }
        let start = min(max(descriptor.fetchOffset ?? 0, 0), objects.count)
        let end = descriptor.fetchLimit.map { min(start + max($0, 0), objects.count) } ?? objects.count
        return Array(objects[start..<end])
    }

    /// How many objects the descriptor selects (its offset and limit applied).
    public func fetchCount<T: PersistentModel>(_ descriptor: FetchDescriptor<T>) throws -> Int {
        try fetch(descriptor).count
    }

    /// The identities of the objects the descriptor selects.
    public func fetchIdentifiers<T: PersistentModel>(_ descriptor: FetchDescriptor<T>) throws -> [PersistentIdentifier] {
        try fetch(descriptor).map(\.persistentModelID)
    }

    /// Calls `block` with each object the descriptor selects.
    public func enumerate<T: PersistentModel>(_ descriptor: FetchDescriptor<T>, block: (T) throws -> Void) throws {
        for object in try fetch(descriptor) { try block(object) }
    }
}

/// SwiftData's store evaluates a predicate over stored properties only: a predicate or sort that reads a computed
/// or `@Transient` property of a model fails at the fetch, with the property named.
enum PredicateCheck {
    static func check<T: PersistentModel>(_ descriptor: FetchDescriptor<T>, entity: Entity) throws {
        var keyPaths: [AnyKeyPath] = []
        if let predicate = descriptor.predicate { collect(predicate.expression, into: &keyPaths) }
        for sort in descriptor.sortBy { if let keyPath = sort.keyPath { keyPaths.append(keyPath) } }
        for keyPath in keyPaths {
            guard let model = type(of: keyPath).rootType as? any PersistentModel.Type else { continue }
            let root = Entity.of(model)
            if root.property(keyPath: keyPath) == nil {
                throw SwiftDataError(.unsupportedPredicate, subject: entity.name,
                                     detail: "it reads a property of \(root.name) that is computed or @Transient, not one of those it stores (\(root.properties.map(\.name).joined(separator: ", ")))")
            }
        }
    }

    /// Every key path in a predicate's expression tree (Foundation's expressions hold them as stored fields).
    private static func collect(_ value: Any, into keyPaths: inout [AnyKeyPath]) {
        if let keyPath = value as? AnyKeyPath {
            keyPaths.append(keyPath)
            return
        }
        for child in Mirror(reflecting: value).children { collect(child.value, into: &keyPaths) }
    }
}
