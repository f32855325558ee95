import BundleKit
import Foundation

/// An `.intentdefinition` file as Xcode's intent class generator reads it: an XML property list whose `INIntents`,
/// `INTypes` and `INEnums` declare the custom intents, the custom types (`INObject` subclasses) and the enums of
/// an app's SiriKit intents (<doc:RunningYourProject> "Intent classes"). Only what the generated Swift declares is
/// kept: names, parameter kinds, defaults, response codes and the dialog parameters each code names.
struct IntentDefinition: Equatable {
    /// A parameter of an intent or a response, or a property of a custom type.
    struct Parameter: Equatable {
        /// How Xcode's generator declares a parameter's values.
        enum Kind: Equatable {
            case string, integer, boolean, decimal, dateComponents, url, person, file, speakableString
            /// `INIntentParameterType` `Integer` with an `INIntentParameterEnumType`: a generated enum.
            case enumeration(String)
            /// `Object` with an `INIntentParameterObjectType`: a custom type (`INObject` subclass), else `INObject`.
            case object(String)
            /// A type Lockstep's Intents does not provide (currency, payment method, placemark, measurements …).
            case unsupported(String)
        }

        var name: String
        var kind: Kind
        /// `…SupportsMultipleValues`: an array.
        var isArray = false
        /// `…SupportsResolution`: the handling protocol has its `resolve…` methods.
        var supportsResolution = false
        /// `…SupportsDynamicEnumeration`: the handling protocol has its `provide…Options…` methods.
        var dynamicOptions = false
        /// `…SupportsSearch`: the options methods take a `searchTerm`.
        var supportsSearch = false
        /// `…Metadata…DefaultValue` as `configure` text (`true`, `3`, an enum case's name), when the file gives one.
        var defaultText: String?
    }

    struct ResponseCode: Equatable {
        var name: String
        /// The response parameters its dialog strings name (`${failureReason}`), in order: a generated static
        /// function (`.failure(failureReason:)`) makes a response of this code with them.
        var dialogParameters: [String]
    }

    struct Intent: Equatable {
        var name: String
        var parameters: [Parameter]
        var responseCodes: [ResponseCode]
        var responseParameters: [Parameter]
    }

    struct Enumeration: Equatable {
        var name: String
        /// Case names with their raw values; `unknown` = 0 is always there, as Xcode always generates it.
        var cases: [(name: String, value: Int)]

        static func == (lhs: Self, rhs: Self) -> Bool {
            lhs.name == rhs.name && lhs.cases.map(\.name) == rhs.cases.map(\.name) && lhs.cases.map(\.value) == rhs.cases.map(\.value)
        }
    }

    struct CustomType: Equatable {
        var name: String
        /// Its properties beyond those every `INObject` has (identifier, display string, pronunciation hint …).
        var properties: [Parameter]
    }

    var path: String
    var intents: [Intent]
    var types: [CustomType]
    var enums: [Enumeration]

    /// Reads and checks the file.
    /// - Throws: `BuildError.invalidIntentDefinition`, one sentence naming the file, for a file that is not a
    ///   property list, is not an intent definition, or names something that cannot be a Swift name.
    init(path: String) throws {
        self.path = path
        let root: [String: Any]
        do {
            root = try PropertyListFile.dictionary(at: path)
        } catch let error as BundleError {
            throw BuildError(.invalidIntentDefinition, subject: path, detail: error.detail.isEmpty ? "it cannot be read" : error.detail)
        }
        guard root["INIntentDefinitionModelVersion"] != nil || root["INIntents"] != nil else {
            throw BuildError(.invalidIntentDefinition, subject: path, detail: "it has neither INIntentDefinitionModelVersion nor INIntents, so it is no intent definition")
        }
        let reader = Reader(path: path)
        enums = try reader.list(root, "INEnums").map(reader.enumeration)
        types = try reader.list(root, "INTypes").map(reader.customType)
        // Xcode generates classes for custom intents only; a system intent customized in the file keeps its class.
        intents = try reader.list(root, "INIntents").filter { $0["INIntentType"] as? String ?? "Custom" == "Custom" }.map(reader.intent)
    }

    /// Reads the parts of the file, each refused with a sentence naming what is wrong.
    private struct Reader {
        let path: String

        func fail(_ detail: String) -> BuildError { BuildError(.invalidIntentDefinition, subject: path, detail: detail) }

        func list(_ dictionary: [String: Any], _ key: String) throws -> [[String: Any]] {
            guard let value = dictionary[key] else { return [] }
            guard let list = value as? [Any], let dictionaries = list as? [[String: Any]] else { throw fail("its \(key) is not a list of dictionaries") }
            return dictionaries
        }

        /// `dictionary[key]` as a Swift name (an identifier), which the generated code declares.
        func name(_ dictionary: [String: Any], _ key: String, in place: String) throws -> String {
            guard let name = dictionary[key] as? String else { throw fail("\(place) has no \(key)") }
            guard Self.isIdentifier(name) else { throw fail("\(place) has \(key) '\(name)', which is not a Swift name") }
            return name
        }

        static func isIdentifier(_ text: String) -> Bool {
            guard let first = text.unicodeScalars.first, first == "_" || CharacterSet.letters.contains(first) else { return false }
            return text.unicodeScalars.allSatisfy { $0 == "_" || CharacterSet.alphanumerics.contains($0) } && text.unicodeScalars.allSatisfy(\.isASCII)
        }

        func enumeration(_ dictionary: [String: Any]) throws -> Enumeration {
            let name = try name(dictionary, "INEnumName", in: "an enum of INEnums")
            var cases: [(name: String, value: Int)] = []
            for (position, value) in try list(dictionary, "INEnumValues").enumerated() {
                let caseName = try self.name(value, "INEnumValueName", in: "a value of enum \(name)")
                // The first value, `unknown`, has no index: it is 0.
                let raw = (value["INEnumValueIndex"] as? Int) ?? (position == 0 ? 0 : position)
                if cases.contains(where: { $0.value == raw || $0.name == caseName }) { continue }
                cases.append((caseName, raw))
            }
            if !cases.contains(where: { $0.value == 0 }) { cases.insert(("unknown", 0), at: 0) }
            return Enumeration(name: name, cases: cases)
        }

        func customType(_ dictionary: [String: Any]) throws -> CustomType {
            let name = try name(dictionary, "INTypeName", in: "a type of INTypes")
            let inherited: Set<String> = ["identifier", "displayString", "pronunciationHint", "alternativeSpeakableMatches", "subtitleString", "displayImage"]
            let properties = try list(dictionary, "INTypeProperties").map { try parameter($0, prefix: "INTypeProperty", in: "a property of type \(name)") }
            return CustomType(name: name, properties: properties.filter { !inherited.contains($0.name) })
        }

        func intent(_ dictionary: [String: Any]) throws -> Intent {
            let name = try name(dictionary, "INIntentName", in: "an intent of INIntents")
            let parameters = try list(dictionary, "INIntentParameters").map { try parameter($0, prefix: "INIntentParameter", in: "a parameter of intent \(name)") }
            let response = dictionary["INIntentResponse"] as? [String: Any] ?? [:]
            let responseParameters = try list(response, "INIntentResponseParameters").map {
                try parameter($0, prefix: "INIntentResponseParameter", in: "a response parameter of intent \(name)")
            }
            var codes: [ResponseCode] = []
            for code in try list(response, "INIntentResponseCodes") {
                let codeName = try self.name(code, "INIntentResponseCodeName", in: "a response code of intent \(name)")
                let dialogs = ["INIntentResponseCodeFormatString", "INIntentResponseCodeConciseFormatString"].compactMap { code[$0] as? String }
                var named: [String] = []
                for dialog in dialogs {
                    for parameter in Self.placeholders(dialog) where !named.contains(parameter) && responseParameters.contains(where: { $0.name == parameter }) {
                        named.append(parameter)
                    }
                }
                codes.append(ResponseCode(name: codeName, dialogParameters: named))
            }
            return Intent(name: name, parameters: parameters, responseCodes: codes, responseParameters: responseParameters)
        }

        /// A parameter (`prefix` `INIntentParameter`), response parameter or type property: its keys share a prefix.
        func parameter(_ dictionary: [String: Any], prefix: String, in place: String) throws -> Parameter {
            let name = try name(dictionary, prefix + "Name", in: place)
            let type = dictionary[prefix + "Type"] as? String ?? "String"
            let kind: Parameter.Kind
            if let enumType = dictionary[prefix + "EnumType"] as? String {
                guard Self.isIdentifier(enumType) else { throw fail("\(place) '\(name)' has the enum type '\(enumType)', which is not a Swift name") }
                kind = .enumeration(enumType)
            } else if type == "Object" {
                // An object of no custom type (Mastodon's widget definition has one) is any `INObject`.
                let object = dictionary[prefix + "ObjectType"] as? String ?? "INObject"
                guard Self.isIdentifier(object) else { throw fail("\(place) '\(name)' has the object type '\(object)', which is not a Swift name") }
                kind = .object(object)
            } else {
                kind = Self.kinds[type] ?? .unsupported(type)
            }
            var parameter = Parameter(name: name, kind: kind)
            parameter.isArray = dictionary[prefix + "SupportsMultipleValues"] as? Bool ?? false
            parameter.supportsResolution = dictionary[prefix + "SupportsResolution"] as? Bool ?? false
            parameter.dynamicOptions = dictionary[prefix + "SupportsDynamicEnumeration"] as? Bool ?? false
            parameter.supportsSearch = dictionary[prefix + "SupportsSearch"] as? Bool ?? false
            if let value = (dictionary[prefix + "Metadata"] as? [String: Any])?[prefix + "MetadataDefaultValue"] {
                switch value {
                case let flag as Bool: parameter.defaultText = flag ? "true" : "false"
                case let number as Int: parameter.defaultText = String(number)
                case let number as Double: parameter.defaultText = String(number)
                case let text as String: parameter.defaultText = text
                default: break
                }
            }
            return parameter
        }

        /// The `INIntentParameterType` names Lockstep's Intents provides a type for.
        static let kinds: [String: Parameter.Kind] = [
            "String": .string, "Integer": .integer, "Boolean": .boolean, "Decimal": .decimal, "Date": .dateComponents,
            "DateComponents": .dateComponents, "URL": .url, "Person": .person, "File": .file, "SpeakableString": .speakableString,
        ]

        /// The names between `${` and `}` in a dialog string.
        static func placeholders(_ text: String) -> [String] {
            var names: [String] = []
            var rest = Substring(text)
            while let open = rest.range(of: "${"), let close = rest[open.upperBound...].firstIndex(of: "}") {
                names.append(String(rest[open.upperBound..<close]))
                rest = rest[rest.index(after: close)...]
            }
            return names
        }
    }
}
