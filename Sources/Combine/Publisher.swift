// Apple's Combine, for code shared between an app and its extensions: publishers, subscribers, demand and
// cancellation with Apple's names, generic constraints and Failure types. Rules every type here keeps, as Apple's
// do (https://developer.apple.com/documentation/combine/subscriber): a subscriber receives one subscription, then
// at most as many values as it requested, then at most one completion, and calls to it are never concurrent.
import Synchronization

/// Declares that a type can transmit a sequence of values over time.
public protocol Publisher<Output, Failure> {
    associatedtype Output
    associatedtype Failure: Error

    /// Attaches the subscriber: called by `subscribe(_:)`, which is what code calls.
    func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure
}

extension Publisher {
    /// Attaches the subscriber to this publisher.
    public func subscribe<S: Subscriber>(_ subscriber: S) where S.Input == Output, S.Failure == Failure {
        receive(subscriber: subscriber)
    }
}

/// A protocol that declares a type that can receive input from a publisher.
public protocol Subscriber<Input, Failure>: CustomCombineIdentifierConvertible {
    associatedtype Input
    associatedtype Failure: Error

    func receive(subscription: any Subscription)
    func receive(_ input: Input) -> Subscribers.Demand
    func receive(completion: Subscribers.Completion<Failure>)
}

/// A protocol representing the connection of a subscriber to a publisher.
public protocol Subscription: Cancellable, CustomCombineIdentifierConvertible {
    func request(_ demand: Subscribers.Demand)
}

/// A protocol indicating that an activity or action supports cancellation.
public protocol Cancellable {
    func cancel()
}

/// A unique identifier for identifying publisher streams.
public struct CombineIdentifier: Hashable, CustomStringConvertible, Sendable {
    private static let next = Atomic<UInt64>(1)
    private let value: UInt64

    public init() { value = Self.next.add(1, ordering: .relaxed).oldValue }
    public init(_ obj: AnyObject) { value = UInt64(UInt(bitPattern: ObjectIdentifier(obj).hashValue)) }

    public var description: String { "0x\(String(value, radix: 16))" }
}

/// A protocol for uniquely identifying publisher streams.
public protocol CustomCombineIdentifierConvertible {
    var combineIdentifier: CombineIdentifier { get }
}

extension CustomCombineIdentifierConvertible where Self: AnyObject {
    public var combineIdentifier: CombineIdentifier { CombineIdentifier(self) }
}

/// A type-erasing cancellable object that executes a provided closure when canceled, and cancels when it is
/// deinitialized: keeping it is what keeps a subscription alive.
public final class AnyCancellable: Cancellable, Hashable {
    /// Taken out once, so a second `cancel()` (or the one in `deinit`) does nothing.
    private let action: Locked<(() -> Void)?>

    public init(_ cancel: @escaping () -> Void) {
        action = Locked(cancel)
    }

    public init<C: Cancellable>(_ canceller: C) {
        action = Locked({ canceller.cancel() })
    }

    public func cancel() {
        action.withLock { action in
            defer { action = nil }
            return action
        }?()
    }

    deinit { cancel() }

    public static func == (lhs: AnyCancellable, rhs: AnyCancellable) -> Bool { lhs === rhs }
    public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }

    /// Stores this type-erasing cancellable instance in the specified collection.
    public func store<C: RangeReplaceableCollection>(in collection: inout C) where C.Element == AnyCancellable {
        collection.append(self)
    }

    /// Stores this type-erasing cancellable instance in the specified set.
    public func store(in set: inout Set<AnyCancellable>) {
        set.insert(self)
    }
}

extension Cancellable {
    /// Wraps this cancellable in an `AnyCancellable`.
    public func store<C: RangeReplaceableCollection>(in collection: inout C) where C.Element == AnyCancellable {
        AnyCancellable(self).store(in: &collection)
    }

    public func store(in set: inout Set<AnyCancellable>) {
        AnyCancellable(self).store(in: &set)
    }
}

/// State shared by the threads a publisher is used from, read and written only inside `withLock`, and never
/// while calling out to a subscriber (which may call back in).
/// @unchecked because the state is only reached through the mutex.
final class Locked<State>: @unchecked Sendable {
    private let mutex = Mutex(())
    private var state: State

    init(_ state: State) { self.state = state }

    func withLock<R>(_ body: (inout State) throws -> R) rethrows -> R {
        try mutex.withLock { _ in try body(&state) }
    }
}

/// Hands a value that is not `Sendable` to a scheduler's thread, for a publisher whose values the subscriber asked
/// to receive there (`receive(on:)`); Apple's Combine types are not `Sendable` either.
struct UnsafeTransfer<Value>: @unchecked Sendable {
    var value: Value
    init(_ value: Value) { self.value = value }
}

/// A namespace for types that serve as subscribers.
public enum Subscribers {}

/// A namespace for types that serve as publishers.
public enum Publishers {}

extension Subscribers {
    /// An event that indicates a publisher has finished, normally or with an error.
    public enum Completion<Failure: Error> {
        case finished
        case failure(Failure)
    }

    /// A requested number of items, sent to a publisher from a subscriber through the subscription.
    public struct Demand: Equatable, Comparable, Hashable, Codable, CustomStringConvertible, Sendable {
        /// The count; `UInt.max` is unlimited.
        let rawValue: UInt

        init(rawValue: UInt) { self.rawValue = rawValue }

        public static let unlimited = Demand(rawValue: .max)
        public static let none = Demand(rawValue: 0)

        /// A demand for the given number of items; it must not be negative.
        public static func max(_ value: Int) -> Demand {
            precondition(value >= 0, "demand cannot be negative")
            return Demand(rawValue: UInt(value))
        }

        /// The number of requested values, or nil when unlimited.
        public var max: Int? { self == .unlimited ? nil : Int(rawValue) }

        public var description: String { self == .unlimited ? "unlimited" : "max(\(rawValue))" }

        public static func + (lhs: Demand, rhs: Demand) -> Demand {
            if lhs == .unlimited || rhs == .unlimited { return .unlimited }
            let (sum, overflow) = lhs.rawValue.addingReportingOverflow(rhs.rawValue)
            return overflow || sum == .max ? .unlimited : Demand(rawValue: sum)
        }
        public static func + (lhs: Demand, rhs: Int) -> Demand {
            rhs < 0 ? lhs - .max(-rhs) : lhs + .max(rhs)
        }
        public static func += (lhs: inout Demand, rhs: Demand) { lhs = lhs + rhs }
        public static func += (lhs: inout Demand, rhs: Int) { lhs = lhs + rhs }

        /// Subtracting from unlimited leaves unlimited; a result below zero is none.
        public static func - (lhs: Demand, rhs: Demand) -> Demand {
            if lhs == .unlimited { return .unlimited }
            if rhs == .unlimited { return .none }
            return lhs.rawValue > rhs.rawValue ? Demand(rawValue: lhs.rawValue - rhs.rawValue) : .none
        }
        public static func - (lhs: Demand, rhs: Int) -> Demand {
            rhs < 0 ? lhs + .max(-rhs) : lhs - .max(rhs)
        }
        public static func -= (lhs: inout Demand, rhs: Demand) { lhs = lhs - rhs }
        public static func -= (lhs: inout Demand, rhs: Int) { lhs = lhs - rhs }

        public static func * (lhs: Demand, rhs: Int) -> Demand {
            precondition(rhs >= 0, "demand cannot be negative")
            if lhs == .unlimited { return .unlimited }
            let (product, overflow) = lhs.rawValue.multipliedReportingOverflow(by: UInt(rhs))
            return overflow || product == .max ? .unlimited : Demand(rawValue: product)
        }
        public static func *= (lhs: inout Demand, rhs: Int) { lhs = lhs * rhs }

        public static func < (lhs: Demand, rhs: Demand) -> Bool { lhs.rawValue < rhs.rawValue }

        public static func == (lhs: Demand, rhs: Int) -> Bool { lhs != .unlimited && rhs >= 0 && lhs.rawValue == UInt(rhs) }
        public static func != (lhs: Demand, rhs: Int) -> Bool { !(lhs == rhs) }
        public static func == (lhs: Int, rhs: Demand) -> Bool { rhs == lhs }
        public static func != (lhs: Int, rhs: Demand) -> Bool { !(rhs == lhs) }
        public static func < (lhs: Demand, rhs: Int) -> Bool { rhs >= 0 && lhs < .max(rhs) }
        public static func > (lhs: Demand, rhs: Int) -> Bool { rhs < 0 || lhs > .max(rhs) }
        public static func <= (lhs: Demand, rhs: Int) -> Bool { !(lhs > rhs) }
        public static func >= (lhs: Demand, rhs: Int) -> Bool { !(lhs < rhs) }
        public static func < (lhs: Int, rhs: Demand) -> Bool { rhs > lhs }
        public static func > (lhs: Int, rhs: Demand) -> Bool { rhs < lhs }
        public static func <= (lhs: Int, rhs: Demand) -> Bool { rhs >= lhs }
        public static func >= (lhs: Int, rhs: Demand) -> Bool { rhs <= lhs }
    }
}

extension Subscribers.Completion: Equatable where Failure: Equatable {}
extension Subscribers.Completion: Hashable where Failure: Hashable {}
extension Subscribers.Completion: Sendable where Failure: Sendable {}

/// A namespace for symbols related to subscriptions.
public enum Subscriptions {
    /// The subscription of a publisher that has nothing to send: requests and cancellation do nothing.
    public static var empty: any Subscription { EmptySubscription() }
}

struct EmptySubscription: Subscription {
    let combineIdentifier = CombineIdentifier()
    func request(_ demand: Subscribers.Demand) {}
    func cancel() {}
}
