extension Publishers {
    /// A publisher that transforms elements from an upstream publisher into a new publisher, and republishes the
    /// elements of every such publisher as they come.
    public struct FlatMap<NewPublisher: Publisher, Upstream: Publisher>: Publisher where NewPublisher.Failure == Upstream.Failure {
        public typealias Output = NewPublisher.Output
        public typealias Failure = Upstream.Failure
        public let upstream: Upstream
        public let maxPublishers: Subscribers.Demand
        public let transform: (Upstream.Output) -> NewPublisher

        public init(upstream: Upstream, maxPublishers: Subscribers.Demand, transform: @escaping (Upstream.Output) -> NewPublisher) {
            self.upstream = upstream
            self.maxPublishers = maxPublishers
            self.transform = transform
        }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let junction = Junction(subscriber)
            let maxPublishers = maxPublishers
            let transform = transform
            // The outer publisher is asked for `maxPublishers` values, and for one more whenever an inner one
            // finishes, so that no more than that many are subscribed at once.
            upstream.subscribe(AnySubscriber<Upstream.Output, Failure>(
                receiveSubscription: { outer in
                    junction.outer.withLock { $0 = outer }
                    junction.onInnerFinished = { if maxPublishers != .unlimited { outer.request(.max(1)) } }
                    junction.hand()
                    outer.request(maxPublishers)
                },
                receiveValue: { value in
                    junction.attach(transform(value))
                    return .none
                },
                receiveCompletion: { completion in
                    switch completion {
                    case .finished: junction.close()
                    case .failure(let error): junction.fail(error)
                    }
                }))
        }
    }
}

extension Publisher {
    /// Transforms all elements from an upstream publisher into a new publisher up to a maximum number of
    /// publishers you specify.
    public func flatMap<T, P: Publisher>(maxPublishers: Subscribers.Demand = .unlimited, _ transform: @escaping (Output) -> P)
        -> Publishers.FlatMap<P, Self> where T == P.Output, Failure == P.Failure {
        Publishers.FlatMap(upstream: self, maxPublishers: maxPublishers, transform: transform)
    }
}

extension Publisher where Failure == Never {
    /// Transforms all elements into publishers that may fail.
    public func flatMap<P: Publisher>(maxPublishers: Subscribers.Demand = .unlimited, _ transform: @escaping (Output) -> P)
        -> Publishers.FlatMap<P, Publishers.SetFailureType<Self, P.Failure>> {
        setFailureType(to: P.Failure.self).flatMap(maxPublishers: maxPublishers, transform)
    }

    /// Transforms all elements into publishers that never fail.
    public func flatMap<P: Publisher>(maxPublishers: Subscribers.Demand = .unlimited, _ transform: @escaping (Output) -> P)
        -> Publishers.FlatMap<P, Self> where P.Failure == Never {
        Publishers.FlatMap(upstream: self, maxPublishers: maxPublishers, transform: transform)
    }
}

extension Publisher {
    /// Transforms all elements into publishers that never fail, for an upstream that may.
    public func flatMap<P: Publisher>(maxPublishers: Subscribers.Demand = .unlimited, _ transform: @escaping (Output) -> P)
        -> Publishers.FlatMap<Publishers.SetFailureType<P, Failure>, Self> where P.Failure == Never {
        flatMap(maxPublishers: maxPublishers) { transform($0).setFailureType(to: Failure.self) }
    }
}
