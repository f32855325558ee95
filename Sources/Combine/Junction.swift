/// Several upstreams feeding one subscriber: what `merge`, `combineLatest` and `flatMap` share. The subscriber's
/// demand is forwarded to every upstream; what they send beyond it waits in the outlet. It finishes when every
/// upstream has finished and no more will be added; the first failure fails it and cancels the other upstreams.
final class Junction<Downstream: Subscriber>: Subscription {
    typealias Failure = Downstream.Failure
    private struct State {
        var upstreams: [Int: any Subscription] = [:]
        var sides = 0
        var finished = 0
        /// Whether more upstreams may still be added: until `close()`, so that an upstream that finishes while the
        /// next is being attached does not finish the whole.
        var open = true
        var requested = Subscribers.Demand.none
        /// Each upstream's newest value, for `combineLatest`.
        var latest: [Int: Any] = [:]
        var cancelled = false
    }
    private let state: Locked<State>
    private let outlet: Outlet<Downstream>
    /// Makes one value from every upstream's newest once all `count` have one (`combineLatest`); nil: each value
    /// passes on (`merge`, `flatMap`).
    private let combine: (count: Int, make: ([Int: Any]) -> Downstream.Input)?
    /// A flat map's outer subscription, cancelled with the rest.
    let outer = Locked<(any Subscription)?>(nil)
    /// Called when an upstream finishes (a flat map asks its outer publisher for the next).
    var onInnerFinished: () -> Void {
        get { innerFinished.withLock { $0 } }
        set { innerFinished.withLock { $0 = newValue } }
    }
    private let innerFinished = Locked<() -> Void>({})

    init(_ downstream: Downstream, combine: (count: Int, make: ([Int: Any]) -> Downstream.Input)? = nil) {
        outlet = Outlet(downstream, policy: .queue)
        state = Locked(State())
        self.combine = combine
    }

    /// Subscribes to each upstream, hands the subscriber this subscription, and closes.
    func start(_ attachAll: (Junction) -> Void) {
        hand()
        attachAll(self)
        close()
    }

    /// Gives the subscriber this subscription.
    func hand() { outlet.hand(self) }

    /// Subscribes to one more upstream.
    func attach<P: Publisher>(_ publisher: P) where P.Failure == Failure {
        let index = state.withLock { state in
            defer { state.sides += 1 }
            return state.sides
        }
        publisher.subscribe(AnySubscriber<P.Output, Failure>(
            receiveSubscription: { [self] in attached(index, $0) },
            receiveValue: { [self] in received(index, $0) },
            receiveCompletion: { [self] in completed(index, $0) }))
    }

    /// No more upstreams will be added.
    func close() {
        let done = state.withLock { state in
            state.open = false
            return state.finished == state.sides
        }
        if done { outlet.complete(.finished) }
    }

    /// Fails the subscriber and cancels every upstream.
    func fail(_ error: Failure) {
        outlet.complete(.failure(error))
        cancelUpstreams()
    }

    private func attached(_ index: Int, _ subscription: any Subscription) {
        let requested = state.withLock { state -> Subscribers.Demand? in
            guard !state.cancelled else { return nil }
            state.upstreams[index] = subscription
            return state.requested
        }
        guard let requested else { return subscription.cancel() }
        if requested > 0 { subscription.request(requested) }
    }

    private func received(_ index: Int, _ value: Any) -> Subscribers.Demand {
        guard let combine else {
            outlet.send(value as! Downstream.Input)  // merge: every side's Output is Downstream.Input
            return .none
        }
        let all = state.withLock { state -> [Int: Any]? in
            state.latest[index] = value
            return state.latest.count == combine.count ? state.latest : nil
        }
        guard let all else { return .max(1) }  // nothing went downstream: this side may send one more
        outlet.send(combine.make(all))
        return .none
    }

    private func completed(_ index: Int, _ completion: Subscribers.Completion<Failure>) {
        switch completion {
        case .failure(let error):
            fail(error)
        case .finished:
            let done = state.withLock { state in
                state.upstreams[index] = nil
                state.finished += 1
                return !state.open && state.finished == state.sides
            }
            if done { outlet.complete(.finished) } else { onInnerFinished() }
        }
    }

    func request(_ demand: Subscribers.Demand) {
        let upstreams = state.withLock { state in
            state.requested += demand
            return Array(state.upstreams.values)
        }
        outlet.request(demand)
        for upstream in upstreams { upstream.request(demand) }
    }

    func cancel() {
        outlet.cancel()
        cancelUpstreams()
    }

    private func cancelUpstreams() {
        let upstreams = state.withLock { state in
            state.cancelled = true
            defer { state.upstreams.removeAll() }
            return Array(state.upstreams.values)
        }
        for upstream in upstreams { upstream.cancel() }
        outer.withLock { outer in
            defer { outer = nil }
            return outer
        }?.cancel()
    }
}

extension Publishers {
    /// A publisher created by applying the merge function to two upstream publishers.
    public struct Merge<A: Publisher, B: Publisher>: Publisher where A.Output == B.Output, A.Failure == B.Failure {
        public typealias Output = A.Output
        public typealias Failure = A.Failure
        public let a: A
        public let b: B

        public init(_ a: A, _ b: B) {
            self.a = a
            self.b = b
        }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            Junction(subscriber).start { $0.attach(a); $0.attach(b) }
        }
    }

    /// A publisher created by applying the merge function to three upstream publishers.
    public struct Merge3<A: Publisher, B: Publisher, C: Publisher>: Publisher
    where A.Output == B.Output, A.Failure == B.Failure, B.Output == C.Output, B.Failure == C.Failure {
        public typealias Output = A.Output
        public typealias Failure = A.Failure
        public let a: A
        public let b: B
        public let c: C

        public init(_ a: A, _ b: B, _ c: C) {
            self.a = a
            self.b = b
            self.c = c
        }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            Junction(subscriber).start { $0.attach(a); $0.attach(b); $0.attach(c) }
        }
    }

    /// A publisher created by applying the merge function to an arbitrary number of upstream publishers.
    public struct MergeMany<Upstream: Publisher>: Publisher {
        public typealias Output = Upstream.Output
        public typealias Failure = Upstream.Failure
        public let publishers: [Upstream]

        public init(_ upstream: Upstream...) { publishers = upstream }
        public init<S: Sequence>(_ upstream: S) where Upstream == S.Element { publishers = Array(upstream) }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            Junction(subscriber).start { junction in publishers.forEach(junction.attach) }
        }
    }

    /// A publisher that receives and combines the latest elements from two publishers.
    public struct CombineLatest<A: Publisher, B: Publisher>: Publisher where A.Failure == B.Failure {
        public typealias Output = (A.Output, B.Output)
        public typealias Failure = A.Failure
        public let a: A
        public let b: B

        public init(_ a: A, _ b: B) {
            self.a = a
            self.b = b
        }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            // Each side's value is its publisher's Output, by index.
            Junction(subscriber, combine: (2, { ($0[0] as! A.Output, $0[1] as! B.Output) })).start { $0.attach(a); $0.attach(b) }
        }
    }

    /// A publisher that receives and combines the latest elements from three publishers.
    public struct CombineLatest3<A: Publisher, B: Publisher, C: Publisher>: Publisher
    where A.Failure == B.Failure, B.Failure == C.Failure {
        public typealias Output = (A.Output, B.Output, C.Output)
        public typealias Failure = A.Failure
        public let a: A
        public let b: B
        public let c: C

        public init(_ a: A, _ b: B, _ c: C) {
            self.a = a
            self.b = b
            self.c = c
        }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            Junction(subscriber, combine: (3, { ($0[0] as! A.Output, $0[1] as! B.Output, $0[2] as! C.Output) }))
                .start { $0.attach(a); $0.attach(b); $0.attach(c) }
        }
    }
}

extension Publisher {
    /// Combines elements from this publisher with those from another publisher of the same type, delivering an
    /// interleaved sequence of elements.
    public func merge<P: Publisher>(with other: P) -> Publishers.Merge<Self, P> where Failure == P.Failure, Output == P.Output {
        Publishers.Merge(self, other)
    }

    public func merge<B: Publisher, C: Publisher>(with b: B, _ c: C) -> Publishers.Merge3<Self, B, C>
    where Failure == B.Failure, Output == B.Output, B.Failure == C.Failure, B.Output == C.Output {
        Publishers.Merge3(self, b, c)
    }

    /// Subscribes to an additional publisher and publishes a tuple upon receiving output from either publisher.
    public func combineLatest<P: Publisher>(_ other: P) -> Publishers.CombineLatest<Self, P> where Failure == P.Failure {
        Publishers.CombineLatest(self, other)
    }

    /// Subscribes to an additional publisher and invokes a closure upon receiving output from either publisher.
    public func combineLatest<P: Publisher, T>(_ other: P, _ transform: @escaping (Output, P.Output) -> T)
        -> Publishers.Map<Publishers.CombineLatest<Self, P>, T> where Failure == P.Failure {
        Publishers.CombineLatest(self, other).map(transform)
    }

    public func combineLatest<P: Publisher, Q: Publisher>(_ publisher1: P, _ publisher2: Q) -> Publishers.CombineLatest3<Self, P, Q>
    where Failure == P.Failure, P.Failure == Q.Failure {
        Publishers.CombineLatest3(self, publisher1, publisher2)
    }

    public func combineLatest<P: Publisher, Q: Publisher, T>(_ publisher1: P, _ publisher2: Q,
                                                             _ transform: @escaping (Output, P.Output, Q.Output) -> T)
        -> Publishers.Map<Publishers.CombineLatest3<Self, P, Q>, T> where Failure == P.Failure, P.Failure == Q.Failure {
        Publishers.CombineLatest3(self, publisher1, publisher2).map(transform)
    }
}
