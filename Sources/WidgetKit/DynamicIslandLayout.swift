import ActivityKit
import SwiftUI

// What a Live Activity's Dynamic Island declares about its own layout: content margins per presentation and an
// expanded region's vertical placement (Apple's DynamicIsland.contentMargins(_:_:for:) and
// View.dynamicIsland(verticalPlacement:)).

/// A presentation of the Dynamic Island (Apple's `DynamicIslandMode`).
public struct DynamicIslandMode: Hashable, Sendable {
    let name: String
    public static let compactLeading = DynamicIslandMode(name: "compactLeading")
    public static let compactTrailing = DynamicIslandMode(name: "compactTrailing")
    public static let expanded = DynamicIslandMode(name: "expanded")
    public static let minimal = DynamicIslandMode(name: "minimal")
}

/// Where an expanded region sits vertically: beside the TrueDepth camera (`default`), or below it when its content
/// is too wide to fit beside it (`belowIfTooWide`).
public struct DynamicIslandExpandedRegionVerticalPlacement: Equatable, Sendable {
    let below: Bool
    public static let `default` = Self(below: false)
    public static let belowIfTooWide = Self(below: true)
}

/// A view that said where its expanded region goes (`dynamicIsland(verticalPlacement:)`), as the region reads it.
protocol DynamicIslandPlaced {
    var verticalPlacement: DynamicIslandExpandedRegionVerticalPlacement { get }
}

/// `dynamicIsland(verticalPlacement:)`'s view: the content as it is, with the placement its region reads.
public struct _DynamicIslandPlacedView<Content: View>: View, DynamicIslandPlaced {
    let content: Content
    let verticalPlacement: DynamicIslandExpandedRegionVerticalPlacement
    public var body: some View { content }
}

extension View {
    /// Where the expanded region holding this view goes: `.belowIfTooWide` moves content too wide for the space
    /// beside the camera below it. Read by the region when it is the region's outermost modifier.
    public func dynamicIsland(verticalPlacement: DynamicIslandExpandedRegionVerticalPlacement) -> some View {
        _DynamicIslandPlacedView(content: self, verticalPlacement: verticalPlacement)
    }
}

extension DynamicIsland {
    /// The margins between the island's edges and a presentation's content: `edges` set to `length` points (nil: back
    /// to the system's, none in Lockstep's drawing).
    public func contentMargins(_ edges: Edge.Set = .all, _ length: CGFloat?, for mode: DynamicIslandMode) -> DynamicIsland {
        var copy = self
        var insets = margins[mode] ?? EdgeInsets()
        let value = length ?? 0
        if edges.contains(.top) { insets.top = value }
        if edges.contains(.leading) { insets.leading = value }
        if edges.contains(.bottom) { insets.bottom = value }
        if edges.contains(.trailing) { insets.trailing = value }
        copy.margins[mode] = insets
        return copy
    }

    /// The content margins of `mode`.
    func margins(for mode: DynamicIslandMode) -> EdgeInsets { margins[mode] ?? EdgeInsets() }

    /// The height of the camera beside which leading and trailing sit: the compact presentation's, 36.67 pt (HIG).
    static let cameraHeight: CGFloat = 36.67

    /// Where each expanded region is drawn in an island of `size` (see `expandedPicture`), inside the expanded
    /// content margins. A side region whose placement is `.belowIfTooWide` and whose ideal width is more than its
    /// share moves below the camera, where it takes at most the width the other side leaves.
    @MainActor
    package func expandedFrames(size: CGSize) -> [DynamicIslandExpandedRegionPosition: CGRect] {
        let m = margins(for: .expanded)
        let area = CGRect(x: m.leading, y: m.top, width: max(0, size.width - m.leading - m.trailing),
                          height: max(0, size.height - m.top - m.bottom))
        let band = area.height  // what a side region may be as tall as, while its width is found
        func region(_ position: DynamicIslandExpandedRegionPosition) -> DynamicIslandRegionContent? {
            regions.first { $0.position == position }
        }
        var widths: [DynamicIslandExpandedRegionPosition: CGFloat] = [:]
        var below: Set<DynamicIslandExpandedRegionPosition> = []
        let sides = [DynamicIslandExpandedRegionPosition.leading, .trailing].compactMap(region)
        let equal = sides.count == 2 && sides[0].priority == sides[1].priority
        var remaining = area.width
        for side in sides.sorted(by: { $0.priority > $1.priority }) {
            let ideal = side.fit(nil, band).width
            let width = min(ideal, equal ? area.width / 2 : remaining)
            // Too wide beside the camera: sized once the other side has its width, below the camera.
            if side.placement.below && ideal > width { below.insert(side.position); continue }
            widths[side.position] = width
            remaining -= width
        }
        for side in sides where below.contains(side.position) {
            widths[side.position] = min(side.fit(nil, band).width, remaining)
        }
        let leading = widths[.leading] ?? 0, trailing = widths[.trailing] ?? 0
        // The top band is as tall as its tallest region at its width (a region below the camera counts from the
        // camera's foot), at least the camera's height; bottom takes what is left.
        var top = Self.cameraHeight
        for (position, width) in [(DynamicIslandExpandedRegionPosition.leading, leading), (.trailing, trailing),
                                  (.center, max(0, area.width - leading - trailing))] {
            guard let content = region(position) else { continue }
            let height = content.fit(width, nil).height
            top = max(top, below.contains(position) ? Self.cameraHeight + height : height)
        }
        top = min(top, area.height)
        func sideFrame(_ position: DynamicIslandExpandedRegionPosition, x: CGFloat, width: CGFloat) -> CGRect {
            below.contains(position)
                ? CGRect(x: x, y: area.minY + Self.cameraHeight, width: width, height: max(0, top - Self.cameraHeight))
                : CGRect(x: x, y: area.minY, width: width, height: top)
        }
        var frames: [DynamicIslandExpandedRegionPosition: CGRect] = [
            .leading: sideFrame(.leading, x: area.minX, width: leading),
            .trailing: sideFrame(.trailing, x: area.maxX - trailing, width: trailing),
            .center: CGRect(x: area.minX + leading, y: area.minY, width: max(0, area.width - leading - trailing), height: top),
            .bottom: CGRect(x: area.minX, y: area.minY + top, width: area.width, height: area.height - top),
        ]
        let present = Set(regions.map(\.position))
        frames = frames.filter { present.contains($0.key) }
        return frames
    }
}
