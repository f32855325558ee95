import Combine
import Foundation
import Testing

/// `ObservableObject` and `@Published` as app models use them: the object's publisher fires before each change,
/// a property's publisher starts with its value, and `assign(to:)` feeds one property from another publisher.
@Suite struct ObservableObjectTests {
    final class Model: ObservableObject {
        @Published var count = 0
        @Published var name = "start"
        @Published var upper = ""
        var plain = 0 { willSet { objectWillChange.send() } }
    }

    @Test func objectWillChangeFiresBeforeEachPublishedChange() {
        let model = Model()
        var seen: [Int] = []
        let cancellable = model.objectWillChange.sink { seen.append(model.count) }
        model.count = 1
        model.count = 2
        model.plain = 5  // a hand-written willSet sends the same publisher
        #expect(seen == [0, 1, 2])
        #expect(model.objectWillChange === model.objectWillChange)
        cancellable.cancel()
    }

    @Test func projectedPublisherStartsWithTheValueAndSendsBeforeTheChange() {
        let model = Model()
        model.name = "one"
        var received: [String] = []
        var storedWhenReceived: [String] = []
        let cancellable = model.$name.sink { value in
            received.append(value)
            storedWhenReceived.append(model.name)
        }
        model.name = "two"
        #expect(received == ["one", "two"])
        #expect(storedWhenReceived == ["one", "one"])  // willSet semantics, as on a device
        cancellable.cancel()
    }

    @Test func assignToAPublishedPropertyRepublishesAndNotifiesTheObject() {
        let model = Model()
        model.$name.map { $0.uppercased() }.assign(to: &model.$upper)
        var changes = 0
        let cancellable = model.objectWillChange.sink { changes += 1 }
        model.name = "abc"
        #expect(model.upper == "ABC")
        #expect(changes == 2)  // name, then upper
        cancellable.cancel()
    }

    @Test func eachObjectHasItsOwnPublisher() {
        let first = Model(), second = Model()
        var firstChanges = 0
        let cancellable = first.objectWillChange.sink { firstChanges += 1 }
        second.count = 3
        first.count = 1
        #expect(firstChanges == 1)
        cancellable.cancel()
    }

    @Test func aCustomObjectWillChangeIsTheObjectsOwn() {
        final class Custom: ObservableObject {
            let objectWillChange = PassthroughSubject<Void, Never>()
            @Published var value = 0
        }
        let custom = Custom()
        var sent = 0
        let cancellable = custom.objectWillChange.sink { sent += 1 }
        custom.value = 1  // @Published does not send a publisher of another type, as on a device
        custom.objectWillChange.send()
        #expect(sent == 1)
        cancellable.cancel()
    }
}

/// Foundation's publishers: notifications and timers.
@Suite struct FoundationPublisherTests {
    @Test func notificationCenterPublisherDeliversPostsUntilCancelled() {
        let center = NotificationCenter()
        let name = Notification.Name("LockstepCombineTest")
        var objects: [String] = []
        let cancellable = center.publisher(for: name).compactMap { $0.object as? String }.sink { objects.append($0) }
        center.post(name: name, object: "a")
        center.post(name: Notification.Name("Other"), object: "x")
        center.post(name: name, object: "b")
        cancellable.cancel()
        center.post(name: name, object: "c")
        #expect(objects == ["a", "b"])
    }

    @Test func timerPublisherFiresWhileConnectedByAutoconnect() {
        var dates: [Date] = []
        let start = Date()
        let cancellable = Timer.publish(every: 0.01, on: .current, in: .default).autoconnect().sink { dates.append($0) }
        #expect(runLoop { dates.count >= 3 })
        cancellable.cancel()
        let count = dates.count
        RunLoop.current.run(until: Date().addingTimeInterval(0.05))  // the run loop runs on; the timer is gone
        #expect(dates.count == count)
        #expect(dates.allSatisfy { $0 >= start })
        #expect(dates == dates.sorted())
    }

    @Test func timerPublisherIsSilentUntilConnected() {
        let publisher = Timer.publish(every: 0.01, on: .current, in: .default)
        var fired = 0
        let cancellable = publisher.sink { _ in fired += 1 }
        RunLoop.current.run(until: Date().addingTimeInterval(0.05))
        #expect(fired == 0)
        let connection = publisher.connect()
        #expect(runLoop { fired >= 1 })
        connection.cancel()
        cancellable.cancel()
    }
}

/// The main run loop's work goes to the main queue, which the test process serves: `receive(on: RunLoop.main)` and
/// a timer on the main run loop deliver there.
@Suite struct MainRunLoopTests {
    /// On Linux, `dispatchMain()` serves the main queue from a worker thread: the queue is what is checked.
    @Test func receiveOnTheMainRunLoopDeliversOnTheMainQueue() async {
        let key = DispatchSpecificKey<String>()
        DispatchQueue.main.setSpecific(key: key, value: "main")
        let delivered = DispatchSemaphore(value: 0)
        let onMain = Locked(false)
        let cancellable = Just(1).receive(on: RunLoop.main).sink { _ in
            onMain.withLock { $0 = DispatchQueue.getSpecific(key: key) == "main" }
            delivered.signal()
        }
        #expect(await wait(delivered))
        #expect(onMain.withLock { $0 })
        cancellable.cancel()
    }

    @Test func aTimerOnTheMainRunLoopFires() async {
        let fired = DispatchSemaphore(value: 0)
        let cancellable = Timer.publish(every: 0.01, on: .main, in: .common).autoconnect().sink { _ in fired.signal() }
        #expect(await wait(fired))
        #expect(await wait(fired))
        cancellable.cancel()
    }

    /// Waits for the semaphore off the main thread, at most 10 seconds.
    func wait(_ semaphore: DispatchSemaphore) async -> Bool {
        await withCheckedContinuation { continuation in
            DispatchQueue.global().async { continuation.resume(returning: semaphore.wait(timeout: .now() + 10) == .success) }
        }
    }
}

/// App models are often main-actor classes, as Food Truck's is: `@Published` works there too.
@MainActor
@Suite struct MainActorModelTests {
    @MainActor final class Counter: ObservableObject {
        @Published private(set) var count = 0
        func increment() { count += 1 }
    }

    @Test func aMainActorModelPublishes() {
        let counter = Counter()
        var seen: [Int] = []
        let cancellable = counter.$count.sink { seen.append($0) }
        var changes = 0
        let willChange = counter.objectWillChange.sink { changes += 1 }
        counter.increment()
        counter.increment()
        #expect(seen == [0, 1, 2])
        #expect(changes == 2)
        cancellable.cancel()
        willChange.cancel()
    }
}
