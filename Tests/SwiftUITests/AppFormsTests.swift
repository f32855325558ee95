import Testing
@testable import SwiftUI

/// A presented sheet's view that dismisses itself as it appears.
private struct SelfDismissing: View {
    @Environment(\.dismiss) private var dismiss
    @Environment(\.isPresented) private var isPresented
    let seen: (Bool) -> Void
    var body: some View {
        Text("Sheet").onAppear {
            seen(isPresented)
            dismiss()
        }
    }
}

/// A team's own toolbar content, with a body of items.
private struct EditItems: ToolbarContent {
    let appeared: () -> Void
    var body: some ToolbarContent {
        ToolbarItem(placement: .topBarTrailing) { Button("Edit") {}.onAppear(perform: appeared) }
        ToolbarItemGroup(placement: .bottomBar) { Text("Status") }
    }
}

/// Resolves `view` as a headless app's window does, and runs what appeared.
@MainActor
private func appear<V: View>(_ view: V) {
    WindowGroup { view }._appear()
}

/// The app-side forms, toolbars, presentations and scrolling pieces, drawn as a first frame shows them.
@MainActor
@Suite struct AppFormsTests {
    @Test func aSectionInAListDrawsItsHeaderRowsAndFooterOnAnInsetGroupedCard() {
        let view = List {
            Section {
                Text("Robin")
                Text("Wren")
            } header: {
                Text("Birds")
            } footer: {
                Text("Seen today")
            }
        }
        let request = RenderRequest(size: CGSize(width: 300, height: 400))
        let rendered = render(view, request)
        #expect(rendered.texts == ["BIRDS", "Robin", "Wren", "Seen today"])
        let texts = rendered.canvas.placed.filter { $0.what.hasPrefix("Text(") }.map(\.rect)
        // Header, rows and footer aligned with the row content: 16 points into a card 16 points from the edge.
        #expect(texts.allSatisfy { abs($0.minX - 32) < 0.01 })
        #expect(texts[0].maxY < texts[1].minY && texts[1].maxY < texts[2].minY && texts[2].maxY < texts[3].minY)
        // Each row at least 44 points tall: the second row's text starts a row below the first's.
        #expect(texts[2].minY - texts[1].minY >= 44)
        // The header in the footnote style (13 points at Large), smaller than the rows' body text (17).
        #expect(texts[0].height < texts[1].height)
        // The card: 16 points from either edge, a separator between the two rows from the row content's edge.
        let shapes = shapeFrames(view, width: 300, height: 400)
        #expect(shapes.contains { abs($0.minX - 16) < 0.01 && abs($0.width - 268) < 0.01 && $0.height >= 88 })
        #expect(shapes.contains { abs($0.minX - 32) < 0.01 && $0.height <= 1 })
        // The same section in a form draws the same.
        let form = Form { Section { Text("Robin"); Text("Wren") } header: { Text("Birds") } footer: { Text("Seen today") } }
        #expect(close(shapeFrames(form, width: 300, height: 400), shapes))
    }

    @Test func aSectionOutsideAListStacksItsPartsPlainly() {
        let view = LazyVStack(alignment: .leading) { Section("Birds") { Text("Robin") } }
        let rendered = render(view, RenderRequest(size: CGSize(width: 300, height: 400)))
        #expect(rendered.texts == ["Birds", "Robin"])
        let texts = rendered.canvas.placed.filter { $0.what.hasPrefix("Text(") }.map(\.rect)
        #expect(texts.allSatisfy { $0.minX == 0 } && texts[0].maxY <= texts[1].minY)
    }

    @Test func aTextFieldDrawsItsTextOrItsPromptAndASecureFieldBullets() {
        var name = ""
        let empty = Binding(get: { name }, set: { name = $0 })
        #expect(render(TextField("Name", text: empty), RenderRequest(size: CGSize(width: 200, height: 44))).texts == ["Name"])
        #expect(render(TextField("Name", text: empty, prompt: Text("Your name")), RenderRequest(size: CGSize(width: 200, height: 44))).texts == ["Your name"])
        name = "Ada"
        #expect(render(TextField("Name", text: empty), RenderRequest(size: CGSize(width: 200, height: 44))).texts == ["Ada"])
        #expect(render(SecureField("Password", text: .constant("abc")), RenderRequest(size: CGSize(width: 200, height: 44))).texts == ["•••"])
        #expect(render(SecureField("Password", text: .constant("")), RenderRequest(size: CGSize(width: 200, height: 44))).texts == ["Password"])
        // The prompt in the placeholder (tertiary label) color, the text in the primary one.
        let prompt = render(TextField("Name", text: .constant("")), RenderRequest(size: CGSize(width: 200, height: 44))).svg(title: nil)
        let text = render(TextField("Name", text: .constant("Ada")), RenderRequest(size: CGSize(width: 200, height: 44))).svg(title: nil)
        #expect(prompt.contains("fill-opacity=\"0.3") && !text.contains("fill-opacity=\"0.3"))
        // Leading in the width offered.
        let placedText = placed(TextField("Name", text: .constant("Ada")), width: 200, height: 44).first { $0.what.hasPrefix("Text(") }
        #expect(placedText?.rect.minX == 0)
    }

    @Test func aFieldsKeyboardTraitsAndTheFormStyleChangeNoPicture() {
        var submitted = false
        let plain = Form { Section("Account") { TextField("Name", text: .constant("")) } }
        let configured = Form {
            Section("Account") {
                TextField("Name", text: .constant(""))
                    .textInputAutocapitalization(.words).textContentType(.name).keyboardType(.namePhonePad)
                    .autocorrectionDisabled().submitLabel(.done).onSubmit { submitted = true }
            }
        }.formStyle(.grouped)
        let request = RenderRequest(size: CGSize(width: 300, height: 300))
        #expect(render(configured, request).svg(title: nil) == render(plain, request).svg(title: nil))
        #expect(render(configured, request).texts == ["ACCOUNT", "Name"] && !submitted)
    }

    @Test func searchingHitShapesAndScrollTargetsChangeNoFirstFrame() {
        let plain = ScrollView(.horizontal) { LazyHStack { Text("Seed"); Text("Suet") } }
        let touched = ScrollView(.horizontal) {
            LazyHStack { Text("Seed").contentShape(.containerRelative); Text("Suet").contentShape(.interaction, .rect).hoverEffect(.lift) }
                .scrollTargetLayout()
        }
        .scrollTargetBehavior(.viewAligned)
        .searchable(text: .constant("S"), prompt: "Food")
        .searchSuggestions { Text("Sunflower").searchCompletion("Sunflower") }
        let request = RenderRequest(size: CGSize(width: 300, height: 100))
        #expect(render(touched, request).svg(title: nil) == render(plain, request).svg(title: nil))
        #expect(render(touched, request).texts == ["Seed", "Suet"])
    }

    @Test func aToolbarsItemsAreMadeAndAppearButAreNotDrawn() {
        var appeared = 0
        let view = Text("Feed").toolbar { EditItems { appeared += 1 } }
        #expect(render(view, RenderRequest(size: CGSize(width: 300, height: 100))).texts == ["Feed"])
        appear(view)
        #expect(appeared == 1)
        let records = toolbarRecords(EditItems {})
        #expect(records.map(\.placement) == [.topBarTrailing, .bottomBar])
        let plain = Text("Feed").toolbar { Button("Add") {} }.navigationBarTitleDisplayMode(.inline)
        #expect(render(plain, RenderRequest(size: CGSize(width: 300, height: 100))).texts == ["Feed"])
    }

    @Test func dismissInAPresentedSheetSetsItsBindingBack() {
        var isPresented = true
        var dismissed = 0
        var seenPresented: Bool?
        let binding = Binding(get: { isPresented }, set: { isPresented = $0 })
        let view = Text("Home").sheet(isPresented: binding, onDismiss: { dismissed += 1 }) {
            SelfDismissing { seenPresented = $0 }
        }
        // The first frame draws the presenting view.
        #expect(render(view, RenderRequest(size: CGSize(width: 300, height: 100))).texts == ["Home"])
        appear(view)
        #expect(seenPresented == true && isPresented == false && dismissed == 1)
        // Outside a presentation, dismiss does nothing, as Apple's.
        EnvironmentValues().dismiss()
        // A sheet not presented makes nothing appear.
        seenPresented = nil
        appear(view)
        #expect(seenPresented == nil)
    }

    @Test func contentMarginsInsetAScrollViewsAndAListsContent() {
        let scroll = ScrollView { Text("Robin") }.contentMargins(20)
        let text = placed(scroll, width: 300, height: 300).first { $0.what.hasPrefix("Text(") }!.rect
        let bare = placed(ScrollView { Text("Robin") }, width: 300, height: 300).first { $0.what.hasPrefix("Text(") }!.rect
        #expect(abs(text.minY - bare.minY - 20) < 0.01)
        let list = List { Text("Robin") }.contentMargins(.top, 30)
        #expect(placed(list, width: 300, height: 300).first { $0.what.hasPrefix("Text(") }!.rect.minY == 30)
        let indicators = List { Text("Robin") }.contentMargins(.top, 30, for: .scrollIndicators)
        #expect(placed(indicators, width: 300, height: 300).first { $0.what.hasPrefix("Text(") }!.rect.minY == 0)
    }

    @Test func scrollClipDisabledDrawsTheContentBeyondTheScrollView() {
        let shelf = ScrollView(.horizontal) { Color.red.frame(width: 500, height: 20) }.frame(width: 100, height: 20)
        let request = RenderRequest(size: CGSize(width: 100, height: 20))
        #expect(render(shelf, request).svg(title: nil).contains("clip-path"))
        #expect(!render(shelf.scrollClipDisabled(), request).svg(title: nil).contains("clip-path"))
    }

    @Test func backgroundStyleIsWhatTheBackgroundFillsWithInside() {
        let chip = Color.clear.frame(width: 10, height: 10).background(in: .circle)
        let request = RenderRequest(size: CGSize(width: 10, height: 10))
        #expect(render(chip, request).svg(title: nil).contains("#ffffff"))
        let red = render(chip.backgroundStyle(Color.red), request).svg(title: nil)
        #expect(red.contains("#ff3b30") && !red.contains("#ffffff"))
        var environment = EnvironmentValues()
        environment.backgroundStyle = AnyShapeStyle(.background)
        // A background style of the background itself is the system background, not a loop.
        #expect(resolvePaint(BackgroundStyle(), environment) == .color(RGBA(1, 1, 1)))
    }

    @Test func lazyStacksTakeTheWholeLengthAcrossThem() {
        let lazy = shapeFrames(LazyVStack { Color.red.frame(width: 20, height: 10) }.background(Color.blue), width: 300, height: 100)
        #expect(lazy.first?.width == 300)
        let eager = shapeFrames(VStack { Color.red.frame(width: 20, height: 10) }.background(Color.blue), width: 300, height: 100)
        #expect(eager.first?.width == 20)
        let row = shapeFrames(LazyHStack { Color.red.frame(width: 20, height: 10) }.background(Color.blue), width: 300, height: 100)
        #expect(row.first?.height == 100)
    }

    @Test func aScaledMetricFollowsDynamicTypeAsItsTextStyle() {
        let metric = ScaledMetric(wrappedValue: 34, relativeTo: .body)
        var large = EnvironmentValues()
        large.dynamicTypeSize = .accessibility1
        #expect(metric.wrappedValue == 34)
        // Body is 17 points at Large and 28 at AX1 (the Human Interface Guidelines' table).
        #expect(CurrentEnvironment.with(large) { metric.wrappedValue } == 56)
    }

    @Test func aListOfDataWithASelectionDrawsItsRows() {
        struct Screen: Identifiable, Hashable { let id: String }
        var selection: Screen? = Screen(id: "Plants")
        let view = List([Screen(id: "Birds"), Screen(id: "Plants")], selection: Binding(get: { selection }, set: { selection = $0 })) {
            Text($0.id)
        }
        #expect(render(view, RenderRequest(size: CGSize(width: 300, height: 200))).texts == ["Birds", "Plants"])
    }

    @Test func aNavigationPathCountsItsScreens() {
        var path = NavigationPath()
        path.append(1)
        path.append("Robin")
        #expect(path.count == 2 && !path.isEmpty)
        path.removeLast()
        #expect(path == NavigationPath([1]))
        var isPresented = false
        let view = NavigationStack(path: .constant(path)) { Text("Root") }
            .navigationDestination(isPresented: Binding(get: { isPresented }, set: { isPresented = $0 })) { Text("Pushed") }
        #expect(render(view, RenderRequest(size: CGSize(width: 300, height: 100))).texts == ["Root"])
    }
}
