import Foundation
import LockstepTestSupport
import Testing

/// `lockstep bench --quick --json` runs end to end and reports every figure beside its baseline. Behaviour only: the
/// numbers are whatever this machine gives (the README explains them); this checks that each row was measured, that
/// its ratio is ours ÷ baseline, and that `met` follows the target — so the bench cannot quietly stop timing anything.
@Suite struct BenchSmokeTests {
    @Test func quickJSONHasEveryFigureMeasuredWithConsistentRatios() throws {
        let result = try run("lockstep", ["bench", "--quick", "--json"], timeout: 300)
        #expect(result.status == 0, "\(result)")
        let object = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
        let rows = try #require(object?["rows"] as? [[String: Any]], "\(result.stdout)")
        let names = rows.compactMap { $0["name"] as? String }
        for name in ["change latency p50", "change latency p99", "increment x1", "increment x4", "increment x8",
                     "increment x4 vs limit", "write cost 100k keys", "compaction 100k keys", "up to ready",
                     "widget memory", "widget memory anon", "check 200 targets", "check 200 targets vs pbxproj"] {
            #expect(names.contains(name), "no row '\(name)' in \(names)")
        }
        for row in rows {
            let name = row["name"] as? String ?? "?"
            // The pbxproj baseline needs Python's pbxproj library; without it the row says why instead of a number.
            if name.hasSuffix("vs pbxproj"), row["baseline"] is NSNull {
                #expect((row["note"] as? String)?.hasPrefix("baseline not measured") == true, "\(row)")
                continue
            }
            guard let ours = row["ours"] as? Double, let baseline = row["baseline"] as? Double,
                  let ratio = row["ratio"] as? Double, let target = row["target"] as? String else {
                Issue.record("row '\(name)' was not measured: \(row)")
                continue
            }
            #expect(ours > 0 && baseline > 0, "\(row)")
            // Both are printed to three significant figures.
            #expect(abs(ratio - ours / baseline) <= 0.01 * ratio, "\(row)")
            if target == "report" {
                #expect(row["met"] is NSNull, "\(row)")
            } else {
                // "≤ 2×", "≥ 2×", or "≤ 1.3×, < 30 MB" (the widget: a ratio and an absolute limit).
                let parts = target.split(separator: ",")
                let bound = try #require(Double(String(parts[0].filter { $0.isNumber || $0 == "." })), "\(target)")
                var expected = target.hasPrefix("≤") ? ratio <= bound : ratio >= bound
                if parts.count == 2, let limit = Double(String(parts[1].filter { $0.isNumber || $0 == "." })) { expected = expected && ours < limit }
                #expect(row["met"] as? Bool == expected, "\(row)")
            }
        }
    }
}
