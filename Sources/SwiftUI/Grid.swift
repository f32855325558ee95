import AppIntents

/// A two-dimensional layout (Apple's `Grid`): its `GridRow`s' cells line up in columns. As Apple documents it, a
/// column is as wide as its widest cell and a row as tall as its tallest, each cell aligned in its space by the
/// grid's alignment (a row's own vertical alignment first); a view in the grid outside a `GridRow` is a row of its
/// own as wide as the grid. The grid's width is shared among its columns as a stack shares its own: a column with a
/// flexible view (a `Color`, a `Gauge`) takes what the others leave.
public struct Grid<Content: View> {
    let alignment: Alignment
    let horizontalSpacing: CGFloat?
    let verticalSpacing: CGFloat?
    let content: Content

    public init(alignment: Alignment = .center, horizontalSpacing: CGFloat? = nil, verticalSpacing: CGFloat? = nil,
                @ViewBuilder content: () -> Content) {
        self.alignment = alignment
        self.horizontalSpacing = horizontalSpacing
        self.verticalSpacing = verticalSpacing
        self.content = content()
    }
}
extension Grid: View { public typealias Body = Never }
extension Grid: PrimitiveView {
    @MainActor public static func _resolve(_ view: Self, _ inputs: _ResolveInputs) -> _ResolvedNodes { _ResolvedNodes(nodes: view.nodes(inputs.context)) }
    @MainActor func nodes(_ context: ResolveContext) -> [Node] {
        [GridNode(alignment: alignment, spacing: CGSize(width: horizontalSpacing ?? StackNode.defaultSpacing,
                                                        height: verticalSpacing ?? StackNode.defaultSpacing),
                  rows: resolve(content, context))]
    }
}

/// One row of a `Grid`: each of its views is a cell of the next column.
public struct GridRow<Content: View> {
    let alignment: VerticalAlignment?
    let content: Content

    public init(alignment: VerticalAlignment? = nil, @ViewBuilder content: () -> Content) {
        self.alignment = alignment
        self.content = content()
    }
}
extension GridRow: View { public typealias Body = Never }
extension GridRow: PrimitiveView {
    @MainActor public static func _resolve(_ view: Self, _ inputs: _ResolveInputs) -> _ResolvedNodes { _ResolvedNodes(nodes: view.nodes(inputs.context)) }
    @MainActor func nodes(_ context: ResolveContext) -> [Node] {
        [GridRowNode(alignment: alignment, cells: resolve(content, context))]
    }
}

/// A `GridRow`'s cells; outside a grid, an `HStack` of them (as SwiftUI draws a `GridRow` alone).
final class GridRowNode: Node {
    let alignment: VerticalAlignment?
    let cells: [Node]
    override var childNodes: [Node] { cells }
    private lazy var stack = StackNode(axis: .horizontal, alignment: .center, spacing: nil, children: cells)

    init(alignment: VerticalAlignment?, cells: [Node]) {
        self.alignment = alignment
        self.cells = cells
    }

    override func computeSize(_ proposal: Proposal) -> CGSize { stack.size(for: proposal) }
    override func place(in rect: CGRect, _ canvas: Drawing) { stack.place(in: rect, canvas) }
}

final class GridNode: Node {
    let alignment: Alignment
    let spacing: CGSize
    /// Each row: a `GridRowNode`, or any other view, which spans the columns.
    let rows: [Node]
    override var childNodes: [Node] { rows }

    init(alignment: Alignment, spacing: CGSize, rows: [Node]) {
        self.alignment = alignment
        self.spacing = spacing
        self.rows = rows
    }

    /// The columns' widths and the rows' heights for a width (nil: each column at its widest cell's ideal width).
    private func tracks(_ width: CGFloat?) -> (columns: [CGFloat], rows: [CGFloat]) {
        let columns = columnWidths(width)
        let total = columns.reduce(0, +) + spacing.width * CGFloat(max(0, columns.count - 1))
        var heights: [CGFloat] = []
        for row in rows {
            guard let row = row as? GridRowNode else {
                heights.append(row.size(for: Proposal(width: total, height: nil)).height)
                continue
            }
            var tallest: CGFloat = 0
            for (cell, width) in zip(row.cells, columns) {
                tallest = max(tallest, cell.size(for: Proposal(width: width, height: nil)).height)
            }
            heights.append(tallest)
        }
        return (columns, heights)
    }

    /// Each column as wide as its widest cell for the width it is offered, the width shared out as a stack shares
    /// it: the least flexible column first, each offered an equal part of what is left, so a flexible cell (a
    /// `Gauge`, a `Color`) takes the room the other columns leave, as in SwiftUI's grid.
    private func columnWidths(_ width: CGFloat?) -> [CGFloat] {
        let cells: [[Node]] = rows.compactMap { ($0 as? GridRowNode)?.cells }
        let count = cells.map(\.count).max() ?? 0
        func widest(_ column: Int, offered offer: CGFloat?) -> CGFloat {
            var widest: CGFloat = 0
            for row in cells where column < row.count {
                widest = max(widest, row[column].size(for: Proposal(width: offer, height: nil)).width)
            }
            return widest
        }
        guard let width else { return (0..<count).map { widest($0, offered: nil) } }
        var flexibility: [CGFloat] = []
        for column in 0..<count {
            flexibility.append(widest(column, offered: CGFloat.infinity) - widest(column, offered: 0))
        }
        var widths = [CGFloat](repeating: 0, count: count)
        var remaining = width - spacing.width * CGFloat(max(0, count - 1))
        var left = count
        let order = (0..<count).sorted { a, b in flexibility[a] != flexibility[b] ? flexibility[a] < flexibility[b] : a < b }
        for column in order {
            widths[column] = widest(column, offered: max(0, remaining / CGFloat(left)))
            remaining -= widths[column]
            left -= 1
        }
        return widths
    }

    override func computeSize(_ proposal: Proposal) -> CGSize {
        let (columns, heights) = tracks(proposal.width)
        return CGSize(width: columns.reduce(0, +) + spacing.width * CGFloat(max(0, columns.count - 1)),
                      height: heights.reduce(0, +) + spacing.height * CGFloat(max(0, heights.count - 1)))
    }

    override func place(in rect: CGRect, _ canvas: Drawing) {
        let (columns, heights) = tracks(rect.width)
        var y = rect.minY
        for (row, height) in zip(rows, heights) {
            if let row = row as? GridRowNode {
                var x = rect.minX
                let cellAlignment = Alignment(horizontal: alignment.horizontal, vertical: row.alignment ?? alignment.vertical)
                for (cell, width) in zip(row.cells, columns) {
                    let size = cell.size(for: Proposal(width: width, height: height))
                    cell.place(in: aligned(size, in: CGRect(x: x, y: y, width: width, height: height), cellAlignment, child: cell), canvas)
                    x += width + spacing.width
                }
            } else {
                let size = row.size(for: Proposal(width: rect.width, height: height))
                row.place(in: aligned(size, in: CGRect(x: rect.minX, y: y, width: rect.width, height: height), alignment, child: row), canvas)
            }
            y += height + spacing.height
        }
    }
}
