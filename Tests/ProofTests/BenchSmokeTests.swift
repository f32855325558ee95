import Foundation
import LockstepTestSupport
import Testing

/// `lockstep bench --quick --json` runs end to end and reports every figure beside its baseline. Behaviour only: the
/// numbers are whatever this machine gives (the README explains them); this checks that each row was measured, that
/// its ratio is ours ÷ baseline, and that `met` follows the target — so the bench cannot quietly stop timing anything.
@Suite struct BenchSmokeTests {
    /// How far the bench's printing may have moved `value`: 0 to 3 decimals by magnitude (`BenchReport.format`).
    static func rounding(_ value: Double) -> Double {
        let magnitude = abs(value)
        let decimals = magnitude >= 100 ? 0 : magnitude >= 10 ? 1 : magnitude >= 1 ? 2 : 3
        return 0.5 * pow(10, -Double(decimals))
    }

    /// The widget memory row's baseline: ready at once, gone when stdin closes (the bench reads its memory between).
    @Test func idleBaselineSaysReadyAndExitsWhenStdinCloses() throws {
        let result = try run("lockstep-idle", stdin: Data(), timeout: 30)
        #expect(result.status == 0 && result.stdout == "idle ready\n", "\(result)")
    }

    /// `make install` installs `lockstep` without the bench: `lockstep bench` then says where the bench runs.
    @Test func benchWithoutLockstepBenchBesideItSaysSo() throws {
        let directory = TestSupport.temporaryDirectory("installed")
        defer { TestSupport.cleanUp(directory) }
        let installed = directory.appendingPathComponent("lockstep").path
        try FileManager.default.copyItem(atPath: TestSupport.executable("lockstep"), toPath: installed)
        let result = try run(installed, ["bench", "--quick"], timeout: 30)
        #expect(result.status == 69 && result.stdout.isEmpty, "\(result)")
        #expect(result.stderr.contains("lockstep bench: cannot run '\(directory.path)/lockstep-bench'"), "\(result)")
    }

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
            // The printed numbers are rounded (see `rounding`); the ratio was computed from the unrounded ones.
            let ratioRounding = ratio >= 10 ? Self.rounding(ratio) : 0.0005
            let propagated = ours / baseline * (Self.rounding(ours) / ours + Self.rounding(baseline) / baseline) * 1.01
            #expect(abs(ratio - ours / baseline) <= ratioRounding + propagated, "\(row)")
            if target == "report" {
                #expect(row["met"] is NSNull, "\(row)")
            } else {
                // "≤ 2×", "≥ 2×", or "≤ 1.3×, < 30 MB" (the widget: a ratio and an absolute limit).
                let parts = target.split(separator: ",")
                let bound = try #require(Double(String(parts[0].filter { $0.isNumber || $0 == "." })), "\(target)")
                // A ratio printed as its bound may have been just past it: then either answer is right.
                var expected: Bool? = abs(ratio - bound) <= ratioRounding ? nil : target.hasPrefix("≤") ? ratio <= bound : ratio >= bound
                if parts.count == 2, let limit = Double(String(parts[1].filter { $0.isNumber || $0 == "." })) {
                    let under: Bool? = abs(ours - limit) <= Self.rounding(ours) ? nil : ours < limit
                    expected = expected == false || under == false ? false : (expected == nil || under == nil ? nil : true)
                }
                if let expected { #expect(row["met"] as? Bool == expected, "\(row)") } else { #expect(row["met"] is Bool, "\(row)") }
            }
        }
    }
}
