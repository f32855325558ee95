import Foundation
import LockstepNetworking
import LockstepTestSupport
import Testing

/// `URLSession.dataTaskPublisher(for:)`: a real fetch from a loopback HTTP server (a process of its own), started at
/// the subscriber's first demand; a failed connection completes with a `URLError`.
@Suite("LockstepNetworking: URLSession.dataTaskPublisher")
struct DataTaskPublisherTests {
    /// What a subscriber saw, collected until the publisher completed (a bounded wait).
    final class Received: @unchecked Sendable {  // @unchecked: written before `done` is signalled, read after.
        var values: [(data: Data, response: URLResponse)] = []
        var completion: Subscribers.Completion<URLError>?
        let done = DispatchSemaphore(value: 0)
    }

    func receive(_ publisher: URLSession.DataTaskPublisher) -> (Received, AnyCancellable) {
        let received = Received()
        let cancellable = publisher.sink { completion in
            received.completion = completion
            received.done.signal()
        } receiveValue: { value in
            received.values.append(value)
        }
        return (received, cancellable)
    }

    @Test func aSubscriberReceivesTheDataAndResponseThenFinishes() throws {
        let root = TestSupport.temporaryDirectory("data-task")
        defer { TestSupport.cleanUp(root) }
        let file = root.appendingPathComponent("villagers.json")
        try Data(#"{"name":"Tom Nook"}"#.utf8).write(to: file)
        let server = try Child(TestSupport.executable("lockstep-probe"), ["__worker", "http-serve", file.path, "application/json"], keepStdinOpen: true)
        defer { server.closeStdin(); _ = server.finish() }
        let listening = try #require(server.waitForLine("listening http://127.0.0.1:"))
        let url = try #require(URL(string: String(listening.dropFirst("listening ".count)) + "villagers.json"))

        let (received, cancellable) = receive(URLSession.shared.dataTaskPublisher(for: URLRequest(url: url)))
        #expect(received.done.wait(timeout: .now() + 30) == .success)
        cancellable.cancel()
        #expect(received.values.count == 1)
        #expect(received.values.first.map { String(decoding: $0.data, as: UTF8.self) } == #"{"name":"Tom Nook"}"#)
        #expect((received.values.first?.response as? HTTPURLResponse)?.statusCode == 200)
        guard case .finished = received.completion else { Issue.record("completed with \(String(describing: received.completion))"); return }
        #expect(server.waitForLine("request GET /villagers.json") != nil)
    }

    @Test func aRefusedConnectionFailsWithAURLError() throws {
        // Port 9 (discard) on the loopback address: nothing listens there on a test machine, so the connection is refused.
        let (received, cancellable) = receive(URLSession.shared.dataTaskPublisher(for: URL(string: "http://127.0.0.1:9/")!))
        #expect(received.done.wait(timeout: .now() + 30) == .success)
        cancellable.cancel()
        #expect(received.values.isEmpty)
        guard case .failure(let error) = received.completion else { Issue.record("completed with \(String(describing: received.completion))"); return }
        #expect(error.code == .cannotConnectToHost || error.code == .networkConnectionLost || error.code == .cannotFindHost, "\(error)")
    }

    @Test func nothingIsFetchedBeforeTheFirstDemand() throws {
        final class Holder: Subscriber, @unchecked Sendable {
            typealias Input = (data: Data, response: URLResponse)
            typealias Failure = URLError
            var subscription: (any Subscription)?
            var received = 0
            func receive(subscription: any Subscription) { self.subscription = subscription }
            func receive(_ input: Input) -> Subscribers.Demand { received += 1; return .none }
            func receive(completion: Subscribers.Completion<URLError>) {}
        }
        let root = TestSupport.temporaryDirectory("data-task-demand")
        defer { TestSupport.cleanUp(root) }
        let file = root.appendingPathComponent("a.txt")
        try Data("a".utf8).write(to: file)
        let server = try Child(TestSupport.executable("lockstep-probe"), ["__worker", "http-serve", file.path, "text/plain"], keepStdinOpen: true)
        defer { server.closeStdin(); _ = server.finish() }
        let listening = try #require(server.waitForLine("listening http://127.0.0.1:"))
        let holder = Holder()
        URLSession.shared.dataTaskPublisher(for: URL(string: String(listening.dropFirst("listening ".count)) + "first")!).subscribe(holder)
        // A second request, which the subscriber asks for, reaches the server; the first never does.
        let (received, cancellable) = receive(URLSession.shared.dataTaskPublisher(for: URL(string: String(listening.dropFirst("listening ".count)) + "second")!))
        #expect(received.done.wait(timeout: .now() + 30) == .success)
        cancellable.cancel()
        #expect(server.waitForLine("request GET /second") != nil)
        holder.subscription?.cancel()
        _ = server.finish()
        #expect(!server.stdoutSoFar.contains("/first"), "\(server.stdoutSoFar)")
        #expect(holder.received == 0)
    }
}
