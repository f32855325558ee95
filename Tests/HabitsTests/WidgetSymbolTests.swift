import Foundation
import LockstepTestSupport
import Synchronization
@testable import SwiftUI
@testable import WidgetKit
import Testing

/// What the test's push handler was handed.
private let pushTokens = Mutex<[(Data, [String])]>([])

/// WidgetKit's smaller symbols of iOS 16 to 26: an image's accented rendering, a complication's label, disfavored
/// locations and widget pushes.
@MainActor
@Suite struct WidgetSymbolTests {
    /// A 90 × 60 PNG's header: enough for UIImage to know its size and embed it.
    static let png = UIImage(data: Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52,
                                         0, 0, 0, 90, 0, 0, 0, 60, 8, 6, 0, 0, 0]))!

    /// The picture of `view` in accented rendering (a tinted Home Screen), accent color red.
    func accented<V: View>(_ view: V) -> String {
        var environment = EnvironmentValues()
        environment.widgetColorRendering = .accented
        return render(view.tint(.red), RenderRequest(size: CGSize(width: 100, height: 100), environment: environment)).svg(title: nil)
    }

    @Test func accentedRenderingDrawsAnImageAsATemplateUnlessItsModeSaysOtherwise() {
        let image = Image(uiImage: Self.png)
        // Apple: accented rendering "treats the widget's views as if they were template images", the default group white.
        let plain = accented(image)
        #expect(plain.contains("mask-type:alpha") && plain.contains("fill=\"#ffffff\""), "\(plain)")
        let full = accented(image.widgetAccentedRenderingMode(.fullColor))
        #expect(!full.contains("mask=") && full.contains("<image href=\"data:image/png"), "\(full)")
        let accent = accented(image.widgetAccentedRenderingMode(.accented))
        #expect(accent.contains("mask-type:alpha") && accent.contains("fill=\"#ff3b30\""), "\(accent)")
        let desaturated = accented(image.widgetAccentedRenderingMode(.desaturated))
        #expect(desaturated.contains("mask-type:luminance") && desaturated.contains("fill=\"#ffffff\""), "\(desaturated)")
        let both = accented(image.widgetAccentedRenderingMode(.accentedDesaturated))
        #expect(both.contains("mask-type:luminance") && both.contains("fill=\"#ff3b30\""), "\(both)")
        // In full-color rendering every mode draws the picture as it is.
        let home = render(image.widgetAccentedRenderingMode(.desaturated), RenderRequest(size: CGSize(width: 100, height: 100))).svg(title: nil)
        #expect(!home.contains("mask="), "\(home)")
    }

    private struct Cats: Widget {
        var body: some WidgetConfiguration {
            StaticConfiguration(kind: "Cats", provider: OneEntryProvider()) { _ in
                Text("🐈").widgetLabel("Cats")
            }
            .supportedFamilies([.accessoryCircular, .accessoryCorner, .systemSmall])
            .disfavoredLocations([.standBy, .iPhoneWidgetsOnMac], for: [.systemSmall])
            .pushHandler(Pushes.self)
        }
    }

    private struct Plain: Widget {
        var body: some WidgetConfiguration {
            StaticConfiguration(kind: "Plain", provider: OneEntryProvider()) { _ in Text("·") }
        }
    }

    private struct Pushes: WidgetPushHandler {
        func pushTokenDidChange(_ pushInfo: WidgetPushInfo, widgets: [WidgetInfo]) {
            pushTokens.withLock { $0.append((pushInfo.token, widgets.map(\.description))) }
        }
    }

    @Test func aWidgetLabelShowsOnTheWatchsCornerAndCircularComplicationsOnly() throws {
        let cats = try #require(Describe.widget(Cats()).first)
        func texts(_ family: WidgetFamily, _ device: ReferenceDevice) -> [String] {
            let request = cats.request(family, device: device)
            return render(Text("🐈").widgetLabel("Cats"), request).texts
        }
        // Apple: "The system only displays labels on widget-based complications in watchOS".
        #expect(texts(.accessoryCircular, .appleWatch) == ["🐈", "Cats"])
        #expect(texts(.accessoryCorner, .appleWatch) == ["🐈", "Cats"])
        #expect(texts(.accessoryCircular, .iPhone) == ["🐈"])
        #expect(cats.request(.accessoryCircular, device: .appleWatch).environment.showsWidgetLabel)
        #expect(!cats.request(.accessoryCircular, device: .iPhone).environment.showsWidgetLabel)
    }

    @Test func disfavoredLocationsAndAPushHandlerAsTheWidgetProcessServesThem() throws {
        let root = TestSupport.temporaryDirectory("widget-push")
        defer { TestSupport.cleanUp(root) }
        let lines = Mutex<[String]>([])
        let cats = try #require(Describe.widget(Cats()).first)
        #expect(cats.disfavoredLocations == [.systemSmall: [.standBy, .iPhoneWidgetsOnMac]])
        let system = WidgetSystem(widget: cats, groupsRoot: root.path, groupContainer: root.path, hostBundleIdentifier: "com.example.app",
                                  output: { line in lines.withLock { $0.append(line) } })
        pushTokens.withLock { $0 = [] }
        try system.start()
        #expect(system.status().hasSuffix("; systemSmall not suggested for standBy, iPhoneWidgetsOnMac"), "\(system.status())")
        // Started, the extension hands its handler its push token and its widgets.
        let handed = pushTokens.withLock { $0 }
        #expect(handed.count == 1 && handed.first?.1 == ["Cats (accessoryCircular)", "Cats (accessoryCorner)", "Cats (systemSmall)"])
        #expect(lines.withLock { $0 }.contains { $0.hasPrefix("push token for Cats: ") })
        // A push reloads the timeline, counted against the daily budget as any reload the person did not ask for.
        try system.push()
        #expect(lines.withLock { $0 }.last?.hasPrefix("reloaded Cats (widget push received; budget 1/") == true, "\(lines.withLock { $0 })")

        let plain = WidgetSystem(widget: try #require(Describe.widget(Plain()).first), groupsRoot: root.path, groupContainer: root.path,
                                 hostBundleIdentifier: "com.example.app", output: { _ in })
        try plain.start()
        #expect(throws: WidgetKitError.self) { try plain.push() }
        #expect(WidgetKitError(.noPushHandler, subject: "Plain", detail: "").description == "'Plain' declares no pushHandler(_:): iOS delivers no widget push to it.")
    }
}
