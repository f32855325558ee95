// MARK: - ScrollView

/// A scrollable region. A picture cannot scroll: the content is drawn at its ideal length along the scrolling axes,
/// from the start (as a widget or a first frame shows it), clipped to the scroll view, which takes the space it is
/// offered.
public struct ScrollView<Content: View> {
    public var axes: Axis.Set
    public var showsIndicators: Bool
    public var content: Content

    public init(_ axes: Axis.Set = .vertical, showsIndicators: Bool = true, @ViewBuilder content: () -> Content) {
        self.axes = axes
        self.showsIndicators = showsIndicators
        self.content = content()
    }
}
extension ScrollView: View { public typealias Body = Never }
extension ScrollView: PrimitiveView {
    @MainActor public static func _resolve(_ view: Self, _ inputs: _ResolveInputs) -> _ResolvedNodes { _ResolvedNodes(nodes: view.nodes(inputs.context)) }
    @MainActor func nodes(_ context: ResolveContext) -> [Node] {
        // A vertical scroll view's content is a VStack of its views, a horizontal one's an HStack (SwiftUI's own
        // implicit stack for several views).
        let children = resolve(content, context)
        let stack = children.count == 1 ? children[0]
            : StackNode(axis: axes.contains(.vertical) ? .vertical : .horizontal, alignment: .center, spacing: nil, children: children)
        // `contentMargins(_:_:for:)` insets the content inside the scrolled region.
        let margins = context.environment.scrollContentMargins
        return [ScrollNode(axes: axes, child: margins == EdgeInsets() ? stack : PaddingNode(insets: margins, child: stack),
                           clips: !context.environment.isScrollClipDisabled)]
    }
}

final class ScrollNode: Node {
    let axes: Axis.Set
    let child: Node
    /// Whether the content is clipped to the scroll view (`scrollClipDisabled(_:)` turns it off).
    let clips: Bool
    override var childNodes: [Node] { [child] }

    init(axes: Axis.Set, child: Node, clips: Bool = true) {
        self.axes = axes
        self.child = child
        self.clips = clips
    }

    /// What the content is offered: nothing (its ideal length) along a scrolling axis, the proposal across.
    private func inner(_ proposal: Proposal) -> Proposal {
        Proposal(width: axes.contains(.horizontal) ? nil : proposal.width, height: axes.contains(.vertical) ? nil : proposal.height)
    }

    override func computeSize(_ proposal: Proposal) -> CGSize {
        let content = child.size(for: inner(proposal))
        return CGSize(width: finite(proposal.width) ?? content.width, height: finite(proposal.height) ?? content.height)
    }

    override func place(in rect: CGRect, _ canvas: Drawing) {
        let size = child.size(for: inner(Proposal(rect.size)))
        // From the start of each scrolling axis; centered across it, as SwiftUI centers narrower content.
        let x = axes.contains(.horizontal) ? rect.minX : rect.minX + (rect.width - size.width) / 2
        let y = axes.contains(.vertical) ? rect.minY : rect.minY + (rect.height - size.height) / 2
        let clip = clips ? (Path(CGRect(origin: .zero, size: rect.size)).data, rect.origin) : nil
        canvas.ops.append(.beginGroup(opacity: nil, clip: clip, offset: .zero, shadow: nil))
        child.place(in: CGRect(origin: CGPoint(x: x, y: y), size: size), canvas)
        canvas.ops.append(.endGroup)
    }
}

nonisolated extension View {
    /// Scroll indicators are not drawn in a picture; the modifier changes nothing else.
    public func scrollIndicators(_ visibility: ScrollIndicatorVisibility, axes: Axis.Set = [.vertical, .horizontal]) -> some View { self }
}

public struct ScrollIndicatorVisibility: Hashable, Sendable {
    let name: String
    public static let automatic = ScrollIndicatorVisibility(name: "automatic")
    public static let visible = ScrollIndicatorVisibility(name: "visible")
    public static let hidden = ScrollIndicatorVisibility(name: "hidden")
    public static let never = ScrollIndicatorVisibility(name: "never")
}

// MARK: - TimelineView

/// When a `TimelineView` redraws. A picture is one moment: the view is drawn for the schedule's last entry at or
/// before the moment drawn (the widget entry's date, or now).
public protocol TimelineSchedule {
    associatedtype Entries: Sequence where Entries.Element == Date
    func entries(from startDate: Date, mode: TimelineScheduleMode) -> Entries
}

public enum TimelineScheduleMode: Hashable, Sendable { case normal, lowFrequency }

/// Every frame (`.animation`), or every `minimumInterval` seconds.
public struct AnimationTimelineSchedule: TimelineSchedule, Sendable {
    let minimumInterval: Double?
    let paused: Bool
    public init(minimumInterval: Double? = nil, paused: Bool = false) {
        self.minimumInterval = minimumInterval
        self.paused = paused
    }
    public func entries(from startDate: Date, mode: TimelineScheduleMode) -> PeriodicTimelineSchedule.Entries {
        PeriodicTimelineSchedule(from: startDate, by: max(minimumInterval ?? 1.0 / 60, 1.0 / 120)).entries(from: startDate, mode: mode)
    }
}

/// At the start of every minute.
public struct EveryMinuteTimelineSchedule: TimelineSchedule, Sendable {
    public init() {}
    public func entries(from startDate: Date, mode: TimelineScheduleMode) -> PeriodicTimelineSchedule.Entries {
        let minute = (startDate.timeIntervalSinceReferenceDate / 60).rounded(.down) * 60
        return PeriodicTimelineSchedule(from: Date(timeIntervalSinceReferenceDate: minute), by: 60).entries(from: startDate, mode: mode)
    }
}

/// From a date, every `interval` seconds.
public struct PeriodicTimelineSchedule: TimelineSchedule, Sendable {
    let start: Date
    let interval: TimeInterval
    public init(from startDate: Date, by interval: TimeInterval) {
        start = startDate
        self.interval = interval
    }

    public struct Entries: Sequence, IteratorProtocol, Sendable {
        var upcoming: Date
        let interval: TimeInterval
        public mutating func next() -> Date? {
            defer { upcoming = upcoming.addingTimeInterval(interval) }
            return upcoming
        }
    }

    public func entries(from startDate: Date, mode: TimelineScheduleMode) -> Entries {
        // The first entry is the last one at or before `startDate`, as SwiftUI's periodic schedule gives it.
        guard interval > 0, startDate > start else { return Entries(upcoming: start, interval: max(interval, 1)) }
        let steps = (startDate.timeIntervalSince(start) / interval).rounded(.down)
        return Entries(upcoming: start.addingTimeInterval(steps * interval), interval: interval)
    }
}

/// At the dates given.
public struct ExplicitTimelineSchedule<Dates: Sequence>: TimelineSchedule where Dates.Element == Date {
    let dates: Dates
    public init(_ dates: Dates) { self.dates = dates }
    public func entries(from startDate: Date, mode: TimelineScheduleMode) -> Dates { dates }
}

extension TimelineSchedule where Self == AnimationTimelineSchedule {
    public static var animation: AnimationTimelineSchedule { AnimationTimelineSchedule() }
    public static func animation(minimumInterval: Double? = nil, paused: Bool = false) -> AnimationTimelineSchedule {
        AnimationTimelineSchedule(minimumInterval: minimumInterval, paused: paused)
    }
}
extension TimelineSchedule where Self == EveryMinuteTimelineSchedule {
    public static var everyMinute: EveryMinuteTimelineSchedule { EveryMinuteTimelineSchedule() }
}
extension TimelineSchedule where Self == PeriodicTimelineSchedule {
    public static func periodic(from startDate: Date, by interval: TimeInterval) -> PeriodicTimelineSchedule {
        PeriodicTimelineSchedule(from: startDate, by: interval)
    }
}
extension TimelineSchedule {
    public static func explicit<S: Sequence>(_ dates: S) -> ExplicitTimelineSchedule<S> where Self == ExplicitTimelineSchedule<S>, S.Element == Date {
        ExplicitTimelineSchedule(dates)
    }
}

/// What a `TimelineView`'s content is given: the entry's date and how often entries come.
public struct TimelineViewDefaultContext {
    public let date: Date
    public let cadence: Cadence

    public enum Cadence: Comparable, Sendable { case live, seconds, minutes }
}

/// A view redrawn on a schedule; drawn here for the schedule's entry at the moment drawn.
public struct TimelineView<Schedule: TimelineSchedule, Content> {
    public typealias Context = TimelineViewDefaultContext
    let schedule: Schedule
    let content: (Context) -> Content
}
extension TimelineView: View where Content: View {
    public typealias Body = Never
    public init(_ schedule: Schedule, @ViewBuilder content: @escaping (Context) -> Content) {
        self.schedule = schedule
        self.content = content
    }
}
extension TimelineView: PrimitiveView where Content: View {
    @MainActor public static func _resolve(_ view: Self, _ inputs: _ResolveInputs) -> _ResolvedNodes { _ResolvedNodes(nodes: view.nodes(inputs.context)) }
    @MainActor func nodes(_ context: ResolveContext) -> [Node] {
        let now = context.environment.renderDate ?? Date()
        var date = now
        // The last entry at or before now; bounded, since `.animation`'s entries never end.
        for (i, entry) in schedule.entries(from: now, mode: .normal).enumerated() {
            if entry > now || i >= 10_000 { break }
            date = entry
        }
        let cadence: TimelineViewDefaultContext.Cadence
        switch schedule {
        case is AnimationTimelineSchedule: cadence = .live
        case is EveryMinuteTimelineSchedule: cadence = .minutes
        default: cadence = .seconds
        }
        return resolve(content(TimelineViewDefaultContext(date: date, cadence: cadence)), context)
    }
}
