import AppGroupKit
import Foundation
import LockstepRuntime

/// Where and how a container stores its models.
public struct ModelConfiguration: Hashable, Sendable {
    /// Which App Group container holds the store.
    public struct GroupContainer: Hashable, Sendable {
        enum Choice: Hashable, Sendable { case automatic, none, identifier(String) }
        let choice: Choice
        /// The first App Group in the bundle's entitlements, or the bundle's own container when it has none.
        public static let automatic = GroupContainer(choice: .automatic)
        /// The bundle's own container.
        public static let none = GroupContainer(choice: .none)
        /// That App Group's container; the bundle must be entitled to it (rule `group.entitlement`).
        public static func identifier(_ groupName: String) -> GroupContainer { GroupContainer(choice: .identifier(groupName)) }
    }

    /// CloudKit syncing: accepted, and not simulated (no CloudKit on Linux).
    public struct CloudKitDatabase: Hashable, Sendable {
        let name: String?
        public static let automatic = CloudKitDatabase(name: nil)
        public static let none = CloudKitDatabase(name: nil)
        public static func `private`(_ containerIdentifier: String) -> CloudKitDatabase { CloudKitDatabase(name: containerIdentifier) }
    }

    enum Location: Hashable, Sendable {
        case memory
        case file(URL)
        case container(GroupContainer)
    }

    /// The store's name: its file is `<name>.store`.
    public let name: String
    public let isStoredInMemoryOnly: Bool
    public let allowsSave: Bool
    public let groupContainer: GroupContainer
    let location: Location
    /// The model types this configuration stores (nil: the container's schema).
    public let schema: Schema?

    public init(_ name: String? = nil, schema: Schema? = nil, isStoredInMemoryOnly: Bool = false, allowsSave: Bool = true,
                groupContainer: GroupContainer = .automatic, cloudKitDatabase: CloudKitDatabase = .automatic) {
        self.name = name ?? "default"
        self.schema = schema
        self.isStoredInMemoryOnly = isStoredInMemoryOnly
        self.allowsSave = allowsSave
        self.groupContainer = groupContainer
        location = isStoredInMemoryOnly ? .memory : .container(groupContainer)
    }

    public init(_ name: String? = nil, schema: Schema? = nil, url: URL, allowsSave: Bool = true,
                cloudKitDatabase: CloudKitDatabase = .automatic) {
        self.name = name ?? "default"
        self.schema = schema
        isStoredInMemoryOnly = false
        self.allowsSave = allowsSave
        groupContainer = .none
        location = .file(url)
    }

    /// The store file (`/dev/null` for a store in memory, or one whose container cannot be resolved: the
    /// container's initializer says why).
    public var url: URL { (try? storePath()).map { URL(fileURLWithPath: $0) } ?? URL(fileURLWithPath: "/dev/null") }

    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.name == rhs.name && lhs.location == rhs.location && lhs.allowsSave == rhs.allowsSave
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(name)
        hasher.combine(location)
    }

    /// The store's path, as on iOS: `Library/Application Support/<name>.store` in the App Group container
    /// (`.identifier`, or `.automatic` with an App Group entitlement) or in the bundle's own container.
    /// - Throws: `.notEntitled` (exit 77) for `.identifier` of a group the bundle is not entitled to
    ///   (rule `group.entitlement`).
    func storePath() throws -> String {
        switch location {
        case .memory: return ":memory:"
        case .file(let url): return url.path
        case .container(let group):
            guard let process = SimulatedProcess.current else {
                // No simulated process (a test, a tool): the user's Application Support folder, as a Mac app's.
                let support = FileManager.default.urls(for: .applicationSupportDirectory, in: .userDomainMask).first
                    ?? URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
                return support.appendingPathComponent("\(name).store").path
            }
            let sandbox = try process.sandbox()
            let container: Container
            switch group.choice {
            case .identifier(let identifier):
                guard let entitled = try sandbox.groupContainer(identifier) else {
                    let groups = sandbox.identity.appGroups
                    throw SwiftDataError(.notEntitled, subject: identifier,
                                         detail: "'\(sandbox.identity.bundleIdentifier)' has \(groups.isEmpty ? "no App Groups" : "App Groups \(groups.joined(separator: ", "))")")
                }
                container = entitled
            case .automatic:
                // As on iOS: the first App Group the bundle is entitled to; without one, its own container, so a
                // bundle without the entitlement has a private store of its own (rule `group.entitlement`).
                container = try sandbox.identity.appGroups.first.flatMap { try sandbox.groupContainer($0) } ?? sandbox.privateContainer()
            case .none:
                container = try sandbox.privateContainer()
            }
            return "\(container.path)/Library/Application Support/\(name).store"
        }
    }
}

/// The schema and the store of an app's models; its `mainContext` is the views' context.
public final class ModelContainer: @unchecked Sendable {  // @unchecked: the store locks; mainContext is main-actor only.
    public let schema: Schema
    public let configurations: [ModelConfiguration]
    let store: ModelStore
    nonisolated(unsafe) private var main: ModelContext?

    /// - Throws: `SwiftDataError`: a store that is not SQLite or is another schema's (left untouched), a group the
    ///   bundle is not entitled to, a property type that cannot be stored.
    public init(for givenSchema: Schema, migrationPlan: (any SchemaMigrationPlan.Type)? = nil, configurations: [ModelConfiguration]) throws {
        // One store per container: the first configuration's (Lockstep keeps every entity in it).
        let configuration = configurations.first ?? ModelConfiguration(nil)
        let types = givenSchema.types + (configurations.compactMap(\.schema).flatMap(\.types))
        // The types the relationships reach are stored too, as SwiftData adds them to the schema.
        var all = types, index = 0
        while index < all.count {
            for property in Entity.of(all[index]).properties {
                if let target = property.target, !all.contains(where: { $0 == target }) { all.append(target) }
            }
            index += 1
        }
        schema = Schema(types: all, version: givenSchema.version)
        if let unsupported = schema.entities.compactMap(\.unsupported).first { throw unsupported }
        self.configurations = [configuration]
        do {
            store = try ModelStore(path: try configuration.storePath(), schema: schema)
        } catch let error as AppGroupError {
            throw SwiftDataError(error.code == .notEntitled ? .notEntitled : .database, subject: error.subject, detail: error.detail)
        }
    }

    public convenience init(for givenSchema: Schema, migrationPlan: (any SchemaMigrationPlan.Type)? = nil,
                            configurations: ModelConfiguration...) throws {
        try self.init(for: givenSchema, migrationPlan: migrationPlan, configurations: configurations)
    }

    public convenience init(for forTypes: any PersistentModel.Type..., migrationPlan: (any SchemaMigrationPlan.Type)? = nil,
                            configurations: ModelConfiguration...) throws {
        try self.init(for: Schema(types: forTypes), migrationPlan: migrationPlan, configurations: configurations)
    }

    /// The context views use (`.modelContainer(_:)` puts it in the environment); it saves by itself.
    @MainActor public var mainContext: ModelContext {
        if let main { return main }
        let context = ModelContext(self)
        context.autosaveEnabled = true
        main = context
        return context
    }

    /// Deletes every stored object of every entity.
    public func deleteAllData() {
        _ = try? store.withTransaction(writing: true) { db in
            for entity in schema.entities { try db.query("DELETE FROM \(ModelStore.quoted(entity.name))") }
        }
    }
}
