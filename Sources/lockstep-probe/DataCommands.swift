import Foundation
import SwiftData

/// A trail and its hikes: the probe's SwiftData models, for the multi-process tests of SwiftDataTests.
@Model final class Trail {
    @Attribute(.unique) var name: String
    var length: Double
    var tags: [String] = []
    @Relationship(deleteRule: .cascade, inverse: \Hike.trail) var hikes: [Hike] = []
    @Transient var visits = 0

    /// Computed, so not stored: a predicate on it cannot be evaluated by the store.
    var summary: String { "\(name) \(length) km" }

    init(name: String, length: Double) {
        self.name = name
        self.length = length
    }
}

@Model final class Hike {
    var hiker: String
    var trail: Trail?

    init(hiker: String) {
        self.hiker = hiker
    }
}

/// `data …`: the probe's SwiftData commands, each on the default configuration (`.automatic`: the bundle's first
/// App Group, or its own container without one).
///
///     data add NAME KM       inserts a trail and saves
///     data hike NAME HIKER N adds N hikes to the trail, saving after each (a writer racing another)
///     data delete NAME       deletes the trail (its hikes cascade) and saves
///     data list              prints each trail, its length and its hikes, then the number of trails and hikes
///     data computed          fetches with a predicate on a computed property (refused)
///     data in GROUP          prints the store's path for `.identifier(GROUP)`
enum DataCommands {
    static func perform(_ argument: String) throws {
        let words = argument.split(separator: " ").map(String.init)
        func container() throws -> ModelContainer { try ModelContainer(for: Trail.self, Hike.self) }
        switch words.first ?? "" {
        case "add" where words.count == 3:
            let context = ModelContext(try container())
            context.insert(Trail(name: words[1], length: Double(words[2]) ?? 0))
            try context.save()
            print("saved \(words[1])")
        case "hike" where words.count == 4:
            let context = ModelContext(try container())
            let name = words[1]
            for index in 0..<(Int(words[3]) ?? 1) {
                guard let trail = try context.fetch(FetchDescriptor<Trail>(predicate: #Predicate { $0.name == name })).first else {
                    throw ProbeError("lockstep-probe: no trail named \(name).")
                }
                trail.hikes.append(Hike(hiker: "\(words[2])-\(index)"))
                try context.save()
            }
            print("hiked \(name)")
        case "delete" where words.count == 2:
            let context = ModelContext(try container())
            let name = words[1]
            try context.delete(model: Trail.self, where: #Predicate { $0.name == name })
            try context.save()
            print("deleted \(name)")
        case "list":
            let context = ModelContext(try container())
            let trails = try context.fetch(FetchDescriptor<Trail>(sortBy: [SortDescriptor(\.name)]))
            for trail in trails {
                print("\(trail.name) \(trail.length) hikes=\(trail.hikes.count)")
            }
            print("\(trails.count) trails, \(try context.fetchCount(FetchDescriptor<Hike>())) hikes")
        case "computed":
            let context = ModelContext(try container())
            _ = try context.fetch(FetchDescriptor<Trail>(predicate: #Predicate { $0.summary == "x" }))
        case "in" where words.count == 2:
            let configuration = ModelConfiguration(groupContainer: .identifier(words[1]))
            _ = try ModelContainer(for: Trail.self, configurations: configuration)
            print(configuration.url.path)
        default:
            throw ProbeError("lockstep-probe: unknown data command '\(argument)'.")
        }
    }
}
