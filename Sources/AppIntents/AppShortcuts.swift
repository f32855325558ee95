import Foundation

/// The App Shortcuts an app offers (Apple's `AppShortcutsProvider`): phrases that run an intent, each naming the
/// app.
public protocol AppShortcutsProvider {
    @AppShortcutsBuilder static var appShortcuts: [AppShortcut] { get }
    /// The colour of the app's tiles in the Shortcuts app (kept, not shown).
    static var shortcutTileColor: ShortcutTileColor { get }
}

extension AppShortcutsProvider {
    public static var shortcutTileColor: ShortcutTileColor { .navy }
    /// Asks the system to re-read the parameters of the app's shortcuts (nothing to do here: they are read when listed).
    public static func updateAppShortcutParameters() {}
}

/// The colours Apple offers for an app's shortcut tiles.
public enum ShortcutTileColor: Sendable, Equatable {
    case red, tangerine, orange, yellow, lime, grayBlue, lightBlue, navy, teal, grayGreen, purple, pink, grayBrown
}

/// One App Shortcut (Apple's `AppShortcut`): an intent, its phrases, and how the Shortcuts app titles it.
public struct AppShortcut: @unchecked Sendable {  // @unchecked: the intent's parameters are set before it is stored.
    public let intentName: String
    public let intentType: any AppIntent.Type
    /// The phrases with the app's name as `${applicationName}` and a parameter as `${NAME}`, as Apple's metadata
    /// stores them.
    public let phrases: [String]
    /// The values each phrase's parameter may take, by the parameter's name: (spoken title, command-line argument).
    let parameterOptions: [String: @Sendable () throws -> [(title: String, argument: String)]]
    public let shortTitle: LocalizedStringResource?
    public let systemImageName: String?

    public init<Intent: AppIntent>(intent: Intent, phrases: [AppShortcutPhrase<Intent>], shortTitle: LocalizedStringResource,
                                   systemImageName: String) {
        self.init(intent, phrases, shortTitle, systemImageName)
    }

    public init<Intent: AppIntent>(intent: Intent, phrases: [AppShortcutPhrase<Intent>]) {
        self.init(intent, phrases, nil, nil)
    }

    private init<Intent: AppIntent>(_ intent: Intent, _ phrases: [AppShortcutPhrase<Intent>], _ shortTitle: LocalizedStringResource?, _ image: String?) {
        intentName = Intent.name
        intentType = Intent.self
        self.phrases = phrases.map(\.template)
        parameterOptions = phrases.reduce(into: [:]) { options, phrase in options.merge(phrase.parameterOptions) { first, _ in first } }
        self.shortTitle = shortTitle
        systemImageName = image
    }

    /// Apple's rule for App Shortcut phrases: every phrase names the app once, with `\(.applicationName)` ("Invalid
    /// Utterance. Every App Shortcut utterance should have one '${applicationName}' in it.").
    /// A phrase may also name at most one parameter, an `AppEntity` or `AppEnum` one ("App Shortcut phrases may
    /// contain at most one parameter").
    public var invalidPhrases: [String] {
        phrases.filter { phrase in
            phrase.components(separatedBy: AppShortcutPhraseToken.placeholder).count != 2
                || parameterOptions.keys.filter { phrase.contains("${\($0)}") }.count > 1
        }
    }

    /// The phrases as a person says them, with the app's name: a phrase with a parameter once for each value it may
    /// take (an `AppEnum`'s cases; an entity query's `suggestedEntities()`, which iOS reads for App Shortcuts), with
    /// the `--NAME VALUE` arguments it runs the intent with.
    public func spokenPhrases(applicationName: String) throws -> [(phrase: String, arguments: [String])] {
        try phrases.flatMap { template -> [(phrase: String, arguments: [String])] in
            let phrase = template.replacingOccurrences(of: AppShortcutPhraseToken.placeholder, with: applicationName)
            guard let (name, options) = parameterOptions.first(where: { phrase.contains("${\($0.key)}") }) else { return [(phrase, [])] }
            return try options().map { option in
                (phrase: phrase.replacingOccurrences(of: "${\(name)}", with: option.title), arguments: ["--\(name)", option.argument])
            }
        }
    }
}

/// What a phrase may interpolate (Apple's `AppShortcutPhraseToken`): the app's name.
public struct AppShortcutPhraseToken: Sendable, Equatable {
    let text: String
    public static let applicationName = AppShortcutPhraseToken(text: placeholder)
    static let placeholder = "${applicationName}"
}

/// A phrase that runs `Intent`: `"Complete a habit in \(.applicationName)"`.
public struct AppShortcutPhrase<Intent: AppIntent>: ExpressibleByStringInterpolation, Sendable {
    public struct StringInterpolation: StringInterpolationProtocol {
        var text = ""
        var parameterOptions: [String: @Sendable () throws -> [(title: String, argument: String)]] = [:]
        public init(literalCapacity: Int, interpolationCount: Int) {}
        public mutating func appendLiteral(_ literal: String) { text += literal }
        public mutating func appendInterpolation(_ token: AppShortcutPhraseToken) { text += token.text }

        /// `\(\.$wallet)`: a phrase for each entity the parameter's query suggests.
        public mutating func appendInterpolation<Value: AppEntity>(_ parameter: KeyPath<Intent, IntentParameter<Value>>) {
            append(parameter) { try EntityLookup.suggested(Value.self) }
        }

        /// `\(\.$kind)`: a phrase for each case of the enum.
        public mutating func appendInterpolation<Value: AppEnum>(_ parameter: KeyPath<Intent, IntentParameter<Value>>) {
            append(parameter) { Value.allCases.map { ($0.localizedStringResource.description, "\($0.rawValue)") } }
        }

        private mutating func append(_ parameter: AnyKeyPath, options: @escaping @Sendable () throws -> [(title: String, argument: String)]) {
            let name = ParameterNames.name(of: parameter, in: Intent())
            text += "${\(name)}"
            parameterOptions[name] = options
        }
    }

    let template: String
    let parameterOptions: [String: @Sendable () throws -> [(title: String, argument: String)]]

    public init(stringLiteral value: String) {
        template = value
        parameterOptions = [:]
    }

    public init(stringInterpolation: StringInterpolation) {
        template = stringInterpolation.text
        parameterOptions = stringInterpolation.parameterOptions
    }
}

@resultBuilder
public enum AppShortcutsBuilder {
    public static func buildExpression(_ shortcut: AppShortcut) -> [AppShortcut] { [shortcut] }
    /// `static var appShortcuts: [AppShortcut] { [AppShortcut(…), …] }`: an array literal, as some apps write it.
    public static func buildExpression(_ shortcuts: [AppShortcut]) -> [AppShortcut] { shortcuts }
    public static func buildBlock(_ components: [AppShortcut]...) -> [AppShortcut] { components.flatMap { $0 } }
    public static func buildOptional(_ component: [AppShortcut]?) -> [AppShortcut] { component ?? [] }
    public static func buildEither(first component: [AppShortcut]) -> [AppShortcut] { component }
    public static func buildEither(second component: [AppShortcut]) -> [AppShortcut] { component }
    public static func buildArray(_ components: [[AppShortcut]]) -> [AppShortcut] { components.flatMap { $0 } }
}
