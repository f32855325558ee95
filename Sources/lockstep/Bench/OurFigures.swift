import BundleKit
import Foundation
import LockstepSystem

/// Our side of each figure: Lockstep's own subsystems, measured exactly as their baselines are.
enum OurFigures {
    /// The simulated bundles' executables, as the embedded default manifest names them.
    static let bundleExecutables = ["lockstep-host", "lockstep-widget", "lockstep-watch", "lockstep-intent"]
    /// RULES.md `widget.memory`: widget extensions are killed above 30 MB.
    static let widgetMemoryLimitMB = 30

    static func changeLatencies(_ plan: BenchPlan) throws -> [Double] {
        throw BenchError.notMeasured("GroupDefaults.observe (branch runtime) has not landed")
    }

    static func incrementThroughput(_ plan: BenchPlan, processes: Int) throws -> Double {
        throw BenchError.notMeasured("GroupDefaults.increment (branch runtime) has not landed")
    }

    static func singleKeyWriteCost(_ plan: BenchPlan, keys: Int) throws -> Double {
        throw BenchError.notMeasured("GroupDefaults (branch runtime) has not landed")
    }

    static func upToReady(_ plan: BenchPlan) throws -> Double {
        throw BenchError.notMeasured("lockstep up (branch launch) has not landed")
    }

    static func widgetMemory(_ plan: BenchPlan) throws -> (rss: Double, anonymous: Double) {
        throw BenchError.notMeasured("lockstep-widget (branch habits) has not landed")
    }

    /// `check` of a generated project: its total time beside its own parse time, and beside the Python `pbxproj`
    /// library loading the same file (when `python3 -c 'import pbxproj'` works). Medians of `checkRepeats`, after
    /// one unmeasured warm-up; all in this process, as the Python side times only the load.
    static func checkProject(_ plan: BenchPlan) -> [BenchRow] {
        let name = "check \(plan.projectTargets) targets"
        let measured = Result { () throws -> (check: Double, parse: Double, project: String, directory: String) in
            let directory = try BenchPaths.scratch("xcode")
            let project = try XcodeProjectInput.generateSampleProject(at: directory, targets: plan.projectTargets)
            _ = try CheckInput.check(project)
            var checks: [Double] = [], parses: [Double] = []
            for _ in 0..<plan.checkRepeats {
                checks.append(try Harness.time { _ = try CheckInput.check(project) } * 1000)
                parses.append(try Harness.time { _ = try XcodeProjectInput.load(project) } * 1000)
            }
            return (Statistics.median(checks), Statistics.median(parses), project, directory)
        }
        defer { if case .success(let value) = measured { BenchPaths.remove(value.directory) } }
        let pbxproj = Result { () throws -> Double in
            let project = try measured.get().project
            return try PbxprojBaseline.loadTime(project + "/project.pbxproj", repeats: plan.checkRepeats) * 1000
        }
        return [
            Figures.row(name, unit: "ms", ours: measured.map(\.check), baseline: measured.map(\.parse),
                        baselineName: "its own parse of the project (XcodeProjectInput.load)", goal: .report),
            Figures.row("\(name) vs pbxproj", unit: "ms", ours: measured.map(\.check), baseline: pbxproj,
                        baselineName: "Python pbxproj loading the same project.pbxproj", goal: .atMost(0.2)),
        ]
    }
}
