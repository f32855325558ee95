import AppIntents

/// One column of a `LazyVGrid` or row of a `LazyHGrid` (Apple's `GridItem`): its size, the spacing to the next
/// track, and how its cells align in it.
public struct GridItem: Sendable {
    /// How big a track is. As Apple documents `GridItem.Size`: a fixed track has its size; the flexible tracks share
    /// the grid's length less its spacing and inflexible tracks equally, each clamped to its bounds; an adaptive
    /// track takes a flexible track's share and fits in it as many tracks of its minimum size as it can, then grows
    /// them (to at most its maximum) to fill it.
    public enum Size: Sendable {
        case fixed(CGFloat)
        case flexible(minimum: CGFloat = 10, maximum: CGFloat = .infinity)
        case adaptive(minimum: CGFloat, maximum: CGFloat = .infinity)
    }

    public var size: Size
    /// The spacing to the next track; nil: the default spacing (8 pt).
    public var spacing: CGFloat?
    /// How a cell sits in its track and line; nil: the grid's alignment.
    public var alignment: Alignment?

    public init(_ size: Size = .flexible(), spacing: CGFloat? = nil, alignment: Alignment? = nil) {
        self.size = size
        self.spacing = spacing
        self.alignment = alignment
    }
}

/// Which views stay in place while a scroll view scrolls (Apple's `PinnedScrollableViews`). A widget does not
/// scroll, so in a widget a lazy grid's section headers and footers are drawn where they are.
public struct PinnedScrollableViews: OptionSet, Sendable {
    public let rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }
    public static let sectionHeaders = PinnedScrollableViews(rawValue: 1 << 0)
    public static let sectionFooters = PinnedScrollableViews(rawValue: 1 << 1)
}

/// A grid whose columns are `GridItem`s, filled row by row (Apple's `LazyVGrid`). "Lazy" matters for scrolling; a
/// widget draws every cell at once.
public struct LazyVGrid<Content: View> {
    let columns: [GridItem]
    let alignment: HorizontalAlignment
    let spacing: CGFloat?
    let content: Content

    public init(columns: [GridItem], alignment: HorizontalAlignment = .center, spacing: CGFloat? = nil,
                pinnedViews: PinnedScrollableViews = .init(), @ViewBuilder content: () -> Content) {
        self.columns = columns
        self.alignment = alignment
        self.spacing = spacing
        self.content = content()
    }
}
extension LazyVGrid: View { public typealias Body = Never }
extension LazyVGrid: PrimitiveView {
    @MainActor public static func _resolve(_ view: Self, _ inputs: _ResolveInputs) -> _ResolvedNodes { _ResolvedNodes(nodes: view.nodes(inputs.context)) }
    @MainActor func nodes(_ context: ResolveContext) -> [Node] {
        [LazyGridNode(axis: .vertical, items: columns, alignment: Alignment(horizontal: alignment, vertical: .center),
                      spacing: spacing ?? StackNode.defaultSpacing, cells: resolve(content, context))]
    }
}

/// A grid whose rows are `GridItem`s, filled column by column (Apple's `LazyHGrid`).
public struct LazyHGrid<Content: View> {
    let rows: [GridItem]
    let alignment: VerticalAlignment
    let spacing: CGFloat?
    let content: Content

    public init(rows: [GridItem], alignment: VerticalAlignment = .center, spacing: CGFloat? = nil,
                pinnedViews: PinnedScrollableViews = .init(), @ViewBuilder content: () -> Content) {
        self.rows = rows
        self.alignment = alignment
        self.spacing = spacing
        self.content = content()
    }
}
extension LazyHGrid: View { public typealias Body = Never }
extension LazyHGrid: PrimitiveView {
    @MainActor public static func _resolve(_ view: Self, _ inputs: _ResolveInputs) -> _ResolvedNodes { _ResolvedNodes(nodes: view.nodes(inputs.context)) }
    @MainActor func nodes(_ context: ResolveContext) -> [Node] {
        [LazyGridNode(axis: .horizontal, items: rows, alignment: Alignment(horizontal: .center, vertical: alignment),
                      spacing: spacing ?? StackNode.defaultSpacing, cells: resolve(content, context))]
    }
}

/// A lazy grid: its tracks (columns of a vertical grid, rows of a horizontal one) are sized from the length the
/// parent proposes across them (`GridItem.Size`); its cells fill the tracks in order, one line after another, each
/// line as thick as its thickest cell, `spacing` apart. The grid is as long as its tracks and their spacing.
final class LazyGridNode: Node {
    /// `.vertical`: a `LazyVGrid` (tracks are columns, lines are rows); `.horizontal`: a `LazyHGrid`.
    let axis: Axis
    let items: [GridItem]
    let alignment: Alignment
    let spacing: CGFloat
    let cells: [Node]
    override var childNodes: [Node] { cells }

    init(axis: Axis, items: [GridItem], alignment: Alignment, spacing: CGFloat, cells: [Node]) {
        self.axis = axis
        self.items = items
        self.alignment = alignment
        self.spacing = spacing
        self.cells = cells
    }

    struct Track: Equatable {
        var length: CGFloat
        /// The spacing to the next track.
        var spacing: CGFloat
        var alignment: Alignment?
    }

    /// The tracks for `available` points across them, as `GridItem.Size` documents.
    static func tracks(_ items: [GridItem], available: CGFloat) -> [Track] {
        func spacing(_ item: GridItem) -> CGFloat { item.spacing ?? StackNode.defaultSpacing }
        var inflexible: CGFloat = 0
        var flexible = 0
        for item in items {
            if case .fixed(let length) = item.size { inflexible += length } else { flexible += 1 }
        }
        let spacings = items.dropLast().reduce(0) { $0 + spacing($1) }
        let share = flexible == 0 ? 0 : max(0, available - inflexible - spacings) / CGFloat(flexible)
        var tracks: [Track] = []
        for item in items {
            switch item.size {
            case .fixed(let length):
                tracks.append(Track(length: length, spacing: spacing(item), alignment: item.alignment))
            case .flexible(let minimum, let maximum):
                tracks.append(Track(length: min(maximum, max(minimum, share)), spacing: spacing(item), alignment: item.alignment))
            case .adaptive(let minimum, let maximum):
                let gap = spacing(item)
                let count = max(1, Int(((share + gap) / (minimum + gap)).rounded(.down)))
                let length = min(maximum, max(minimum, (share - gap * CGFloat(count - 1)) / CGFloat(count)))
                tracks += Array(repeating: Track(length: length, spacing: gap, alignment: item.alignment), count: count)
            }
        }
        return tracks
    }

    /// The tracks, and each line's thickness.
    private func layout(_ proposal: Proposal) -> (tracks: [Track], lines: [CGFloat]) {
        let across = axis == .vertical ? proposal.width : proposal.height
        let tracks = Self.tracks(items, available: across ?? 0)
        guard !tracks.isEmpty else { return ([], []) }
        var lines: [CGFloat] = []
        for start in stride(from: 0, to: cells.count, by: tracks.count) {
            let line = zip(cells[start...], tracks).map { cell, track -> CGFloat in
                let size = cell.size(for: axis == .vertical ? Proposal(width: track.length, height: nil) : Proposal(width: nil, height: track.length))
                return axis == .vertical ? size.height : size.width
            }
            lines.append(line.max() ?? 0)
        }
        return (tracks, lines)
    }

    private static func length(_ tracks: [Track]) -> CGFloat {
        tracks.reduce(0) { $0 + $1.length } + tracks.dropLast().reduce(0) { $0 + $1.spacing }
    }

    override func computeSize(_ proposal: Proposal) -> CGSize {
        let (tracks, lines) = layout(proposal)
        let across = Self.length(tracks)
        let along = lines.reduce(0, +) + spacing * CGFloat(max(0, lines.count - 1))
        return axis == .vertical ? CGSize(width: across, height: along) : CGSize(width: along, height: across)
    }

    override func place(in rect: CGRect, _ canvas: Drawing) {
        let (tracks, lines) = layout(Proposal(rect.size))
        guard !tracks.isEmpty else { return }
        var along: CGFloat = 0
        for (index, thickness) in lines.enumerated() {
            var across: CGFloat = 0
            for (cell, track) in zip(cells.dropFirst(index * tracks.count), tracks) {
                let frame = axis == .vertical
                    ? CGRect(x: rect.minX + across, y: rect.minY + along, width: track.length, height: thickness)
                    : CGRect(x: rect.minX + along, y: rect.minY + across, width: thickness, height: track.length)
                let size = cell.size(for: Proposal(frame.size))
                cell.place(in: aligned(size, in: frame, track.alignment ?? alignment, child: cell), canvas)
                across += track.length + track.spacing
            }
            along += thickness + spacing
        }
    }
}
