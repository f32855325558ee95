import Foundation
import Testing
import SwiftData

/// A model written the ways real ones are: attributes on their own line, comments and strings holding braces and
/// `var`, computed properties (one-line and block), a property with observers, static and transient ones, a
/// closure-typed transient and a multi-line default. `@Model` (Lockstep's plug-in, no syntax tree) must persist
/// exactly the stored instance properties.
@Model public final class Notebook {
    // var commented: Int   (a comment, not a property)
    /* var blockCommented: Int { */
    @Attribute(.unique)
    public var title: String
    public var body: String = "var notAProperty = { }"
    var pages: [Page] = [
        Page(number: 1),
    ]
    @Relationship(deleteRule: .nullify)
    var owner: Owner?
    public var summary: String { "\(title): \(body.count) \("}") characters" }
    var wordCount: Int {
        get { body.split(separator: " ").count }
    }
    nonisolated(unsafe) static var shelfName = "notebooks"
    @Transient var format: (String) -> String = { "\($0)" }
    @Transient private(set) var opened = 0

    init(title: String) {
        self.title = title
    }

    struct Page: Codable, Hashable {
        var number: Int
    }
}

@Model final class Owner {
    var name: String
    init(name: String) { self.name = name }
}

struct ModelMacroTests {
    @Test func persistsExactlyTheStoredInstanceProperties() {
        #expect(Notebook.schemaMetadata.map(\.name) == ["title", "body", "pages", "owner"])
        #expect((Notebook.schemaMetadata[0].metadata as? Schema.Attribute)?.options == [.unique])
        #expect((Notebook.schemaMetadata[3].metadata as? Schema.Relationship)?.deleteRule == .nullify)
    }

    @Test func defaultsAndCodableValuesRoundTrip() throws {
        let container = try ModelContainer(for: Notebook.self, configurations: ModelConfiguration(isStoredInMemoryOnly: true))
        let context = ModelContext(container)
        let notebook = Notebook(title: "Field notes")
        #expect(notebook.body == "var notAProperty = { }" && notebook.pages == [Notebook.Page(number: 1)])
        notebook.owner = Owner(name: "Ann")
        context.insert(notebook)
        try context.save()
        // The context that read it is gone when its relationship is first read.
        let read = try #require(try ModelContext(container).fetch(FetchDescriptor<Notebook>()).first)
        #expect(read !== notebook)
        #expect(read.title == "Field notes" && read.pages == [Notebook.Page(number: 1)] && read.owner?.name == "Ann")
        #expect(read.summary == "Field notes: 22 } characters")
    }

    /// A model is Observable: reading a property inside `withObservationTracking` tracks it, and setting it fires.
    @Test func modelsAreObservable() {
        let notebook = Notebook(title: "A")
        let fired = Fired()
        withObservationTracking { _ = notebook.title } onChange: { fired.value = true }
        notebook.title = "B"
        #expect(fired.value)
    }
}

final class Fired: @unchecked Sendable {  // @unchecked: set once, on this test's thread
    var value = false
}
