import Foundation

// The operators that change how a stream fails — `mapError`, `tryMap`, `decode` — and the two that go with fetching:
// `subscribe(on:)` and `Result.publisher`. `URLSession.dataTaskPublisher` fails with `URLError`, and the code that
// uses it maps, decodes and re-types that failure with these.

/// The subscriber an element-by-element operator that may fail puts between its upstream and the downstream: each
/// value becomes a downstream value or a failure, which cancels the upstream and ends the stream; the upstream's own
/// failure is mapped to the downstream's type. After a failure nothing more is delivered.
final class Failing<Input, UpstreamFailure: Error, Downstream: Subscriber>: Subscriber, Subscription {
    typealias Failure = UpstreamFailure
    private let downstream: Downstream
    private let transform: (Input) -> Result<Downstream.Input, Downstream.Failure>
    private let mapFailure: (UpstreamFailure) -> Downstream.Failure
    /// The upstream's subscription, and whether the stream has ended (so a late value or completion is dropped).
    private let state = Locked<(upstream: (any Subscription)?, ended: Bool)>((nil, false))

    init(_ downstream: Downstream, transform: @escaping (Input) -> Result<Downstream.Input, Downstream.Failure>,
         mapFailure: @escaping (UpstreamFailure) -> Downstream.Failure) {
        self.downstream = downstream
        self.transform = transform
        self.mapFailure = mapFailure
    }

    func receive(subscription: any Subscription) {
        state.withLock { $0.upstream = subscription }
        downstream.receive(subscription: self)
    }

    func receive(_ input: Input) -> Subscribers.Demand {
        guard !state.withLock({ $0.ended }) else { return .none }
        switch transform(input) {
        case .success(let output):
            return downstream.receive(output)
        case .failure(let error):
            end()?.cancel()
            downstream.receive(completion: .failure(error))
            return .none
        }
    }

    func receive(completion: Subscribers.Completion<UpstreamFailure>) {
        guard state.withLock({ state in
            defer { state = (nil, true) }
            return !state.ended
        }) else { return }
        switch completion {
        case .finished: downstream.receive(completion: .finished)
        case .failure(let error): downstream.receive(completion: .failure(mapFailure(error)))
        }
    }

    func request(_ demand: Subscribers.Demand) {
        state.withLock { $0.upstream }?.request(demand)
    }

    func cancel() {
        end()?.cancel()
    }

    /// Ends the stream; returns the upstream's subscription to cancel, if it was still running.
    private func end() -> (any Subscription)? {
        state.withLock { state in
            defer { state = (nil, true) }
            return state.ended ? nil : state.upstream
        }
    }
}

extension Publishers {
    /// A publisher that converts any failure from the upstream publisher into a new error.
    public struct MapError<Upstream: Publisher, Failure: Error>: Publisher {
        public typealias Output = Upstream.Output
        public let upstream: Upstream
        public let transform: (Upstream.Failure) -> Failure

        public init(upstream: Upstream, _ map: @escaping (Upstream.Failure) -> Failure) {
            self.upstream = upstream
            self.transform = map
        }

        public init(upstream: Upstream, transform: @escaping (Upstream.Failure) -> Failure) {
            self.upstream = upstream
            self.transform = transform
        }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.subscribe(Failing(subscriber, transform: { .success($0) }, mapFailure: transform))
        }
    }

    /// A publisher that transforms all elements from the upstream publisher with a provided error-throwing closure.
    public struct TryMap<Upstream: Publisher, Output>: Publisher {
        public typealias Failure = any Error
        public let upstream: Upstream
        public let transform: (Upstream.Output) throws -> Output

        public init(upstream: Upstream, transform: @escaping (Upstream.Output) throws -> Output) {
            self.upstream = upstream
            self.transform = transform
        }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == any Error {
            upstream.subscribe(Failing(subscriber, transform: { input in Result { try transform(input) } }, mapFailure: { $0 }))
        }
    }

    /// A publisher that decodes each upstream element with a decoder.
    public struct Decode<Upstream: Publisher, Output: Decodable, Coder: TopLevelDecoder>: Publisher where Upstream.Output == Coder.Input {
        public typealias Failure = any Error
        public let upstream: Upstream
        let decoder: Coder

        public init(upstream: Upstream, decoder: Coder) {
            self.upstream = upstream
            self.decoder = decoder
        }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == any Error {
            let decoder = decoder
            upstream.subscribe(Failing(subscriber, transform: { input in Result { try decoder.decode(Output.self, from: input) } },
                                       mapFailure: { $0 }))
        }
    }

    /// A publisher that subscribes to, asks and cancels its upstream on a scheduler.
    public struct SubscribeOn<Upstream: Publisher, Context: Scheduler>: Publisher {
        public typealias Output = Upstream.Output
        public typealias Failure = Upstream.Failure
        public let upstream: Upstream
        public let scheduler: Context
        public let options: Context.SchedulerOptions?

        public init(upstream: Upstream, scheduler: Context, options: Context.SchedulerOptions?) {
            self.upstream = upstream
            self.scheduler = scheduler
            self.options = options
        }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let scheduler = scheduler, options = options, upstream = upstream
            scheduler.schedule(options: options) {
                upstream.subscribe(AnySubscriber<Output, Failure>(
                    receiveSubscription: { subscription in
                        subscriber.receive(subscription: Conduit(request: { demand in
                            scheduler.schedule(options: options) { subscription.request(demand) }
                        }, cancel: {
                            scheduler.schedule(options: options) { subscription.cancel() }
                        }))
                    },
                    receiveValue: subscriber.receive(_:),
                    receiveCompletion: subscriber.receive(completion:)))
            }
        }
    }
}

/// A type that decodes values from a top-level input (`JSONDecoder` from `Data`, `PropertyListDecoder` too).
public protocol TopLevelDecoder {
    associatedtype Input
    func decode<T: Decodable>(_ type: T.Type, from: Input) throws -> T
}

extension JSONDecoder: TopLevelDecoder {}
extension PropertyListDecoder: TopLevelDecoder {}

extension Publisher {
    /// Converts any failure from the upstream publisher into a new error.
    public func mapError<E: Error>(_ transform: @escaping (Failure) -> E) -> Publishers.MapError<Self, E> {
        Publishers.MapError(upstream: self, transform: transform)
    }

    /// Transforms all elements with an error-throwing closure; a thrown error ends the stream with that failure.
    public func tryMap<T>(_ transform: @escaping (Output) throws -> T) -> Publishers.TryMap<Self, T> {
        Publishers.TryMap(upstream: self, transform: transform)
    }

    /// Decodes each element with `decoder` into `type`; an element that does not decode ends the stream with the
    /// decoder's error.
    public func decode<Item: Decodable, Coder: TopLevelDecoder>(type: Item.Type, decoder: Coder) -> Publishers.Decode<Self, Item, Coder>
    where Output == Coder.Input {
        Publishers.Decode(upstream: self, decoder: decoder)
    }

    /// Specifies the scheduler on which to perform subscribe, cancel, and request operations.
    public func subscribe<S: Scheduler>(on scheduler: S, options: S.SchedulerOptions? = nil) -> Publishers.SubscribeOn<Self, S> {
        Publishers.SubscribeOn(upstream: self, scheduler: scheduler, options: options)
    }
}

extension Result {
    /// A publisher of the result: its value, then finished; or its failure.
    public var publisher: Publisher { Publisher(self) }

    /// A publisher that publishes a result's value once and finishes, or fails with its error.
    public struct Publisher: Combine.Publisher {
        public typealias Output = Success
        public let result: Result<Success, Failure>

        public init(_ result: Result<Success, Failure>) { self.result = result }
        public init(_ output: Output) { result = .success(output) }
        public init(_ failure: Failure) { result = .failure(failure) }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Success, S.Failure == Failure {
            let outlet = Outlet(subscriber, policy: .queue)
            // The value waits for demand, as Just's does.
            outlet.finish(with: result)
            subscriber.receive(subscription: Conduit(request: outlet.request, cancel: outlet.cancel))
        }
    }
}
