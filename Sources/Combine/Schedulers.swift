import Foundation

// The schedulers Foundation's types are on a device: a dispatch queue and a run loop. `receive(on:)`, `debounce`
// and `throttle` take either.

extension DispatchQueue: Scheduler {
    /// The scheduler time type used by the dispatch queue.
    public struct SchedulerTimeType: Strideable, Codable, Hashable, Sendable {
        public var dispatchTime: DispatchTime

        public init(_ time: DispatchTime) { dispatchTime = time }

        public func distance(to other: SchedulerTimeType) -> Stride {
            Stride(.nanoseconds(Int(Int64(bitPattern: other.dispatchTime.uptimeNanoseconds &- dispatchTime.uptimeNanoseconds))))
        }

        public func advanced(by n: Stride) -> SchedulerTimeType {
            SchedulerTimeType(DispatchTime(uptimeNanoseconds: UInt64(max(0, Int64(dispatchTime.uptimeNanoseconds) + Int64(n.magnitude)))))
        }

        public init(from decoder: any Decoder) throws {
            dispatchTime = DispatchTime(uptimeNanoseconds: try decoder.singleValueContainer().decode(UInt64.self))
        }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            try container.encode(dispatchTime.uptimeNanoseconds)
        }

        public static func == (lhs: Self, rhs: Self) -> Bool { lhs.dispatchTime == rhs.dispatchTime }
        public func hash(into hasher: inout Hasher) { hasher.combine(dispatchTime.uptimeNanoseconds) }

        /// A span of dispatch time, in nanoseconds.
        public struct Stride: SchedulerTimeIntervalConvertible, Comparable, SignedNumeric, ExpressibleByFloatLiteral,
            Hashable, Codable, Sendable {
            /// The nanoseconds.
            public var magnitude: Int

            public init(_ timeInterval: DispatchTimeInterval) {
                switch timeInterval {
                case .seconds(let s): magnitude = s &* 1_000_000_000
                case .milliseconds(let ms): magnitude = ms &* 1_000_000
                case .microseconds(let us): magnitude = us &* 1_000
                case .nanoseconds(let ns): magnitude = ns
                case .never: magnitude = .max
                @unknown default: magnitude = .max
                }
            }
            public init(floatLiteral value: Double) { magnitude = Int(value * 1_000_000_000) }
            public init(integerLiteral value: Int) { magnitude = value &* 1_000_000_000 }
            public init?<T: BinaryInteger>(exactly source: T) {
                guard let value = Int(exactly: source) else { return nil }
                magnitude = value &* 1_000_000_000
            }

            public var timeInterval: DispatchTimeInterval { .nanoseconds(magnitude) }

            public static func < (lhs: Self, rhs: Self) -> Bool { lhs.magnitude < rhs.magnitude }
            public static func + (lhs: Self, rhs: Self) -> Self { .nanoseconds(lhs.magnitude + rhs.magnitude) }
            public static func - (lhs: Self, rhs: Self) -> Self { .nanoseconds(lhs.magnitude - rhs.magnitude) }
            public static func * (lhs: Self, rhs: Self) -> Self { .nanoseconds(lhs.magnitude * rhs.magnitude / 1_000_000_000) }
            public static func += (lhs: inout Self, rhs: Self) { lhs = lhs + rhs }
            public static func -= (lhs: inout Self, rhs: Self) { lhs = lhs - rhs }
            public static func *= (lhs: inout Self, rhs: Self) { lhs = lhs * rhs }

            public static func seconds(_ s: Int) -> Self { Self(.seconds(s)) }
            public static func seconds(_ s: Double) -> Self { Self(.nanoseconds(Int(s * 1_000_000_000))) }
            public static func milliseconds(_ ms: Int) -> Self { Self(.milliseconds(ms)) }
            public static func microseconds(_ us: Int) -> Self { Self(.microseconds(us)) }
            public static func nanoseconds(_ ns: Int) -> Self { Self(.nanoseconds(ns)) }
        }
    }

    /// Options that affect the operation of the dispatch queue scheduler.
    public struct SchedulerOptions {
        public var qos: DispatchQoS
        public var flags: DispatchWorkItemFlags
        public var group: DispatchGroup?

        public init(qos: DispatchQoS = .unspecified, flags: DispatchWorkItemFlags = [], group: DispatchGroup? = nil) {
            self.qos = qos
            self.flags = flags
            self.group = group
        }
    }

    public var now: SchedulerTimeType { SchedulerTimeType(.now()) }
    public var minimumTolerance: SchedulerTimeType.Stride { .nanoseconds(0) }

    public func schedule(options: SchedulerOptions?, _ action: @escaping () -> Void) {
        // The action is the subscriber's: Combine's values are not Sendable, and the queue is where the
        // subscriber asked to receive them.
        let action = UnsafeTransfer(action)
        async(group: options?.group, qos: options?.qos ?? .unspecified, flags: options?.flags ?? []) { action.value() }
    }

    public func schedule(after date: SchedulerTimeType, tolerance: SchedulerTimeType.Stride, options: SchedulerOptions?,
                         _ action: @escaping () -> Void) {
        let action = UnsafeTransfer(action)
        asyncAfter(deadline: date.dispatchTime, qos: options?.qos ?? .unspecified, flags: options?.flags ?? []) { action.value() }
    }

    public func schedule(after date: SchedulerTimeType, interval: SchedulerTimeType.Stride, tolerance: SchedulerTimeType.Stride,
                         options: SchedulerOptions?, _ action: @escaping () -> Void) -> any Cancellable {
        let action = UnsafeTransfer(action)
        let timer = DispatchSource.makeTimerSource(queue: self)
        timer.setEventHandler { action.value() }
        timer.schedule(deadline: date.dispatchTime, repeating: interval.timeInterval, leeway: tolerance.timeInterval)
        timer.resume()
        return AnyCancellable { timer.cancel() }
    }
}

extension RunLoop: Scheduler {
    /// The scheduler time type used by the run loop.
    public struct SchedulerTimeType: Strideable, Codable, Hashable, Sendable {
        public var date: Date

        public init(_ date: Date) { self.date = date }

        public func distance(to other: SchedulerTimeType) -> Stride { Stride(other.date.timeIntervalSince(date)) }
        public func advanced(by n: Stride) -> SchedulerTimeType { SchedulerTimeType(date.addingTimeInterval(n.magnitude)) }
    }

    /// Options that affect the operation of the run loop scheduler.
    public struct SchedulerOptions: Sendable {}

    public var now: SchedulerTimeType { SchedulerTimeType(Date()) }
    public var minimumTolerance: SchedulerTimeType.Stride { .zero }

    // A run loop runs its work only while it runs. The main run loop's work goes to the main dispatch queue, on the
    // same thread: Linux's main run loop serves that queue while it runs, and so does `dispatchMain()`, which is
    // how `AppProcess.main` keeps an app's process alive — where work added to the run loop itself never ran.

    /// The main queue standing in for the main run loop, or nil for any other run loop.
    private var mainQueue: DispatchQueue? { self === RunLoop.main ? DispatchQueue.main : nil }

    private static func dispatchTime(_ date: SchedulerTimeType) -> DispatchQueue.SchedulerTimeType {
        DispatchQueue.SchedulerTimeType(.now() + max(0, date.date.timeIntervalSinceNow))
    }

    public func schedule(options: SchedulerOptions?, _ action: @escaping () -> Void) {
        if let mainQueue { return mainQueue.schedule(action) }
        let action = UnsafeTransfer(action)
        perform { action.value() }
    }

    public func schedule(after date: SchedulerTimeType, tolerance: SchedulerTimeType.Stride, options: SchedulerOptions?,
                         _ action: @escaping () -> Void) {
        if let mainQueue { return mainQueue.schedule(after: Self.dispatchTime(date), action) }
        let action = UnsafeTransfer(action)
        let timer = Timer(fire: date.date, interval: 0, repeats: false) { _ in action.value() }
        timer.tolerance = tolerance.magnitude
        add(timer, forMode: .default)
    }

    public func schedule(after date: SchedulerTimeType, interval: SchedulerTimeType.Stride, tolerance: SchedulerTimeType.Stride,
                         options: SchedulerOptions?, _ action: @escaping () -> Void) -> any Cancellable {
        if let mainQueue {
            return mainQueue.schedule(after: Self.dispatchTime(date), interval: .seconds(interval.magnitude),
                                      tolerance: .seconds(tolerance.magnitude), action)
        }
        let action = UnsafeTransfer(action)
        let timer = Timer(fire: date.date, interval: interval.magnitude, repeats: true) { _ in action.value() }
        timer.tolerance = tolerance.magnitude
        add(timer, forMode: .default)
        return AnyCancellable { timer.invalidate() }
    }
}
