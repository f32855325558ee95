// Foundation's networking as Apple's Foundation holds it: `URLSession`, `URLRequest` and their kin (which Linux keeps
// in FoundationNetworking) and `URLSession.dataTaskPublisher`, which Apple's Foundation declares in its Combine
// overlay. It is a module of its own so that only the code that fetches links libcurl and TLS: a widget that does not
// stays as small as a widget should (Performance.md, "Widget memory"). The Linux shim re-exports it.
@_exported import Combine
@_exported import Foundation
@_exported import FoundationNetworking

extension URLSession {
    /// A publisher that delivers the result of a data task: the data and response, or the `URLError` it failed with.
    public struct DataTaskPublisher: Publisher, @unchecked Sendable {  // @unchecked: a request and a thread-safe session.
        public typealias Output = (data: Data, response: URLResponse)
        public typealias Failure = URLError

        public let request: URLRequest
        public let session: URLSession

        public init(request: URLRequest, session: URLSession) {
            self.request = request
            self.session = session
        }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == URLError {
            subscriber.receive(subscription: DataTaskSubscription(request: request, session: session, subscriber: subscriber))
        }
    }

    /// A publisher of the data at `url`.
    public func dataTaskPublisher(for url: URL) -> DataTaskPublisher {
        DataTaskPublisher(request: URLRequest(url: url), session: self)
    }

    /// A publisher of the response to `request`.
    public func dataTaskPublisher(for request: URLRequest) -> DataTaskPublisher {
        DataTaskPublisher(request: request, session: self)
    }
}

/// One subscriber's data task: started at its first demand, as Apple's is, so a subscriber that never asks fetches
/// nothing; cancelling cancels the task, and nothing is delivered after.
final class DataTaskSubscription<Downstream: Subscriber>: Subscription, DataTaskReceiver, @unchecked Sendable
where Downstream.Input == URLSession.DataTaskPublisher.Output, Downstream.Failure == URLError {
    // @unchecked because the subscriber and the task are reached only under `lock`.
    private enum Phase {
        case waiting(Downstream, URLRequest, URLSession)
        case running(Downstream, URLSessionDataTask)
        case done
    }
    private var phase: Phase
    private let lock = NSLock()

    init(request: URLRequest, session: URLSession, subscriber: Downstream) {
        phase = .waiting(subscriber, request, session)
    }

    /// Changes the phase under the lock, returning what `change` returns.
    private func withPhase<T>(_ change: (inout Phase) -> T) -> T {
        lock.lock()
        defer { lock.unlock() }
        return change(&phase)
    }

    func request(_ demand: Subscribers.Demand) {
        guard demand > .none else { return }
        // The task is made under the lock (its handler cannot run before `resume`), and resumed outside it.
        let task = withPhase { phase -> URLSessionDataTask? in
            guard case .waiting(let subscriber, let request, let session) = phase else { return nil }
            // Held as a non-generic existential: the handler runs on the session's queue, which must not capture the
            // subscriber's type.
            weak let receiver: (any DataTaskReceiver)? = self
            let task = session.dataTask(with: request) { data, response, error in
                receiver?.finish(data: data, response: response, error: error)
            }
            phase = .running(subscriber, task)
            return task
        }
        task?.resume()
    }

    func cancel() {
        let task = withPhase { phase -> URLSessionDataTask? in
            defer { phase = .done }
            if case .running(_, let task) = phase { return task }
            return nil
        }
        task?.cancel()
    }

    func finish(data: Data?, response: URLResponse?, error: (any Error)?) {
        let subscriber = withPhase { phase -> Downstream? in
            defer { phase = .done }
            if case .running(let subscriber, _) = phase { return subscriber }
            return nil
        }
        guard let subscriber else { return }
        if let data, let response, error == nil {
            _ = subscriber.receive((data: data, response: response))
            subscriber.receive(completion: .finished)
        } else {
            // Foundation reports a failed transfer as a URLError; anything else is one of unknown cause, as Apple's
            // publisher's `Failure` type has it.
            subscriber.receive(completion: .failure(error as? URLError ?? URLError(.unknown)))
        }
    }
}

/// What a data task's completion handler calls.
protocol DataTaskReceiver: AnyObject, Sendable {
    func finish(data: Data?, response: URLResponse?, error: (any Error)?)
}
