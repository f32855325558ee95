import Foundation

// Foundation's publishers (on a device they are in Foundation's Combine overlay; here `import Combine` brings them).

extension NotificationCenter {
    /// A publisher that emits elements when broadcasting notifications.
    public struct Publisher: Combine.Publisher {
        public typealias Output = Notification
        public typealias Failure = Never
        public let center: NotificationCenter
        public let name: Notification.Name
        public let object: AnyObject?

        public init(center: NotificationCenter, name: Notification.Name, object: AnyObject? = nil) {
            self.center = center
            self.name = name
            self.object = object
        }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Notification, S.Failure == Never {
            // A notification posted while the subscriber has no demand is missed, as on a device.
            let outlet = Outlet(subscriber, policy: .drop)
            let center = center
            // The observer block runs on the posting thread; the outlet is thread-safe.
            let deliver = UnsafeTransfer({ (notification: Notification) in outlet.send(notification) })
            let observer = center.addObserver(forName: name, object: object, queue: nil) { _ = deliver.value($0) }
            let token = UnsafeTransfer(observer)
            outlet.hand(Conduit(request: outlet.request, cancel: {
                outlet.cancel()
                center.removeObserver(token.value)
            }))
        }
    }

    /// Returns a publisher that emits events when broadcasting notifications.
    public func publisher(for name: Notification.Name, object: AnyObject? = nil) -> NotificationCenter.Publisher {
        Publisher(center: self, name: name, object: object)
    }
}

/// A publisher that provides an explicit means of connecting and canceling publication.
public protocol ConnectablePublisher<Output, Failure>: Publisher {
    /// Connects to the publisher, allowing it to produce elements; cancelling stops it.
    func connect() -> any Cancellable
}

extension ConnectablePublisher {
    /// Automates the process of connecting or disconnecting from this connectable publisher.
    public func autoconnect() -> Publishers.Autoconnect<Self> { Publishers.Autoconnect(self) }
}

extension Publishers {
    /// A publisher that automatically connects to an upstream connectable publisher when its first subscriber
    /// arrives, and disconnects when its last one cancels.
    public final class Autoconnect<Upstream: ConnectablePublisher>: Publisher {
        public typealias Output = Upstream.Output
        public typealias Failure = Upstream.Failure
        public final let upstream: Upstream
        private let connection = Locked<(subscribers: Int, cancellable: (any Cancellable)?)>((0, nil))

        public init(_ upstream: Upstream) { self.upstream = upstream }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let released = Locked(false)
            upstream.subscribe(AnySubscriber<Output, Failure>(
                receiveSubscription: { [self] subscription in
                    subscriber.receive(subscription: Conduit(request: subscription.request, cancel: { [self] in
                        subscription.cancel()
                        let wasReleased = released.withLock { released in
                            defer { released = true }
                            return released
                        }
                        if !wasReleased { disconnect() }
                    }))
                },
                receiveValue: subscriber.receive(_:),
                receiveCompletion: subscriber.receive(completion:)))
            let first = connection.withLock { connection in
                connection.subscribers += 1
                return connection.cancellable == nil
            }
            if first {
                let cancellable = upstream.connect()
                connection.withLock { $0.cancellable = cancellable }
            }
        }

        private func disconnect() {
            let last = connection.withLock { connection -> (any Cancellable)? in
                connection.subscribers -= 1
                guard connection.subscribers == 0 else { return nil }
                defer { connection.cancellable = nil }
                return connection.cancellable
            }
            last?.cancel()
        }
    }
}

extension Timer {
    /// Returns a publisher that repeatedly emits the current date on the given interval, once connected.
    public static func publish(every interval: TimeInterval, tolerance: TimeInterval? = nil, on runLoop: RunLoop,
                               in mode: RunLoop.Mode, options: RunLoop.SchedulerOptions? = nil) -> Timer.TimerPublisher {
        TimerPublisher(interval: interval, tolerance: tolerance, runLoop: runLoop, mode: mode, options: options)
    }

    /// A publisher that repeatedly emits the current date on a given interval; its timer runs on the run loop
    /// while connected (the run loop must run; `RunLoop.main`'s runs on the main queue, which an app's process
    /// serves).
    public final class TimerPublisher: ConnectablePublisher {
        public typealias Output = Date
        public typealias Failure = Never
        public let interval: TimeInterval
        public let tolerance: TimeInterval?
        public let runLoop: RunLoop
        public let mode: RunLoop.Mode
        public let options: RunLoop.SchedulerOptions?
        private let subject = PassthroughSubject<Date, Never>()

        public init(interval: TimeInterval, tolerance: TimeInterval? = nil, runLoop: RunLoop, mode: RunLoop.Mode,
                    options: RunLoop.SchedulerOptions? = nil) {
            self.interval = interval
            self.tolerance = tolerance
            self.runLoop = runLoop
            self.mode = mode
            self.options = options
        }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Date, S.Failure == Never {
            subject.receive(subscriber: subscriber)
        }

        public func connect() -> any Cancellable {
            let subject = subject
            // The main run loop's timer is its scheduler's (the main queue, which an app's process serves).
            if runLoop === RunLoop.main {
                return runLoop.schedule(after: runLoop.now.advanced(by: .seconds(interval)), interval: .seconds(interval),
                                        tolerance: .seconds(tolerance ?? 0)) { subject.send(Date()) }
            }
            // The subject is thread-safe, and the timer fires on the run loop's thread.
            let target = UnsafeTransfer(subject)
            let timer = Timer(timeInterval: interval, repeats: true) { _ in target.value.send(Date()) }
            if let tolerance { timer.tolerance = tolerance }
            runLoop.add(timer, forMode: mode)
            return AnyCancellable { timer.invalidate() }
        }
    }
}
