import CSQLite
import Foundation
import Testing
import LockstepSystem
import LockstepTestSupport
import SwiftData

@Model final class Shelf {
    @Attribute(.unique) var label: String
    var added: Date
    var note: String?
    @Relationship(deleteRule: .cascade, inverse: \Book.shelf) var books: [Book] = []
    @Transient var looks = 0

    init(label: String, added: Date = Date(timeIntervalSinceReferenceDate: 0)) {
        self.label = label
        self.added = added
    }
}

@Model final class Book {
    var title: String
    var pages: Int
    var shelf: Shelf?
    var genres: [String] = []

    init(title: String, pages: Int) {
        self.title = title
        self.pages = pages
    }
}

@Model final class Lender {
    @Relationship(deleteRule: .deny) var lent: [Book] = []
    init() {}
}

/// A context over one container, in memory or in a file.
struct ModelContextTests {
    func memory() throws -> ModelContext {
        ModelContext(try ModelContainer(for: Shelf.self, Book.self, Lender.self, configurations: ModelConfiguration(isStoredInMemoryOnly: true)))
    }

    @Test func insertSaveFetchWithPredicateSortLimitOffset() throws {
        let context = try memory()
        for (title, pages) in [("Dune", 600), ("Emma", 400), ("Ulysses", 700), ("Beloved", 300)] {
            context.insert(Book(title: title, pages: pages))
        }
        #expect(context.hasChanges)
        try context.save()
        #expect(!context.hasChanges)
        let long = try context.fetch(FetchDescriptor<Book>(predicate: #Predicate { $0.pages >= 400 }, sortBy: [SortDescriptor(\.title)]))
        #expect(long.map(\.title) == ["Dune", "Emma", "Ulysses"])
        var window = FetchDescriptor<Book>(sortBy: [SortDescriptor(\.pages, order: .reverse)])
        window.fetchOffset = 1
        window.fetchLimit = 2
        #expect(try context.fetch(window).map(\.title) == ["Dune", "Emma"])
        #expect(try context.fetchCount(FetchDescriptor<Book>()) == 4)
    }

    @Test func relationshipsKeepTheirInverseAndCascade() throws {
        let context = try memory()
        let shelf = Shelf(label: "A")
        let book = Book(title: "Dune", pages: 600)
        context.insert(shelf)
        shelf.books.append(book)
        #expect(book.shelf === shelf)  // the inverse is set in memory
        try context.save()  // the book is inserted because the shelf holds it
        let fresh = ModelContext(context.container)
        let read = try #require(try fresh.fetch(FetchDescriptor<Book>()).first)
        #expect(read.shelf?.label == "A")
        #expect(read.shelf?.books.map(\.title) == ["Dune"])
        fresh.delete(try #require(read.shelf))
        try fresh.save()
        #expect(try fresh.fetchCount(FetchDescriptor<Book>()) == 0)
    }

    /// Setting the to-one side before either object is inserted sets the list on the other side too.
    @Test func inverseBeforeInsert() throws {
        let context = try memory()
        let shelf = Shelf(label: "B"), book = Book(title: "Emma", pages: 400)
        book.shelf = shelf
        #expect(shelf.books.map(\.title) == ["Emma"])
        context.insert(book)
        try context.save()
        let read = try #require(try ModelContext(context.container).fetch(FetchDescriptor<Shelf>()).first)
        #expect(read.books.map(\.title) == ["Emma"])
    }

    @Test func denyRefusesTheDeleteAndKeepsEverything() throws {
        let context = try memory()
        let lender = Lender()
        context.insert(lender)
        lender.lent.append(Book(title: "Emma", pages: 400))
        try context.save()
        context.delete(lender)
        #expect(throws: SwiftDataError.self) { try context.save() }
        context.rollback()
        #expect(try ModelContext(context.container).fetchCount(FetchDescriptor<Lender>()) == 1)
    }

    @Test func rollbackRestoresValuesAndDropsInserts() throws {
        let context = try memory()
        let book = Book(title: "Dune", pages: 600)
        context.insert(book)
        try context.save()
        book.pages = 1
        context.insert(Book(title: "Extra", pages: 1))
        context.rollback()
        #expect(book.pages == 600 && !context.hasChanges)
        #expect(try context.fetchCount(FetchDescriptor<Book>()) == 1)
    }

    @Test func uniqueAttributeUpdatesTheStoredObject() throws {
        let context = try memory()
        context.insert(Shelf(label: "A"))
        try context.save()
        let again = Shelf(label: "A")
        again.note = "second"
        context.insert(again)
        try context.save()
        let shelves = try ModelContext(context.container).fetch(FetchDescriptor<Shelf>())
        #expect(shelves.count == 1 && shelves.first?.note == "second")
    }

    @Test func transientAndComputedPropertiesAreNotStored() throws {
        #expect(!Shelf.schemaMetadata.map(\.name).contains("looks"))
        #expect(Shelf.schemaMetadata.map(\.name) == ["label", "added", "note", "books"])
        let context = try memory()
        #expect(throws: SwiftDataError.self) {
            _ = try context.fetch(FetchDescriptor<Shelf>(predicate: #Predicate { $0.looks > 0 }))
        }
    }

    /// A store from a newer format, or one whose property is stored as another kind, is refused (78) and untouched.
    @Test func anotherSchemasStoreIsRefused() throws {
        let folder = TestSupport.temporaryDirectory("swiftdata-schema"); defer { TestSupport.cleanUp(folder) }
        let url = folder.appendingPathComponent("default.store")
        do {
            let context = ModelContext(try ModelContainer(for: Book.self, configurations: ModelConfiguration(url: url)))
            context.insert(Book(title: "Dune", pages: 600))
            try context.save()
        }
        let before = try Data(contentsOf: url)
        // Another model named Book whose pages are text.
        let error = try #require(throws: SwiftDataError.self) {
            _ = try ModelContainer(for: OtherSchema.Book.self, configurations: ModelConfiguration(url: url))
        }
        #expect(error.exitStatus == .versionMismatch && error.description.contains("Book.pages"), "\(error)")
        #expect(try Data(contentsOf: url) == before)
        let reopened = ModelContext(try ModelContainer(for: Book.self, configurations: ModelConfiguration(url: url)))
        #expect(try reopened.fetch(FetchDescriptor<Book>()).map(\.title) == ["Dune"])
    }
}

extension ModelContextTests {
    /// A store of a newer format (`PRAGMA user_version` above this build's) is refused with exit 78, untouched.
    @Test func newerStoreFormatIsRefused() throws {
        let folder = TestSupport.temporaryDirectory("swiftdata-format"); defer { TestSupport.cleanUp(folder) }
        let url = folder.appendingPathComponent("default.store")
        _ = try ModelContainer(for: Book.self, configurations: ModelConfiguration(url: url))
        var db: OpaquePointer?
        #expect(sqlite3_open(url.path, &db) == SQLITE_OK)
        #expect(sqlite3_exec(db, "PRAGMA user_version = 9", nil, nil, nil) == SQLITE_OK)
        sqlite3_close(db)
        let before = try Data(contentsOf: url)
        let error = try #require(throws: SwiftDataError.self) {
            _ = try ModelContainer(for: Book.self, configurations: ModelConfiguration(url: url))
        }
        #expect(error.exitStatus == .versionMismatch && error.description.contains("format version 9"), "\(error)")
        #expect(try Data(contentsOf: url) == before)
    }
}

enum OtherSchema {
    @Model final class Book {
        var pages: String
        init(pages: String) { self.pages = pages }
    }
}
