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

    @Test func theRegionOfHigherPriorityIsSizedFirst() {
        // 371 × 160: the top band is 160 × 0.55 = 88 pt. Trailing (priority 1) first: its ideal 250 pt of the 371;
        // leading then its ideal 60 of the 121 left; center the 371 − 60 − 250 = 61 pt between; bottom below.
        let frames = island(trailingPriority: 1).expandedFrames(size: CGSize(width: 371, height: 160))
        #expect(frames[.trailing] == CGRect(x: 121, y: 0, width: 250, height: 88))
        #expect(frames[.leading] == CGRect(x: 0, y: 0, width: 60, height: 88))
        #expect(frames[.center] == CGRect(x: 60, y: 0, width: 61, height: 88))
        #expect(frames[.bottom] == CGRect(x: 0, y: 88, width: 371, height: 72))
    }

    @Test func equalPrioritiesShareTheWidth() {
        // Both 0: each side at most half of 371 (185.5), so trailing's 250 is held to 185.5 and center gets none.
        let frames = island(trailingPriority: 0).expandedFrames(size: CGSize(width: 371, height: 160))
        #expect(frames[.trailing] == CGRect(x: 185.5, y: 0, width: 185.5, height: 88))
        #expect(frames[.leading] == CGRect(x: 0, y: 0, width: 60, height: 88))
        #expect(frames[.center] == CGRect(x: 60, y: 0, width: 125.5, height: 88))
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
        // The tint is a path as large as the 361 × 160 platter with its 22-pt corners, not a band behind the text.
        #expect(lockScreen.svg.contains("fill=\"#ff9500\""), "\(lockScreen.svg)")
        let tint = try #require(lockScreen.svg.split(separator: "\n").first { $0.contains("#ff9500") })
        #expect(tint.contains("M0 22") || tint.contains("M22 0"), "\(tint)")
        #expect(tint.contains("361") && tint.contains("160"), "\(tint)")
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
        // The area is 371 − 32 = 339 wide; top band 160 × 0.55 = 88. Trailing's 400 is too wide for its 339: it waits,
        // leading takes its 60, and trailing goes below the 36.67-pt camera with the 279 left, ending 32 pt from the edge.
        let frames = island.expandedFrames(size: CGSize(width: 371, height: 160))
        #expect(frames[.leading] == CGRect(x: 0, y: 0, width: 60, height: 88))
        let trailing = frames[.trailing]!
        #expect(trailing.minX == 60 && trailing.width == 279 && trailing.maxX == 339, "\(trailing)")
        #expect(abs(trailing.minY - 36.67) < 0.001 && abs(trailing.height - 51.33) < 0.001, "\(trailing)")
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
}
