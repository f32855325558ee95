/// `@Model`: a class whose stored properties live in its backing data, so a `ModelContext` can insert, save,
/// fetch and fault them. Like Apple's, the macro does three things:
///
/// - **member attribute**: each persisted property (an instance `var` without accessors, not `@Transient`) gets
///   `@_PersistedProperty`, which turns it into get/set through the backing data;
/// - **member**: the backing data, the observation registrar, `init(backingData:)` (how a fetch makes an object
///   without calling the team's initializer) and `schemaMetadata`, a static list of the persisted properties with
///   their key paths and their `@Attribute`/`@Relationship` options;
/// - **extension**: the conformances to `PersistentModel` and `Observable`.
enum ModelMacro {
    static func expand(_ request: MacroRequest) throws -> String {
        switch request.role {
        case "memberAttribute":
            return Member(request.syntax.source).isPersisted ? "@_PersistedProperty" : ""
        case "extension":
            guard let type = request.extendedType?.source.trimmingCharacters(in: .whitespacesAndNewlines) else {
                throw ExpansionError(message: "@Model's extension was asked for without the type it extends.")
            }
            return "extension \(type): SwiftData.PersistentModel, Observation.Observable {}"
        case "member":
            return try members(request.syntax.source)
        default:
            throw ExpansionError(message: "@Model has no '\(request.role ?? "freestanding")' role.")
        }
    }

    private static func members(_ source: String) throws -> String {
        let scanner = DeclarationScanner(source)
        guard let name = scanner.className else {
            throw ExpansionError(message: "@Model applies to a class: SwiftData stores class instances only.")
        }
        let classAttributes = Member(source)
        let access = classAttributes.modifiers.contains { $0 == "public" || $0 == "open" } ? "public " : ""
        let properties = scanner.members.map(Member.init).filter(\.isPersisted)
        if let several = properties.first(where: \.hasSeveralBindings) {
            throw ExpansionError(message: "@Model needs one stored property per 'var' ('\(several.name)' declares several).")
        }
        let metadata = properties.map { property in
            var option = "nil"
            if let arguments = property.arguments(of: "Relationship") {
                option = "SwiftData.Schema.Relationship(\(arguments))"
            } else if property.has(attribute: "Relationship") {
                option = "SwiftData.Schema.Relationship()"
            } else if let arguments = property.arguments(of: "Attribute") {
                option = "SwiftData.Schema.Attribute(\(arguments))"
            }
            return "        SwiftData.Schema.PropertyMetadata(name: \"\(property.name)\", keypath: \\\(name).\(property.name), defaultValue: nil, metadata: \(option))"
        }
        let peers = properties.map { "        _\($0.name) = SwiftData._SwiftDataNoType()" }
        return """
            private var _$backingData = SwiftData._ModelBackingData(\(name).self)

            private let _$observationRegistrar = Observation.ObservationRegistrar()

            \(access)var persistentBackingData: SwiftData._ModelBackingData {
                _$backingData
            }

            \(access)static var schemaMetadata: [SwiftData.Schema.PropertyMetadata] {
                [
            \(metadata.joined(separator: ",\n"))
                ]
            }

            \(access)required init(backingData: SwiftData._ModelBackingData) {
                _$backingData = backingData
            \(peers.joined(separator: "\n"))
                backingData.adopt(self)
            }
            """
    }
}

/// `@_PersistedProperty`, which `@Model` puts on each persisted property: accessors that read and write the
/// backing data (tracking the access and the change for Observation), and a peer of no size that the init
/// accessor initializes, so the team's initializer assigns the property as if it were stored.
enum PersistedPropertyMacro {
    static func expand(_ request: MacroRequest) throws -> String {
        let property = Member(request.syntax.source)
        guard property.keyword == "var", !property.name.isEmpty, !property.hasAccessors else {
            throw ExpansionError(message: "@_PersistedProperty applies to a stored 'var' of a @Model class.")
        }
        let name = property.name
        switch request.role {
        case "peer":
            return "private var _\(name): SwiftData._SwiftDataNoType"
        case "accessor":
            return """
                {
                    @storageRestrictions(accesses: _$backingData, initializes: _\(name))
                    init(initialValue) {
                        _$backingData.setInitialValue(initialValue, forKey: "\(name)")
                        _\(name) = SwiftData._SwiftDataNoType()
                    }
                    get {
                        _$observationRegistrar.access(self, keyPath: \\.\(name))
                        return _$backingData.getValue(forKey: "\(name)")
                    }
                    set {
                        _$observationRegistrar.withMutation(of: self, keyPath: \\.\(name)) {
                            _$backingData.setValue(newValue, forKey: "\(name)", of: self)
                        }
                    }
                }
                """
        default:
            throw ExpansionError(message: "@_PersistedProperty has no '\(request.role ?? "freestanding")' role.")
        }
    }
}

/// `@Attribute`, `@Relationship` and `@Transient` add nothing themselves: `@Model` reads them where they are written.
enum MarkerMacro {
    static func expand(_ request: MacroRequest) throws -> String { "" }
}
