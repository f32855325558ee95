import Foundation
import LockstepFoundation

/// Foundation's `LocalizedStringResource` (absent from Foundation on Linux): a text an app localizes, kept as its
/// catalog key and values (`"\(count) left"` is the key `%lld left` and 3) and looked up when shown, in the simulated
/// bundle's string catalogs (`Bundle.localizedString(forKey:value:table:)`); the text itself when no catalog has the
/// key.
public struct LocalizedStringResource: Sendable, Equatable, Hashable, ExpressibleByStringInterpolation, CustomStringConvertible {
    public typealias StringInterpolation = String.LocalizationValue.StringInterpolation

    let value: String.LocalizationValue
    let fallback: String.LocalizationValue?
    public let table: String?

    /// The catalog key.
    public var key: String { value.key }
    /// The text shown when no catalog has the key.
    public var defaultValue: String { (fallback ?? value).formatted((fallback ?? value).key) }

    /// - Parameter comment: for the translator (Xcode exports it with the key); nothing here reads it.
    public init(_ keyAndValue: String.LocalizationValue, table: String? = nil, locale: Locale = .current, comment: StaticString? = nil) {
        value = keyAndValue
        fallback = nil
        self.table = table
    }

    public init(_ key: StaticString, defaultValue: String.LocalizationValue, table: String? = nil, locale: Locale = .current,
                comment: StaticString? = nil) {
        value = String.LocalizationValue(key.description)
        fallback = defaultValue
        self.table = table
    }

    /// A text known only at run time, as its own key.
    @_disfavoredOverload
    public init(_ key: String, defaultValue: String? = nil, table: String? = nil, comment: StaticString? = nil) {
        value = String.LocalizationValue(key)
        fallback = defaultValue.map { String.LocalizationValue($0) }
        self.table = table
    }

    public init(stringLiteral value: String) { self.init(String.LocalizationValue(value)) }

    public init(stringInterpolation: StringInterpolation) { self.init(String.LocalizationValue(stringInterpolation: stringInterpolation)) }

    /// The text shown: the catalog's text for the key with the values put in, else the default value, else the key's.
    public var description: String { value.localized(table: table, bundle: nil, defaultValue: fallback) }
}

/// A type that gives a localized text of itself: an `AppEnum`'s or `AppEntity`'s value, an error's description.
public protocol CustomLocalizedStringResourceConvertible {
    var localizedStringResource: LocalizedStringResource { get }
}

extension LocalizedStringResource: CustomLocalizedStringResourceConvertible {
    public var localizedStringResource: LocalizedStringResource { self }
}

extension String.LocalizationValue.StringInterpolation {
    /// `"Open \(wallet)"`: an entity, enum case or resource puts in its own localized text, as on a device.
    public mutating func appendInterpolation<Value: CustomLocalizedStringResourceConvertible>(_ value: Value) {
        appendInterpolation(value.localizedStringResource.description)
    }
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

    /// `"\(wallet) has \(balance) €"`: a catalog key with its values, as `LocalizedStringResource` keeps it.
    public typealias StringInterpolation = String.LocalizationValue.StringInterpolation
    public init(stringInterpolation: StringInterpolation) { self.init(LocalizedStringResource(stringInterpolation: stringInterpolation)) }

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
