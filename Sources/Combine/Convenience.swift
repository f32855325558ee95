/// A publisher that emits an output to each subscriber just once, and then finishes.
public struct Just<Output>: Publisher {
    public typealias Failure = Never
    public let output: Output

    public init(_ output: Output) { self.output = output }

    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Never {
        let outlet = Outlet(subscriber, policy: .queue)
        outlet.send(output)
        outlet.complete(.finished)
        subscriber.receive(subscription: Conduit(request: outlet.request, cancel: outlet.cancel))
    }
}

extension Just: Equatable where Output: Equatable {}

/// A publisher that never publishes any values, and optionally finishes immediately.
public struct Empty<Output, Failure: Error>: Publisher, Equatable {
    public let completeImmediately: Bool

    public init(completeImmediately: Bool = true) { self.completeImmediately = completeImmediately }
    public init(completeImmediately: Bool = true, outputType: Output.Type, failureType: Failure.Type) {
        self.completeImmediately = completeImmediately
    }

    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        subscriber.receive(subscription: Subscriptions.empty)
        if completeImmediately { subscriber.receive(completion: .finished) }
    }

    public static func == (lhs: Empty, rhs: Empty) -> Bool { lhs.completeImmediately == rhs.completeImmediately }
}

/// A publisher that immediately terminates with the specified error.
public struct Fail<Output, Failure: Error>: Publisher {
    public let error: Failure

    public init(error: Failure) { self.error = error }
    public init(outputType: Output.Type, failure: Failure) { error = failure }

    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        subscriber.receive(subscription: Subscriptions.empty)
        subscriber.receive(completion: .failure(error))
    }
}

/// A publisher that eventually produces a single value and then finishes or fails. The closure runs at once, when
/// the future is made; every subscriber, before or after, receives its one result.
public final class Future<Output, Failure: Error>: Publisher {
    public typealias Promise = (Result<Output, Failure>) -> Void

    private struct State {
        var result: Result<Output, Failure>?
        var waiting: [(Result<Output, Failure>) -> Void] = []
    }
    private let state = Locked(State())

    public init(_ attemptToFulfill: @escaping (@escaping Promise) -> Void) {
        // The promise holds the future: `Future { promise in … later … }.sink { … }` keeps no other reference to it.
        attemptToFulfill { result in self.fulfill(result) }
    }

    private func fulfill(_ result: Result<Output, Failure>) {
        let waiting = state.withLock { state -> [(Result<Output, Failure>) -> Void] in
            guard state.result == nil else { return [] }  // a promise is kept once
            state.result = result
            defer { state.waiting.removeAll() }
            return state.waiting
        }
        for deliver in waiting { deliver(result) }
    }

    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        let outlet = Outlet(subscriber, policy: .queue)
        let deliver = { (result: Result<Output, Failure>) in outlet.finish(with: result) }
        let result = state.withLock { state -> Result<Output, Failure>? in
            if state.result == nil { state.waiting.append(deliver) }
            return state.result
        }
        subscriber.receive(subscription: Conduit(request: outlet.request, cancel: outlet.cancel))
        if let result { deliver(result) }
    }
}

/// A publisher that awaits subscription before running the supplied closure to create a publisher for the new
/// subscriber.
public struct Deferred<DeferredPublisher: Publisher>: Publisher {
    public typealias Output = DeferredPublisher.Output
    public typealias Failure = DeferredPublisher.Failure
    public let createPublisher: () -> DeferredPublisher

    public init(createPublisher: @escaping () -> DeferredPublisher) { self.createPublisher = createPublisher }

    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        createPublisher().subscribe(subscriber)
    }
}

/// A publisher that performs type erasure by wrapping another publisher.
public struct AnyPublisher<Output, Failure: Error>: Publisher, CustomStringConvertible {
    private let subscribeTo: (AnySubscriber<Output, Failure>) -> Void

    public init<P: Publisher>(_ publisher: P) where Output == P.Output, Failure == P.Failure {
        subscribeTo = { publisher.subscribe($0) }
    }

    public var description: String { "AnyPublisher" }

    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        subscribeTo(AnySubscriber(subscriber))
    }
}

extension Publisher {
    /// Wraps this publisher with a type eraser.
    public func eraseToAnyPublisher() -> AnyPublisher<Output, Failure> { AnyPublisher(self) }
}

/// A type-erasing subscriber.
public struct AnySubscriber<Input, Failure: Error>: Subscriber, CustomStringConvertible {
    public let combineIdentifier: CombineIdentifier
    private let receiveSubscription: (any Subscription) -> Void
    private let receiveValue: (Input) -> Subscribers.Demand
    private let receiveCompletion: (Subscribers.Completion<Failure>) -> Void

    public init<S: Subscriber>(_ s: S) where Input == S.Input, Failure == S.Failure {
        combineIdentifier = s.combineIdentifier
        receiveSubscription = s.receive(subscription:)
        receiveValue = s.receive(_:)
        receiveCompletion = s.receive(completion:)
    }

    public init(receiveSubscription: ((any Subscription) -> Void)? = nil,
                receiveValue: ((Input) -> Subscribers.Demand)? = nil,
                receiveCompletion: ((Subscribers.Completion<Failure>) -> Void)? = nil) {
        combineIdentifier = CombineIdentifier()
        self.receiveSubscription = receiveSubscription ?? { _ in }
        self.receiveValue = receiveValue ?? { _ in .none }
        self.receiveCompletion = receiveCompletion ?? { _ in }
    }

    public var description: String { "Anonymous AnySubscriber" }

    public func receive(subscription: any Subscription) { receiveSubscription(subscription) }
    public func receive(_ value: Input) -> Subscribers.Demand { receiveValue(value) }
    public func receive(completion: Subscribers.Completion<Failure>) { receiveCompletion(completion) }
}
