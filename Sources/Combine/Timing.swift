extension Publishers {
    /// A publisher that delivers elements to its downstream subscriber on a specific scheduler.
    public struct ReceiveOn<Upstream: Publisher, Context: Scheduler>: Publisher {
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
            // Demand passes straight upstream; each value and the completion are delivered in a scheduled action,
            // in order on a serial scheduler, and the demand the subscriber returns then goes upstream.
            let scheduler = scheduler, options = options
            let upstreamSubscription = Locked<(any Subscription)?>(nil)
            upstream.subscribe(AnySubscriber<Output, Failure>(
                receiveSubscription: { subscription in
                    upstreamSubscription.withLock { $0 = subscription }
                    subscriber.receive(subscription: subscription)
                },
                receiveValue: { value in
                    scheduler.schedule(options: options) {
                        let more = subscriber.receive(value)
                        if more > 0 { upstreamSubscription.withLock { $0 }?.request(more) }
                    }
                    return .none
                },
                receiveCompletion: { completion in
                    scheduler.schedule(options: options) { subscriber.receive(completion: completion) }
                }))
        }
    }

    /// A publisher that publishes elements only after a specified time interval elapses between events.
    public struct Debounce<Upstream: Publisher, Context: Scheduler>: Publisher {
        public typealias Output = Upstream.Output
        public typealias Failure = Upstream.Failure
        public let upstream: Upstream
        public let dueTime: Context.SchedulerTimeType.Stride
        public let scheduler: Context
        public let options: Context.SchedulerOptions?

        public init(upstream: Upstream, dueTime: Context.SchedulerTimeType.Stride, scheduler: Context, options: Context.SchedulerOptions?) {
            self.upstream = upstream
            self.dueTime = dueTime
            self.scheduler = scheduler
            self.options = options
        }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            // Each value replaces the one waiting and restarts the wait; only a value still the newest when its
            // wait ends is delivered. A completion is delivered at once and drops a value still waiting, as
            // Apple's debounce does.
            let scheduler = scheduler, options = options, dueTime = dueTime
            let timed = Timed(subscriber)
            upstream.subscribe(AnySubscriber<Output, Failure>(
                receiveSubscription: timed.start,
                receiveValue: { value in
                    let generation = timed.latest.withLock { latest in
                        latest.generation += 1
                        latest.value = value
                        return latest.generation
                    }
                    scheduler.schedule(after: scheduler.now.advanced(by: dueTime), tolerance: scheduler.minimumTolerance, options: options) {
                        let due = timed.latest.withLock { latest -> Output? in
                            guard latest.generation == generation else { return nil }
                            defer { latest.value = nil }
                            return latest.value
                        }
                        if let due { timed.outlet.send(due) }
                    }
                    return .none
                },
                receiveCompletion: { completion in
                    scheduler.schedule(options: options) { timed.outlet.complete(completion) }
                }))
        }
    }

    /// A publisher that publishes either the most-recent or first element published by the upstream publisher in
    /// a specified time interval.
    public struct Throttle<Upstream: Publisher, Context: Scheduler>: Publisher {
        public typealias Output = Upstream.Output
        public typealias Failure = Upstream.Failure
        public let upstream: Upstream
        public let interval: Context.SchedulerTimeType.Stride
        public let scheduler: Context
        public let latest: Bool

        public init(upstream: Upstream, interval: Context.SchedulerTimeType.Stride, scheduler: Context, latest: Bool) {
            self.upstream = upstream
            self.interval = interval
            self.scheduler = scheduler
            self.latest = latest
        }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            // The first value is delivered at once and opens a window of `interval`; values within it wait, the
            // first or the newest one kept, and the one kept is delivered when the window ends, opening the next.
            let scheduler = scheduler, interval = interval, keepsLatest = latest
            let timed = Timed(subscriber)
            let window = Locked<(end: Context.SchedulerTimeType?, held: Output?)>((nil, nil))
            func endWindow() {
                let due = window.withLock { window in
                    defer { window.held = nil }
                    window.end = window.held == nil ? nil : scheduler.now.advanced(by: interval)
                    return window.held
                }
                if let due { timed.outlet.send(due) }
            }
            upstream.subscribe(AnySubscriber<Output, Failure>(
                receiveSubscription: timed.start,
                receiveValue: { value in
                    let now = scheduler.now
                    let action = window.withLock { window -> (deliverNow: Bool, endAt: Context.SchedulerTimeType?) in
                        guard let end = window.end, now < end || window.held != nil else {
                            window.end = now.advanced(by: interval)
                            return (true, nil)
                        }
                        let first = window.held == nil
                        if keepsLatest || first { window.held = value }
                        return (false, first ? end : nil)
                    }
                    if action.deliverNow { scheduler.schedule { timed.outlet.send(value) } }
                    if let end = action.endAt { scheduler.schedule(after: end, endWindow) }
                    return .none
                },
                receiveCompletion: { completion in
                    scheduler.schedule { timed.outlet.complete(completion) }
                }))
        }
    }
}

/// The state `debounce` and `throttle` share: the subscriber's outlet, the upstream asked for everything, and the
/// value waiting for its time.
final class Timed<Downstream: Subscriber>: @unchecked Sendable {
    // @unchecked because every field is a lock or thread-safe.
    let outlet: Outlet<Downstream>
    let latest = Locked<(value: Downstream.Input?, generation: Int)>((nil, 0))

    init(_ downstream: Downstream) { outlet = Outlet(downstream, policy: .queue) }

    func start(_ upstream: any Subscription) {
        let outlet = outlet
        outlet.hand(Conduit(request: outlet.request, cancel: {
            outlet.cancel()
            upstream.cancel()
        }))
        upstream.request(.unlimited)
    }
}

extension Publisher {
    /// Specifies the scheduler on which to receive elements from the publisher.
    public func receive<S: Scheduler>(on scheduler: S, options: S.SchedulerOptions? = nil) -> Publishers.ReceiveOn<Self, S> {
        Publishers.ReceiveOn(upstream: self, scheduler: scheduler, options: options)
    }

    /// Publishes elements only after a specified time interval elapses between events.
    public func debounce<S: Scheduler>(for dueTime: S.SchedulerTimeType.Stride, scheduler: S, options: S.SchedulerOptions? = nil)
        -> Publishers.Debounce<Self, S> {
        Publishers.Debounce(upstream: self, dueTime: dueTime, scheduler: scheduler, options: options)
    }

    /// Publishes either the most-recent or first element published by the upstream publisher in the specified
    /// time interval.
    public func throttle<S: Scheduler>(for interval: S.SchedulerTimeType.Stride, scheduler: S, latest: Bool) -> Publishers.Throttle<Self, S> {
        Publishers.Throttle(upstream: self, interval: interval, scheduler: scheduler, latest: latest)
    }
}
