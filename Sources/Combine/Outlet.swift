/// The downstream side of an operator that produces values on its own schedule (subjects, merging, flat-mapping,
/// timing): it holds the subscriber's outstanding demand, queues what arrives without demand, and delivers one
/// call at a time.
///
/// Delivery never happens under the lock, because a subscriber may call back in (request more, cancel, send to the
/// same subject). A call arriving while another thread — or this one, re-entrantly — is delivering only queues;
/// the deliverer drains the queue before it lets go, so the subscriber never sees two calls at once.
final class Outlet<Downstream: Subscriber>: @unchecked Sendable {
    // @unchecked because every field is reached only through `state`'s lock.
    private struct State {
        var downstream: Downstream?
        var demand = Subscribers.Demand.none
        var queue: [Downstream.Input] = []
        let policy: Policy
        var completion: Subscribers.Completion<Downstream.Failure>?
        var delivering = false
    }
    private let state: Locked<State>

    /// What happens to a value that arrives before the subscriber asked for it.
    enum Policy {
        /// It waits, with every other such value, in order (operators that asked their upstream for it).
        case queue
        /// It is dropped, as a `PassthroughSubject` drops it.
        case drop
        /// Only the newest waits, as a `CurrentValueSubject`'s current value does.
        case latest
    }

    init(_ downstream: Downstream, policy: Policy) {
        state = Locked(State(downstream: downstream, policy: policy))
    }

    /// Whether the subscriber is gone: cancelled or completed.
    var isTerminated: Bool { state.withLock { $0.downstream == nil } }

    /// Gives the subscriber its subscription (before any value: nothing is delivered without demand).
    func hand(_ subscription: any Subscription) {
        state.withLock { $0.downstream }?.receive(subscription: subscription)
    }

    /// Adds to the subscriber's demand, then delivers what waited for it.
    func request(_ demand: Subscribers.Demand) {
        state.withLock { $0.demand += demand }
        drain()
    }

    /// Delivers the value if the subscriber asked for one, else queues or drops it; returns whether it was taken.
    @discardableResult
    func send(_ value: Downstream.Input) -> Bool {
        let taken = state.withLock { state -> Bool in
            guard state.downstream != nil, state.completion == nil else { return false }
            switch state.policy {
            case .queue: state.queue.append(value)
            case .drop: if state.demand > state.queue.count { state.queue.append(value) } else { return false }
            case .latest: if state.demand > state.queue.count { state.queue.append(value) } else { state.queue = [value] }
            }
            return true
        }
        drain()
        return taken
    }

    /// Completes the subscriber: a failure at once, `finished` once the queued values are delivered (a subject's:
    /// at once).
    func complete(_ completion: Subscribers.Completion<Downstream.Failure>) {
        state.withLock { state in
            guard state.completion == nil else { return }
            // A subject's waiting value is not owed: its completion goes at once, as a failure always does.
            if case .failure = completion { state.queue.removeAll() }
            if state.policy != .queue { state.queue.removeAll() }
            state.completion = completion
        }
        drain()
    }

    /// Sends a result's value and finishes, or fails with its error: the one delivery of a `Future` or a
    /// `Result.publisher`.
    func finish(with result: Result<Downstream.Input, Downstream.Failure>) {
        switch result {
        case .success(let value):
            send(value)
            complete(.finished)
        case .failure(let error):
            complete(.failure(error))
        }
    }

    /// Forgets the subscriber: nothing more is delivered.
    func cancel() {
        state.withLock { state in
            state.downstream = nil
            state.queue.removeAll()
        }
    }

    /// The one loop that calls the subscriber.
    private enum Step {
        case value(Downstream, Downstream.Input)
        case completion(Downstream, Subscribers.Completion<Downstream.Failure>)
        case stop
    }

    private func drain() {
        let owns = state.withLock { state -> Bool in
            if state.delivering { return false }
            state.delivering = true
            return true
        }
        guard owns else { return }
        while true {
            let step = state.withLock { state -> Step in
                guard let downstream = state.downstream else { state.delivering = false; return .stop }
                if state.demand > 0, !state.queue.isEmpty {
                    state.demand -= 1
                    return .value(downstream, state.queue.removeFirst())
                }
                if let completion = state.completion, state.queue.isEmpty {
                    state.downstream = nil
                    state.delivering = false
                    return .completion(downstream, completion)
                }
                state.delivering = false
                return .stop
            }
            switch step {
            case .value(let downstream, let value):
                let more = downstream.receive(value)
                if more > 0 { state.withLock { $0.demand += more } }
            case .completion(let downstream, let completion):
                downstream.receive(completion: completion)
                return
            case .stop:
                return
            }
        }
    }
}
