// Apple's Intents (SiriKit) base classes: what the class Xcode generates from an `.intentdefinition` subclasses. The
// user keeps that generated class as a source file; on Linux, without the Objective-C runtime, its `@objc(…)` and
// `@NSManaged` lines go (<doc:YourOwnCode>): `@NSManaged public var habit: Habit?` becomes
// `@IntentManaged public var habit: Habit?` (or `public var habit: Habit?` where no widget configures it).
@_exported import Foundation

/// A SiriKit intent: the base of a generated custom intent class (`ConfigurationIntent: INIntent`).
open class INIntent: NSObject, @unchecked Sendable {  // @unchecked: an intent is configured, then handed over once.
    /// A phrase Siri suggests for a shortcut of this intent.
    open var suggestedInvocationPhrase: String?
    /// The intent's parameters by name, for code that reads them generically.
    open var identifier: String?

    /// Required, so that WidgetKit can make a widget instance's intent of the generated class (`Intent()`); a
    /// generated class declares no initializer, so it inherits this one.
    public required override init() { super.init() }

    /// Lockstep's, not Apple's: the parameter defaults of the class's `.intentdefinition`, as `configure` text by
    /// parameter name, which the class `lockstep build` generates overrides. On a device a widget instance's intent
    /// starts with them; WidgetKit's `IntentConfiguration` starts each instance's intent so, and `configure` sets
    /// the rest. (`Intent()` itself starts unset, as on a device.)
    open class var definitionDefaults: [String: String] { [:] }

    /// Sets an image for a parameter (shown by Siri; kept, not drawn).
    open func setImage(_ image: INImage?, forParameterNamed parameterName: String) { images[parameterName] = image }
    open func image(forParameterNamed parameterName: String) -> INImage? { images[parameterName] }
    open func keyImage() -> INImage? { nil }

    private var images: [String: INImage] = [:]
}

/// An image SiriKit shows (kept, not drawn).
open class INImage: NSObject, @unchecked Sendable {
    public let name: String?
    public let url: URL?
    public let imageData: Data?
    public init(named name: String) { self.name = name; url = nil; imageData = nil }
    public init(url: URL) { name = nil; self.url = url; imageData = nil }
    public init(imageData: Data) { name = nil; url = nil; self.imageData = imageData }
    public static func systemImageNamed(_ systemImageName: String) -> INImage { INImage(named: systemImageName) }
}

/// A response to an intent: the base of a generated `…IntentResponse` (which adds its `code`).
open class INIntentResponse: NSObject, @unchecked Sendable {
    open var userActivity: NSUserActivity?
    public override init() { super.init() }
}

/// Foundation's `NSUserActivity` (absent from Foundation on Linux): what a response hands the app to continue.
open class NSUserActivity: NSObject, @unchecked Sendable {
    public let activityType: String
    open var title: String?
    open var userInfo: [AnyHashable: Any]?
    open var isEligibleForHandoff = true
    open var isEligibleForSearch = false
    open var isEligibleForPrediction = false
    public init(activityType: String) {
        self.activityType = activityType
        super.init()
    }
}

/// A custom type of an `.intentdefinition` (`Habit: INObject`): an identifier and how it is shown.
open class INObject: NSObject, @unchecked Sendable {
    public let identifier: String?
    public let displayString: String
    public let pronunciationHint: String?
    open var subtitleString: String?
    open var displayImage: INImage?
    open var alternativeSpeakableMatches: [INSpeakableString]?

    /// Required, so that a widget's `configure --habit Walk` can make the generated subclass (`Habit`) of a
    /// parameter's value; a generated subclass declares no initializer, so it inherits this one.
    public required init(identifier: String?, display displayString: String, pronunciationHint: String? = nil) {
        self.identifier = identifier
        self.displayString = displayString
        self.pronunciationHint = pronunciationHint
        super.init()
    }

    public convenience init(identifier: String?, display displayString: String, subtitle subtitleString: String?, image displayImage: INImage?) {
        self.init(identifier: identifier, display: displayString)
        self.subtitleString = subtitleString
        self.displayImage = displayImage
    }

    open override var description: String { displayString }
    open override func isEqual(_ object: Any?) -> Bool {
        guard let other = object as? INObject else { return false }
        return other.identifier == identifier && other.displayString == displayString
    }
    open override var hash: Int { identifier?.hashValue ?? displayString.hashValue }
}

/// Text Siri speaks and matches.
open class INSpeakableString: NSObject, @unchecked Sendable {
    public let spokenPhrase: String
    public let vocabularyIdentifier: String?
    public let pronunciationHint: String?
    public init(vocabularyIdentifier: String, spokenPhrase: String, pronunciationHint: String?) {
        self.vocabularyIdentifier = vocabularyIdentifier
        self.spokenPhrase = spokenPhrase
        self.pronunciationHint = pronunciationHint
    }
    public init(spokenPhrase: String) {
        vocabularyIdentifier = nil
        self.spokenPhrase = spokenPhrase
        pronunciationHint = nil
    }
}

/// The outcome of resolving a parameter (the generated `…ResolutionResult` classes subclass these).
open class INIntentResolutionResult: NSObject, @unchecked Sendable {
    public enum Outcome: Equatable, Sendable { case success, needsValue, notRequired, unsupported, disambiguation, confirmationRequired }
    public let outcome: Outcome
    public let resolvedValue: Any?

    public required init(outcome: Outcome, resolvedValue: Any?) {
        self.outcome = outcome
        self.resolvedValue = resolvedValue
    }

    open class func needsValue() -> Self { Self(outcome: .needsValue, resolvedValue: nil) }
    open class func notRequired() -> Self { Self(outcome: .notRequired, resolvedValue: nil) }
    open class func unsupported() -> Self { Self(outcome: .unsupported, resolvedValue: nil) }
}

open class INObjectResolutionResult: INIntentResolutionResult, @unchecked Sendable {
    open class func success(with resolvedObject: INObject) -> Self { Self(outcome: .success, resolvedValue: resolvedObject) }
    open class func disambiguation(with objectsToDisambiguate: [INObject]) -> Self { Self(outcome: .disambiguation, resolvedValue: objectsToDisambiguate) }
    open class func confirmationRequired(with objectToConfirm: INObject?) -> Self { Self(outcome: .confirmationRequired, resolvedValue: objectToConfirm) }
}

open class INStringResolutionResult: INIntentResolutionResult, @unchecked Sendable {
    open class func success(with resolvedString: String) -> Self { Self(outcome: .success, resolvedValue: resolvedString) }
    open class func disambiguation(with stringsToDisambiguate: [String]) -> Self { Self(outcome: .disambiguation, resolvedValue: stringsToDisambiguate) }
    open class func confirmationRequired(with stringToConfirm: String?) -> Self { Self(outcome: .confirmationRequired, resolvedValue: stringToConfirm) }
}

open class INIntegerResolutionResult: INIntentResolutionResult, @unchecked Sendable {
    open class func success(with resolvedValue: Int) -> Self { Self(outcome: .success, resolvedValue: resolvedValue) }
    open class func confirmationRequired(with valueToConfirm: NSNumber?) -> Self { Self(outcome: .confirmationRequired, resolvedValue: valueToConfirm) }
}

open class INBooleanResolutionResult: INIntentResolutionResult, @unchecked Sendable {
    open class func success(with resolvedValue: Bool) -> Self { Self(outcome: .success, resolvedValue: resolvedValue) }
    open class func confirmationRequired(with valueToConfirm: NSNumber?) -> Self { Self(outcome: .confirmationRequired, resolvedValue: valueToConfirm) }
}

open class INEnumResolutionResult: INIntentResolutionResult, @unchecked Sendable {
    open class func success(with resolvedValue: Int) -> Self { Self(outcome: .success, resolvedValue: resolvedValue) }
    open class func confirmationRequired(with valueToConfirm: Int) -> Self { Self(outcome: .confirmationRequired, resolvedValue: valueToConfirm) }
}

/// How an app hands intents to their handlers (an Intents extension's principal class).
open class INExtension: NSObject, @unchecked Sendable {
    public override init() { super.init() }
    open func handler(for intent: INIntent) -> Any? { nil }
}

/// A response code, as generated enums (`ConfigurationIntentResponseCode`) spell theirs.
public enum INIntentResponseCode: Int, Sendable {
    case unspecified = 0, ready, continueInApp, inProgress, success, failure, failureRequiringAppLaunch
}

/// A suggested or donated shortcut (kept, not shown). A communication notification's service donates the incoming
/// message's interaction; Lockstep has no Siri or share sheet to suggest the conversation in, so a donation succeeds
/// and changes nothing a process can observe.
open class INInteraction: NSObject, @unchecked Sendable {
    public let intent: INIntent
    public let response: INIntentResponse?
    open var identifier: String?
    open var groupIdentifier: String?
    open var direction: INInteractionDirection = .unspecified
    open var dateInterval: DateInterval?
    public init(intent: INIntent, response: INIntentResponse?) {
        self.intent = intent
        self.response = response
    }
    /// Donating tells Siri of something the person did; the simulated device keeps nothing.
    open func donate(completion: ((Error?) -> Void)? = nil) { completion?(nil) }
    /// The async form real services call (`try await interaction.donate()`).
    open func donate() async throws {}
    open class func delete(with identifiers: [String], completion: ((Error?) -> Void)? = nil) { completion?(nil) }
    open class func deleteAll(completion: ((Error?) -> Void)? = nil) { completion?(nil) }
}

/// Options grouped in sections, as a generated `provide…OptionsCollection` hands them back.
open class INObjectCollection<ObjectType: AnyObject>: NSObject, @unchecked Sendable {
    public let sections: [INObjectSection<ObjectType>]
    public let allItems: [ObjectType]
    open var usesIndexedCollation = false

    public init(sections: [INObjectSection<ObjectType>]) {
        self.sections = sections
        allItems = sections.flatMap(\.items)
    }

    public init(items: [ObjectType]) {
        sections = [INObjectSection(title: nil, items: items)]
        allItems = items
    }
}

open class INObjectSection<ObjectType: AnyObject>: NSObject, @unchecked Sendable {
    public let title: String?
    public let items: [ObjectType]
    public init(title: String?, items: [ObjectType]) {
        self.title = title
        self.items = items
    }
}
