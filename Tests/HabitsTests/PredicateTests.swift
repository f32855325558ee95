import Foundation
import LockstepFoundation
import Testing

/// Issue 45, item 5: `NSPredicate(format:)`, which Foundation on Linux refuses at compile time, for the subset
/// extension code filters and validates with (the list is `NSPredicate`'s documentation).
@Suite("LockstepFoundation: NSPredicate's format subset")
struct PredicateTests {
    typealias Predicate = LockstepFoundation.NSPredicate

    struct Habit {
        let name: String
        let streak: Int
        let done: Bool
        let tags: [String]
        let owner: [String: Any]?
    }

    static var habits: [Habit] { [
        Habit(name: "Walk", streak: 12, done: true, tags: ["outdoor"], owner: ["name": "Ana"]),
        Habit(name: "Read", streak: 3, done: false, tags: [], owner: nil),
        Habit(name: "Méditer", streak: 7, done: false, tags: ["calm", "indoor"], owner: ["name": "Bo"]),
    ] }

    func names(_ format: String, _ arguments: CVarArg...) -> [String] {
        Self.habits.filtered(using: Predicate(format: format, argumentArray: arguments)).map(\.name)
    }

    @Test func comparisonsAndLogic() {
        #expect(names("streak > 5") == ["Walk", "Méditer"])
        #expect(names("streak >= %d AND done == NO", 3) == ["Read", "Méditer"])
        #expect(names("done == YES OR name == %@", "Read") == ["Walk", "Read"])
        #expect(names("NOT (streak < 10) && name != 'Read'") == ["Walk"])
        #expect(names("%K == %@", "owner.name", "Bo") == ["Méditer"])
        #expect(names("owner == nil") == ["Read"])
        #expect(names("name IN {'Walk', 'Read'}") == ["Walk", "Read"])
        #expect(names("tags CONTAINS 'calm'") == ["Méditer"])
        #expect(names("TRUEPREDICATE").count == 3 && names("FALSEPREDICATE").isEmpty)
    }

    @Test func stringOperatorsWithModifiers() {
        #expect(names("name BEGINSWITH[c] 'w'") == ["Walk"])
        #expect(names("name ENDSWITH 'ad'") == ["Read"])
        #expect(names("name CONTAINS[cd] 'medit'") == ["Méditer"])
        #expect(names("name CONTAINS 'medit'").isEmpty)
        #expect(names("name LIKE 'R??d'") == ["Read"] && names("name LIKE[c] 'w*'") == ["Walk"])
        // Validation, the form extension code uses most: SELF MATCHES a regular expression over the whole string.
        let email = Predicate(format: "SELF MATCHES %@", "[A-Z0-9._%+-]+@[A-Z0-9.-]+\\.[A-Z]{2,}")
        #expect(!email.evaluate(with: "ana@example.com"))
        #expect(Predicate(format: "SELF MATCHES[c] %@", "[A-Z0-9._%+-]+@[A-Z0-9.-]+\\.[A-Z]{2,}").evaluate(with: "ana@example.com"))
        #expect(!Predicate(format: "SELF MATCHES[c] %@", "[a-z]+").evaluate(with: "ana@example.com"))
    }

    @Test func dictionariesBlocksAndValues() {
        let row: [String: Any] = ["title": "Walk", "count": 4, "when": Date(timeIntervalSince1970: 10)]
        #expect(Predicate(format: "title == 'Walk' AND count < 5").evaluate(with: row))
        #expect(Predicate(format: "when > %@", argumentArray: [Date(timeIntervalSince1970: 5)]).evaluate(with: row))
        #expect(!Predicate(format: "when > %@", argumentArray: [Date(timeIntervalSince1970: 50)]).evaluate(with: row))
        #expect(Predicate(value: true).evaluate(with: nil) && !Predicate(value: false).evaluate(with: nil))
        #expect(Predicate { value, _ in (value as? Int) == 3 }.evaluate(with: 3))
        #expect(Predicate(format: "count == %d", 4).predicateFormat == "count == %d")
    }
}
