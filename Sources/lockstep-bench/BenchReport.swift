import Foundation
import LockstepSystem

/// Why a figure could not be measured, or a worker misbehaved. The bench prints it in the row instead of a number.
enum BenchError: ReportableError {
    /// A worker process died, or answered something the bench did not expect.
    case workerFailed(String)
    /// The subsystem a figure measures is missing or did not do what it promised (a lost increment).
    case notMeasured(String)
    /// A command line the bench or a worker does not take (exit 64).
    case usage(String)

    var description: String {
        switch self {
        case .workerFailed(let why): return "a worker failed: \(why)"
        case .notMeasured(let why), .usage(let why): return why
        }
    }

    var exitStatus: ExitStatus {
        if case .usage = self { return .usage }
        return .failure
    }
}

/// Whether a bigger or a smaller ratio is better for a figure.
enum Goal {
    /// ours ÷ baseline must be at most `limit` (times, latencies, memory).
    case atMost(Double)
    /// ours ÷ baseline must be at least `limit` (throughput).
    case atLeast(Double)
    /// Nothing to meet: the row is there to be read (a physical limit, a reference).
    case report

    var text: String {
        switch self {
        case .atMost(let limit): return "≤ \(BenchReport.format(limit))×"
        case .atLeast(let limit): return "≥ \(BenchReport.format(limit))×"
        case .report: return "report"
        }
    }
}

/// One line of the bench: our figure, the baseline measured in the same run, their ratio and the target.
struct BenchRow {
    var name: String
    var unit: String
    var ours: Double?
    var baseline: Double?
    /// What the baseline is, in a few words (`raw inotify`, `SQLite WAL`).
    var baselineName: String
    var goal: Goal
    /// A further condition on our figure alone (the widget's 30 MB limit): a description and whether it held.
    var extra: (text: String, met: Bool)?
    /// Why the row has no number (`not measured: …`).
    var note: String?

    var ratio: Double? {
        guard let ours, let baseline, baseline > 0 else { return nil }
        return ours / baseline
    }

    var target: String {
        [goal.text, extra?.text].compactMap { $0 }.joined(separator: ", ")
    }

    /// `nil` when there is nothing to meet, or nothing was measured.
    var met: Bool? {
        guard note == nil else { return nil }
        var held: Bool?
        if let ratio {
            switch goal {
            case .atMost(let limit): held = ratio <= limit
            case .atLeast(let limit): held = ratio >= limit
            case .report: held = nil
            }
        }
        if let extra { held = (held ?? true) && extra.met }
        return held
    }
}

/// Prints the rows as a table (with what each baseline is) or as the JSON contract of `lockstep bench --json`.
enum BenchReport {
    /// A ratio with enough digits that one just past its target does not print as the target itself (1.301×).
    static func formatRatio(_ value: Double) -> String {
        abs(value) >= 10 ? format(value) : String(format: "%.3f", value)
    }

    static func format(_ value: Double) -> String {
        if value == value.rounded() && abs(value) < 1e9 { return String(Int(value)) }
        let magnitude = abs(value)
        let digits = magnitude >= 100 ? 0 : magnitude >= 10 ? 1 : magnitude >= 1 ? 2 : 3
        var text = String(format: "%.\(digits)f", value)
        while text.contains("."), text.hasSuffix("0") { text.removeLast() }
        if text.hasSuffix(".") { text.removeLast() }
        return text
    }

    static func table(_ rows: [BenchRow], header: String) -> String {
        let headings = ["figure", "ours", "baseline", "ratio", "target", "met", "baseline is"]
        var cells: [[String]] = [headings]
        var notes: [String] = []
        for row in rows {
            let met = row.met.map { $0 ? "yes" : "NO" } ?? "–"
            let ours = row.ours.map { "\(format($0)) \(row.unit)" } ?? "–"
            let baseline = row.baseline.map { "\(format($0)) \(row.unit)" } ?? "–"
            let ratio = row.ratio.map { "\(formatRatio($0))×" } ?? "–"
            cells.append([row.name, ours, baseline, ratio, row.target, met, row.baselineName])
            if let note = row.note { notes.append("  \(row.name): \(note)") }
        }
        let widths = headings.indices.map { column in cells.map { $0[column].count }.max() ?? 0 }
        var lines = [header, ""]
        for (index, row) in cells.enumerated() {
            let padded = row.enumerated().map { column, text in
                column == row.count - 1 ? text : text.padding(toLength: widths[column], withPad: " ", startingAt: 0)
            }
            lines.append(padded.joined(separator: "  "))
            if index == 0 { lines.append(widths.map { String(repeating: "-", count: $0) }.joined(separator: "  ")) }
        }
        if !notes.isEmpty { lines += [""] + notes }
        return lines.joined(separator: "\n")
    }

    /// `{"rows":[{"name","unit","ours","baseline","ratio","target","met"}]}`; `note` is added to a row that has no number.
    static func json(_ rows: [BenchRow]) -> String {
        func number(_ value: Double?) -> String {
            guard let value, value.isFinite else { return "null" }
            return format(value)
        }
        func string(_ text: String) -> String {
            let data = try! JSONSerialization.data(withJSONObject: [text], options: [.withoutEscapingSlashes])
            return String(decoding: data.dropFirst().dropLast(), as: UTF8.self)
        }
        let objects = rows.map { row in
            var fields = [
                "\"name\":\(string(row.name))", "\"unit\":\(string(row.unit))", "\"ours\":\(number(row.ours))",
                "\"baseline\":\(number(row.baseline))", "\"ratio\":\(row.ratio.map(formatRatio) ?? "null")",
                "\"target\":\(string(row.target))", "\"met\":\(row.met.map { $0 ? "true" : "false" } ?? "null")",
                "\"baselineIs\":\(string(row.baselineName))",
            ]
            if let note = row.note { fields.append("\"note\":\(string(note))") }
            return "{" + fields.joined(separator: ",") + "}"
        }
        return "{\"rows\":[\n" + objects.map { "  " + $0 }.joined(separator: ",\n") + "\n]}"
    }
}

/// Order statistics over measured samples.
enum Statistics {
    /// The nearest-rank percentile (`p` in 0…100) of `samples`: p50 is the median, p99 the value 99 % are at or below.
    static func percentile(_ samples: [Double], _ p: Double) -> Double {
        precondition(!samples.isEmpty, "a percentile of no samples")
        let sorted = samples.sorted()
        let rank = Int((p / 100 * Double(sorted.count)).rounded(.up))
        return sorted[min(max(rank, 1), sorted.count) - 1]
    }

    static func median(_ samples: [Double]) -> Double { percentile(samples, 50) }

    /// The median of repeated runs, or the error of a run that failed (the row then says why instead of a number).
    static func median(_ samples: [Double], failure: (any Error)?) -> Result<Double, any Error> {
        if let failure { return .failure(failure) }
        return .success(median(samples))
    }
}
