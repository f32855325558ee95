/// A publisher that exposes a method for outside callers to publish elements.
public protocol Subject<Output, Failure>: AnyObject, Publisher {
    func send(_ value: Output)
    func send(completion: Subscribers.Completion<Failure>)
    func send(subscription: any Subscription)
}

extension Subject where Output == Void {
    /// Sends a void value to the subscriber.
    public func send() { send(()) }
}

/// What the subjects share: their subscribers, each with its own demand, and the completion that ends them all.
final class SubjectCore<Output, Failure: Error>: @unchecked Sendable {
    // @unchecked because `state` is a lock and outlets are thread-safe.
    private typealias Entry = (id: CombineIdentifier, send: (Output) -> Bool, complete: (Subscribers.Completion<Failure>) -> Void)
    private struct State {
        /// In the order they subscribed, the order they receive each value in.
        var outlets: [Entry] = []
        var completion: Subscribers.Completion<Failure>?
        var upstreams: [any Subscription] = []
    }
    private let state = Locked(State())

    /// Attaches a subscriber; `initial` is a value it receives as soon as it asks for one (a current value).
    func attach<S: Subscriber>(_ subscriber: S, initial: Output?) where S.Input == Output, S.Failure == Failure {
        // A current value waits for the first demand, then only the newest value does.
        let outlet = Outlet(subscriber, policy: initial == nil ? .drop : .latest)
        if let completion = state.withLock({ $0.completion }) {
            subscriber.receive(subscription: Subscriptions.empty)
            subscriber.receive(completion: completion)
            return
        }
        let id = CombineIdentifier()
        let subscription = Conduit(
            request: { demand in outlet.request(demand) },
            cancel: { [weak self] in
                outlet.cancel()
                self?.state.withLock { $0.outlets.removeAll { $0.id == id } }
            })
        if let initial { outlet.send(initial) }
        state.withLock { $0.outlets.append((id, outlet.send, outlet.complete)) }
        subscriber.receive(subscription: subscription)
    }

    func send(_ value: Output) {
        for outlet in state.withLock({ $0.completion == nil ? $0.outlets : [] }) {
            _ = outlet.send(value)
        }
    }

    func send(completion: Subscribers.Completion<Failure>) {
        let outlets = state.withLock { state -> [Entry] in
            guard state.completion == nil else { return [] }
            state.completion = completion
            defer { state.outlets.removeAll() }
            return state.outlets
        }
        for outlet in outlets { outlet.complete(completion) }
    }

    /// A subject used as a subscriber (`publisher.subscribe(subject)`) asks its upstream for everything.
    func send(subscription: any Subscription) {
        state.withLock { $0.upstreams.append(subscription) }
        subscription.request(.unlimited)
    }

    deinit {
        for upstream in state.withLock({ $0.upstreams }) { upstream.cancel() }
    }
}

/// A subscription made of two closures: how most of this module's subscriptions are handed downstream.
final class Conduit: Subscription {
    private let onRequest: (Subscribers.Demand) -> Void
    private let onCancel: () -> Void

    init(request: @escaping (Subscribers.Demand) -> Void, cancel: @escaping () -> Void) {
        onRequest = request
        onCancel = cancel
    }

    func request(_ demand: Subscribers.Demand) { onRequest(demand) }
    func cancel() { onCancel() }
}

/// A subject that broadcasts elements to downstream subscribers; a subscriber without demand misses them.
public final class PassthroughSubject<Output, Failure: Error>: Subject {
    let core = SubjectCore<Output, Failure>()

    public init() {}

    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        core.attach(subscriber, initial: nil)
    }

    public func send(_ input: Output) { core.send(input) }
    public func send(completion: Subscribers.Completion<Failure>) { core.send(completion: completion) }
    public func send(subscription: any Subscription) { core.send(subscription: subscription) }
}

/// A subject that wraps a single value and publishes a new element whenever the value changes; a new subscriber
/// receives the current value first.
public final class CurrentValueSubject<Output, Failure: Error>: Subject {
    let core = SubjectCore<Output, Failure>()
    private let current: Locked<Output>

    public init(_ value: Output) { current = Locked(value) }

    /// The value wrapped by this subject; setting it publishes the new value.
    public var value: Output {
        get { current.withLock { $0 } }
        set { send(newValue) }
    }

    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        core.attach(subscriber, initial: value)
    }

    public func send(_ input: Output) {
        current.withLock { $0 = input }
        core.send(input)
    }

    public func send(completion: Subscribers.Completion<Failure>) { core.send(completion: completion) }
    public func send(subscription: any Subscription) { core.send(subscription: subscription) }
}
