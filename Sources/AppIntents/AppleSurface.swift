import Foundation
import Synchronization

// The rest of Apple's App Intents surface real intents lean on, shaped as Apple declares it. What has no behaviour a
// Linux process can give (a snippet's view, predictions shown by Siri, the authentication a locked device asks for) is
// accepted and kept, so the code compiles and runs unchanged; each says what Lockstep does with it.

// MARK: - enums

/// A fixed set of values a parameter may take (Apple's `AppEnum`): a `String`-backed enum with a display name for its
/// type and for each case. From the command line a case is given by its raw value or its display title.
public protocol AppEnum: IntentValue, RawRepresentable, CaseIterable, Hashable, Sendable, CustomLocalizedStringResourceConvertible
where RawValue: LosslessStringConvertible {
    static var typeDisplayRepresentation: TypeDisplayRepresentation { get }
    static var caseDisplayRepresentations: [Self: DisplayRepresentation] { get }
}

extension AppEnum {
    public static var typeName: String {
        "\(typeDisplayRepresentation.name) (\(allCases.map { "\($0.rawValue)" }.joined(separator: ", ")))"
    }

    public static func parse(_ text: String) -> Self? {
        if let raw = RawValue(text), let value = Self(rawValue: raw) { return value }
        return allCases.first { caseDisplayRepresentations[$0]?.title.description.lowercased() == text.lowercased() }
    }

    /// How a case is shown.
    public var localizedStringResource: LocalizedStringResource {
        Self.caseDisplayRepresentations[self]?.title ?? LocalizedStringResource("\(rawValue)")
    }
}

/// The name real code sometimes gives a case's representation.
public typealias CaseDisplayRepresentation = DisplayRepresentation

// MARK: - parameter presentation

/// How a parameter's value is connected to the previous action's result in a shortcut.
public struct InputConnectionBehavior: Sendable, Equatable {
    let name: String
    public static let `default` = InputConnectionBehavior(name: "default")
    public static let connectToPreviousIntentResult = InputConnectionBehavior(name: "connectToPreviousIntentResult")
    public static let never = InputConnectionBehavior(name: "never")
}

/// How a number parameter is edited.
public enum IntentParameterControlStyle: Sendable, Equatable {
    case automatic, field, slider, stepper
}

extension String {
    /// How a text parameter is typed (Apple's `String.IntentInputOptions`): kept, not shown.
    public struct IntentInputOptions: Sendable {
        public enum KeyboardType: Sendable {
            case `default`, asciiCapable, numbersAndPunctuation, URL, numberPad, phonePad, namePhonePad, emailAddress
            case decimalPad, twitter, webSearch, asciiCapableNumberPad
        }
        public enum CapitalizationType: Sendable { case none, words, sentences, allCharacters }

        public var keyboardType: KeyboardType
        public var capitalizationType: CapitalizationType
        public var multiline: Bool
        public var autocorrect: Bool
        public var smartQuotes: Bool
        public var smartDashes: Bool

        public init(keyboardType: KeyboardType = .default, capitalizationType: CapitalizationType = .sentences, multiline: Bool = false,
                    autocorrect: Bool = true, smartQuotes: Bool = true, smartDashes: Bool = true) {
            self.keyboardType = keyboardType
            self.capitalizationType = capitalizationType
            self.multiline = multiline
            self.autocorrect = autocorrect
            self.smartQuotes = smartQuotes
            self.smartDashes = smartDashes
        }
    }
}

/// Where a parameter's options come from at run time (Apple's `DynamicOptionsProvider`).
public protocol DynamicOptionsProvider: Sendable {
    associatedtype Result
    associatedtype DefaultResult = Never
    init()
    func results() async throws -> Result
    func defaultResult() async -> DefaultResult?
}

extension DynamicOptionsProvider {
    public func defaultResult() async -> DefaultResult? { nil }
}

/// A query or options provider's view of the intent being configured (Apple's `@IntentParameterDependency`). The
/// simulated system does not hand a query the intent it serves: the value is nil, as when nothing is set yet.
@propertyWrapper
public struct IntentParameterDependency<Intent: AppIntent>: @unchecked Sendable {
    public init(_ keyPaths: PartialKeyPath<Intent>...) {}
    public var wrappedValue: Intent? { nil }
}

// MARK: - entities

/// A query that also finds entities by text (Apple's `EntityStringQuery`): a parameter given text that is no
/// entity's identifier is looked up with `entities(matching:)`, and taken when exactly one matches.
public protocol EntityStringQuery: EntityQuery {
    func entities(matching string: String) async throws -> [Entity]
}

/// A query the system can list completely (Apple's `EnumerableEntityQuery`).
public protocol EnumerableEntityQuery: EntityQuery {
    func allEntities() async throws -> [Entity]
}

/// A property of an entity that Shortcuts can read and filter on (Apple's `@Property`, `EntityProperty`).
@propertyWrapper
public final class EntityProperty<Value>: @unchecked Sendable {  // @unchecked: an entity is built, then read.
    public let title: LocalizedStringResource
    private var value: Value?

    public init(title: LocalizedStringResource) { self.title = title }

    public init(wrappedValue: Value, title: LocalizedStringResource) {
        self.title = title
        value = wrappedValue
    }

    public var wrappedValue: Value {
        get {
            guard let value else { preconditionFailure("The entity property '\(title)' was read before it was set.") }
            return value
        }
        set { value = newValue }
    }

    public var projectedValue: EntityProperty<Value> { self }
}

extension AppEntity {
    /// `@Property(title:)` inside an entity, as Apple spells it.
    public typealias Property<Value> = EntityProperty<Value>
}

// MARK: - kinds of intents

/// An intent that may ask to continue in the app (Apple's `ForegroundContinuableIntent`). Lockstep runs the
/// continuation where the intent runs and says so on stderr: it does not move a running intent into the app.
public protocol ForegroundContinuableIntent: AppIntent {}

extension ForegroundContinuableIntent {
    @MainActor public func requestToContinueInForeground<ResultValue>(_ dialog: IntentDialog? = nil,
                                                           continuation: (@MainActor () async throws -> ResultValue)? = nil) async throws -> ResultValue {
        if let dialog { FileHandle.standardError.write(Data("\(Self.name) asks to continue in the app: \(dialog)\n".utf8)) }
        guard let continuation else { throw IntentError(.transport, subject: Self.name, detail: "it asked to continue in the app without a continuation") }
        return try await continuation()
    }

    public func requestToContinueInForeground(_ dialog: IntentDialog? = nil) async throws {
        if let dialog { FileHandle.standardError.write(Data("\(Self.name) asks to continue in the app: \(dialog)\n".utf8)) }
    }

    public func needsToContinueInForegroundError(_ dialog: IntentDialog? = nil,
                                                 continuation: (@MainActor () async throws -> Void)? = nil) -> any Error {
        IntentError(.transport, subject: Self.name, detail: "it needs to continue in the app\(dialog.map { ": \($0)" } ?? "")")
    }
}

/// An intent that starts, updates or ends a Live Activity (Apple's `LiveActivityIntent`). iOS runs it in the app's
/// process without bringing the app forward; Lockstep runs it where any intent runs (`intent.where`).
public protocol LiveActivityIntent: AppIntent {}

/// An App Intent that replaces a SiriKit custom intent of an `.intentdefinition` (Apple's
/// `CustomIntentMigratedAppIntent`): `intentClassName` names the generated class it migrates.
public protocol CustomIntentMigratedAppIntent: AppIntent {
    static var intentClassName: String { get }
}

/// An intent that reports its progress (Apple's `ProgressReportingIntent`): `progress` is one `Progress` per intent
/// type in a process.
public protocol ProgressReportingIntent: AppIntent {}

private let progresses = Mutex<[String: Progress]>([:])

extension ProgressReportingIntent {
    public var progress: Progress {
        progresses.withLock { table in
            if let progress = table[Self.name] { return progress }
            let made = Progress(totalUnitCount: 0)
            table[Self.name] = made
            return made
        }
    }
}

/// An intent Siri may suggest (Apple's `PredictableIntent`): the configuration is kept, not used.
public protocol PredictableIntent: AppIntent {
    associatedtype Prediction: IntentPredictionConfiguration
    @IntentPredictionsBuilder<Self> static var predictionConfiguration: Prediction { get }
}

public protocol IntentPredictionConfiguration {}

public struct IntentPrediction<Intent: AppIntent, Parameters>: IntentPredictionConfiguration {
    public init(parameters: KeyPath<Intent, IntentParameter<Parameters>>, displayRepresentation: @escaping (Parameters) -> DisplayRepresentation) {}
    public init<First, Second>(parameters: (KeyPath<Intent, IntentParameter<First>>, KeyPath<Intent, IntentParameter<Second>>),
                               displayRepresentation: @escaping (First, Second) -> DisplayRepresentation) where Parameters == (First, Second) {}
}

public struct IntentPredictionList: IntentPredictionConfiguration {}

@resultBuilder
public enum IntentPredictionsBuilder<Intent: AppIntent> {
    public static func buildExpression<Parameters>(_ prediction: IntentPrediction<Intent, Parameters>) -> IntentPredictionList { IntentPredictionList() }
    public static func buildBlock(_ components: IntentPredictionList...) -> IntentPredictionList { IntentPredictionList() }
}

/// Whether a locked device runs the intent (Apple's `IntentAuthenticationPolicy`). The simulated device is
/// unlocked: every policy runs.
public enum IntentAuthenticationPolicy: Sendable, Equatable {
    case alwaysAllowed
    case requiresAuthentication
    case requiresLocalDeviceAuthentication
}

// MARK: - results with a view

/// A result whose view is shown as a snippet under the dialog (Apple's `ShowsSnippetView`). The results that show
/// one, `.result(value:dialog:view:)` and the other `view:`/`content:` forms, are declared by Lockstep's SwiftUI
/// (which this module cannot import), and draw the view with SwiftUI's renderer.
public protocol ShowsSnippetView: IntentResult {
    /// The view as drawn at the snippet's size.
    @MainActor func renderSnippet() -> RenderedSnippet
}

/// A snippet as drawn: its texts in reading order, and the picture as an SVG document.
public struct RenderedSnippet: Sendable, Equatable {
    public var texts: [String]
    public var svg: String

    public init(texts: [String], svg: String) {
        self.texts = texts
        self.svg = svg
    }
}

// MARK: - display

extension DisplayRepresentation.Image {
    public init(url: URL) { self.init(named: url.absoluteString) }
    public init(data: Data) { self.init(named: "data (\(data.count) bytes)") }
}
