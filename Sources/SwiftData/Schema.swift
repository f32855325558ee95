import Foundation

/// A property's role in the schema: an attribute's or a relationship's options.
public protocol SchemaProperty: AnyObject {}

/// The model types a container stores, and what each persists (read from each type's `schemaMetadata`).
public final class Schema: @unchecked Sendable {  // @unchecked: immutable after init; entities are read only.
    /// A schema's version, as `VersionedSchema` states it.
    public struct Version: Hashable, Sendable, CustomStringConvertible {
        public let major: Int, minor: Int, patch: Int
        public init(_ major: Int, _ minor: Int, _ patch: Int) {
            self.major = major
            self.minor = minor
            self.patch = patch
        }
        public var description: String { "\(major).\(minor).\(patch)" }
    }

    /// One persisted property, as `@Model` lists it.
    public struct PropertyMetadata {
        public let name: String
        public let keypath: AnyKeyPath
        public let defaultValue: Any?
        public let metadata: (any SchemaProperty)?

        public init(name: String, keypath: AnyKeyPath, defaultValue: Any?, metadata: (any SchemaProperty)?) {
            self.name = name
            self.keypath = keypath
            self.defaultValue = defaultValue
            self.metadata = metadata
        }
    }

    /// Options of a persisted attribute.
    public final class Attribute: SchemaProperty {
        public struct Option: Hashable, Sendable {
            let name: String
            /// Only one object may hold a value: inserting another with the same value updates the stored one.
            public static let unique = Option(name: "unique")
            /// Accepted; Lockstep stores the value in the database either way.
            public static let externalStorage = Option(name: "externalStorage")
            public static let preserveValueOnDeletion = Option(name: "preserveValueOnDeletion")
            public static let ephemeral = Option(name: "ephemeral")
            public static let allowsCloudEncryption = Option(name: "allowsCloudEncryption")
            public static let spotlight = Option(name: "spotlight")
        }
        public let options: [Option]
        public let originalName: String?

        public init(_ options: Option..., originalName: String? = nil, hashModifier: String? = nil) {
            self.options = options
            self.originalName = originalName
        }

        var isUnique: Bool { options.contains(.unique) }
    }

    /// A relationship's delete rule and inverse.
    public final class Relationship: SchemaProperty {
        public enum DeleteRule: Hashable, Sendable {
            /// The related objects' reference to the deleted one is removed (the default).
            case nullify
            /// The related objects are deleted too.
            case cascade
            /// The delete is refused while the relationship holds objects.
            case deny
            /// Nothing is done to the related objects.
            case noAction
        }
        public struct Option: Hashable, Sendable {
            let name: String
            public static let unique = Option(name: "unique")
        }
        public let deleteRule: DeleteRule
        public let inverseKeyPath: AnyKeyPath?
        public let originalName: String?

        public init(_ options: Option..., deleteRule: DeleteRule = .nullify, minimumModelCount: Int? = 0,
                    maximumModelCount: Int? = 0, originalName: String? = nil, inverse: AnyKeyPath? = nil,
                    hashModifier: String? = nil) {
            self.deleteRule = deleteRule
            self.inverseKeyPath = inverse
            self.originalName = originalName
        }
    }

    /// The model types, in the order given.
    public let types: [any PersistentModel.Type]
    public let version: Version
    let entities: [Entity]

    public convenience init(_ types: [any PersistentModel.Type], version: Version = Version(1, 0, 0)) {
        self.init(types: types, version: version)
    }

    init(types: [any PersistentModel.Type], version: Version = Version(1, 0, 0)) {
        // A type listed twice, or reached twice, is one entity.
        var seen = Set<ObjectIdentifier>(), unique: [any PersistentModel.Type] = []
        for type in types where seen.insert(ObjectIdentifier(type)).inserted { unique.append(type) }
        self.types = unique
        self.version = version
        entities = unique.map { Entity.of($0) }
    }

    public convenience init(_ types: any PersistentModel.Type..., version: Version = Version(1, 0, 0)) {
        self.init(types: types, version: version)
    }

    public convenience init(versionedSchema: any VersionedSchema.Type) {
        self.init(types: versionedSchema.models, version: versionedSchema.versionIdentifier)
    }

    func entity(for type: any PersistentModel.Type) -> Entity? {
        entities.first { $0.type == type }
    }
}

/// A schema at one version, for a migration plan.
public protocol VersionedSchema {
    static var versionIdentifier: Schema.Version { get }
    static var models: [any PersistentModel.Type] { get }
}

/// The versions a store moves through. Lockstep migrates lightly only (new entities and properties are added);
/// the stages are accepted and not run.
public protocol SchemaMigrationPlan {
    static var schemas: [any VersionedSchema.Type] { get }
    static var stages: [MigrationStage] { get }
}

/// A step of a migration plan.
public enum MigrationStage {
    case lightweight(fromVersion: any VersionedSchema.Type, toVersion: any VersionedSchema.Type)
    case custom(fromVersion: any VersionedSchema.Type, toVersion: any VersionedSchema.Type,
                willMigrate: ((ModelContext) throws -> Void)?, didMigrate: ((ModelContext) throws -> Void)?)
}
