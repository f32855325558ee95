import Combine
import Foundation

/// A subscriber that records what it receives and asks for exactly the demand a test gives it.
final class Recorder<Input, Failure: Error>: Subscriber, @unchecked Sendable {
    // @unchecked because tests deliver to it from one thread at a time (the scheduler's), reading after.
    enum Event {
        case value(Input)
        case completion(Subscribers.Completion<Failure>)
    }
    private(set) var events: [Event] = []
    private(set) var subscription: (any Subscription)?
    let initialDemand: Subscribers.Demand
    let demandPerValue: Subscribers.Demand

    init(initialDemand: Subscribers.Demand = .unlimited, demandPerValue: Subscribers.Demand = .none) {
        self.initialDemand = initialDemand
        self.demandPerValue = demandPerValue
    }

    func receive(subscription: any Subscription) {
        self.subscription = subscription
        if initialDemand > 0 { subscription.request(initialDemand) }
    }

    func receive(_ input: Input) -> Subscribers.Demand {
        events.append(.value(input))
        return demandPerValue
    }

    func receive(completion: Subscribers.Completion<Failure>) {
        events.append(.completion(completion))
    }

    var values: [Input] { events.compactMap { if case .value(let value) = $0 { value } else { nil } } }

    var isFinished: Bool { events.contains { if case .completion(.finished) = $0 { true } else { false } } }

    var failure: Failure? {
        events.lazy.compactMap { if case .completion(.failure(let error)) = $0 { error } else { nil } }.first
    }

    var completions: Int { events.count { if case .completion = $0 { true } else { false } } }
}

struct TestError: Error, Equatable {
    let code: Int
}

/// A scheduler whose clock moves only when the test advances it: debounce and throttle are tested by what they
/// deliver at each virtual moment, never by waiting.
final class VirtualScheduler: Scheduler, @unchecked Sendable {
    // @unchecked because tests drive it from one thread.
    struct SchedulerTimeType: Strideable, Hashable {
        typealias Stride = RunLoop.SchedulerTimeType.Stride
        var seconds: Double
        func distance(to other: Self) -> Stride { Stride(other.seconds - seconds) }
        func advanced(by n: Stride) -> Self { Self(seconds: seconds + n.magnitude) }
    }
    typealias SchedulerOptions = Never

    private var queue: [(time: SchedulerTimeType, order: Int, action: () -> Void)] = []
    private var order = 0
    private(set) var now = SchedulerTimeType(seconds: 0)
    var minimumTolerance: SchedulerTimeType.Stride { .zero }

    func schedule(options: Never?, _ action: @escaping () -> Void) {
        schedule(after: now, tolerance: .zero, options: nil, action)
    }

    func schedule(after date: SchedulerTimeType, tolerance: SchedulerTimeType.Stride, options: Never?, _ action: @escaping () -> Void) {
        order += 1
        queue.append((date, order, action))
    }

    func schedule(after date: SchedulerTimeType, interval: SchedulerTimeType.Stride, tolerance: SchedulerTimeType.Stride,
                  options: Never?, _ action: @escaping () -> Void) -> any Cancellable {
        var cancelled = false
        func repeating(_ at: SchedulerTimeType) {
            schedule(after: at, tolerance: .zero, options: nil) {
                guard !cancelled else { return }
                action()
                repeating(at.advanced(by: interval))
            }
        }
        repeating(date)
        return AnyCancellable { cancelled = true }
    }

    /// Runs every action due up to `seconds` from the start, in time order, moving the clock to each.
    func advance(to seconds: Double) {
        while let next = queue.enumerated().filter({ $0.element.time.seconds <= seconds })
            .min(by: { ($0.element.time.seconds, $0.element.order) < ($1.element.time.seconds, $1.element.order) }) {
            queue.remove(at: next.offset)
            now = next.element.time
            next.element.action()
        }
        now = SchedulerTimeType(seconds: seconds)
    }
}

/// Runs the current run loop until the condition holds, at most 10 seconds (a bound, not a synchronisation).
func runLoop(until condition: () -> Bool) -> Bool {
    let deadline = Date().addingTimeInterval(10)
    while !condition() {
        if Date() > deadline { return false }
        _ = RunLoop.current.run(mode: .default, before: Date().addingTimeInterval(0.01))
    }
    return true
}
