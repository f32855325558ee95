import Foundation

// The lists of options a query or an options provider hands the system (Apple's `ResultsCollection`,
// `IntentItemCollection`, `IntentItemSection`, `IntentItem`), shown by the extension's `options` command as the
// Shortcuts app or a widget's configuration would offer them: the prompt, each section's title, each item.

/// A list of results, optionally in sections (Apple's `ResultsCollection`): an array, or an `IntentItemCollection`.
public protocol ResultsCollection<Result> {
    associatedtype Result
    /// Every result, in order.
    var items: [Result] { get }
    /// A text shown at the top of the list.
    var promptLabel: LocalizedStringResource? { get }
    /// Whether the list shows an alphabetical index (kept, not drawn).
    var usesIndexedCollation: Bool { get }
    /// The sections as the list shows them.
    var itemSections: [IntentItemSection<Result>] { get }
    static var empty: Self { get }
}

extension Array: ResultsCollection {
    public typealias Result = Element
    public var items: [Element] { self }
    public var promptLabel: LocalizedStringResource? { nil }
    public var usesIndexedCollation: Bool { false }
    public var itemSections: [IntentItemSection<Element>] { [IntentItemSection(items: map { IntentItem($0) })] }
    public static var empty: [Element] { [] }
}

/// One option: its value and how it is shown (Apple's `IntentItem`).
public struct IntentItem<Result>: @unchecked Sendable {  // @unchecked: values are handed over once, as Apple's are.
    public let value: Result
    public let title: LocalizedStringResource
    public let subtitle: LocalizedStringResource?
    public let image: DisplayRepresentation.Image?

    public init(_ value: Result, title: LocalizedStringResource, subtitle: LocalizedStringResource? = nil, image: DisplayRepresentation.Image? = nil) {
        self.value = value
        self.title = title
        self.subtitle = subtitle
        self.image = image
    }

    /// An option shown as the value shows itself: an entity's or enum case's display representation, else its text.
    public init(_ value: Result) {
        let shown = OptionText.representation(of: value)
        self.init(value, title: shown.title, subtitle: shown.subtitle, image: shown.image)
    }
}

/// A titled group of options (Apple's `IntentItemSection`).
public struct IntentItemSection<Result>: @unchecked Sendable {  // @unchecked: as `IntentItem`.
    public let title: LocalizedStringResource?
    public let subtitle: LocalizedStringResource?
    public let image: DisplayRepresentation.Image?
    public let itemsWithTitles: [IntentItem<Result>]

    public init(_ title: LocalizedStringResource? = nil, subtitle: LocalizedStringResource? = nil, image: DisplayRepresentation.Image? = nil,
                items: [IntentItem<Result>]) {
        self.title = title
        self.subtitle = subtitle
        self.image = image
        itemsWithTitles = items
    }

    public init(_ title: LocalizedStringResource? = nil, subtitle: LocalizedStringResource? = nil, image: DisplayRepresentation.Image? = nil,
                items: [Result]) {
        self.init(title, subtitle: subtitle, image: image, items: items.map { IntentItem($0) })
    }

    public init(_ title: LocalizedStringResource? = nil, subtitle: LocalizedStringResource? = nil, image: DisplayRepresentation.Image? = nil,
                @Builder items: () -> [IntentItem<Result>]) {
        self.init(title, subtitle: subtitle, image: image, items: items())
    }

    /// The values, in order.
    public var items: [Result] { itemsWithTitles.map(\.value) }

    /// `ItemSection("Title") { item; value … }`.
    @resultBuilder
    public enum Builder {
        public static func buildExpression(_ item: IntentItem<Result>) -> [IntentItem<Result>] { [item] }
        public static func buildExpression(_ value: Result) -> [IntentItem<Result>] { [IntentItem(value)] }
        public static func buildExpression(_ items: [IntentItem<Result>]) -> [IntentItem<Result>] { items }
        public static func buildBlock(_ components: [IntentItem<Result>]...) -> [IntentItem<Result>] { components.flatMap { $0 } }
        public static func buildOptional(_ component: [IntentItem<Result>]?) -> [IntentItem<Result>] { component ?? [] }
        public static func buildEither(first component: [IntentItem<Result>]) -> [IntentItem<Result>] { component }
        public static func buildEither(second component: [IntentItem<Result>]) -> [IntentItem<Result>] { component }
        public static func buildArray(_ components: [[IntentItem<Result>]]) -> [IntentItem<Result>] { components.flatMap { $0 } }
    }
}

/// Options in sections, with a prompt (Apple's `IntentItemCollection`).
public struct IntentItemCollection<Result>: ResultsCollection, @unchecked Sendable {  // @unchecked: as `IntentItem`.
    public var promptLabel: LocalizedStringResource?
    public var usesIndexedCollation: Bool
    public var sections: [IntentItemSection<Result>]

    public init(promptLabel: LocalizedStringResource? = nil, usesIndexedCollation: Bool = false, sections: [IntentItemSection<Result>]) {
        self.promptLabel = promptLabel
        self.usesIndexedCollation = usesIndexedCollation
        self.sections = sections
    }

    public init(promptLabel: LocalizedStringResource? = nil, usesIndexedCollation: Bool = false, items: [Result]) {
        self.init(promptLabel: promptLabel, usesIndexedCollation: usesIndexedCollation, sections: [IntentItemSection(items: items)])
    }

    public init(promptLabel: LocalizedStringResource? = nil, usesIndexedCollation: Bool = false,
                @SectionsBuilder sectionsBuilder: () -> [IntentItemSection<Result>]) {
        self.init(promptLabel: promptLabel, usesIndexedCollation: usesIndexedCollation, sections: sectionsBuilder())
    }

    public var items: [Result] { sections.flatMap(\.items) }
    public var itemSections: [IntentItemSection<Result>] { sections }
    public static var empty: IntentItemCollection<Result> { IntentItemCollection(sections: []) }

    /// `IntentItemCollection { ItemSection(…) { … } … }`.
    @resultBuilder
    public enum SectionsBuilder {
        public static func buildExpression(_ section: IntentItemSection<Result>) -> [IntentItemSection<Result>] { [section] }
        public static func buildBlock(_ components: [IntentItemSection<Result>]...) -> [IntentItemSection<Result>] { components.flatMap { $0 } }
        public static func buildOptional(_ component: [IntentItemSection<Result>]?) -> [IntentItemSection<Result>] { component ?? [] }
        public static func buildEither(first component: [IntentItemSection<Result>]) -> [IntentItemSection<Result>] { component }
        public static func buildEither(second component: [IntentItemSection<Result>]) -> [IntentItemSection<Result>] { component }
        public static func buildArray(_ components: [[IntentItemSection<Result>]]) -> [IntentItemSection<Result>] { components.flatMap { $0 } }
    }
}

// The short names Apple's code uses inside a query or an options provider (`ItemCollection`, `ItemSection`, `Item`):
// members, not top-level names, so a query's `suggestedEntities() -> ItemCollection` infers its `Result`.

extension DynamicOptionsProvider {
    public typealias ItemCollection<Value> = IntentItemCollection<Value>
    public typealias ItemSection<Value> = IntentItemSection<Value>
    public typealias Item<Value> = IntentItem<Value>
}

extension EntityQuery {
    /// An option of this query's entity, as `suggestedEntities()` builds a sectioned list: `Item(entity, title: …)`.
    public typealias Item = IntentItem<Entity>
    public typealias ItemCollection = IntentItemCollection<Entity>
    public typealias ItemSection = IntentItemSection<Entity>
}

/// How an option is shown, and the text that names it on the command line.
enum OptionText {
    static func representation(of value: Any) -> DisplayRepresentation {
        switch value {
        case let entity as any AppEntity: return entity.displayRepresentation
        case let enumCase as any AppEnum: return DisplayRepresentation(title: enumCase.localizedStringResource)
        case let convertible as any CustomLocalizedStringResourceConvertible: return DisplayRepresentation(title: convertible.localizedStringResource)
        default: return DisplayRepresentation(title: LocalizedStringResource("\(value)"))
        }
    }

    /// A provider's results as lines; a provider whose results are no list offers nothing to show.
    static func lines<Provider: DynamicOptionsProvider>(of provider: Provider) throws -> [String] {
        let results = try IntentExecution.run { try await provider.results() }
        guard let collection = results as? any ResultsCollection else { return ["\(results)"] }
        return lines(collection)
    }

    /// An enum's cases as lines.
    static func lines<Enum: AppEnum>(of type: Enum.Type) -> [String] { lines(Array(Enum.allCases)) }

    /// A list as the `options` command prints it: the prompt, then each section's title and its items, each item
    /// as its title and the argument that picks it (`Ridge — ridge`).
    static func lines<Collection: ResultsCollection>(_ collection: Collection) -> [String] {
        var lines = collection.promptLabel.map { ["\($0)"] } ?? []
        for section in collection.itemSections {
            if let title = section.title { lines.append("\(title):") }
            let indent = section.title == nil ? "" : "  "
            for item in section.itemsWithTitles {
                let subtitle = item.subtitle.map { " (\($0))" } ?? ""
                lines.append("\(indent)\(item.title)\(subtitle) — \(ArgumentText.of(item.value) ?? "")")
            }
        }
        return lines
    }
}
