import ActivityKit
import Foundation
import SwiftUI
import Testing
@testable import WidgetKit

private struct RaceAttributes: ActivityAttributes {
    struct ContentState: Codable, Hashable { var lap: Int }
    var name: String
}

private struct StubEntry: TimelineEntry { let date: Date }
private struct StubProvider: TimelineProvider {
    func placeholder(in context: Context) -> StubEntry { StubEntry(date: Date()) }
    func getSnapshot(in context: Context, completion: @escaping (StubEntry) -> Void) { completion(StubEntry(date: Date())) }
    func getTimeline(in context: Context, completion: @escaping (Timeline<StubEntry>) -> Void) {
        completion(Timeline(entries: [StubEntry(date: Date())], policy: .never))
    }
}

/// How a Live Activity is drawn: the Lock Screen platter its tint fills, and the expanded Dynamic Island's regions
/// sized by their content and priority (rule `activity.lifecycle`'s pictures).
@MainActor
@Suite struct LiveActivityDrawingTests {
    private func island(trailingPriority: Double) -> DynamicIsland {
        DynamicIsland {
            DynamicIslandExpandedRegion(.leading) { Color.red.frame(width: 60, height: 20) }
            DynamicIslandExpandedRegion(.trailing, priority: trailingPriority) { Color.blue.frame(width: 250, height: 20) }
            DynamicIslandExpandedRegion(.center) { Text("C") }
            DynamicIslandExpandedRegion(.bottom) { Text("B") }
        } compactLeading: { Text("L") } compactTrailing: { Text("T") } minimal: { Text("M") }
    }

    /// Frames compared to a hundredth of a point.
    private func same(_ a: CGRect?, _ b: CGRect) -> Bool {
        guard let a else { return false }
        return abs(a.minX - b.minX) < 0.01 && abs(a.minY - b.minY) < 0.01 && abs(a.width - b.width) < 0.01 && abs(a.height - b.height) < 0.01
    }

    @Test func theRegionOfHigherPriorityIsSizedFirst() {
        // 371 × 160. Trailing (priority 1) first: its ideal 250 pt of the 371; leading then its ideal 60 of the 121
        // left; center the 371 − 60 − 250 = 61 pt between. Every region is shorter than the 36.67-pt camera, so the
        // top band is the camera's height, and bottom takes the 160 − 36.67 = 123.33 below it.
        let frames = island(trailingPriority: 1).expandedFrames(size: CGSize(width: 371, height: 160))
        #expect(same(frames[.trailing], CGRect(x: 121, y: 0, width: 250, height: 36.67)))
        #expect(same(frames[.leading], CGRect(x: 0, y: 0, width: 60, height: 36.67)))
        #expect(same(frames[.center], CGRect(x: 60, y: 0, width: 61, height: 36.67)))
        #expect(same(frames[.bottom], CGRect(x: 0, y: 36.67, width: 371, height: 123.33)))
    }

    @Test func equalPrioritiesShareTheWidth() {
        // Both 0: each side at most half of 371 (185.5), so trailing's 250 is held to 185.5; center gets 125.5.
        let frames = island(trailingPriority: 0).expandedFrames(size: CGSize(width: 371, height: 160))
        #expect(same(frames[.trailing], CGRect(x: 185.5, y: 0, width: 185.5, height: 36.67)))
        #expect(same(frames[.leading], CGRect(x: 0, y: 0, width: 60, height: 36.67)))
        #expect(same(frames[.center], CGRect(x: 60, y: 0, width: 125.5, height: 36.67)))
    }

    @Test func aTallRegionMakesTheTopBandTaller() {
        let island = DynamicIsland {
            DynamicIslandExpandedRegion(.leading) { Color.red.frame(width: 80, height: 75) }
            DynamicIslandExpandedRegion(.bottom) { Text("B") }
        } compactLeading: { Text("L") } compactTrailing: { Text("T") } minimal: { Text("M") }
        // The 75-pt leading region is taller than the camera: the band is 75 pt, bottom the 85 below.
        let frames = island.expandedFrames(size: CGSize(width: 371, height: 160))
        #expect(same(frames[.leading], CGRect(x: 0, y: 0, width: 80, height: 75)))
        #expect(same(frames[.bottom], CGRect(x: 0, y: 75, width: 371, height: 85)))
    }

    @Test func theTintFillsThePlatterToItsCorners() throws {
        let configuration = ActivityConfiguration(for: RaceAttributes.self) { context in
            Text("Lap \(context.state.lap)").padding(4).activityBackgroundTint(Color.orange)
        } dynamicIsland: { _ in island(trailingPriority: 0) }
        let json = #"{"id":"a1","attributesType":"RaceAttributes","attributes":"{\"name\":\"Monza\"}","state":"{\"lap\":3}","relevanceScore":0,"started":0,"revision":1,"changedAt":0}"#
        let record = try JSONDecoder().decode(ActivityRecord.self, from: Data(json.utf8))
        let pictures = try #require(configuration.presentation.render(record, isStale: false))
        let lockScreen = try #require(pictures.first { $0.kind == .lockScreen })
        #expect(lockScreen.texts == ["Lap 3"])
        // The tint is a path as large as the 371 × 160 platter with its 22-pt corners, not a band behind the text.
        #expect(lockScreen.svg.contains("fill=\"#ff9500\""), "\(lockScreen.svg)")
        let tint = try #require(lockScreen.svg.split(separator: "\n").first { $0.contains("#ff9500") })
        #expect(tint.contains("M0 22") || tint.contains("M22 0"), "\(tint)")
        #expect(tint.contains("371") && tint.contains("160"), "\(tint)")
    }

    @Test func theAccessoryBackgroundIsTheFamilysShape() {
        // accessoryCircular: 72 × 72 with a 36-pt container radius, so the background is the whole circle.
        var environment = EnvironmentValues()
        environment.containerCornerRadius = WidgetFamily.accessoryCircular.cornerRadius(on: .iPhone)
        let svg = render(ZStack { AccessoryWidgetBackground(); Text("3") }, RenderRequest(size: CGSize(width: 72, height: 72), environment: environment)).svg(title: nil)
        #expect(svg.contains("A36 36") && svg.contains("fill=\"#ffffff\" fill-opacity=\"0.2\""), "\(svg)")
    }

    @Test func contentMarginsInsetAndATooWideRegionGoesBelowTheCamera() {
        let island = DynamicIsland {
            DynamicIslandExpandedRegion(.leading) { Color.red.frame(width: 60, height: 20) }
            DynamicIslandExpandedRegion(.trailing, priority: 1) {
                Color.blue.frame(width: 400, height: 20).dynamicIsland(verticalPlacement: .belowIfTooWide)
            }
        } compactLeading: { Text("L") } compactTrailing: { Text("T") } minimal: { Text("M") }
            .contentMargins(.trailing, 32, for: .expanded)
        // The area is 371 − 32 = 339 wide. Trailing's 400 is too wide for its 339: it waits, leading takes its 60,
        // and trailing goes below the 36.67-pt camera with the 279 left, ending 32 pt from the edge; the band is
        // 36.67 + 20 = 56.67 tall, and leading as tall as the band.
        let frames = island.expandedFrames(size: CGSize(width: 371, height: 160))
        #expect(same(frames[.leading], CGRect(x: 0, y: 0, width: 60, height: 56.67)))
        #expect(same(frames[.trailing], CGRect(x: 60, y: 36.67, width: 279, height: 20)), "\(String(describing: frames[.trailing]))")
        #expect(frames[.center] == nil && frames[.bottom] == nil)
    }

    @Test func aWatchFaceIsDarkAndTheHomeScreenLight() {
        let descriptor = WidgetDescriptor(kind: "W", source: TimelineSource(provider: StubProvider()) { _ in Text("x") })
        let watch = descriptor.request(.accessoryRectangular, device: .appleWatch)
        #expect(watch.environment.colorScheme == .dark && watch.backdrop == .black)
        #expect(render(Text("x"), watch).svg(title: nil).contains("fill=\"#ffffff\">x<"))
        let home = descriptor.request(.systemSmall, device: .iPhone)
        #expect(home.environment.colorScheme == .light && home.backdrop == nil)
        let lock = descriptor.request(.accessoryInline, device: .iPhone)
        #expect(lock.environment.colorScheme == .dark && lock.environment.widgetRenderingMode == .vibrant)
    }

    /// `render --appearance dark --dynamic-type xxLarge` reaches the view's environment (and so the asset catalogs'
    /// dark variants and the text styles' sizes); an accented rendering has no container background.
    @Test func theDisplayReachesTheViewsEnvironment() {
        let descriptor = WidgetDescriptor(kind: "W", source: TimelineSource(provider: StubProvider()) { _ in Text("x") })
        let dark = descriptor.request(.systemSmall, display: WidgetDisplay(colorScheme: .dark, dynamicTypeSize: .xxLarge))
        #expect(dark.environment.colorScheme == .dark && dark.environment.dynamicTypeSize == .xxLarge)
        #expect(dark.showsContainerBackground && dark.size == CGSize(width: 158, height: 158))
        let tinted = descriptor.request(.systemMedium, display: WidgetDisplay(device: .iPad, renderingMode: .accented))
        #expect(!tinted.showsContainerBackground && !tinted.environment.showsWidgetContainerBackground && tinted.backdrop != nil)
        #expect(tinted.environment.colorScheme == .dark && tinted.size == CGSize(width: 378.5, height: 170))
    }
}
