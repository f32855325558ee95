import Combine
import Foundation
import Testing

/// Each operator's values, completion, cancellation and demand.
@Suite struct OperatorTests {
    @Test func mapCompactMapAndFilterRespectDemand() {
        let subject = PassthroughSubject<Int, TestError>()
        let recorder = Recorder<String, TestError>(initialDemand: .max(2))
        subject
            .filter { $0 % 2 == 0 }                   // dropped values ask upstream for one more
            .compactMap { $0 == 4 ? nil : $0 }
            .map { "#\($0)" }
            .subscribe(recorder)
        for value in 1...8 { subject.send(value) }
        #expect(recorder.values == ["#2", "#6"])
        subject.send(completion: .failure(TestError(code: 2)))
        #expect(recorder.failure == TestError(code: 2))
    }

    @Test func dropFirstSkipsTheFirstElementsOfEachSubscription() {
        let model = CurrentValueSubject<Int, Never>(0)
        let recorder = Recorder<Int, Never>(initialDemand: .max(2))
        model.dropFirst().subscribe(recorder)  // the current value is the one dropped, as with `$property.dropFirst()`
        model.send(1)
        model.send(2)
        model.send(3)
        #expect(recorder.values == [1, 2])
        var values: [Int] = []
        _ = Publishers.MergeMany([Just(1), Just(2), Just(3)]).dropFirst(2).sink { values.append($0) }
        #expect(values == [3])
    }

    @Test func replaceErrorSendsItsElementWhenAskedThenFinishes() {
        let subject = PassthroughSubject<Int, TestError>()
        let recorder = Recorder<Int, Never>(initialDemand: .max(1))
        subject.replaceError(with: -1).subscribe(recorder)
        subject.send(1)
        subject.send(completion: .failure(TestError(code: 4)))
        #expect(recorder.values == [1])  // the replacement waits for demand
        #expect(!recorder.isFinished)
        recorder.subscription?.request(.max(1))
        #expect(recorder.values == [1, -1])
        #expect(recorder.isFinished)

        var values: [Int] = []
        _ = Just(2).setFailureType(to: TestError.self).replaceError(with: 0).sink { values.append($0) }
        #expect(values == [2])
    }

    @Test func mapByKeyPath() {
        var values: [Int] = []
        _ = Just("abc").map(\.count).sink { values.append($0) }
        #expect(values == [3])
    }

    @Test func removeDuplicatesDropsRepeatsOnly() {
        let subject = PassthroughSubject<Int, Never>()
        let recorder = Recorder<Int, Never>()
        subject.removeDuplicates().subscribe(recorder)
        for value in [1, 1, 2, 2, 2, 1, 3, 3] { subject.send(value) }
        #expect(recorder.values == [1, 2, 1, 3])

        let byPredicate = Recorder<Int, Never>()
        subject.removeDuplicates { abs($0 - $1) < 2 }.subscribe(byPredicate)
        for value in [10, 11, 15, 16, 20] { subject.send(value) }
        #expect(byPredicate.values == [10, 15, 20])
    }

    @Test func combineLatestWaitsForEverySideThenPairsTheNewest() {
        let a = PassthroughSubject<Int, TestError>()
        let b = PassthroughSubject<String, TestError>()
        let recorder = Recorder<String, TestError>()
        a.combineLatest(b) { "\($0)\($1)" }.subscribe(recorder)
        a.send(1)
        a.send(2)
        b.send("x")
        a.send(3)
        b.send("y")
        #expect(recorder.values == ["2x", "3x", "3y"])
        a.send(completion: .finished)
        #expect(!recorder.isFinished)  // b may still send
        b.send("z")
        b.send(completion: .finished)
        #expect(recorder.values == ["2x", "3x", "3y", "3z"])
        #expect(recorder.isFinished)

        let three = Recorder<Int, Never>()
        Just(1).combineLatest(Just(2), Just(3)) { $0 + $1 + $2 }.subscribe(three)
        #expect(three.values == [6])
        #expect(three.isFinished)
    }

    @Test func combineLatestFailsWhenOneSideFails() {
        let a = PassthroughSubject<Int, TestError>()
        let b = PassthroughSubject<Int, TestError>()
        let recorder = Recorder<(Int, Int), TestError>()
        a.combineLatest(b).subscribe(recorder)
        a.send(1)
        b.send(completion: .failure(TestError(code: 9)))
        a.send(2)
        #expect(recorder.failure == TestError(code: 9))
        #expect(recorder.values.isEmpty)
    }

    @Test func mergeInterleavesAndFinishesWhenAllHave() {
        let a = PassthroughSubject<Int, Never>()
        let b = PassthroughSubject<Int, Never>()
        let recorder = Recorder<Int, Never>()
        a.merge(with: b).subscribe(recorder)
        a.send(1)
        b.send(2)
        a.send(3)
        a.send(completion: .finished)
        b.send(4)
        #expect(!recorder.isFinished)
        b.send(completion: .finished)
        #expect(recorder.values == [1, 2, 3, 4])
        #expect(recorder.isFinished)

        let many = Recorder<Int, Never>()
        Publishers.MergeMany([Just(1), Just(2), Just(3)]).subscribe(many)
        #expect(many.values == [1, 2, 3] && many.isFinished)
    }

    @Test func mergeDeliversNoMoreThanRequested() {
        let recorder = Recorder<Int, Never>(initialDemand: .max(1))
        Just(1).merge(with: Just(2), Just(3)).subscribe(recorder)
        #expect(recorder.values == [1])
        #expect(!recorder.isFinished)
        recorder.subscription?.request(.max(5))
        #expect(recorder.values == [1, 2, 3])
        #expect(recorder.isFinished)
    }

    @Test func flatMapRepublishesEveryInnerPublisher() {
        let outer = PassthroughSubject<Int, TestError>()
        var inners: [PassthroughSubject<String, TestError>] = []
        let recorder = Recorder<String, TestError>()
        outer.flatMap { _ -> PassthroughSubject<String, TestError> in
            let inner = PassthroughSubject<String, TestError>()
            inners.append(inner)
            return inner
        }.subscribe(recorder)
        outer.send(1)
        outer.send(2)
        inners[1].send("b")
        inners[0].send("a")
        outer.send(completion: .finished)
        inners[0].send(completion: .finished)
        #expect(!recorder.isFinished)  // the second inner is still going
        inners[1].send(completion: .finished)
        #expect(recorder.values == ["b", "a"])
        #expect(recorder.isFinished)
    }

    @Test func flatMapLimitsPublishersAtOnce() {
        let outer = PassthroughSubject<Int, Never>()
        var inners: [PassthroughSubject<Int, Never>] = []
        let recorder = Recorder<Int, Never>()
        outer.flatMap(maxPublishers: .max(1)) { _ -> PassthroughSubject<Int, Never> in
            let inner = PassthroughSubject<Int, Never>()
            inners.append(inner)
            return inner
        }.subscribe(recorder)
        outer.send(1)
        outer.send(2)  // not requested: the first inner is still subscribed
        #expect(inners.count == 1)
        inners[0].send(completion: .finished)
        outer.send(3)
        #expect(inners.count == 2)
    }

    @Test func flatMapFromANeverFailingUpstreamToAFailingInner() {
        let recorder = Recorder<Int, TestError>()
        Just(1).flatMap { _ in Fail<Int, TestError>(error: TestError(code: 5)) }.subscribe(recorder)
        #expect(recorder.failure == TestError(code: 5))
    }

    @Test func cancellingAnOperatorChainStopsItsUpstream() {
        let subject = PassthroughSubject<Int, Never>()
        var received: [Int] = []
        let cancellable = subject.map { $0 * 2 }.filter { $0 > 0 }.sink { received.append($0) }
        subject.send(1)
        cancellable.cancel()
        subject.send(2)
        #expect(received == [2])
    }

    @Test func debounceDeliversTheValueThatStayedNewestForTheDueTime() {
        let scheduler = VirtualScheduler()
        let subject = PassthroughSubject<Int, Never>()
        let recorder = Recorder<Int, Never>()
        subject.debounce(for: .seconds(1), scheduler: scheduler).subscribe(recorder)
        subject.send(1)
        scheduler.advance(to: 0.5)
        subject.send(2)           // restarts the wait: due at 1.5
        scheduler.advance(to: 1.2)
        #expect(recorder.values.isEmpty)
        scheduler.advance(to: 1.5)
        #expect(recorder.values == [2])
        subject.send(3)
        scheduler.advance(to: 3)
        #expect(recorder.values == [2, 3])
        subject.send(completion: .finished)
        scheduler.advance(to: 3)
        #expect(recorder.isFinished)
    }

    @Test func throttleDeliversTheFirstThenTheNewestOrFirstPerInterval() {
        for latest in [true, false] {
            let scheduler = VirtualScheduler()
            let subject = PassthroughSubject<Int, Never>()
            let recorder = Recorder<Int, Never>()
            subject.throttle(for: .seconds(1), scheduler: scheduler, latest: latest).subscribe(recorder)
            subject.send(1)
            scheduler.advance(to: 0.1)
            #expect(recorder.values == [1])
            subject.send(2)
            subject.send(3)
            scheduler.advance(to: 0.9)
            #expect(recorder.values == [1])
            scheduler.advance(to: 1.0)
            #expect(recorder.values == [1, latest ? 3 : 2])
            scheduler.advance(to: 5)
            subject.send(4)  // the window is over: at once
            scheduler.advance(to: 5)
            #expect(recorder.values == [1, latest ? 3 : 2, 4])
        }
    }

    @Test func receiveOnADispatchQueueDeliversThereInOrder() async {
        let queue = DispatchQueue(label: "combine-tests")
        let key = DispatchSpecificKey<Bool>()
        queue.setSpecific(key: key, value: true)
        let subject = PassthroughSubject<Int, Never>()
        let results = Locked<(values: [Int], onQueue: Bool)>(([], true))
        await confirmation { finished in
            let done = DispatchSemaphore(value: 0)
            let cancellable = subject.receive(on: queue).sink(receiveCompletion: { _ in done.signal() }) { value in
                results.withLock { $0.values.append(value); $0.onQueue = $0.onQueue && DispatchQueue.getSpecific(key: key) == true }
            }
            for value in 1...100 { subject.send(value) }
            subject.send(completion: .finished)
            if done.wait(timeout: .now() + 10) == .success { finished() }
            cancellable.cancel()
        }
        #expect(results.withLock { $0.values } == Array(1...100))
        #expect(results.withLock { $0.onQueue })
    }

    @Test func receiveOnTheMainRunLoopDeliversWhenItRuns() {
        var values: [Int] = []
        let cancellable = Just(7).receive(on: RunLoop.current).sink { values.append($0) }
        #expect(values.isEmpty)  // scheduled, not delivered in place
        #expect(runLoop { values == [7] })
        cancellable.cancel()
    }
}

/// A lock for the tests' own shared state.
final class Locked<State>: @unchecked Sendable {
    // @unchecked because the state is only reached under the lock.
    private let lock = NSLock()
    private var state: State
    init(_ state: State) { self.state = state }
    func withLock<R>(_ body: (inout State) -> R) -> R {
        lock.lock()
        defer { lock.unlock() }
        return body(&state)
    }
}
