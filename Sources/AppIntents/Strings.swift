import Foundation

/// Foundation's `LocalizedStringResource` (absent from Foundation on Linux): a string an app would localize, with
/// its key. Lockstep has no localization tables, so the text is the key (or the default value when one is given).
public struct LocalizedStringResource: Sendable, Equatable, Hashable, ExpressibleByStringInterpolation, CustomStringConvertible {
    public let key: String
    public let defaultValue: String?
    public let table: String?

    /// - Parameter comment: for the translator (Xcode exports it with the key); nothing here reads it.
    public init(_ key: String, defaultValue: String? = nil, table: String? = nil, comment: StaticString? = nil) {
        self.key = key
        self.defaultValue = defaultValue
        self.table = table
    }

    public init(stringLiteral value: String) { self.init(value) }

    /// The text shown: the default value, else the key.
    public var description: String { defaultValue ?? key }
}

/// A type that gives a localized text of itself: an `AppEnum`'s or `AppEntity`'s value, an error's description.
public protocol CustomLocalizedStringResourceConvertible {
    var localizedStringResource: LocalizedStringResource { get }
}

extension LocalizedStringResource: CustomLocalizedStringResourceConvertible {
    public var localizedStringResource: LocalizedStringResource { self }
}

extension String {
    /// Foundation's `String(localized:)` for a `LocalizedStringResource`: its text.
    public init(localized resource: LocalizedStringResource) { self = resource.description }
}

/// What the Shortcuts app says an intent does (Apple's `IntentDescription`).
public struct IntentDescription: Sendable, Equatable, ExpressibleByStringInterpolation, CustomStringConvertible {
    public let descriptionText: LocalizedStringResource
    public let categoryName: LocalizedStringResource?
    public let searchKeywords: [LocalizedStringResource]
    public let resultValueName: LocalizedStringResource?

    public init(_ descriptionText: LocalizedStringResource, categoryName: LocalizedStringResource? = nil,
                searchKeywords: [LocalizedStringResource] = [], resultValueName: LocalizedStringResource? = nil) {
        self.descriptionText = descriptionText
        self.categoryName = categoryName
        self.searchKeywords = searchKeywords
        self.resultValueName = resultValueName
    }

    public init(stringLiteral value: String) { self.init(LocalizedStringResource(value)) }

    public var description: String { descriptionText.description }
}

/// What Siri says, or the Shortcuts app shows, when an intent finishes (Apple's `IntentDialog`).
public struct IntentDialog: Sendable, Equatable, ExpressibleByStringInterpolation, CustomStringConvertible {
    /// The full dialog, spoken or shown.
    public let full: LocalizedStringResource
    /// The shorter form shown beside a visual result.
    public let supporting: LocalizedStringResource

    public init(_ resource: LocalizedStringResource) {
        full = resource
        supporting = resource
    }

    public init(full: LocalizedStringResource, supporting: LocalizedStringResource) {
        self.full = full
        self.supporting = supporting
    }

    public init(stringLiteral value: String) { self.init(LocalizedStringResource(value)) }

    public var description: String { full.description }
}

/// How an entity's type is named (Apple's `TypeDisplayRepresentation`).
public struct TypeDisplayRepresentation: Sendable, Equatable, ExpressibleByStringInterpolation {
    public let name: LocalizedStringResource
    public let numericFormat: LocalizedStringResource?

    public init(name: LocalizedStringResource, numericFormat: LocalizedStringResource? = nil) {
        self.name = name
        self.numericFormat = numericFormat
    }

    public init(stringLiteral value: String) { self.init(name: LocalizedStringResource(value)) }
}

/// How an entity is shown (Apple's `DisplayRepresentation`; an image is accepted and not drawn).
public struct DisplayRepresentation: Sendable, Equatable, ExpressibleByStringInterpolation {
    public struct Image: Sendable, Equatable {
        public let systemName: String?
        public init(systemName: String) { self.systemName = systemName }
        public init(named name: String) { systemName = name }
    }

    public let title: LocalizedStringResource
    public let subtitle: LocalizedStringResource?
    public let image: Image?

    public init(title: LocalizedStringResource, subtitle: LocalizedStringResource? = nil, image: Image? = nil) {
        self.title = title
        self.subtitle = subtitle
        self.image = image
    }

    public init(stringLiteral value: String) { self.init(title: LocalizedStringResource(value)) }
}
