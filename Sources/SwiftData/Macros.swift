// `@Model` expands to Observation's registrar and conformance, as Apple's SwiftData re-exports it.
@_exported import Observation

/// Makes a class a SwiftData model: its stored properties persist in the container's store, it conforms to
/// `PersistentModel` and `Observable`. Expanded by Lockstep's plug-in (`LockstepMacros`, no swift-syntax).
@attached(member, names: named(_$backingData), named(_$observationRegistrar), named(persistentBackingData),
          named(schemaMetadata), named(init), arbitrary)
@attached(memberAttribute)
@attached(extension, conformances: PersistentModel, Observable)
public macro Model() = #externalMacro(module: "LockstepMacros", type: "ModelMacro")

/// What `@Model` puts on each persisted property: accessors through the model's backing data.
@attached(accessor, names: named(init), named(get), named(set))
@attached(peer, names: prefixed(_))
public macro _PersistedProperty() = #externalMacro(module: "LockstepMacros", type: "PersistedPropertyMacro")

/// Options for a persisted attribute: `@Attribute(.unique) var id: String`.
@attached(peer)
public macro Attribute(_ options: Schema.Attribute.Option..., originalName: String? = nil, hashModifier: String? = nil) =
    #externalMacro(module: "LockstepMacros", type: "MarkerMacro")

/// A relationship's delete rule and inverse: `@Relationship(deleteRule: .cascade, inverse: \Bird.species)`.
@attached(peer)
public macro Relationship(_ options: Schema.Relationship.Option..., deleteRule: Schema.Relationship.DeleteRule = .nullify,
                          minimumModelCount: Int? = 0, maximumModelCount: Int? = 0, originalName: String? = nil,
                          inverse: AnyKeyPath? = nil, hashModifier: String? = nil) =
    #externalMacro(module: "LockstepMacros", type: "MarkerMacro")

/// A stored property SwiftData does not persist (it needs a default value).
@attached(peer)
public macro Transient() = #externalMacro(module: "LockstepMacros", type: "MarkerMacro")

/// The type of the zero-size peer each persisted property's init accessor initializes.
public struct _SwiftDataNoType {
    public init() {}
}
