import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Testing
@testable import SwiftUI

private struct AccentKey: EnvironmentKey { static let defaultValue = "none" }
extension EnvironmentValues {
    fileprivate var accentName: String {
        get { self[AccentKey.self] }
        set { self[AccentKey.self] = newValue }
    }
}

/// A view as an app writes it: state from a stored property, the environment through @Environment.
private struct StreakView: View {
    var streak: Int?
    var kind: Int
    @Environment(\.accentName) private var accentName
    @Environment(\.colorScheme) private var colorScheme

    var body: some View {
        VStack(alignment: .leading) {
            if let streak {
                Text("Streak \(streak)")
            } else {
                Text("No streak")
            }
            switch kind {
            case 0: Text("zero")
            case 1: Text("one")
            default: EmptyView()
            }
            if kind > 0 {
                Text("positive")
            }
            ForEach(0..<2) { i in Text("row \(i)") }
            Text(accentName)
            Text(colorScheme == .dark ? "dark" : "light")
        }
    }
}

private struct Habit: Identifiable {
    var id: String
    var name: String
}

private struct Counter: View {
    @State private var count = 2
    var body: some View {
        Text("Count \(count)")
    }
}

private struct Bordered: ViewModifier {
    func body(content: Content) -> some View {
        content.padding(4).background(Color.gray)
    }
}

@MainActor
@Suite struct ViewTests {
    func texts<V: View>(_ view: V, _ environment: EnvironmentValues = EnvironmentValues()) -> [String] {
        render(view, RenderRequest(size: CGSize(width: 300, height: 400), environment: environment)).texts
    }

    @Test func viewBuilderControlFlowAndEnvironment() {
        #expect(texts(StreakView(streak: 4, kind: 1)) == ["Streak 4", "one", "positive", "row 0", "row 1", "none", "light"])
        var environment = EnvironmentValues()
        environment.colorScheme = .dark
        #expect(texts(StreakView(streak: nil, kind: 5).environment(\.accentName, "mint"), environment)
            == ["No streak", "positive", "row 0", "row 1", "mint", "dark"])
    }

    @Test func tupleViewsShowTheirElementsHoweverMade() {
        // Made by a @ViewBuilder block, by hand, and changed after the block made it: each shows what `value` holds.
        @ViewBuilder func block() -> TupleView<(Text, Text)> {
            Text("a")
            Text("b")
        }
        #expect(texts(block()) == ["a", "b"])
        #expect(texts(TupleView((Text("c"), Color.red, Text("d")))) == ["c", "d"])
        var changed = block()
        changed.value.1 = Text("e")
        #expect(texts(changed) == ["a", "e"])
    }

    @Test func forEachOverIdentifiableAndKeyPaths() {
        let habits = [Habit(id: "a", name: "Walk"), Habit(id: "b", name: "Read")]
        let view = VStack {
            ForEach(habits) { Text($0.name) }
            ForEach(["x", "y"], id: \.self) { Text($0) }
        }
        #expect(texts(view) == ["Walk", "Read", "x", "y"])
    }

    @Test func readingOrderFollowsTheTreeAcrossStacks() {
        let view = VStack {
            HStack {
                Text("a")
                ZStack { Text("b"); Text("c") }
            }
            Group {
                Text("d")
                Label("e", systemImage: "star")
            }
            Text("f").overlay(Text("g")).background(Text("h"))
        }
        // A background is drawn before what it backs, an overlay after.
        #expect(texts(view) == ["a", "b", "c", "d", "e", "h", "f", "g"])
    }

    @Test func stateShowsItsInitialValue() {
        #expect(texts(Counter()) == ["Count 2"])
        let binding = Binding.constant(5)
        #expect(binding.wrappedValue == 5)
        let state = State(initialValue: 1)
        withAnimation(.smooth(duration: 0.3)) { state.wrappedValue = 3 }
        #expect(state.projectedValue.wrappedValue == 3)
    }

    @Test func customModifiersPlaceTheirContent() {
        let frames = shapeFrames(Color.red.frame(width: 10, height: 10).modifier(Bordered()), width: 18, height: 18)
        #expect(close(frames, [rect(0, 0, 18, 18), rect(4, 4, 10, 10)]))
    }

    @Test func buttonsAndTogglesCarryTheirIntentInstances() throws {
        let token = UUID()
        let view = VStack {
            Button(intent: TapIntent(token: token)) { Label("Done", systemImage: "checkmark") }
            Toggle("Reminders", isOn: true, intent: FlipIntent())
            Button("Skip", intent: TapIntent())
        }
        let rendered = render(view, RenderRequest(size: CGSize(width: 300, height: 300)))
        #expect(rendered.controls.map(\.label) == ["Done", "Reminders", "Skip"])
        #expect(rendered.controls.map(\.intentTypeName) == ["TapIntent", "FlipIntent", "TapIntent"])
        let first = try #require(rendered.controls.first?.intent as? TapIntent)
        #expect(first.token == token)
        #expect(rendered.texts == ["Done", "Reminders", "Skip"])
    }

    @Test func linksAndWidgetURL() {
        let view = VStack {
            Link("Open", destination: URL(string: "habits://open")!)
            Text("x")
        }
        .widgetURL(URL(string: "habits://widget"))
        let rendered = render(view, RenderRequest(size: CGSize(width: 300, height: 300)))
        #expect(rendered.links.map(\.label) == ["Open"])
        #expect(rendered.links.map(\.url.absoluteString) == ["habits://open"])
        #expect(rendered.widgetURL?.absoluteString == "habits://widget")
    }

    @Test func gaugeShowsItsCurrentValueLabel() {
        let view = Gauge(value: 3, in: 0...5) {
            Text("Habits")
        } currentValueLabel: {
            Text("3")
        } minimumValueLabel: {
            Text("0")
        } maximumValueLabel: {
            Text("5")
        }
        .gaugeStyle(.accessoryCircular)
        let rendered = render(view, RenderRequest(size: CGSize(width: 76, height: 76)))
        #expect(rendered.texts == ["3", "0", "5"])
        let linear = Gauge(value: 0.5) { Text("Today") }.gaugeStyle(.accessoryLinearCapacity)
        #expect(texts(linear) == ["Today"])
        let progress = ProgressView(value: 2, total: 4) { Text("Half") }
        #expect(texts(progress) == ["Half"])
    }
}

@MainActor
@Suite struct SVGTests {
    /// Parses the SVG with Foundation's XML parser: a well-formed document with an svg root of the size.
    final class Root: NSObject, XMLParserDelegate {
        var root: (name: String, attributes: [String: String])?
        var texts: [String] = []
        var inText = false
        var current = ""
        func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?, attributes: [String: String] = [:]) {
            if root == nil { root = (name, attributes) }
            if name == "text" {
                inText = true
                current = ""
            }
        }
        func parser(_ parser: XMLParser, foundCharacters string: String) { if inText { current += string } }
        func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
            if name == "text" {
                texts.append(current)
                inText = false
            }
        }
    }

    func parse(_ svg: String) throws -> Root {
        let parser = XMLParser(data: Data(svg.utf8))
        let root = Root()
        parser.delegate = root
        #expect(parser.parse(), "not well-formed: \(parser.parserError.map { "\($0)" } ?? "")")
        return root
    }

    @Test func svgNumbersArePrintfsTwoDecimalsWithoutTrailingZeros() {
        func printf(_ value: Double) -> String {
            let rounded = (value * 100).rounded() / 100
            if rounded == rounded.rounded() { return String(Int(rounded)) }
            var s = String(format: "%.2f", rounded)
            while s.hasSuffix("0") { s.removeLast() }
            return s
        }
        var values: [Double] = [0.5, -0.5, 0.05, -0.05, 0.005, -0.004, 0.1, 12.3, -12.34, 99.995, 1234567.89, -0.999]
        values += stride(from: -300.0, through: 300.0, by: 0.037).map { $0 }
        for value in values { #expect(svgNumber(CGFloat(value)) == printf(value), "\(value)") }
        #expect(svgNumber(.nan) == "0" && svgNumber(1e19) == "1000000000")
    }

    @Test func svgIsWellFormedWithItsSizeAndEscapedText() throws {
        let view = VStack {
            Text("Tom & Jerry <3 \"quotes\" 'apostrophes'")
            Image(systemName: "flame.fill")
            Image(systemName: "circle").foregroundStyle(.secondary)
            Label("Later", systemImage: "clock").foregroundStyle(.tertiary)
            RoundedRectangle(cornerRadius: 8).fill(LinearGradient(colors: [.red, .blue], startPoint: .top, endPoint: .bottom))
            Circle().stroke(Color.green, lineWidth: 2)
            Gauge(value: 0.3) { Text("g") }.gaugeStyle(.accessoryCircularCapacity)
            Text("clipped").padding().background(Color.yellow).clipShape(Capsule()).shadow(radius: 2).opacity(0.5)
        }
        let svg = render(view, RenderRequest(size: CGSize(width: 338, height: 158))).svg(title: "Habits <medium>")
        let root = try parse(svg)
        #expect(root.root?.name == "svg")
        #expect(root.root?.attributes["width"] == "338")
        #expect(root.root?.attributes["height"] == "158")
        #expect(root.texts.contains("Tom & Jerry <3 \"quotes\" 'apostrophes'"))
        #expect(svg.contains("<title>flame.fill</title>"))
    }

    @Test func colorsFollowTheColorScheme() throws {
        var dark = EnvironmentValues()
        dark.colorScheme = .dark
        let light = render(Text("a"), RenderRequest(size: CGSize(width: 50, height: 50))).svg(title: nil)
        let night = render(Text("a"), RenderRequest(size: CGSize(width: 50, height: 50), environment: dark)).svg(title: nil)
        #expect(light.contains("fill=\"#000000\""))
        #expect(night.contains("fill=\"#ffffff\""))
        let red = render(Color.red, RenderRequest(size: CGSize(width: 10, height: 10), environment: dark)).svg(title: nil)
        #expect(red.contains("#ff453a"))
    }

    @Test func xcodeTemplateStylesRingsAndShapeShorthands() throws {
        // Xcode's widget template: `.containerBackground(.fill.tertiary, for: .widget)`; a progress ring as widgets
        // draw it; iOS 17's shape shorthands.
        let view = ZStack {
            Circle().trim(from: 0, to: 0.7)
                .stroke(Color.green, style: StrokeStyle(lineWidth: 8, lineCap: .round, dash: [2, 3]))
                .rotationEffect(.degrees(-90))
            Text("70%").padding(4).background(.fill.secondary, in: .rect(cornerRadius: 4)).clipShape(.capsule)
        }
        .containerBackground(.fill.tertiary, for: ContainerBackgroundPlacement("widget"))
        let rendered = render(view, RenderRequest(size: CGSize(width: 170, height: 170), containerBackground: ContainerBackgroundPlacement("widget")))
        let svg = rendered.svg(title: nil)
        _ = try parse(svg)
        #expect(svg.contains("rotate(-90 85 85)"))
        #expect(svg.contains("stroke-linecap=\"round\""))
        #expect(svg.contains("stroke-dasharray=\"2 3\""))
        // tertiarySystemFill (767680 at 12%) full-bleed behind.
        #expect(svg.contains("fill=\"#767680\" fill-opacity=\"0.12\""))
        #expect(rendered.texts == ["70%"])
    }

    @Test func containerRelativeShapeIsConcentricWithTheWidget() {
        var environment = EnvironmentValues()
        environment.containerCornerRadius = 22
        let view = ContainerRelativeShape().fill(Color.blue).padding(8)
        let svg = render(view, RenderRequest(size: CGSize(width: 100, height: 100), environment: environment)).svg(title: nil)
        // 22 − 8 = 14.
        #expect(svg.contains("A14 14"))
    }

    @Test func accentedRenderingDrawsTheAccentGroupInTheTintAndTheRestWhite() {
        var environment = EnvironmentValues()
        environment.widgetColorRendering = .accented
        let view = VStack {
            Text("plain").foregroundStyle(.red)
            Text("accent").widgetAccentable()
        }
        let svg = render(view, RenderRequest(size: CGSize(width: 100, height: 100), environment: environment)).svg(title: nil)
        #expect(svg.contains("fill=\"#ffffff\">plain<"))
        #expect(svg.contains("fill=\"#007aff\">accent<"))
        #expect(!svg.contains("#ff3b30"))
    }

    @Test func controlCharactersNeverBreakTheDocument() throws {
        let svg = render(Text("bell\u{7}tab\tend"), RenderRequest(size: CGSize(width: 200, height: 40))).svg(title: "a\u{1}b")
        _ = try parse(svg)
    }
}
