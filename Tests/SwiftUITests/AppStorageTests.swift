import Foundation
import LockstepFoundation
import Testing
@testable import SwiftUI

private enum Theme: String { case light, dark }
private enum Level: Int { case low = 1, high = 2 }

/// A suite of its own per test: outside a simulated process, suites are kept in memory for the test process.
private func freshSuite() -> LockstepFoundation.UserDefaults {
    LockstepFoundation.UserDefaults(suiteName: "test.appstorage.\(UUID().uuidString)")!
}

private struct Greeting: View {
    @AppStorage("name") var name = "nobody"
    var body: some View { Text("hello \(name)") }
}

/// `@AppStorage` reads and writes the `UserDefaults` team code gets, in the forms `UserDefaults` itself keeps.
@Suite struct AppStorageTests {
    @Test func eachTypeReadsItsDefaultThenWhatWasWritten() throws {
        let store = freshSuite()
        let flag = AppStorage(wrappedValue: true, "flag", store: store)
        let count = AppStorage(wrappedValue: 3, "count", store: store)
        let ratio = AppStorage(wrappedValue: 0.5, "ratio", store: store)
        let name = AppStorage(wrappedValue: "a", "name", store: store)
        let link = AppStorage(wrappedValue: URL(string: "https://example.com")!, "link", store: store)
        let blob = AppStorage(wrappedValue: Data([1]), "blob", store: store)
        let when = AppStorage(wrappedValue: Date(timeIntervalSince1970: 0), "when", store: store)
        let theme = AppStorage(wrappedValue: Theme.light, "theme", store: store)
        let level = AppStorage(wrappedValue: Level.low, "level", store: store)
        #expect(flag.wrappedValue == true && count.wrappedValue == 3 && ratio.wrappedValue == 0.5 && name.wrappedValue == "a")
        #expect(link.wrappedValue.absoluteString == "https://example.com" && blob.wrappedValue == Data([1]))
        #expect(when.wrappedValue == Date(timeIntervalSince1970: 0) && theme.wrappedValue == .light && level.wrappedValue == .low)
        #expect(["flag", "count", "ratio", "name", "link", "blob", "when", "theme", "level"].allSatisfy { store.object(forKey: $0) == nil },
                "reading a default writes nothing")

        flag.wrappedValue = false
        count.wrappedValue = 7
        ratio.wrappedValue = 2.25
        name.wrappedValue = "b"
        link.wrappedValue = URL(string: "https://example.org/x")!
        blob.wrappedValue = Data([9, 8])
        when.wrappedValue = Date(timeIntervalSince1970: 86_400)
        theme.wrappedValue = .dark
        level.wrappedValue = .high
        #expect(flag.wrappedValue == false && count.wrappedValue == 7 && ratio.wrappedValue == 2.25 && name.wrappedValue == "b")
        #expect(link.wrappedValue.absoluteString == "https://example.org/x" && blob.wrappedValue == Data([9, 8]))
        #expect(when.wrappedValue == Date(timeIntervalSince1970: 86_400) && theme.wrappedValue == .dark && level.wrappedValue == .high)
        // Stored as UserDefaults' own forms: team code reading the key with UserDefaults' getters sees the same.
        #expect(store.object(forKey: "flag") as? Bool == false && store.integer(forKey: "count") == 7 && store.double(forKey: "ratio") == 2.25)
        #expect(store.string(forKey: "name") == "b" && store.url(forKey: "link")?.absoluteString == "https://example.org/x")
        #expect(store.data(forKey: "blob") == Data([9, 8]) && store.object(forKey: "when") as? Date == Date(timeIntervalSince1970: 86_400))
        #expect(store.string(forKey: "theme") == "dark" && store.integer(forKey: "level") == 2)
    }

    @Test func optionalsReadNilWhenAbsentAndSettingNilRemovesTheKey() {
        let store = freshSuite()
        let count = AppStorage<Int?>("count", store: store)
        let name = AppStorage<String?>("name", store: store)
        let theme = AppStorage<Theme?>("theme", store: store)
        let level = AppStorage<Level?>("level", store: store)
        let when = AppStorage<Date?>("when", store: store)
        let link = AppStorage<URL?>("link", store: store)
        #expect(count.wrappedValue == nil && name.wrappedValue == nil && theme.wrappedValue == nil && level.wrappedValue == nil)
        #expect(when.wrappedValue == nil && link.wrappedValue == nil)
        count.wrappedValue = 4
        theme.wrappedValue = .dark
        level.wrappedValue = .high
        link.wrappedValue = URL(fileURLWithPath: "/tmp/x")
        #expect(count.wrappedValue == 4 && theme.wrappedValue == .dark && level.wrappedValue == .high && link.wrappedValue?.path == "/tmp/x")
        count.wrappedValue = nil
        theme.wrappedValue = nil
        link.wrappedValue = nil
        #expect(store.object(forKey: "count") == nil && store.object(forKey: "theme") == nil && store.object(forKey: "link") == nil)
        // iOS 18's optional form with a default.
        let withDefault = AppStorage<String?>(wrappedValue: "fallback", "other", store: store)
        #expect(withDefault.wrappedValue == "fallback")
    }

    @Test func aValueOfAnotherTypeOrAnUnknownRawValueReadsAsTheDefault() {
        let store = freshSuite()
        store.set("not a number", forKey: "count")
        store.set("purple", forKey: "theme")
        store.set(9, forKey: "level")
        store.set(3.0, forKey: "whole")
        #expect(AppStorage(wrappedValue: 1, "count", store: store).wrappedValue == 1)
        #expect(AppStorage(wrappedValue: Theme.light, "theme", store: store).wrappedValue == .light)
        #expect(AppStorage(wrappedValue: Level.low, "level", store: store).wrappedValue == .low)
        #expect(AppStorage(wrappedValue: false, "count", store: store).wrappedValue == false)
        // A whole number kept as a double is still the number (property lists do not tell them apart).
        #expect(AppStorage(wrappedValue: 0, "whole", store: store).wrappedValue == 3)
        #expect(AppStorage(wrappedValue: 0.0, "whole", store: store).wrappedValue == 3)
    }

    @Test func everyReadGoesToTheStoreAndTheBindingWritesIt() {
        let store = freshSuite()
        let name = AppStorage(wrappedValue: "a", "name", store: store)
        // Another UserDefaults of the same suite writes: the wrapper reads it at its next access.
        LockstepFoundation.UserDefaults(suiteName: nil)?.set("x", forKey: "unrelated")
        freshSuite().set("not this suite", forKey: "name")
        #expect(name.wrappedValue == "a")
        store.set("written elsewhere", forKey: "name")
        #expect(name.wrappedValue == "written elsewhere")
        let binding = name.projectedValue
        binding.wrappedValue = "from a toggle"
        #expect(store.string(forKey: "name") == "from a toggle" && binding.wrappedValue == "from a toggle")
        // A registered default is the store's answer for an absent key, as on iOS.
        store.register(defaults: ["registered.\(ObjectIdentifier(store).hashValue)": 42])
        #expect(AppStorage(wrappedValue: 0, "registered.\(ObjectIdentifier(store).hashValue)", store: store).wrappedValue == 42)
    }

    @MainActor @Test func withoutAStoreTheViewReadsTheDefaultAppStorageElseStandard() {
        let store = freshSuite()
        store.set("group reader", forKey: "name")
        func texts<V: View>(_ view: V) -> [String] {
            placed(view, width: 300, height: 100).filter { $0.what.hasPrefix("Text(") }.map(\.what)
        }
        #expect(texts(Greeting().defaultAppStorage(store)) == ["Text(hello group reader)"])
        LockstepFoundation.UserDefaults.standard.removeObject(forKey: "name")
        #expect(texts(Greeting()) == ["Text(hello nobody)"])
        LockstepFoundation.UserDefaults.standard.set("standard", forKey: "name")
        defer { LockstepFoundation.UserDefaults.standard.removeObject(forKey: "name") }
        #expect(texts(Greeting()) == ["Text(hello standard)"])
    }

    @Test func sceneStorageKeepsItsValueInMemory() {
        let tab = SceneStorage(wrappedValue: 0, "tab")
        let note = SceneStorage<String?>("note")
        #expect(tab.wrappedValue == 0 && note.wrappedValue == nil)
        tab.projectedValue.wrappedValue = 2
        note.wrappedValue = "draft"
        #expect(tab.wrappedValue == 2 && note.wrappedValue == "draft")
        let theme = SceneStorage<Theme?>("theme")
        theme.wrappedValue = .dark
        #expect(theme.wrappedValue == .dark && SceneStorage(wrappedValue: Level.low, "level").wrappedValue == .low)
        #expect(LockstepFoundation.UserDefaults.standard.object(forKey: "tab") == nil)
    }

    @MainActor @Test func onChangeRunsOnAppearOnlyWhenInitial() {
        final class Calls { var seen: [String] = [] }
        let calls = Calls()
        WindowGroup {
            VStack {
                Text("a").onChange(of: 5, initial: true) { old, new in calls.seen.append("two \(old) \(new)") }
                Text("b").onChange(of: 6, initial: true) { calls.seen.append("zero") }
                Text("c").onChange(of: 7) { _, _ in calls.seen.append("not initial") }
            }
        }._appear()
        #expect(calls.seen == ["two 5 5", "zero"])
    }
}
