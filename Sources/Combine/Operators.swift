/// The subscriber an element-by-element operator puts between its upstream and the downstream subscriber: each
/// upstream value becomes at most one downstream value. A value the operator drops is replaced by a request for
/// one more, so the downstream receives exactly what it asked for.
final class Transforming<Input, Downstream: Subscriber>: Subscriber, Subscription {
    typealias Failure = Downstream.Failure
    private let downstream: Downstream
    private let transform: (Input) -> Downstream.Input?
    private let upstream = Locked<(any Subscription)?>(nil)

    init(_ downstream: Downstream, transform: @escaping (Input) -> Downstream.Input?) {
        self.downstream = downstream
        self.transform = transform
    }

    func receive(subscription: any Subscription) {
        upstream.withLock { $0 = subscription }
        downstream.receive(subscription: self)
    }

    func receive(_ input: Input) -> Subscribers.Demand {
        guard let output = transform(input) else { return .max(1) }
        return downstream.receive(output)
    }

    func receive(completion: Subscribers.Completion<Failure>) {
        upstream.withLock { $0 = nil }
        downstream.receive(completion: completion)
    }

    func request(_ demand: Subscribers.Demand) {
        upstream.withLock { $0 }?.request(demand)
    }

    func cancel() {
        upstream.withLock { current in
            defer { current = nil }
            return current
        }?.cancel()
    }
}

extension Publishers {
    /// A publisher that transforms all elements from the upstream publisher with a provided closure.
    public struct Map<Upstream: Publisher, Output>: Publisher {
        public typealias Failure = Upstream.Failure
        public let upstream: Upstream
        public let transform: (Upstream.Output) -> Output

        public init(upstream: Upstream, transform: @escaping (Upstream.Output) -> Output) {
            self.upstream = upstream
            self.transform = transform
        }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.subscribe(Transforming(subscriber, transform: transform))
        }
    }

    /// A publisher that republishes all non-nil results of calling a closure with each received element.
    public struct CompactMap<Upstream: Publisher, Output>: Publisher {
        public typealias Failure = Upstream.Failure
        public let upstream: Upstream
        public let transform: (Upstream.Output) -> Output?

        public init(upstream: Upstream, transform: @escaping (Upstream.Output) -> Output?) {
            self.upstream = upstream
            self.transform = transform
        }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.subscribe(Transforming(subscriber, transform: transform))
        }
    }

    /// A publisher that republishes all elements that match a provided closure.
    public struct Filter<Upstream: Publisher>: Publisher {
        public typealias Output = Upstream.Output
        public typealias Failure = Upstream.Failure
        public let upstream: Upstream
        public let isIncluded: (Upstream.Output) -> Bool

        public init(upstream: Upstream, isIncluded: @escaping (Upstream.Output) -> Bool) {
            self.upstream = upstream
            self.isIncluded = isIncluded
        }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.subscribe(Transforming(subscriber) { isIncluded($0) ? $0 : nil })
        }
    }

    /// A publisher that publishes only elements that don't match the previous element.
    public struct RemoveDuplicates<Upstream: Publisher>: Publisher {
        public typealias Output = Upstream.Output
        public typealias Failure = Upstream.Failure
        public let upstream: Upstream
        public let predicate: (Output, Output) -> Bool

        public init(upstream: Upstream, predicate: @escaping (Output, Output) -> Bool) {
            self.upstream = upstream
            self.predicate = predicate
        }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            // Each subscription compares against its own previous element.
            let previous = Locked<Output?>(nil)
            upstream.subscribe(Transforming(subscriber) { value in
                let last = previous.withLock { last in
                    defer { last = value }
                    return last
                }
                if let last, predicate(last, value) { return nil }
                return value
            })
        }
    }

    /// A publisher that omits a specified number of elements before republishing subsequent elements.
    public struct Drop<Upstream: Publisher>: Publisher {
        public typealias Output = Upstream.Output
        public typealias Failure = Upstream.Failure
        public let upstream: Upstream
        public let count: Int

        public init(upstream: Upstream, count: Int) {
            self.upstream = upstream
            self.count = count
        }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            // Each subscription drops its own first `count`; a dropped element asks upstream for one more.
            let left = Locked(count)
            upstream.subscribe(Transforming(subscriber) { value in
                left.withLock { left in
                    guard left > 0 else { return value }
                    left -= 1
                    return nil
                }
            })
        }
    }

    /// A publisher that replaces any error from the upstream publisher with a provided element, then finishes.
    public struct ReplaceError<Upstream: Publisher>: Publisher {
        public typealias Output = Upstream.Output
        public typealias Failure = Never
        public let output: Upstream.Output
        public let upstream: Upstream

        public init(upstream: Upstream, output: Output) {
            self.upstream = upstream
            self.output = output
        }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Never {
            // The replacement waits for demand like any value: the outlet holds it until the subscriber asks.
            let outlet = Outlet(subscriber, policy: .queue)
            let output = output
            upstream.subscribe(AnySubscriber<Output, Upstream.Failure>(
                receiveSubscription: { subscription in
                    outlet.hand(Conduit(request: { demand in
                        outlet.request(demand)
                        subscription.request(demand)
                    }, cancel: {
                        outlet.cancel()
                        subscription.cancel()
                    }))
                },
                receiveValue: { value in
                    outlet.send(value)
                    return .none
                },
                receiveCompletion: { completion in
                    if case .failure = completion { outlet.send(output) }
                    outlet.complete(.finished)
                }))
        }
    }

    /// A publisher that appears to send a specified failure type; its upstream never fails.
    public struct SetFailureType<Upstream: Publisher, Failure: Error>: Publisher where Upstream.Failure == Never {
        public typealias Output = Upstream.Output
        public let upstream: Upstream

        public init(upstream: Upstream) { self.upstream = upstream }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.subscribe(AnySubscriber<Output, Never>(
                receiveSubscription: subscriber.receive(subscription:),
                receiveValue: subscriber.receive(_:),
                receiveCompletion: { _ in subscriber.receive(completion: .finished) }))
        }
    }
}

extension Publisher {
    /// Transforms all elements from the upstream publisher with a provided closure.
    public func map<T>(_ transform: @escaping (Output) -> T) -> Publishers.Map<Self, T> {
        Publishers.Map(upstream: self, transform: transform)
    }

    /// Publishes the value of a key path.
    public func map<T>(_ keyPath: KeyPath<Output, T>) -> Publishers.Map<Self, T> {
        Publishers.Map(upstream: self) { $0[keyPath: keyPath] }
    }

    /// Calls a closure with each received element and publishes any returned optional that has a value.
    public func compactMap<T>(_ transform: @escaping (Output) -> T?) -> Publishers.CompactMap<Self, T> {
        Publishers.CompactMap(upstream: self, transform: transform)
    }

    /// Republishes all elements that match a provided closure.
    public func filter(_ isIncluded: @escaping (Output) -> Bool) -> Publishers.Filter<Self> {
        Publishers.Filter(upstream: self, isIncluded: isIncluded)
    }

    /// Replaces any error in the stream with the provided element.
    public func replaceError(with output: Output) -> Publishers.ReplaceError<Self> {
        Publishers.ReplaceError(upstream: self, output: output)
    }

    /// Omits the specified number of elements before republishing subsequent elements.
    public func dropFirst(_ count: Int = 1) -> Publishers.Drop<Self> {
        Publishers.Drop(upstream: self, count: count)
    }

    /// Publishes only elements that don't match the previous element, as evaluated by a provided closure.
    public func removeDuplicates(by predicate: @escaping (Output, Output) -> Bool) -> Publishers.RemoveDuplicates<Self> {
        Publishers.RemoveDuplicates(upstream: self, predicate: predicate)
    }
}

extension Publisher where Output: Equatable {
    /// Publishes only elements that don't match the previous element.
    public func removeDuplicates() -> Publishers.RemoveDuplicates<Self> {
        Publishers.RemoveDuplicates(upstream: self, predicate: ==)
    }
}

extension Publisher where Failure == Never {
    /// Changes the failure type declared by the upstream publisher.
    public func setFailureType<E: Error>(to failureType: E.Type) -> Publishers.SetFailureType<Self, E> {
        Publishers.SetFailureType(upstream: self)
    }
}
