import Combine
import Foundation
import Testing

/// Demand, subscribers, cancellation, subjects and the publishers that make values: each delivers what the
/// subscriber asked for, in order, then one completion.
@Suite struct PublisherTests {
    @Test func demandArithmeticFollowsApple() {
        #expect(Subscribers.Demand.max(2) + .max(3) == .max(5))
        #expect(Subscribers.Demand.unlimited + .max(1) == .unlimited)
        #expect(Subscribers.Demand.max(2) - .max(5) == .none)
        #expect(Subscribers.Demand.unlimited - 1 == .unlimited)
        #expect(Subscribers.Demand.max(3) * 2 == .max(6))
        #expect(Subscribers.Demand.max(1) > 0)
        #expect(Subscribers.Demand.unlimited > 1_000_000)
        #expect(Subscribers.Demand.none == 0)
        #expect(Subscribers.Demand.unlimited.max == nil)
        #expect(Subscribers.Demand.max(4).max == 4)
    }

    @Test func passthroughSubjectDeliversOnlyWhatWasRequested() {
        let subject = PassthroughSubject<Int, TestError>()
        let recorder = Recorder<Int, TestError>(initialDemand: .max(2))
        subject.subscribe(recorder)
        subject.send(1)
        subject.send(2)
        subject.send(3)  // no demand left: dropped
        recorder.subscription?.request(.max(1))
        subject.send(4)
        subject.send(completion: .failure(TestError(code: 7)))
        subject.send(5)  // after completion: ignored
        #expect(recorder.values == [1, 2, 4])
        #expect(recorder.failure == TestError(code: 7))
        #expect(recorder.completions == 1)

        let late = Recorder<Int, TestError>()
        subject.subscribe(late)
        #expect(late.failure == TestError(code: 7))
        #expect(late.values.isEmpty)
    }

    @Test func currentValueSubjectStartsWithItsValueAndKeepsTheNewestForDemand() {
        let subject = CurrentValueSubject<String, Never>("a")
        let recorder = Recorder<String, Never>(initialDemand: .none)
        subject.subscribe(recorder)
        subject.value = "b"
        subject.send("c")
        #expect(recorder.values.isEmpty)
        recorder.subscription?.request(.max(1))
        #expect(recorder.values == ["c"])
        subject.send("d")
        #expect(recorder.values == ["c"])
        #expect(subject.value == "d")
        subject.send(completion: .finished)
        #expect(recorder.isFinished)
    }

    @Test func sinkReceivesValuesAndCompletionUntilCancelled() {
        let subject = PassthroughSubject<Int, Never>()
        var received: [Int] = []
        var finished = false
        let cancellable = subject.sink(receiveCompletion: { _ in finished = true }, receiveValue: { received.append($0) })
        subject.send(1)
        cancellable.cancel()
        subject.send(2)
        subject.send(completion: .finished)
        #expect(received == [1])
        #expect(!finished)
    }

    @Test func anyCancellableCancelsWhenReleasedAndStoresInCollections() {
        let subject = PassthroughSubject<Int, Never>()
        var received: [Int] = []
        var set = Set<AnyCancellable>()
        var array: [AnyCancellable] = []
        subject.sink { received.append($0) }.store(in: &set)
        subject.sink { received.append($0 * 10) }.store(in: &array)
        subject.send(1)
        set.removeAll()
        subject.send(2)
        array.removeAll()
        subject.send(3)
        #expect(received == [1, 10, 20])
        #expect(set.isEmpty)
    }

    @Test func justEmptyAndFailComplete() {
        let just = Recorder<Int, Never>(initialDemand: .none)
        Just(5).subscribe(just)
        #expect(just.events.isEmpty)  // nothing without demand
        just.subscription?.request(.max(1))
        #expect(just.values == [5])
        #expect(just.isFinished)

        let empty = Recorder<Int, Never>()
        Empty<Int, Never>().subscribe(empty)
        #expect(empty.isFinished && empty.values.isEmpty)
        let never = Recorder<Int, Never>()
        Empty<Int, Never>(completeImmediately: false).subscribe(never)
        #expect(never.events.isEmpty)

        let fail = Recorder<Int, TestError>()
        Fail<Int, TestError>(error: TestError(code: 3)).subscribe(fail)
        #expect(fail.failure == TestError(code: 3))
    }

    @Test func futureRunsOnceAndGivesEverySubscriberItsResult() {
        var runs = 0
        var promise: Future<Int, TestError>.Promise?
        let future = Future<Int, TestError> { fulfill in
            runs += 1
            promise = fulfill
        }
        let early = Recorder<Int, TestError>()
        future.subscribe(early)
        #expect(early.events.isEmpty)
        promise?(.success(42))
        promise?(.success(43))  // a promise is kept once
        let late = Recorder<Int, TestError>()
        future.subscribe(late)
        #expect(runs == 1)
        #expect(early.values == [42] && early.isFinished)
        #expect(late.values == [42] && late.isFinished)

        let failing = Recorder<Int, TestError>()
        Future<Int, TestError> { $0(.failure(TestError(code: 1))) }.subscribe(failing)
        #expect(failing.failure == TestError(code: 1))
    }

    @Test func aFutureKeptOnlyByItsPromiseStillDelivers() {
        var promise: Future<Int, Never>.Promise?
        var values: [Int] = []
        let cancellable = Future<Int, Never> { promise = $0 }.sink { values.append($0) }  // nothing else holds the future
        promise?(.success(9))
        #expect(values == [9])
        cancellable.cancel()
    }

    @Test func anyPublisherErasesAndPassesEverythingThrough() {
        let subject = PassthroughSubject<Int, Never>()
        let erased: AnyPublisher<Int, Never> = subject.map { $0 + 1 }.eraseToAnyPublisher()
        let recorder = Recorder<Int, Never>(initialDemand: .max(1))
        erased.subscribe(recorder)
        subject.send(1)
        subject.send(2)
        subject.send(completion: .finished)
        #expect(recorder.values == [2])
        #expect(recorder.isFinished)
    }

    @Test func assignSetsTheKeyPathAndHoldsTheObject() {
        final class Target { var text = "" }
        let target = Target()
        let subject = PassthroughSubject<String, Never>()
        let cancellable = subject.assign(to: \.text, on: target)
        subject.send("one")
        #expect(target.text == "one")
        cancellable.cancel()
        subject.send("two")
        #expect(target.text == "one")
    }

    @Test func deferredMakesAPublisherPerSubscriber() {
        var made = 0
        let deferred = Deferred { () -> Just<Int> in
            made += 1
            return Just(made)
        }
        #expect(made == 0)
        var values: [Int] = []
        _ = deferred.sink { values.append($0) }
        _ = deferred.sink { values.append($0) }
        #expect(values == [1, 2])
    }
}
