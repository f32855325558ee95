extension Subscribers {
    /// A simple subscriber that requests an unlimited number of values upon subscription.
    public final class Sink<Input, Failure: Error>: Subscriber, Cancellable, CustomStringConvertible {
        public let receiveValue: (Input) -> Void
        public let receiveCompletion: (Subscribers.Completion<Failure>) -> Void
        private let subscription = Locked<(any Subscription)?>(nil)
        private let done = Locked(false)

        public init(receiveCompletion: @escaping (Subscribers.Completion<Failure>) -> Void, receiveValue: @escaping (Input) -> Void) {
            self.receiveCompletion = receiveCompletion
            self.receiveValue = receiveValue
        }

        public var description: String { "Sink" }

        public func receive(subscription: any Subscription) {
            // A second subscription is refused, as the subscriber contract requires.
            let accepted = self.subscription.withLock { current -> Bool in
                guard current == nil, !done.withLock({ $0 }) else { return false }
                current = subscription
                return true
            }
            if accepted { subscription.request(.unlimited) } else { subscription.cancel() }
        }

        public func receive(_ value: Input) -> Subscribers.Demand {
            if !done.withLock({ $0 }) { receiveValue(value) }
            return .none
        }

        public func receive(completion: Subscribers.Completion<Failure>) {
            guard finish() else { return }
            receiveCompletion(completion)
        }

        public func cancel() {
            _ = finish()
        }

        /// Ends the subscription once; the upstream is released so nothing it holds stays alive.
        private func finish() -> Bool {
            let first = done.withLock { done in
                defer { done = true }
                return !done
            }
            let upstream = subscription.withLock { current in
                defer { current = nil }
                return current
            }
            if first { upstream?.cancel() }
            return first
        }
    }

    /// A simple subscriber that assigns received elements to a property indicated by a key path.
    public final class Assign<Root, Input>: Subscriber, Cancellable, CustomStringConvertible {
        public typealias Failure = Never
        public private(set) var object: Root?
        public let keyPath: ReferenceWritableKeyPath<Root, Input>
        private let sink: Sink<Input, Never>

        public init(object: Root, keyPath: ReferenceWritableKeyPath<Root, Input>) {
            self.object = object
            self.keyPath = keyPath
            let target = Locked<Root?>(object)
            sink = Sink(receiveCompletion: { _ in target.withLock { $0 = nil } },
                        receiveValue: { value in
                            if let root = target.withLock({ $0 }) { root[keyPath: keyPath] = value }
                        })
        }

        public var description: String { "Assign \(Root.self)." }

        public func receive(subscription: any Subscription) { sink.receive(subscription: subscription) }
        public func receive(_ value: Input) -> Subscribers.Demand { sink.receive(value) }
        public func receive(completion: Subscribers.Completion<Never>) {
            sink.receive(completion: completion)
            object = nil
        }
        public func cancel() {
            sink.cancel()
            object = nil
        }
    }
}

extension Publisher {
    /// Attaches a subscriber with closure-based behavior.
    public func sink(receiveCompletion: @escaping (Subscribers.Completion<Failure>) -> Void,
                     receiveValue: @escaping (Output) -> Void) -> AnyCancellable {
        let sink = Subscribers.Sink<Output, Failure>(receiveCompletion: receiveCompletion, receiveValue: receiveValue)
        subscribe(sink)
        return AnyCancellable(sink)
    }
}

extension Publisher where Failure == Never {
    /// Attaches a subscriber with closure-based behavior to a publisher that never fails.
    public func sink(receiveValue: @escaping (Output) -> Void) -> AnyCancellable {
        sink(receiveCompletion: { _ in }, receiveValue: receiveValue)
    }

    /// Assigns each element from a publisher to a property on an object; the object is held until the
    /// subscription ends, as Apple's is.
    public func assign<Root>(to keyPath: ReferenceWritableKeyPath<Root, Output>, on object: Root) -> AnyCancellable {
        let assign = Subscribers.Assign(object: object, keyPath: keyPath)
        subscribe(assign)
        return AnyCancellable(assign)
    }

    /// Republishes elements received from a publisher, by assigning them to a property marked as a publisher. The
    /// subscription lives as long as the property's storage: no `AnyCancellable` is returned.
    public func assign(to published: inout Published<Output>.Publisher) {
        let box = published.box
        let sink = Subscribers.Sink<Output, Never>(receiveCompletion: { _ in }, receiveValue: { [weak box] value in box?.set(value) })
        subscribe(sink)
        published.box.retain(sink)
    }
}
