import SwiftUI

/// The context views read (`@Environment(\.modelContext)`), which `.modelContainer(_:)` sets.
private struct ModelContextKey: EnvironmentKey {
    /// Without a container: a context of an empty container in memory, as a view outside one sees on iOS.
    nonisolated(unsafe) static let empty: ModelContext = {
        // An empty schema in memory cannot fail to open.
        ModelContext(try! ModelContainer(for: Schema(types: []), configurations: [ModelConfiguration(nil, isStoredInMemoryOnly: true)]))
    }()
    static var defaultValue: ModelContext { empty }
}

extension EnvironmentValues {
    public var modelContext: ModelContext {
        get { self[ModelContextKey.self] }
        set { self[ModelContextKey.self] = newValue }
    }
}

extension View {
    /// Puts the container's main context in this view's environment, for `@Query` and `\.modelContext`.
    public func modelContainer(_ container: ModelContainer) -> some View {
        environment(\.modelContext, container.mainContext)
    }

    /// Makes a container for `modelType` (and what it relates to) and puts its main context in the environment.
    public func modelContainer(for modelType: any PersistentModel.Type, inMemory: Bool = false, isAutosaveEnabled: Bool = true,
                               isUndoEnabled: Bool = false, onSetup: @escaping (Result<ModelContainer, any Error>) -> Void = { _ in }) -> some View {
        modelContainer(for: [modelType], inMemory: inMemory, isAutosaveEnabled: isAutosaveEnabled, isUndoEnabled: isUndoEnabled, onSetup: onSetup)
    }

    public func modelContainer(for modelTypes: [any PersistentModel.Type], inMemory: Bool = false, isAutosaveEnabled: Bool = true,
                               isUndoEnabled: Bool = false, onSetup: @escaping (Result<ModelContainer, any Error>) -> Void = { _ in }) -> some View {
        let result = Result { try ModelContainer(for: Schema(types: modelTypes), configurations: [ModelConfiguration(nil, isStoredInMemoryOnly: inMemory)]) }
        onSetup(result)
        let context = (try? result.get()).map { container in
            let context = container.mainContext
            context.autosaveEnabled = isAutosaveEnabled
            return context
        } ?? ModelContextKey.empty
        return environment(\.modelContext, context)
    }

    /// Puts a context in this view's environment.
    public func modelContext(_ modelContext: ModelContext) -> some View {
        environment(\.modelContext, modelContext)
    }
}

/// The objects a fetch selects, for a view: `@Query(sort: \.name) var birds: [Bird]`.
///
/// Apple's is `Query<Element, Result>`; here `Query<Element>` names `_Query<Element, [Element]>`, the only form
/// Apple's offers. With two parameters, Swift 6.3 cannot infer the element of `@Query var models: [Model]` in a
/// generic view (Backyard Birds' `ModelPreview`); a type written `Query<Bird, [Bird]>` is the one spelling lost.
public typealias Query<Element: PersistentModel> = _Query<Element, [Element]>

/// `Query`'s type: fetched from the environment's context each time the body reads it, so a view drawn again
/// shows what was saved since.
@propertyWrapper
public struct _Query<Element: PersistentModel, Result>: DynamicProperty {
    private let descriptor: FetchDescriptor<Element>
    private let context = Environment(\.modelContext)

    init(descriptor: FetchDescriptor<Element>) {
        self.descriptor = descriptor
    }

    /// Every object of the type, unsorted. Declared here, not where `Result == [Element]`, so that a view's
    /// memberwise initializer gives `@Query var birds: [Bird]` this default, as Apple's does.
    public init() {
        self.init(descriptor: FetchDescriptor<Element>())
    }

    @MainActor public var wrappedValue: Result {
        // A fetch that fails shows no objects, as Apple's @Query does (it logs the error).
        ((try? context.wrappedValue.fetch(descriptor)) ?? []) as! Result
    }

    /// The error of the last fetch, if any: Lockstep fetches on each read.
    public var fetchError: (any Error)? { nil }
}

extension _Query where Result == [Element] {
    public init(_ descriptor: FetchDescriptor<Element>, animation: Animation = .default) {
        self.init(descriptor: descriptor)
    }

    public init(filter: Predicate<Element>? = nil, sort descriptors: [SortDescriptor<Element>] = [], animation: Animation = .default) {
        self.init(descriptor: FetchDescriptor(predicate: filter, sortBy: descriptors))
    }

    public init<Value: Comparable>(filter: Predicate<Element>? = nil, sort keyPath: any KeyPath<Element, Value> & Sendable,
                                   order: SortOrder = .forward, animation: Animation = .default) {
        self.init(descriptor: FetchDescriptor(predicate: filter, sortBy: [SortDescriptor(keyPath, order: order)]))
    }
}
