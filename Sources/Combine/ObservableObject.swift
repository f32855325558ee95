/// A type of object with a publisher that emits before the object has changed.
public protocol ObservableObject: AnyObject {
    /// The type of publisher that emits before the object has changed.
    associatedtype ObjectWillChangePublisher: Publisher = ObservableObjectPublisher where ObjectWillChangePublisher.Failure == Never

    /// A publisher that emits before the object has changed.
    var objectWillChange: ObjectWillChangePublisher { get }
}

extension ObservableObject where ObjectWillChangePublisher == ObservableObjectPublisher {
    /// The object's own publisher, made on first use and the same every time after. Each `@Published` property
    /// of the object sends it before it changes.
    ///
    /// Apple's finds the object's `@Published` fields by runtime reflection; here the object is looked up by
    /// identity instead, and `@Published` reaches it through the `_enclosingInstance` form of a property wrapper.
    public var objectWillChange: ObservableObjectPublisher { ObjectWillChangeTable.publisher(for: self) }
}

/// A publisher that publishes changes from observable objects.
public final class ObservableObjectPublisher: Publisher {
    public typealias Output = Void
    public typealias Failure = Never
    private let subject = PassthroughSubject<Void, Never>()

    public init() {}

    public func receive<S: Subscriber>(subscriber: S) where S.Input == Void, S.Failure == Never {
        subject.receive(subscriber: subscriber)
    }

    /// Sends the changed value to the downstream subscribers.
    public func send() { subject.send(()) }
}

/// Each observable object's default publisher, by the object's identity. An entry whose object is gone is
/// replaced when another object takes its address, and swept when the table has doubled since the last sweep.
enum ObjectWillChangeTable {
    private struct Entry {
        weak var object: AnyObject?
        let publisher: ObservableObjectPublisher
    }
    private static let table = Locked((entries: [ObjectIdentifier: Entry](), sweepAt: 64))

    static func publisher(for object: AnyObject) -> ObservableObjectPublisher {
        table.withLock { table in
            let id = ObjectIdentifier(object)
            if let entry = table.entries[id], entry.object === object { return entry.publisher }
            if table.entries.count >= table.sweepAt {
                table.entries = table.entries.filter { $0.value.object != nil }
                table.sweepAt = max(64, table.entries.count * 2)
            }
            let publisher = ObservableObjectPublisher()
            table.entries[id] = Entry(object: object, publisher: publisher)
            return publisher
        }
    }
}

/// A type that publishes a property marked with an attribute: `@Published var name = ""` in a class. The property
/// sends its object's `objectWillChange`, then its own publisher (`$name`), before it changes: a subscriber that
/// reads the property sees the old value, as on a device.
@propertyWrapper
public struct Published<Value> {
    let box: Box

    public init(wrappedValue: Value) { box = Box(wrappedValue) }
    public init(initialValue: Value) { box = Box(initialValue) }

    @available(*, unavailable, message: "@Published is only available on properties of classes")
    public var wrappedValue: Value {
        get { fatalError("@Published is only available on properties of classes") }
        set { fatalError("@Published is only available on properties of classes") }
    }

    /// The property's publisher: its current value, then each new one.
    public var projectedValue: Publisher {
        get { Publisher(box) }
        set {}  // `assign(to: &$name)` needs the inout access; the box it uses is this property's own
    }

    /// The property, read or written in its object.
    public static subscript<EnclosingSelf: AnyObject>(
        _enclosingInstance object: EnclosingSelf,
        wrapped wrappedKeyPath: ReferenceWritableKeyPath<EnclosingSelf, Value>,
        storage storageKeyPath: ReferenceWritableKeyPath<EnclosingSelf, Published<Value>>
    ) -> Value {
        get { object[keyPath: storageKeyPath].box.value }
        set {
            let box = object[keyPath: storageKeyPath].box
            box.attach(to: object)
            box.set(newValue)
        }
    }

    /// The property's publisher, read in its object (`$name`): the object is what `assign(to:)` notifies.
    public static subscript<EnclosingSelf: AnyObject>(
        _enclosingInstance object: EnclosingSelf,
        projected projectedKeyPath: ReferenceWritableKeyPath<EnclosingSelf, Publisher>,
        storage storageKeyPath: ReferenceWritableKeyPath<EnclosingSelf, Published<Value>>
    ) -> Publisher {
        get {
            let box = object[keyPath: storageKeyPath].box
            box.attach(to: object)
            return Publisher(box)
        }
        set {}
    }

    /// The property's storage: its value, its subscribers and its object's publisher.
    final class Box: @unchecked Sendable {
        // @unchecked because every field is a lock or thread-safe.
        private let current: Locked<Value>
        let subject = SubjectCore<Value, Never>()
        /// The object's `objectWillChange`, once known (nil: not an `ObservableObject` with the default publisher).
        private let owner = Locked<(known: Bool, publisher: ObservableObjectPublisher?)>((false, nil))
        /// The `assign(to:)` subscriptions feeding this property: they live as long as it does.
        private let assignments = Locked<[AnyCancellable]>([])

        init(_ value: Value) { current = Locked(value) }

        var value: Value { current.withLock { $0 } }

        func set(_ newValue: Value) {
            owner.withLock { $0.publisher }?.send()
            subject.send(newValue)
            current.withLock { $0 = newValue }
        }

        func attach(to object: AnyObject) {
            guard !owner.withLock({ $0.known }) else { return }
            var publisher: ObservableObjectPublisher?
            if let observable = object as? any ObservableObject { publisher = Self.willChange(observable) }
            owner.withLock { $0 = (true, publisher) }
        }

        private static func willChange<O: ObservableObject>(_ object: O) -> ObservableObjectPublisher? {
            object.objectWillChange as? ObservableObjectPublisher
        }

        func retain(_ sink: Subscribers.Sink<Value, Never>) {
            assignments.withLock { $0.append(AnyCancellable(sink)) }
        }
    }

    /// A publisher for properties marked with the `@Published` attribute.
    public struct Publisher: Combine.Publisher {
        public typealias Output = Value
        public typealias Failure = Never
        let box: Box

        init(_ box: Box) { self.box = box }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Value, S.Failure == Never {
            box.subject.attach(subscriber, initial: box.value)
        }
    }
}
