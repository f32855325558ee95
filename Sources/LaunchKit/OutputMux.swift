import LockstepSystem
import Synchronization

/// The one writer of `lockstep up`'s output: every line of every bundle, prefixed with its label
/// (`widget | …`), aligned, coloured per label on a terminal, written whole with a single `write(2)` under one
/// lock, so lines from several processes never interleave mid-line (docker compose / overmind style).
public final class OutputMux: Sendable {
    /// Whether to colour the labels (only when stdout is a terminal and `--no-color` was not given).
    public let color: Bool
    private let width: Int
    private let colours: [String: String]
    private let lock = Mutex(())

    /// The label of the supervisor's own lines.
    public static let ownLabel = "lockstep"

    /// - Parameters:
    ///   - labels: every label that will be written, to align the prefixes.
    ///   - color: colour the labels.
    public init(labels: [String], color: Bool) {
        self.color = color
        width = (labels + [Self.ownLabel]).map(\.count).max() ?? 0
        // ANSI colours that read on dark and light terminals; the supervisor's own lines stay bold.
        let palette = ["36", "33", "35", "32", "34", "31", "96", "93"]
        var colours: [String: String] = [Self.ownLabel: "1"]
        for (index, label) in labels.enumerated() { colours[label] = palette[index % palette.count] }
        self.colours = colours
    }

    /// Writes `text` as one line prefixed with `label`.
    public func line(_ label: String, _ text: String) {
        let padded = label + String(repeating: " ", count: max(0, width - label.count))
        let prefix = color ? "\u{1B}[\(colours[label] ?? "0")m\(padded) |\u{1B}[0m " : "\(padded) | "
        write(prefix + text)
    }

    /// A line from the supervisor itself.
    public func say(_ text: String) { line(Self.ownLabel, text) }

    /// Writes `text` as one line with no prefix (the final checklist).
    public func plain(_ text: String) { write(text) }

    private func write(_ text: String) {
        var bytes = Array(text.utf8)
        bytes.append(0x0A)
        // Unbuffered, whole lines, one writer at a time: the bundles' lines never interleave mid-line. A stdout that
        // is gone (a closed pipe) loses the line, as before.
        lock.withLock { _ in _ = try? FileDescriptor(rawValue: 1).writeAll(bytes, path: "stdout") }
    }
}
