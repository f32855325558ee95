import Testing
@testable import SwiftUI

/// A model as an app writes it, with only `import SwiftUI`: SwiftUI re-exports Combine, as Apple's does.
private final class Store: ObservableObject {
    @Published var title = "Groceries"
    @Published var count = 3
    var made = 0
}

private struct Summary: View {
    @EnvironmentObject var store: Store
    var body: some View {
        VStack {
            Text(store.title)
            Detail(store: store)
        }
    }
}

private struct Detail: View {
    @ObservedObject var store: Store
    var body: some View { Text("\(store.count) items") }
}

private struct Owner: View {
    @StateObject private var store = Store()
    var body: some View {
        Summary().environmentObject(store)
    }
}

/// `@ObservedObject`, `@StateObject` and `@EnvironmentObject` hold `ObservableObject`s; the renderer reads them as
/// they are when it draws.
@MainActor
@Suite struct ObservableObjectViewTests {
    func texts<V: View>(_ view: V) -> [String] {
        render(view, RenderRequest(size: CGSize(width: 300, height: 400))).texts
    }

    @Test func environmentObjectReachesDescendants() {
        let store = Store()
        store.title = "Errands"
        #expect(texts(Summary().environmentObject(store)) == ["Errands", "3 items"])
    }

    @Test func stateObjectIsMadeOnceAndSuppliesTheEnvironment() {
        #expect(texts(Owner()) == ["Groceries", "3 items"])
        var made = 0
        let owned = StateObject(wrappedValue: { made += 1; return Store() }())
        #expect(made == 0)  // made on first use
        #expect(owned.wrappedValue === owned.wrappedValue)
        #expect(made == 1)
    }

    @Test func projectedWrappersGiveBindingsToTheObjectsProperties() {
        let store = Store()
        let observed = ObservedObject(wrappedValue: store)
        let binding = observed.projectedValue.count
        var changes = 0
        let cancellable = store.objectWillChange.sink { changes += 1 }
        binding.wrappedValue = 9
        #expect(store.count == 9)
        #expect(changes == 1)
        cancellable.cancel()
    }

    @Test func onReceiveNeverRunsInADrawnView() {
        let subject = PassthroughSubject<Int, Never>()
        var received: [Int] = []
        let view = Text("Timer").onReceive(subject) { received.append($0) }
        #expect(texts(view) == ["Timer"])
        subject.send(1)
        #expect(received.isEmpty)
    }
}
