import Foundation

/// A type an intent parameter may have (Apple's `_IntentValue`): Lockstep reads it from the text the command line
/// or a request gives.
public protocol IntentValue {
    /// How `list` names the type.
    static var typeName: String { get }
    /// The value of `text`, or nil when it is not one.
    static func parse(_ text: String) -> Self?
}

extension String: IntentValue {
    public static var typeName: String { "text" }
    public static func parse(_ text: String) -> String? { text.isEmpty ? nil : text }
}

extension Int: IntentValue {
    public static var typeName: String { "integer" }
    public static func parse(_ text: String) -> Int? { Int(text) }
}

extension Double: IntentValue {
    public static var typeName: String { "number" }
    public static func parse(_ text: String) -> Double? {
        guard let value = Double(text), value.isFinite else { return nil }
        return value
    }
}

extension Bool: IntentValue {
    public static var typeName: String { "true/false" }
    public static func parse(_ text: String) -> Bool? { ["true": true, "false": false, "yes": true, "no": false][text.lowercased()] }
}

extension Date: IntentValue {
    public static var typeName: String { "date (ISO 8601)" }
    public static func parse(_ text: String) -> Date? { ISO8601DateFormatter().date(from: text) }
}

extension URL: IntentValue {
    public static var typeName: String { "URL" }
    public static func parse(_ text: String) -> URL? { text.isEmpty ? nil : URL(string: text) }
}

/// A typed intent parameter, as Apple declares it: `@Parameter(title: "Habit") var habit: String`,
/// `@Parameter(title: "Amount", default: 1) var amount: Double`, `@Parameter(title: "Note") var note: String?`, or an
/// `AppEntity` resolved through its query.
@propertyWrapper
public final class IntentParameter<Value>: @unchecked Sendable {  // @unchecked: set once, while resolving, before perform().
    public let title: LocalizedStringResource
    public let description: LocalizedStringResource?
    private var value: Value?
    /// What a parameter that is not given becomes; nil: it is required.
    private let fallback: (() -> Value)?
    /// Text to value; nil when the text is not one. Set by the initializer that knows `Value`.
    let parse: (String) throws -> Value?
    let typeName: String

    public init(title: LocalizedStringResource, description: LocalizedStringResource? = nil) where Value: IntentValue {
        self.title = title
        self.description = description
        fallback = nil
        parse = { Value.parse($0) }
        typeName = Value.typeName
    }

    public init(title: LocalizedStringResource, description: LocalizedStringResource? = nil, default defaultValue: Value) where Value: IntentValue {
        self.title = title
        self.description = description
        fallback = { defaultValue }
        parse = { Value.parse($0) }
        typeName = Value.typeName
    }

    /// An optional parameter: nil when not given.
    public init<Wrapped: IntentValue>(title: LocalizedStringResource, description: LocalizedStringResource? = nil) where Value == Wrapped? {
        self.title = title
        self.description = description
        fallback = { nil }
        parse = { Wrapped.parse($0) }
        typeName = Wrapped.typeName
    }

    /// A parameter that names an entity: the text is its identifier, looked up with the entity's `defaultQuery`.
    public init(title: LocalizedStringResource, description: LocalizedStringResource? = nil) where Value: AppEntity {
        self.title = title
        self.description = description
        fallback = nil
        parse = { text in try EntityLookup.entity(Value.self, identifier: text) }
        typeName = "\(Value.typeDisplayRepresentation.name) id"
    }

    public var wrappedValue: Value {
        get {
            guard let value else { preconditionFailure("The parameter '\(title)' was read before it was resolved.") }
            return value
        }
        set { value = newValue }
    }

    /// `$habit`: the parameter itself.
    public var projectedValue: IntentParameter<Value> { self }
}

public typealias Parameter = IntentParameter

/// What resolution needs from any `IntentParameter`, whatever its value type.
protocol AnyIntentParameter: AnyObject {
    var title: LocalizedStringResource { get }
    var typeName: String { get }
    var isRequired: Bool { get }
    func resolve(_ text: String?) throws -> Bool
    /// The value as the command-line text that resolves to it again; nil while it has none.
    var argumentText: String? { get }
}

extension IntentParameter: AnyIntentParameter {
    var isRequired: Bool { fallback == nil }

    var argumentText: String? { value.flatMap { ArgumentText.of($0) } }

    /// Sets the value from `text` (nil: not given); false when the text is not a value of the type, or a required
    /// parameter is missing.
    func resolve(_ text: String?) throws -> Bool {
        guard let text else {
            guard let fallback else { return false }
            value = fallback()
            return true
        }
        guard let parsed = try parse(text) else { return false }
        value = parsed
        return true
    }
}

/// A parameter value as the text `parse` takes back: an entity by its identifier, a date in ISO 8601, `2` for 2.0.
enum ArgumentText {
    static func of(_ value: Any) -> String? {
        switch value {
        case let entity as any AppEntity: return entity.id.entityIdentifierString
        case let date as Date: return ISO8601DateFormatter().string(from: date)
        case let url as URL: return url.absoluteString
        case let number as Double: return number == number.rounded() && abs(number) < 1e15 ? String(Int(number)) : String(number)
        default:
            let mirror = Mirror(reflecting: value)
            if mirror.displayStyle == .optional { return mirror.children.first.flatMap { of($0.value) } }
            return "\(value)"
        }
    }
}

// MARK: - entities

/// Something of the app a parameter can name (Apple's `AppEntity`), found by its identifier through a query.
public protocol AppEntity: Identifiable, Sendable where ID: EntityIdentifierConvertible {
    static var typeDisplayRepresentation: TypeDisplayRepresentation { get }
    var displayRepresentation: DisplayRepresentation { get }
    associatedtype DefaultQuery: EntityQuery where DefaultQuery.Entity == Self
    static var defaultQuery: DefaultQuery { get }
}

/// How the system finds entities (Apple's `EntityQuery`).
public protocol EntityQuery: Sendable {
    associatedtype Entity: AppEntity
    init()
    func entities(for identifiers: [Entity.ID]) async throws -> [Entity]
    func suggestedEntities() async throws -> [Entity]
}

extension EntityQuery {
    public func suggestedEntities() async throws -> [Entity] { [] }
}

/// An identifier type an entity may have (Apple's `EntityIdentifierConvertible`).
public protocol EntityIdentifierConvertible {
    var entityIdentifierString: String { get }
    static func entityIdentifier(for entityIdentifierString: String) -> Self?
}

extension String: EntityIdentifierConvertible {
    public var entityIdentifierString: String { self }
    public static func entityIdentifier(for entityIdentifierString: String) -> String? { entityIdentifierString }
}

extension Int: EntityIdentifierConvertible {
    public var entityIdentifierString: String { String(self) }
    public static func entityIdentifier(for entityIdentifierString: String) -> Int? { Int(entityIdentifierString) }
}

extension UUID: EntityIdentifierConvertible {
    public var entityIdentifierString: String { uuidString }
    public static func entityIdentifier(for entityIdentifierString: String) -> UUID? { UUID(uuidString: entityIdentifierString) }
}

enum EntityLookup {
    /// The entity whose identifier is `text`, from `Entity.defaultQuery`; nil when there is none.
    static func entity<Entity: AppEntity>(_ type: Entity.Type, identifier text: String) throws -> Entity? {
        guard let id = Entity.ID.entityIdentifier(for: text) else { return nil }
        let query = Entity.defaultQuery
        return try IntentExecution.run { try await query.entities(for: [id]).first }
    }
}

/// Runs async code to completion from synchronous code, as the simulated system waits for an intent or a provider
/// (WidgetKit's configurable widgets use it too).
///
/// The work runs on a task whose executor is a dispatch queue of its own, never the cooperative pool: a caller that
/// is itself on the pool (a test) and blocks there could otherwise starve the task it waits for. On the main thread
/// the wait runs the main run loop, so an intent whose `perform()` is `@MainActor`, as iOS code often is, can run.
public enum IntentExecution {
    static let executor = QueueExecutor()

    /// Runs `body` to its end and returns its result.
    public static func run<T>(_ body: @escaping () async throws -> T) throws -> T {
        let box = ResultBox<T>(body)
        let done = DispatchSemaphore(value: 0)
        Task(executorPreference: executor) {
            await box.run()
            done.signal()
        }
        if Thread.isMainThread {
            while done.wait(timeout: .now()) == .timedOut {
                _ = RunLoop.main.run(mode: .default, before: Date(timeIntervalSinceNow: 0.05))
            }
        } else {
            done.wait()
        }
        return try box.result!.get()
    }
}

/// A task executor on a concurrent dispatch queue (its threads are not the cooperative pool's).
final class QueueExecutor: TaskExecutor, @unchecked Sendable {  // @unchecked: the queue is thread-safe.
    private let queue = DispatchQueue(label: "lockstep.appintents.perform", attributes: .concurrent)

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedTaskExecutor()
        queue.async { job.runSynchronously(on: executor) }
    }
}

/// The work and its result, handed to a task and back.
final class ResultBox<T>: @unchecked Sendable {  // @unchecked: written once by the task, read after the semaphore.
    private let body: () async throws -> T
    var result: Result<T, any Error>?

    init(_ body: @escaping () async throws -> T) { self.body = body }

    func run() async {
        do { result = .success(try await body()) } catch { result = .failure(error) }
    }
}
