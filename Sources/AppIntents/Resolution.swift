import Foundation

/// One parameter as `list` shows it.
public struct IntentParameterInfo: Sendable, Equatable {
    /// The command-line name (`habit` for `--habit`).
    public var name: String
    public var title: String
    public var typeName: String
    public var isRequired: Bool
}

extension AppIntent {
    /// The declared parameters, found by reflection on the `@Parameter` properties.
    public static var parameters: [IntentParameterInfo] {
        parameterObjects(of: Self()).map {
            IntentParameterInfo(name: $0.name, title: $0.parameter.title.description, typeName: $0.parameter.typeName, isRequired: $0.parameter.isRequired)
        }
    }

    /// Builds the intent with its parameters resolved from `arguments` (name → text), as the system fills them in.
    /// - Throws: `IntentError` for a missing, unknown or unparsable parameter (nothing performed).
    public static func resolve(_ arguments: [String: String]) throws -> Self {
        let intent = Self()
        let parameters = parameterObjects(of: intent)
        for key in arguments.keys.sorted() where !parameters.contains(where: { $0.name == key }) {
            throw IntentError(.invalidParameter, subject: key, detail: "\(name) has no such parameter")
        }
        for (key, parameter) in parameters {
            let text = arguments[key]
            guard try parameter.resolve(text) else {
                guard let text else { throw IntentError(.missingParameter, subject: key, detail: name) }
                throw IntentError(.invalidParameter, subject: text, detail: "--\(key) must be a \(parameter.typeName)")
            }
        }
        return intent
    }

    /// Resolves and performs the intent here, waiting for `perform()`.
    public static func performResolved(_ arguments: [String: String]) throws -> PerformedResult {
        let intent = try resolve(arguments)
        let box = IntentBox(intent)
        return try IntentExecution.run { await PerformedResult.showing(try await box.intent.perform()) }
    }

    /// This instance's parameters as the `--NAME VALUE` arguments that resolve to them again (unset ones left out):
    /// how an intent a widget's button holds is handed to the app's process.
    package var argumentTexts: [String: String] {
        var arguments: [String: String] = [:]
        for (name, parameter) in Self.parameterObjects(of: self) {
            if let text = parameter.argumentText { arguments[name] = text }
        }
        return arguments
    }

    /// The options the parameter `name` offers, one line each (a prompt, section titles, `Title — argument`).
    /// - Throws: `IntentError` when the intent has no such parameter or it offers no options (free text).
    public static func optionLines(for name: String) throws -> [String] {
        guard let parameter = parameterObjects(of: Self()).first(where: { $0.name == name })?.parameter else {
            throw IntentError(.invalidParameter, subject: name, detail: "\(Self.name) has no such parameter")
        }
        guard let lines = try parameter.optionLines() else {
            throw IntentError(.invalidParameter, subject: name, detail: "--\(name) takes any \(parameter.typeName); it offers no options")
        }
        return lines
    }

    static func parameterObjects(of intent: Self) -> [(name: String, parameter: any AnyIntentParameter)] {
        Mirror(reflecting: intent).children.compactMap { child in
            guard let label = child.label, let parameter = child.value as? any AnyIntentParameter else { return nil }
            return (label.hasPrefix("_") ? String(label.dropFirst()) : label, parameter)
        }
    }
}

/// An intent handed to the task that performs it (intents need not be `Sendable`, as Apple declares them).
final class IntentBox<Intent: AppIntent>: @unchecked Sendable {  // @unchecked: used by one task at a time.
    let intent: Intent
    init(_ intent: Intent) { self.intent = intent }
}
