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

    /// What the Shortcuts app asks with, and the other presentation settings Apple's initializers take: kept, not shown.
    public let requestValueDialog: IntentDialog?
    /// Where the parameter's options come from (`optionsProvider:`), if anywhere.
    let optionsProvider: (any DynamicOptionsProvider)?
    /// An entity parameter's options without a provider: its query's `suggestedEntities()`, as lines.
    let suggestions: (() throws -> [String])?

    private init(title: LocalizedStringResource, description: LocalizedStringResource?, fallback: (() -> Value)?,
                 parse: @escaping (String) throws -> Value?, typeName: String, requestValueDialog: IntentDialog?,
                 optionsProvider: (any DynamicOptionsProvider)?, suggestions: (() throws -> [String])? = nil) {
        self.title = title
        self.description = description
        self.fallback = fallback
        self.parse = parse
        self.typeName = typeName
        self.requestValueDialog = requestValueDialog
        self.optionsProvider = optionsProvider
        self.suggestions = suggestions
    }

    /// `@Parameter(title:)`, `@Parameter(title:default:)` and the labels Apple's overloads add: a value read from text
    /// (text, numbers, booleans, dates, URLs, an `AppEnum`). Without a default the parameter is required.
    public convenience init(title: LocalizedStringResource, description: LocalizedStringResource? = nil, default defaultValue: Value? = nil,
                            controlStyle: IntentParameterControlStyle = .automatic, inclusiveRange: (Value, Value)? = nil,
                            inputOptions: String.IntentInputOptions? = nil, requestValueDialog: IntentDialog? = nil,
                            requestDisambiguationDialog: IntentDialog? = nil,
                            inputConnectionBehavior: InputConnectionBehavior = .default) where Value: IntentValue {
        self.init(title: title, description: description, fallback: defaultValue.map { value in { value } },
                  parse: { Value.parse($0) }, typeName: Value.typeName, requestValueDialog: requestValueDialog, optionsProvider: nil)
    }

    /// As above, with the options the Shortcuts app offers coming from `optionsProvider`.
    public convenience init<Provider: DynamicOptionsProvider>(
        title: LocalizedStringResource, description: LocalizedStringResource? = nil, default defaultValue: Value? = nil,
        optionsProvider: Provider, requestValueDialog: IntentDialog? = nil, requestDisambiguationDialog: IntentDialog? = nil,
        inputConnectionBehavior: InputConnectionBehavior = .default
    ) where Value: IntentValue {
        self.init(title: title, description: description, fallback: defaultValue.map { value in { value } },
                  parse: { Value.parse($0) }, typeName: Value.typeName, requestValueDialog: requestValueDialog, optionsProvider: optionsProvider)
    }

    /// An optional parameter: nil when not given (or its default).
    public convenience init<Wrapped: IntentValue>(
        title: LocalizedStringResource, description: LocalizedStringResource? = nil, default defaultValue: Wrapped? = nil,
        controlStyle: IntentParameterControlStyle = .automatic, inclusiveRange: (Wrapped, Wrapped)? = nil,
        inputOptions: String.IntentInputOptions? = nil, requestValueDialog: IntentDialog? = nil,
        requestDisambiguationDialog: IntentDialog? = nil, inputConnectionBehavior: InputConnectionBehavior = .default
    ) where Value == Wrapped? {
        self.init(title: title, description: description, fallback: { defaultValue }, parse: { Wrapped.parse($0) },
                  typeName: Wrapped.typeName, requestValueDialog: requestValueDialog, optionsProvider: nil)
    }

    public convenience init<Wrapped: IntentValue, Provider: DynamicOptionsProvider>(
        title: LocalizedStringResource, description: LocalizedStringResource? = nil, default defaultValue: Wrapped? = nil,
        optionsProvider: Provider, requestValueDialog: IntentDialog? = nil, requestDisambiguationDialog: IntentDialog? = nil,
        inputConnectionBehavior: InputConnectionBehavior = .default
    ) where Value == Wrapped? {
        self.init(title: title, description: description, fallback: { defaultValue }, parse: { Wrapped.parse($0) },
                  typeName: Wrapped.typeName, requestValueDialog: requestValueDialog, optionsProvider: optionsProvider)
    }

    /// A parameter that names an entity: the text is its identifier, looked up with the entity's `defaultQuery` (or,
    /// for an `EntityStringQuery`, text it matches).
    public convenience init(title: LocalizedStringResource, description: LocalizedStringResource? = nil, default defaultValue: Value? = nil,
                            requestValueDialog: IntentDialog? = nil, requestDisambiguationDialog: IntentDialog? = nil,
                            inputConnectionBehavior: InputConnectionBehavior = .default) where Value: AppEntity {
        self.init(title: title, description: description, fallback: defaultValue.map { value in { value } },
                  parse: { text in try EntityLookup.entity(Value.self, identifier: text) },
                  typeName: "\(Value.typeDisplayRepresentation.name) id", requestValueDialog: requestValueDialog, optionsProvider: nil,
                  suggestions: { try EntityLookup.suggestionLines(Value.self) })
    }

    public convenience init<Provider: DynamicOptionsProvider>(
        title: LocalizedStringResource, description: LocalizedStringResource? = nil, default defaultValue: Value? = nil,
        optionsProvider: Provider, requestValueDialog: IntentDialog? = nil, requestDisambiguationDialog: IntentDialog? = nil,
        inputConnectionBehavior: InputConnectionBehavior = .default
    ) where Value: AppEntity {
        self.init(title: title, description: description, fallback: defaultValue.map { value in { value } },
                  parse: { text in try EntityLookup.entity(Value.self, identifier: text) },
                  typeName: "\(Value.typeDisplayRepresentation.name) id", requestValueDialog: requestValueDialog, optionsProvider: optionsProvider)
    }

    /// An optional entity parameter (a configurable widget's "choose a habit", unset at first): nil when not given.
    public convenience init<Wrapped: AppEntity>(
        title: LocalizedStringResource, description: LocalizedStringResource? = nil, default defaultValue: Wrapped? = nil,
        requestValueDialog: IntentDialog? = nil, requestDisambiguationDialog: IntentDialog? = nil,
        inputConnectionBehavior: InputConnectionBehavior = .default
    ) where Value == Wrapped? {
        self.init(title: title, description: description, fallback: { defaultValue },
                  parse: { text in try EntityLookup.entity(Wrapped.self, identifier: text).map { Optional($0) } },
                  typeName: "\(Wrapped.typeDisplayRepresentation.name) id", requestValueDialog: requestValueDialog, optionsProvider: nil,
                  suggestions: { try EntityLookup.suggestionLines(Wrapped.self) })
    }

    public convenience init<Wrapped: AppEntity, Provider: DynamicOptionsProvider>(
        title: LocalizedStringResource, description: LocalizedStringResource? = nil, default defaultValue: Wrapped? = nil,
        optionsProvider: Provider, requestValueDialog: IntentDialog? = nil, requestDisambiguationDialog: IntentDialog? = nil,
        inputConnectionBehavior: InputConnectionBehavior = .default
    ) where Value == Wrapped? {
        self.init(title: title, description: description, fallback: { defaultValue },
                  parse: { text in try EntityLookup.entity(Wrapped.self, identifier: text).map { Optional($0) } },
                  typeName: "\(Wrapped.typeDisplayRepresentation.name) id", requestValueDialog: requestValueDialog, optionsProvider: optionsProvider)
    }

    public var wrappedValue: Value {
        get {
            guard let value else { preconditionFailure("The parameter '\(title)' was read before it was resolved.") }
            return value
        }
        set { value = newValue }
    }

    /// A list of entities (`[Trail]`, or `[Trail]?`): the text is their identifiers, comma-separated; `size` bounds
    /// how many.
    public convenience init<Element: AppEntity>(
        title: LocalizedStringResource, description: LocalizedStringResource? = nil, default defaultValue: [Element]? = nil,
        size: IntentCollectionSize? = nil, requestValueDialog: IntentDialog? = nil, inputConnectionBehavior: InputConnectionBehavior = .default
    ) where Value == [Element] {
        self.init(list: Element.self, title: title, description: description, fallback: defaultValue.map { value in { value } },
                  bounds: ListBounds(size: size), requestValueDialog: requestValueDialog, wrap: { $0 })
    }

    public convenience init<Element: AppEntity>(
        title: LocalizedStringResource, description: LocalizedStringResource? = nil, default defaultValue: [Element]? = nil,
        size: IntentCollectionSize? = nil, requestValueDialog: IntentDialog? = nil, inputConnectionBehavior: InputConnectionBehavior = .default
    ) where Value == [Element]? {
        self.init(list: Element.self, title: title, description: description, fallback: { defaultValue },
                  bounds: ListBounds(size: size), requestValueDialog: requestValueDialog, wrap: { $0 })
    }

    /// A list with a size per widget family: `size: [.systemSmall: 1, .systemLarge: 4]`.
    public convenience init<Element: AppEntity>(
        title: LocalizedStringResource, description: LocalizedStringResource? = nil, default defaultValue: [Element]? = nil,
        size: [IntentWidgetFamily: IntentCollectionSize], inputConnectionBehavior: InputConnectionBehavior = .default
    ) where Value == [Element] {
        self.init(list: Element.self, title: title, description: description, fallback: defaultValue.map { value in { value } },
                  bounds: ListBounds(perFamily: size), requestValueDialog: nil, wrap: { $0 })
    }

    public convenience init<Element: AppEntity>(
        title: LocalizedStringResource, description: LocalizedStringResource? = nil, default defaultValue: [Element]? = nil,
        size: [IntentWidgetFamily: IntentCollectionSize], inputConnectionBehavior: InputConnectionBehavior = .default
    ) where Value == [Element]? {
        self.init(list: Element.self, title: title, description: description, fallback: { defaultValue },
                  bounds: ListBounds(perFamily: size), requestValueDialog: nil, wrap: { $0 })
    }

    /// The list initializers' one body: identifiers in, entities out, within `bounds`.
    private convenience init<Element: AppEntity>(list element: Element.Type, title: LocalizedStringResource, description: LocalizedStringResource?,
                                                 fallback: (() -> Value)?, bounds: ListBounds, requestValueDialog: IntentDialog?,
                                                 wrap: @escaping ([Element]) -> Value) {
        self.init(title: title, description: description, fallback: fallback,
                  parse: { text in try EntityLookup.entities(Element.self, identifiers: text, within: bounds).map(wrap) },
                  typeName: EntityLookup.listTypeName(Element.self, within: bounds), requestValueDialog: requestValueDialog,
                  optionsProvider: nil, suggestions: { try EntityLookup.suggestionLines(Element.self) })
    }

    /// The value, or nil before it is resolved.
    var currentValue: Value? { value }

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
    /// The options offered for it, as the `options` command prints them; nil when it offers none (free text).
    func optionLines() throws -> [String]?
}

extension IntentParameter: AnyIntentParameter {
    var isRequired: Bool { fallback == nil }

    var argumentText: String? { value.flatMap { ArgumentText.of($0) } }

    func optionLines() throws -> [String]? {
        if let optionsProvider { return try OptionText.lines(of: optionsProvider) }
        if let suggestions { return try suggestions() }
        if let enumType = Value.self as? any AppEnum.Type { return OptionText.lines(of: enumType) }
        return nil
    }

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
        case let enumCase as any AppEnum: return "\(enumCase.rawValue)"
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
public protocol AppEntity: Identifiable, Sendable, CustomLocalizedStringResourceConvertible where ID: EntityIdentifierConvertible {
    static var typeDisplayRepresentation: TypeDisplayRepresentation { get }
    var displayRepresentation: DisplayRepresentation { get }
    associatedtype DefaultQuery: EntityQuery where DefaultQuery.Entity == Self
    static var defaultQuery: DefaultQuery { get }
}

extension AppEntity {
    /// How an entity reads in a dialog or phrase: its display title.
    public var localizedStringResource: LocalizedStringResource { displayRepresentation.title }
}

/// How the system finds entities (Apple's `EntityQuery`).
public protocol EntityQuery: Sendable {
    associatedtype Entity: AppEntity
    /// What `suggestedEntities()` returns: the entities, or an `IntentItemCollection` of them in sections.
    associatedtype Result: ResultsCollection = [Entity] where Result.Result == Entity
    init()
    func entities(for identifiers: [Entity.ID]) async throws -> [Entity]
    func suggestedEntities() async throws -> Result
}

extension EntityQuery where Result == [Entity] {
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
        let query = Entity.defaultQuery
        if let id = Entity.ID.entityIdentifier(for: text), let found = try IntentExecution.run({ try await query.entities(for: [id]).first }) {
            return found
        }
        // An `EntityStringQuery` also finds an entity by text it matches, as Siri does with what the person says.
        guard let stringQuery = query as? any EntityStringQuery else { return nil }
        return try matching(stringQuery, text) as? Entity
    }

    /// A list parameter's type as `list` shows it.
    static func listTypeName<Entity: AppEntity>(_ type: Entity.Type, within bounds: ListBounds) -> String {
        "\(Entity.typeDisplayRepresentation.name) ids, comma-separated" + (bounds.text.map { ", \($0)" } ?? "")
    }

    /// The entities whose identifiers `text` lists, comma-separated; nil when one of them is not found.
    /// - Throws: `IntentError.invalidParameter` for a count outside `bounds` (`@Parameter(title:size:)`: the Shortcuts
    ///   app and a widget's configuration let a person pick no fewer and no more).
    static func entities<Entity: AppEntity>(_ type: Entity.Type, identifiers text: String, within bounds: ListBounds = ListBounds()) throws -> [Entity]? {
        let count = text.split(separator: ",").filter { !$0.trimmingCharacters(in: .whitespaces).isEmpty }.count
        if !bounds.accepts(count), let allowed = bounds.text {
            throw IntentError(.invalidParameter, subject: text, detail: "it names \(count) \(Entity.typeDisplayRepresentation.name) entities and the parameter takes \(allowed)")
        }
        var found: [Entity] = []
        for identifier in text.split(separator: ",").map({ $0.trimmingCharacters(in: .whitespaces) }) where !identifier.isEmpty {
            guard let entity = try entity(Entity.self, identifier: identifier) else { return nil }
            found.append(entity)
        }
        return found
    }

    /// The entities the query suggests, as (title, identifier): what an App Shortcut's phrase is said with.
    static func suggested<Entity: AppEntity>(_ type: Entity.Type) throws -> [(title: String, argument: String)] {
        let query = Entity.defaultQuery
        return try IntentExecution.run { try await query.suggestedEntities().items }
            .map { ($0.displayRepresentation.title.description, $0.id.entityIdentifierString) }
    }

    /// The entities the query suggests, as the `options` command prints them (its sections and prompt, if any).
    static func suggestionLines<Entity: AppEntity>(_ type: Entity.Type) throws -> [String] {
        let query = Entity.defaultQuery
        return OptionText.lines(try IntentExecution.run { try await query.suggestedEntities() })
    }

    private static func matching<Query: EntityStringQuery>(_ query: Query, _ text: String) throws -> Query.Entity? {
        let found = try IntentExecution.run { try await query.entities(matching: text) }
        return found.count == 1 ? found[0] : nil
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
        let waitsOnMainThread = Thread.isMainThread
        Task(executorPreference: executor) {
            await box.run()
            done.signal()
            // The semaphore does not wake the main run loop the waiter runs: an empty block on the main queue does,
            // so the wait ends now instead of at the end of its 50 ms step (a widget's first timeline waited it out).
            if waitsOnMainThread { DispatchQueue.main.async {} }
        }
        if waitsOnMainThread {
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
