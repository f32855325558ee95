import Combine
import Foundation
import Testing

/// The operators that change how a stream fails (`mapError`, `tryMap`, `decode`), `subscribe(on:)` and
/// `Result.publisher`: the chain code around `URLSession.dataTaskPublisher` is written with.
@Suite struct FailingOperatorTests {
    struct Villager: Decodable, Equatable { let name: String }
    enum APIError: Error, Equatable { case parse(String), status(Int) }

    @Test func mapErrorRetypesOnlyTheFailure() {
        let subject = PassthroughSubject<Int, TestError>()
        let recorder = Recorder<Int, APIError>()
        subject.mapError { APIError.status($0.code) }.subscribe(recorder)
        subject.send(1)
        subject.send(completion: .failure(TestError(code: 404)))
        #expect(recorder.values == [1] && recorder.failure == .status(404))
    }

    @Test func aThrowingTransformEndsTheStreamAndCancelsItsUpstream() {
        let source = ManualSource()
        let recorder = Recorder<String, any Error>()
        source
            .tryMap { value -> String in
                guard value < 3 else { throw APIError.status(value) }
                return "#\(value)"
            }
            .subscribe(recorder)
        source.send(1)
        source.send(3)
        source.send(2)  // after the failure: nothing
        source.finish()
        #expect(recorder.values == ["#1"] && recorder.completions == 1)
        #expect(recorder.failure as? APIError == .status(3) && source.handle.cancelled)
    }

    @Test func decodeTurnsDataIntoValuesOrFailsWithTheDecodersError() {
        let good = Recorder<Villager, any Error>()
        Just(Data(#"{"name":"Tom Nook"}"#.utf8)).decode(type: Villager.self, decoder: JSONDecoder()).subscribe(good)
        #expect(good.values == [Villager(name: "Tom Nook")] && good.isFinished)
        let bad = Recorder<Villager, APIError>()
        Just(Data("not json".utf8)).decode(type: Villager.self, decoder: JSONDecoder())
            .mapError { APIError.parse("\(type(of: $0))") }
            .subscribe(bad)
        #expect(bad.values.isEmpty && bad.failure == .parse("DecodingError"))
    }

    @Test func aResultPublishesItsValueWhenAskedOrFails() {
        let waiting = Recorder<Int, TestError>(initialDemand: .none)
        Result<Int, TestError>.success(7).publisher.subscribe(waiting)
        #expect(waiting.values.isEmpty)
        waiting.subscription?.request(.max(1))
        #expect(waiting.values == [7] && waiting.isFinished)
        let failed = Recorder<Int, TestError>()
        Result<Int, TestError>.failure(TestError(code: 1)).publisher.subscribe(failed)
        #expect(failed.values.isEmpty && failed.failure == TestError(code: 1))
    }

    @Test func subscribeOnSubscribesAndAsksOnTheScheduler() {
        let scheduler = VirtualScheduler()
        var subscribed = 0
        let recorder = Recorder<Int, Never>()
        Deferred { () -> Just<Int> in
            subscribed += 1
            return Just(5)
        }
        .subscribe(on: scheduler)
        .subscribe(recorder)
        // Nothing happens until the scheduler runs: the subscription, then the request, each on it.
        #expect(subscribed == 0 && recorder.values.isEmpty)
        scheduler.advance(to: 0)
        #expect(subscribed == 1 && recorder.values == [5] && recorder.isFinished)
    }
}

/// A publisher a test sends through by hand, which records whether its subscription was cancelled.
final class ManualSource: Publisher, @unchecked Sendable {  // @unchecked: driven from the test's one thread.
    typealias Output = Int
    typealias Failure = Never
    final class Handle: Subscription {
        var cancelled = false
        func request(_ demand: Subscribers.Demand) {}
        func cancel() { cancelled = true }
    }
    let handle = Handle()
    private var downstream: AnySubscriber<Int, Never>?

    func receive<S: Subscriber>(subscriber: S) where S.Input == Int, S.Failure == Never {
        downstream = AnySubscriber(subscriber)
        subscriber.receive(subscription: handle)
    }

    func send(_ value: Int) { _ = downstream?.receive(value) }
    func finish() { downstream?.receive(completion: .finished) }
}
