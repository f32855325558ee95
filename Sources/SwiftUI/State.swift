/// A view's own value (`@State`). A widget is drawn once from its timeline entry, so it shows the initial value;
/// setting it changes what this view value reads, as on iOS, but nothing redraws it.
@propertyWrapper
public struct State<Value>: DynamicProperty {
    /// A reference so the wrapper can be set from a non-mutating `body`, as Apple's can.
    final class Storage {
        var value: Value
        init(_ value: Value) { self.value = value }
    }
    let storage: Storage

    public init(wrappedValue value: Value) { storage = Storage(value) }
    public init(initialValue value: Value) { storage = Storage(value) }

    public var wrappedValue: Value {
        get { storage.value }
        nonmutating set { storage.value = newValue }
    }

    public var projectedValue: Binding<Value> {
        let storage = self.storage
        return Binding(get: { storage.value }, set: { storage.value = $0 })
    }
}

extension State where Value: ExpressibleByNilLiteral {
    public init() { self.init(wrappedValue: nil) }
}

/// Read and write access to a value owned elsewhere (`$state`, `.constant(…)`).
@propertyWrapper @dynamicMemberLookup
public struct Binding<Value> {
    let get: () -> Value
    let set: (Value) -> Void

    public init(get: @escaping () -> Value, set: @escaping (Value) -> Void) {
        self.get = get
        self.set = set
    }

    public init(projectedValue: Binding<Value>) { self = projectedValue }

    public static func constant(_ value: Value) -> Binding<Value> { Binding(get: { value }, set: { _ in }) }

    public var wrappedValue: Value {
        get { get() }
        nonmutating set { set(newValue) }
    }

    public var projectedValue: Binding<Value> { self }

    public subscript<Subject>(dynamicMember keyPath: WritableKeyPath<Value, Subject>) -> Binding<Subject> {
        let get = self.get, set = self.set
        return Binding<Subject>(get: { get()[keyPath: keyPath] }, set: { newValue in
            var value = get()
            value[keyPath: keyPath] = newValue
            set(value)
        })
    }
}

/// An observable object the view is handed (`@ObservedObject var model: Model`). A widget is drawn once from its
/// timeline entry, so the object's `objectWillChange` redraws nothing; the view reads the object as it is.
@propertyWrapper
public struct ObservedObject<ObjectType: ObservableObject>: DynamicProperty {
    /// Bindings to the object's properties (`$model.name`).
    @dynamicMemberLookup
    public struct Wrapper {
        let object: ObjectType

        public subscript<Subject>(dynamicMember keyPath: ReferenceWritableKeyPath<ObjectType, Subject>) -> Binding<Subject> {
            let object = object
            return Binding(get: { object[keyPath: keyPath] }, set: { object[keyPath: keyPath] = $0 })
        }
    }

    public var wrappedValue: ObjectType

    public init(wrappedValue: ObjectType) { self.wrappedValue = wrappedValue }
    public init(initialValue: ObjectType) { wrappedValue = initialValue }

    public var projectedValue: Wrapper { Wrapper(object: wrappedValue) }
}

/// An observable object the view owns (`@StateObject private var model = Model()`): made on first use and kept,
/// as SwiftUI keeps it for the view's lifetime.
@propertyWrapper
public struct StateObject<ObjectType: ObservableObject>: DynamicProperty {
    /// A reference so the object is made once, however often the view value is copied.
    final class Storage {
        private var object: ObjectType?
        private let make: () -> ObjectType
        init(_ make: @escaping () -> ObjectType) { self.make = make }
        var value: ObjectType {
            if let object { return object }
            let made = make()
            object = made
            return made
        }
    }
    let storage: Storage

    public init(wrappedValue thunk: @autoclosure @escaping () -> ObjectType) { storage = Storage(thunk) }

    public var wrappedValue: ObjectType { storage.value }

    public var projectedValue: ObservedObject<ObjectType>.Wrapper { ObservedObject.Wrapper(object: storage.value) }
}
